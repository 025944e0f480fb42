// The test run's compile cache (compile-cache-setup.js, compile-cache-preload.js, global-teardown.js):
// a folder of the run's own under the OS's temporary folder, on in the processes the run starts but
// not in jest's workers, removed at the end; a cache the caller chose is left alone.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const setup = require("./compile-cache-setup") as (() => Promise<void>) & { OWN_CACHE_ENV: string };
// The teardown's compile-cache half: the whole teardown also waits for npm test's background builds.
const teardown = async () => (require("./global-teardown") as { removeCompileCache: () => void }).removeCompileCache();

const saved = { cache: process.env.NODE_COMPILE_CACHE, own: process.env[setup.OWN_CACHE_ENV] };
afterEach(() => {
  for (const [k, v] of [["NODE_COMPILE_CACHE", saved.cache], [setup.OWN_CACHE_ENV, saved.own]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

test("setup makes a cache folder of its own under the temporary folder; teardown removes it and unsets it", async () => {
  delete process.env.NODE_COMPILE_CACHE;
  delete process.env[setup.OWN_CACHE_ENV];
  await setup();
  const dir = process.env[setup.OWN_CACHE_ENV]!;
  expect(path.dirname(dir)).toBe(os.tmpdir());
  expect(path.basename(dir)).toMatch(/^reseller-jest-compile-cache-/);
  expect(fs.statSync(dir).isDirectory()).toBe(true);
  // Filled before any test: the warm-up process wrote the SDK's compiled code (Node 22.1+).
  if (typeof (require("node:module") as { enableCompileCache?: unknown }).enableCompileCache === "function") {
    const written = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(written.length).toBeGreaterThan(100);
  }
  fs.writeFileSync(path.join(dir, "entry"), "x");
  await teardown();
  expect(fs.existsSync(dir)).toBe(false);
  expect(process.env[setup.OWN_CACHE_ENV]).toBeUndefined();
});

test("a NODE_COMPILE_CACHE set by the caller is kept and never removed", async () => {
  const mine = fs.mkdtempSync(path.join(os.tmpdir(), "caller-cache-"));
  try {
    process.env.NODE_COMPILE_CACHE = mine;
    delete process.env[setup.OWN_CACHE_ENV];
    await setup();
    expect(process.env.NODE_COMPILE_CACHE).toBe(mine);
    await teardown();
    expect(process.env.NODE_COMPILE_CACHE).toBe(mine);
    expect(fs.existsSync(mine)).toBe(true);
  } finally {
    fs.rmSync(mine, { recursive: true, force: true });
  }
});

/** What `module.getCompileCacheDir()` says in a process started with the preload and `env`, running `script` (a file). */
function cacheDirIn(script: string, env: Record<string, string>): string {
  const r = spawnSync(process.execPath, ["--require", path.join(__dirname, "compile-cache-preload.js"), script], { env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8" });
  expect(r.stderr).toBe("");
  return r.stdout.trim();
}

test("the preload turns the run's cache on in the processes the tests start, and not in jest's workers (whose exit would write it)", () => {
  if (typeof (require("node:module") as { getCompileCacheDir?: unknown }).getCompileCacheDir !== "function") return; // Node without the feature
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cache-preload-"));
  try {
    const cache = path.join(work, "cache");
    const print = `console.log(String(require("node:module").getCompileCacheDir()));\n`;
    const program = path.join(work, "program.js");
    const worker = path.join(work, "node_modules", "jest-worker", "build", "workers", "processChild.js");
    fs.mkdirSync(path.dirname(worker), { recursive: true });
    for (const f of [program, worker]) fs.writeFileSync(f, print);
    const own = { [setup.OWN_CACHE_ENV]: cache };
    // A program or host a test starts, inside a worker's environment or not: on, in the run's folder.
    // (Node names a folder of its version inside.)
    expect(path.dirname(cacheDirIn(program, own))).toBe(cache);
    expect(path.dirname(cacheDirIn(program, { ...own, JEST_WORKER_ID: "1" }))).toBe(cache);
    // A jest worker: off. Without the run's folder: off.
    expect(cacheDirIn(worker, { ...own, JEST_WORKER_ID: "1" })).toBe("undefined");
    expect(cacheDirIn(program, {})).toBe("undefined");
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});
