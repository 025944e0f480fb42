/**
 * What never ships: dev/ (the stand-in engine, bench, chaos, demo, the CLI builder, scripts), its
 * compiled form dist/dev/, and the compiled tests dist/test/. `npm pack --dry-run` lists what npm
 * would pack from the working tree (package.json `files` applied by npm itself), after `npm run
 * build` has compiled dev/ and test/ into dist/ beside what ships (`npm test` builds first).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { packedFiles } from "../support/markdown-links";

const root = path.resolve(__dirname, "..", "..");
const NEVER = /^(dev|dist\/dev|dist\/test)\//;

test("npm pack ships nothing from dev/, dist/dev/ or dist/test/", () => {
  // The compiled dev tools are there to be left out (the check would be vacuous without them).
  for (const built of ["dist/dev/engine/engine.js", "dist/dev/bench/bench.js", "dist/test"]) expect(fs.existsSync(path.join(root, built))).toBe(true);
  const files = packedFiles(root);
  expect(files).toContain("dist/resources/runtime.js");
  expect(files.filter((f) => NEVER.test(f))).toEqual([]);
});
