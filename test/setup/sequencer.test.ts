/**
 * The order jest's workers take the suites in (test/setup/sequencer.js), on real files of this
 * checkout: without timings, the suites that drive the CLI first, those needing a binary built while
 * the tests run (the oldest CLI, the YAML host) after them, the rest last; a suite that failed last
 * time before all. While the pinned CLI is still being built beside the tests, every suite that
 * needs no CLI goes first, so that no worker waits for the build while there is other work.
 */
import * as path from "node:path";

const { order } = require("./sequencer") as { order: (sorted: Suite[], hasFailed: (t: Suite) => boolean, pinnedBuilding: boolean) => Suite[] };

interface Suite {
  path: string;
  duration?: number;
}

const root = path.resolve(__dirname, "..");
const suite = (file: string, duration?: number): Suite => ({ path: path.join(root, file), duration });
const names = (suites: Suite[]) => suites.map((t) => path.relative(root, t.path));

const pure = suite("dns/record-table.test.ts");
const cli = suite("pulumi-cli/demo.test.ts");
const oldest = suite("pulumi-cli/readme-flow.test.ts");
const yaml = suite("pulumi-cli/yaml-program.test.ts");
const go = suite("dev/codegen/codegen.test.ts");
const jestOrder = [pure, yaml, cli, oldest, go];

test("the files named here are this checkout's", () => {
  const fs = require("node:fs") as typeof import("node:fs");
  for (const t of jestOrder) expect(fs.existsSync(t.path)).toBe(true);
});

test("without timings: the CLI, npm and Go suites first, those needing a later build after them, the rest last", () => {
  expect(names(order(jestOrder, () => false, false))).toEqual(names([cli, go, yaml, oldest, pure]));
});

test("a suite that failed last time goes before all", () => {
  expect(names(order(jestOrder, (t) => t === pure, false))).toEqual(names([pure, cli, go, yaml, oldest]));
});

test("while the pinned CLI is built beside the tests, the suites that need no CLI go first", () => {
  expect(names(order(jestOrder, () => false, true))).toEqual(names([pure, cli, go, yaml, oldest]));
});

test("a suite with a timing keeps jest's place among the rest", () => {
  const timedCli = { ...cli, duration: 60_000 };
  expect(names(order([pure, timedCli, go], () => false, false))).toEqual(names([go, pure, timedCli]));
  expect(names(order([pure, timedCli, go], () => false, true))).toEqual(names([pure, go, timedCli]));
});
