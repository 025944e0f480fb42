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
    const text = fs.readFileSync(file, "utf8");
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
