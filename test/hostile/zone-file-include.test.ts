/**
 * A zone file from elsewhere whose $INCLUDE reaches out of its folder (a "../" path, an absolute
 * path, a link inside the folder that points out): `import --zone-file` refuses it, naming the
 * folder and the option, and writes no program holding what the file outside says. With
 * --include-dir naming a folder that holds it, the same file is read.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main, type CliIo } from "../../cli/main";

let dir: string;
let out: string[];
let err: string[];
const io = (): CliIo => ({ env: {}, out: (l) => void out.push(l), err: (l) => void err.push(l), cwd: dir });

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hostile-include-"));
  out = [];
  err = [];
  fs.mkdirSync(path.join(dir, "zones"));
  // What lies outside the zone file's folder, in a form the zone reader would take as records.
  fs.writeFileSync(path.join(dir, "outside.txt"), 'leak TXT "outside-the-folder-3f9a"\n');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const zoneFile = (include: string): void => fs.writeFileSync(path.join(dir, "zones", "example.com.zone"), `$TTL 3600\nwww A 192.0.2.1\n$INCLUDE ${include}\n`);
const run = (...extra: string[]) => main(["import", "--zone-file", "zones/example.com.zone", "--zone", "example.com", "--out", "mig", ...extra], io());
const programHas = (needle: string): boolean => fs.existsSync(path.join(dir, "mig", "index.ts")) && fs.readFileSync(path.join(dir, "mig", "index.ts"), "utf8").includes(needle);

test.each([
  ["a ../ path", () => "../outside.txt"],
  ["an absolute path", () => path.join(dir, "outside.txt")],
  [
    "a link in the folder that points out",
    () => {
      fs.symlinkSync(path.join(dir, "outside.txt"), path.join(dir, "zones", "inside.inc"));
      return "inside.inc";
    },
  ],
])("$INCLUDE of %s outside the zone file's folder is refused, and nothing of it is written", async (_label, target) => {
  zoneFile(target());
  expect(await run()).toBe(1);
  expect(err.join("\n")).toMatch(/\$INCLUDE .*cannot be read: it is outside the zone file's folder .*; pass --include-dir DIR/);
  expect(programHas("outside-the-folder-3f9a")).toBe(false);
});

test("with --include-dir naming a folder that holds it, the same $INCLUDE is read; a folder that does not exist is a usage error", async () => {
  zoneFile("../outside.txt");
  expect(await run("--include-dir", ".")).toBe(0);
  expect(err).toEqual([]);
  expect(programHas("outside-the-folder-3f9a")).toBe(true);
  expect(await run("--include-dir", "no-such-folder")).toBe(2);
  expect(err[0]).toContain("--include-dir no-such-folder: ENOENT");
});
