/**
 * The package's public names stay what they were: every entry point of package.json `exports`
 * (the resources, the sandbox, and `dist/resources/runtime`, which serialized providers in old states
 * require by path) exports exactly the names in export-names.json, values and types alike. A name
 * added or removed fails here; when that is meant, update the list in the same commit (and the
 * CHANGELOG). Read from the sources with the TypeScript checker, so a re-export through another
 * module counts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const root = path.resolve(__dirname, "..", "..");
const LIST = path.join(__dirname, "export-names.json");

/** The entry points: package.json `exports` keys that name a module, each with its source file. */
function entries(): Record<string, string> {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { exports: Record<string, string | { default: string }> };
  const out: Record<string, string> = {};
  for (const [key, target] of Object.entries(pkg.exports)) {
    const js = typeof target === "string" ? target : target.default;
    if (!js.endsWith(".js")) continue;
    const source = js.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts");
    if (!Object.values(out).includes(source)) out[key] = source;
  }
  return out;
}

/** The names each entry point exports (sorted; a type is marked `type `). */
function exportNames(): Record<string, string[]> {
  const files = entries();
  const program = ts.createProgram(Object.values(files).map((f) => path.join(root, f)), { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, target: ts.ScriptTarget.ES2022, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  return Object.fromEntries(
    Object.entries(files).map(([key, file]) => {
      const sf = program.getSourceFile(path.join(root, file));
      if (!sf) throw new Error(`${file} (${key}) is not a source file`);
      const names = checker.getExportsOfModule(checker.getSymbolAtLocation(sf)!).map((s) => {
        const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
        return target.flags & ts.SymbolFlags.Value ? s.name : `type ${s.name}`;
      });
      return [key, names.sort()];
    }),
  );
}

test("the package exports the names of its committed list, at every entry point", () => {
  const want = JSON.parse(fs.readFileSync(LIST, "utf8")) as Record<string, string[]>;
  const got = exportNames();
  expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
  for (const key of Object.keys(want)) expect({ [key]: got[key] }).toEqual({ [key]: want[key] });
  expect(want["."]).toContain("Domain");
  expect(want["./dist/resources/runtime"]).toContain("dispatch");
});
