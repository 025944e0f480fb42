/**
 * A read-only function (resources/program/functions.ts, lookups.ts) is whole only with its `…Output`
 * form, its export from the package (resources/index.ts, and so test/package/export-names.json) and,
 * for the account and catalogue functions, its row in the README's function table. Adding one, the
 * compiler points at none of these: this test names each that is missing (CONTRIBUTING, "Add a
 * read-only operation").
 */
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "..", "..");
const read = (file: string): string => fs.readFileSync(path.join(root, file), "utf8");

/** The functions a module exports, without their `…Output` forms. */
const functionsOf = (text: string): string[] => [...new Set([...text.matchAll(/^export (?:async )?function (\w+)\(/gm)].map((m) => m[1]))].filter((n) => !n.endsWith("Output"));

/** What a function lacks, one line each. */
function missing(module: string, text: string, index: string, readme: string | undefined): string[] {
  const exported = new Set([...index.matchAll(/\b(\w+)\b/g)].map((m) => m[1]));
  return functionsOf(text).flatMap((f) => [
    ...(text.includes(`export function ${f}Output(`) ? [] : [`${module}: ${f} has no ${f}Output form`]),
    ...(exported.has(f) && exported.has(`${f}Output`) ? [] : [`resources/index.ts: exports not ${f} and ${f}Output`]),
    ...(readme === undefined || readme.includes(`| \`${f}(`) ? [] : [`README.md: the function table has no row for ${f}`]),
  ]);
}

test("every read-only function has its Output form, its export and its README row", () => {
  const index = read("resources/index.ts");
  const readme = read("README.md");
  expect(functionsOf(read("resources/program/functions.ts"))).toContain("getTier");
  expect(functionsOf(read("resources/program/lookups.ts"))).toContain("getZone");
  expect(missing("resources/program/functions.ts", read("resources/program/functions.ts"), index, readme)).toEqual([]);
  expect(missing("resources/program/lookups.ts", read("resources/program/lookups.ts"), index, undefined)).toEqual([]);
});

test("a function left unexported and undocumented is named (the check is not vacuous)", () => {
  const text = "export async function getColour(args: {}) {}\n";
  expect(missing("resources/program/functions.ts", text, "export { getTier } from x", "| `getTier()` |")).toEqual([
    "resources/program/functions.ts: getColour has no getColourOutput form",
    "resources/index.ts: exports not getColour and getColourOutput",
    "README.md: the function table has no row for getColour",
  ]);
});
