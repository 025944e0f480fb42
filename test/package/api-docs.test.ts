/**
 * The API reference (`npm run docs`, TypeDoc with typedoc.json) builds without a warning: an
 * undocumented export, a broken link or a type that is used but not exported fails it
 * (typedoc.json treats warnings as errors). Run with `--emit none`: the check without the pages.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";

const root = path.resolve(__dirname, "..", "..");

test("npm run docs: TypeDoc checks every public export and writes no warning", () => {
  const typedoc = path.join(root, "node_modules", "typedoc", "bin", "typedoc");
  const r = spawnSync(process.execPath, [typedoc, "--emit", "none"], { cwd: root, encoding: "utf8" });
  const output = `${r.stdout}${r.stderr}`;
  if (r.status !== 0) throw new Error(`typedoc exited ${r.status ?? r.signal}:\n${output}`);
  expect(output).not.toMatch(/\[warning\]|\[error\]/);
}, 120_000);
