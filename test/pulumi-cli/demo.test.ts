import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { packageRoot } from "../../dev/engine/host";

// Runs `node dist/dev/demo/demo.js` as `npm run demo` does (after the build `npm test` runs first): the
// one run of the demo in the suite, through the real Pulumi CLI `npm run pulumi-cli` built (the
// PATH is the test's, so a `pulumi` of the machine's would be taken first, as for a user), so it
// also pins the demo script's order and counts (run-demo-cli.ts).
const root = packageRoot();
const demo = path.join(root, "dist", "dev", "demo", "demo.js");
const built = [demo, path.join(root, "dist", "examples", "main", "index.js"), path.join(root, "dist", "sandbox", "index.js")];

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

test("npm run demo: the main example is planned, created, unchanged on a second run, refreshed unchanged and destroyed", async () => {
  // Never skipped: `npm test` builds first, so a missing file is a broken build or a moved path.
  expect(built.filter((f) => !fs.existsSync(f)).map((f) => path.relative(root, f))).toEqual([]);
  const proc = spawn(process.execPath, [demo], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  child = proc;
  let out = "";
  proc.stdout!.on("data", (b: Buffer) => (out += b.toString()));
  proc.stderr!.on("data", (b: Buffer) => (out += b.toString()));
  const code = await new Promise<number | null>((resolve) => proc.on("exit", (c) => resolve(c)));
  const lines = out.trim().split("\n");
  const last = lines[lines.length - 1] ?? "";
  if (code !== 0) throw new Error(`demo exited ${code}:\n${out}`);
  const m = /^demo: created (\d+), changed on second run (\d+), deleted (\d+)$/.exec(last);
  expect(m).not.toBeNull();
  const [created, changed, deleted] = [Number(m![1]), Number(m![2]), Number(m![3])];
  expect(created).toBeGreaterThanOrEqual(9);
  expect(changed).toBe(0);
  expect(deleted).toBe(created);
  for (const phase of ["Previewing update (dev):", "Updating (dev):", "Refreshing (dev):", "Destroying (dev):"]) {
    expect(lines).toContain(phase);
  }
  expect(lines.filter((l) => l.startsWith("=== "))).toEqual([
    "=== pulumi preview ===",
    "=== pulumi up ===",
    "=== pulumi up (again: expect no changes) ===",
    "=== pulumi refresh ===",
    "=== pulumi destroy ===",
  ]);
  // The refresh read every resource back and found each as it was: no step, all unchanged.
  expect(lines.find((l) => l.startsWith("demo: the Pulumi CLI "))).toMatch(/^demo: the Pulumi CLI v3\.\d+\.\d+, /);
  const refresh = lines.slice(lines.indexOf("=== pulumi refresh ==="), lines.indexOf("=== pulumi destroy ==="));
  const summary = refresh.slice(refresh.indexOf("Resources:") + 1);
  expect(summary.slice(0, summary.indexOf(""))).toEqual([`    ${created} unchanged`]);
}, 240_000);
