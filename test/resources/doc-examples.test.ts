/**
 * What an editor shows on hover: every class and function the package exports has an "Example
 * Usage" in its doc comment, as Pulumi's generated SDKs do, and every example (with the README's
 * programs) type-checks as a program of its own under Pulumi's template tsconfig against the
 * package's public surface: an example that drifts from the API fails here.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { PULUMI_TEMPLATE_TSCONFIG } from "../../cli/codegen";

const root = path.resolve(__dirname, "..", "..");
const index = path.join(root, "resources", "index.ts");

/** The exported classes and functions of the public surface, each with its doc comment's text. */
function exportedDocs(): { name: string; doc: string }[] {
  const program = ts.createProgram([index], { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, target: ts.ScriptTarget.ES2022, noEmit: true });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(index)!)!;
  return checker
    .getExportsOfModule(moduleSymbol)
    .map((s) => ({ name: s.name, symbol: s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s }))
    .filter(({ symbol }) => symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Function))
    .map(({ name, symbol }) => ({ name, doc: ts.displayPartsToString(symbol.getDocumentationComment(checker)) }));
}

const examplesOf = (doc: string): string[] => [...doc.matchAll(/```typescript\n([\s\S]*?)```/g)].map((m) => m[1]);

const docs = exportedDocs();

test("every exported class and function has an Example Usage with a TypeScript program", () => {
  expect(docs.map((d) => d.name)).toEqual(expect.arrayContaining(["Domain", "DnsZone", "DnsRecord", "DnsZoneRecords", "ZoneTemplate", "ChildHost", "PrivacyAddon", "Protection", "EppCode", "Provider", "getAvailability", "getPricingOutput", "getTemplates"]));
  const without = docs.filter((d) => !/^## Example Usage$/m.test(d.doc) || examplesOf(d.doc).length === 0).map((d) => d.name);
  expect(without).toEqual([]);
  for (const d of docs) for (const code of examplesOf(d.doc)) expect([d.name, code]).toEqual([d.name, expect.stringContaining('from "reseller-pulumi"')]);
});

test("every example, and every program of the README, type-checks under Pulumi's template tsconfig", () => {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const readmePrograms = [...readme.matchAll(/^```ts\n(import [\s\S]*?)^```/gm)].map((m) => m[1]);
  expect(readmePrograms.length).toBeGreaterThanOrEqual(2);
  // Each a module of its own, in a folder of its own (as a program's index.ts is), served from memory.
  const sources = new Map<string, string>();
  docs.forEach((d) => examplesOf(d.doc).forEach((code, i) => sources.set(path.join(root, ".doc-examples", `${d.name}-${i}`, "index.ts"), code)));
  readmePrograms.forEach((code, i) => sources.set(path.join(root, ".doc-examples", `README-${i}`, "index.ts"), code));
  expect(sources.size).toBeGreaterThan(25);

  const { options, errors } = ts.convertCompilerOptionsFromJson(PULUMI_TEMPLATE_TSCONFIG.compilerOptions, root);
  expect(errors).toEqual([]);
  const compilerOptions: ts.CompilerOptions = {
    ...options,
    noEmit: true,
    baseUrl: root,
    paths: { "reseller-pulumi": ["resources/index.ts"] },
    types: ["node"],
    typeRoots: [path.join(root, "node_modules", "@types")],
  };
  const host = ts.createCompilerHost(compilerOptions);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const text = sources.get(path.resolve(fileName));
    return text === undefined ? read(fileName, languageVersion, ...rest) : ts.createSourceFile(fileName, text, languageVersion);
  };
  const exists = host.fileExists.bind(host);
  host.fileExists = (fileName) => sources.has(path.resolve(fileName)) || exists(fileName);
  const program = ts.createProgram([...sources.keys()], compilerOptions, host);
  const problems = [...sources.keys()].flatMap((file) => {
    const source = program.getSourceFile(file)!;
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
      (d) => `${path.basename(path.dirname(file))}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
  });
  expect(problems).toEqual([]);
});
