// The test run's inspector-sessions.js (setupFilesAfterEnv): the SDK's closure serializer keeps an
// inspector session open that holds what it inspected, so a test file's objects outlived the file in
// its jest worker; the file's end closes the session and they can be collected. Shown in a child
// process (plain Node, the SDK's own serializeFunction, the file's end as the hook it registers), with
// the same program run without the hook for comparison.
import { execFileSync } from "node:child_process";
import * as path from "node:path";

const root = path.resolve(__dirname, "../..");
const SETUP = path.join(__dirname, "inspector-sessions.js");

/** Serializes a function capturing an object, runs the test file's end, collects garbage: is the object still held? */
const probe = `
const hooks = [];
global.afterAll = (fn) => hooks.push(fn);
if (process.argv[1] === "close") require(${JSON.stringify(SETUP)});
const inspector = require("node:inspector");
const pulumi = require("@pulumi/pulumi");
let captured;
(async () => {
  await (async () => {
    const object = { payload: new Array(1000).fill("x") };
    captured = new WeakRef(object);
    await pulumi.runtime.serializeFunction(function answer() { return object; });
  })();
  const own = new inspector.Session();
  own.connect();
  own.disconnect();
  for (const hook of hooks) await hook();
  // Collected within a few rounds once nothing holds it; a loaded machine may need more (a full run
  // at load 5-16 saw it held after 3). Kept, it is held after every round.
  for (let i = 0; i < 50 && captured.deref() !== undefined; i++) {
    await new Promise((r) => setTimeout(r, 20));
    global.gc();
  }
  const open = inspector.Session.prototype[Symbol.for("reseller-pulumi.test.open-inspector-sessions")];
  process.stdout.write(JSON.stringify({ held: captured.deref() !== undefined, open: open ? open.size : null }));
})();
`;

function run(mode: "close" | "keep"): { held: boolean; open: number | null } {
  const env = { ...process.env, NODE_PATH: path.join(root, "node_modules") };
  const out = execFileSync(process.execPath, ["--expose-gc", "--no-warnings", "-e", probe, mode], { cwd: root, env, encoding: "utf8" });
  return JSON.parse(out) as { held: boolean; open: number | null };
}

test("the SDK's serializer session holds what it inspected until the test file's end closes it", () => {
  // Without the hook the session stays open and keeps the captured object alive.
  expect(run("keep")).toEqual({ held: true, open: null });
  // With it, the file's end closes the session (a session closed by its owner is no longer counted) and the object is collected.
  expect(run("close")).toEqual({ held: false, open: 0 });
}, 60_000);
