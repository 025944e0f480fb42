/**
 * The declarations a user's compiler reads (everything reachable from the package's `types`) name
 * only @pulumi/pulumi and this package's own files: no zod or undici types, whose typings break
 * `tsc` without skipLibCheck under some TypeScript versions. Offline, on the built dist/ (`npm test`
 * builds first); the packing test type-checks the same files in a user's project.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "..", "..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { types: string; exports: Record<string, { types?: string } | string> };

function reachable(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    // Comments left out: a doc comment's example imports "reseller-pulumi" as a user's program does.
    const text = fs.readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]);
    seen.set(file, specifiers);
    for (const s of specifiers) if (s.startsWith(".")) visit(path.resolve(path.dirname(file), `${s}.d.ts`));
  };
  visit(path.join(root, entry));
  return seen;
}

test.each(Object.entries(pkg.exports).filter(([, v]) => typeof v === "object" && v.types).map(([k, v]) => [k, (v as { types: string }).types]))(
  "the declarations behind %s import nothing but @pulumi/pulumi, node: modules and their own files",
  (_entry, types) => {
    const graph = reachable(types);
    const outside = [...graph.entries()].flatMap(([file, specs]) =>
      specs.filter((s) => !s.startsWith(".") && !s.startsWith("node:") && s !== "@pulumi/pulumi").map((s) => `${path.relative(root, file)}: ${s}`),
    );
    expect(outside).toEqual([]);
    expect(graph.size).toBeGreaterThan(3);
  },
);

test("the package's `types` is the `.` export's types", () => {
  expect(`./${pkg.types}`).toBe((pkg.exports["."] as { types: string }).types);
});

/**
 * Pulumi's conventions, read from the shipped declarations with the TypeScript compiler (what a
 * user's editor reads): a doc comment on every exported name and on every property of an exported
 * interface or type, camelCase property names, every argument of a resource an Input, a static
 * `get` and `isInstance` on every resource class, an options parameter on every `…Output` function.
 */
describe("the public API reads like a Pulumi provider", () => {
  // Loaded here, not at the top: only these tests need the compiler.
  const ts = require("typescript") as typeof import("typescript");
  const entry = path.join(root, pkg.types);
  // ES2022's own lib, not the default target's (which brings the DOM's declarations): the checks read
  // this package's declarations only; CommonJS resolution finds @pulumi/pulumi as a user's compiler does.
  const program = ts.createProgram([entry], { strict: true, skipLibCheck: true, types: [], target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, lib: ["lib.es2022.d.ts"] });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  const exported = checker.getExportsOfModule(moduleSymbol).map((s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s));
  const documented = (s: import("typescript").Symbol): boolean => s.getDocumentationComment(checker).length > 0 || s.getJsDocTags(checker).length > 0;
  /** Properties users write or read: of exported interfaces and type aliases, and public instance members of classes. */
  const members = (s: import("typescript").Symbol): import("typescript").Symbol[] => {
    const type = s.flags & ts.SymbolFlags.Class ? checker.getDeclaredTypeOfSymbol(s) : s.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias) ? checker.getDeclaredTypeOfSymbol(s) : undefined;
    if (!type) return [];
    const own = (p: import("typescript").Symbol) => p.declarations?.some((d) => !d.getSourceFile().fileName.includes(`${path.sep}node_modules${path.sep}`)) ?? false;
    return checker.getPropertiesOfType(type).filter(own);
  };

  test("every exported name, and every property of an exported type, has a doc comment", () => {
    const undocumented = [
      ...exported.filter((s) => !documented(s)).map((s) => s.getName()),
      ...exported.flatMap((s) => members(s).filter((p) => !documented(p)).map((p) => `${s.getName()}.${p.getName()}`)),
    ];
    expect(undocumented).toEqual([]);
    expect(exported.length).toBeGreaterThan(40);
  });

  test("property names are camelCase, contacts included", () => {
    const notCamel = exported.flatMap((s) => members(s).filter((p) => !/^[a-z][A-Za-z0-9]*$/.test(p.getName()) && !p.getName().startsWith("__")).map((p) => `${s.getName()}.${p.getName()}`));
    expect(notCamel).toEqual([]);
    // The check saw the contact types' fields (not an empty list for want of members).
    const contactFields = ["ContactArgs", "Contact"].flatMap((t) => members(exported.find((s) => s.getName() === t)!).map((p) => `${t}.${p.getName()}`));
    expect(contactFields).toEqual(expect.arrayContaining(["ContactArgs.addressLine1", "ContactArgs.postalCode", "Contact.addressLine2"]));
  });

  const resources = exported.filter((s) => s.flags & ts.SymbolFlags.Class && checker.getPropertiesOfType(checker.getTypeOfSymbol(s)).some((p) => p.getName() === "get"));
  test("every resource class has a static get(name, id, state?, opts?) and isInstance; every argument is an Input", () => {
    const classes = exported.filter((s) => s.flags & ts.SymbolFlags.Class && (checker.getDeclaredTypeOfSymbol(s).getBaseTypes() ?? []).length > 0 && s.getName() !== "Provider");
    const statics = (s: import("typescript").Symbol) => checker.getPropertiesOfType(checker.getTypeOfSymbol(s)).map((p) => p.getName());
    expect(classes.filter((c) => !statics(c).includes("get") || !statics(c).includes("isInstance")).map((c) => c.getName())).toEqual([]);
    expect(resources.length).toBeGreaterThanOrEqual(9);
    const plain = exported
      .filter((s) => s.flags & ts.SymbolFlags.Interface && /Args$/.test(s.getName()) && resources.some((r) => `${r.getName()}Args` === s.getName() || (s.getName() === "DomainAddonArgs" && r.getName() === "Protection")))
      .flatMap((s) => members(s).filter((p) => !/\bInput</.test(checker.typeToString(checker.getTypeOfSymbol(p), undefined, ts.TypeFormatFlags.NoTruncation)) && !/OutputInstance|Promise</.test(checker.typeToString(checker.getTypeOfSymbol(p)))).map((p) => `${s.getName()}.${p.getName()}: ${checker.typeToString(checker.getTypeOfSymbol(p))}`));
    expect(plain).toEqual([]);
  });

  test("every …Output function takes an options argument after its arguments", () => {
    const outputs = exported.filter((s) => s.flags & ts.SymbolFlags.Function && s.getName().endsWith("Output"));
    expect(outputs.length).toBeGreaterThanOrEqual(7);
    const without = outputs.filter((s) => checker.getSignaturesOfType(checker.getTypeOfSymbol(s), ts.SignatureKind.Call).some((sig) => sig.getParameters().length < 2)).map((s) => s.getName());
    expect(without).toEqual([]);
  });
});
