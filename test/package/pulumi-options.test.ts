/**
 * Pulumi's own option types compile where ours are taken: pulumi-options.types.ts (a wrapper
 * component passing `pulumi.CustomResourceOptions`, `ComponentResourceOptions`, `InvokeOptions` and
 * `InvokeOutputOptions` on to every resource and function) type-checks under Pulumi's TypeScript
 * template tsconfig, without skipLibCheck, against the built declarations a user's project reads
 * (dist/, `npm test` builds first): with today's template (nodenext, cli/codegen.ts) and with the
 * template's earlier one (commonjs), which older projects keep. The file is compiled as a project's
 * index.ts outside the package, whose node_modules links the package, @pulumi/pulumi and
 * @types/node (the template's only @types).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { PULUMI_TEMPLATE_TSCONFIG } from "../../cli/codegen";

const root = path.resolve(__dirname, "..", "..");
let project: string;
let wrapper: string;

beforeAll(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-options-"));
  wrapper = path.join(project, "index.ts");
  fs.copyFileSync(path.join(__dirname, "pulumi-options.types.ts"), wrapper);
  const link = (name: string, target: string) => {
    fs.mkdirSync(path.dirname(path.join(project, "node_modules", name)), { recursive: true });
    fs.symlinkSync(target, path.join(project, "node_modules", name), "dir");
  };
  link("reseller-pulumi", root);
  link("@pulumi/pulumi", path.join(root, "node_modules", "@pulumi", "pulumi"));
  link("@types/node", path.join(root, "node_modules", "@types", "node"));
});
afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

/** Pulumi's template tsconfig before it moved to nodenext: what `pulumi new typescript` wrote into older projects. */
const COMMONJS_TEMPLATE = {
  ...PULUMI_TEMPLATE_TSCONFIG.compilerOptions,
  module: "commonjs",
  moduleResolution: "node",
};

function diagnostics(compilerOptions: Record<string, unknown>): { errors: string[]; declarations: string | undefined } {
  const { options, errors } = ts.convertCompilerOptionsFromJson({ ...compilerOptions, noEmit: true }, project);
  expect(errors).toEqual([]);
  const program = ts.createProgram([wrapper], options);
  const format = (d: ts.Diagnostic) => `${d.file ? path.basename(d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  // Where "reseller-pulumi" was resolved: the shipped declarations, never the sources.
  const declarations = program.getSourceFiles().map((f) => path.relative(root, f.fileName)).find((f) => f.endsWith(path.join("resources", "index.d.ts")));
  expect(program.getSourceFiles().filter((f) => f.fileName.startsWith(path.join(root, "resources") + path.sep))).toEqual([]);
  return { errors: ts.getPreEmitDiagnostics(program).map(format), declarations };
}

test.each([
  ["today's template (module nodenext)", PULUMI_TEMPLATE_TSCONFIG.compilerOptions],
  ["the earlier template (module commonjs)", COMMONJS_TEMPLATE],
])("a wrapper passing Pulumi's options on compiles under %s, against dist/", (_label, compilerOptions) => {
  const { errors, declarations } = diagnostics(compilerOptions);
  expect(declarations).toBe(path.join("dist", "resources", "index.d.ts"));
  expect(errors).toEqual([]);
});
