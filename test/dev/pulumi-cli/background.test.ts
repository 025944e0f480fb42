/**
 * What npm test builds while the tests run (dev/pulumi-cli/background.js): a detached runner takes its
 * steps in turn and records how it ended; `wait` blocks while it works and returns that end; a
 * failing step ends the run with its exit code and the steps after it are not run; a second start
 * while one is at work starts nothing. Each case in a folder of its own, with `node -e` steps.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const { backgroundBuilds } = require("../../../dev/pulumi-cli/background") as typeof import("../../../dev/pulumi-cli/background");

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function builds() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "background-"));
  dirs.push(dir);
  return backgroundBuilds(dir);
}
const node = (code: string) => ["-e", code];

test("the steps run in turn, detached; wait blocks until they end and returns exit 0; the log has their output", () => {
  const b = builds();
  b.start([node("setTimeout(() => console.log('first'), 1000)"), node("console.log('second')")]);
  expect(b.running()).toBe(true);
  expect(b.wait()).toEqual({ code: 0 });
  expect(b.running()).toBe(false);
  expect(fs.readFileSync(b.logFile, "utf8")).toMatch(/first\n[\s\S]*second\n/);
});

test("a failing step ends the run with its exit code; the steps after it do not run", () => {
  const b = builds();
  b.start([node("process.exit(3)"), node("console.log('never')")]);
  expect(b.wait()).toEqual({ code: 3 });
  expect(b.logTail()).not.toContain("never");
  expect(b.failureMessage(3)).toMatch(/failed \(exit 3\); the end of \.pulumi-cli\/background\.log:\nbackground: node -e process\.exit\(3\)\nbackground: exit 3 after \d+ s(, \d+ CPU-s)?$/);
});

test("a second start while one is at work starts nothing; wait without any start returns undefined", () => {
  const b = builds();
  expect(b.wait()).toBeUndefined();
  b.start([node("setTimeout(() => console.log('one'), 1000)")]);
  b.start([node("console.log('two')")]);
  expect(b.wait()).toEqual({ code: 0 });
  const log = fs.readFileSync(b.logFile, "utf8");
  expect(log).toContain("one");
  expect(log).not.toContain("two");
});

test("wait(until) returns as soon as until holds, while later steps still run (a suite waits for its part only)", () => {
  const b = builds();
  const first = path.join(path.dirname(b.logFile), "first-done");
  b.start([node(`require('fs').writeFileSync(${JSON.stringify(first)}, '')`), node("setTimeout(() => console.log('second'), 4000)")]);
  expect(b.wait(() => fs.existsSync(first))).toEqual({});
  expect(fs.existsSync(first)).toBe(true);
  expect(b.running()).toBe(true);
  expect(b.wait()).toEqual({ code: 0 });
  // Once the run has ended, how it ended, whatever until says.
  expect(b.wait(() => true)).toEqual({ code: 0 });
});
