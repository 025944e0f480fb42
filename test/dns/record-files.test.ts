/**
 * A record type is registered by its file: every entry a dns/t_<type>.ts file exports is in the
 * record table (dns/table.ts lists the files), so a new file that compiles but is not listed fails
 * here, naming the file and the line to add. t_other.ts is the pass-through for types without an
 * entry and exports none.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { RECORD_TYPES, isEntry } from "../../dns/table";
import type { RecordTypeEntry } from "../../dns/entry";

const DNS = path.resolve(__dirname, "..", "..", "dns");

/** The entries each t_<type>.ts file exports, by file. */
function entriesByFile(): Record<string, RecordTypeEntry[]> {
  const files = fs.readdirSync(DNS).filter((f) => /^t_[a-z0-9_]+\.ts$/.test(f));
  return Object.fromEntries(files.map((f) => [f, Object.values(require(path.join(DNS, f)) as Record<string, unknown>).filter(isEntry)]));
}

/** The entries of `files` that the table does not hold (the same entry under its type), each as a line naming what to do. */
function unregistered(files: Record<string, RecordTypeEntry[]>, table: Readonly<Record<string, RecordTypeEntry>>): string[] {
  return Object.entries(files).flatMap(([file, entries]) =>
    entries.filter((e) => table[e.type] !== e).map((e) => `dns/${file}: entry ${e.type} is not in the record table; add the file's module to MODULES in dns/table.ts`),
  );
}

test("every entry of every dns/t_<type>.ts file is in the record table", () => {
  const files = entriesByFile();
  expect(Object.keys(files).length).toBeGreaterThanOrEqual(11);
  expect(files["t_other.ts"]).toEqual([]);
  expect(unregistered(files, RECORD_TYPES)).toEqual([]);
  // And the table holds nothing that no file exports.
  const exported = new Set(Object.values(files).flat());
  expect(Object.values(RECORD_TYPES).filter((e) => !exported.has(e)).map((e) => e.type)).toEqual([]);
});

test("a file left out of the table is named (the check is not vacuous)", () => {
  const files = entriesByFile();
  const withoutMx = Object.fromEntries(Object.entries(RECORD_TYPES).filter(([type]) => type !== "MX"));
  expect(unregistered(files, withoutMx)).toEqual(["dns/t_mx.ts: entry MX is not in the record table; add the file's module to MODULES in dns/table.ts"]);
});
