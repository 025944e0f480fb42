// The test run's compile cache (compile-cache-setup.js, global-teardown.js): a folder of the
// run's own under the OS's temporary folder, set for the processes the run starts, removed at the end;
// a cache the caller chose is left alone.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const setup = require("./compile-cache-setup") as (() => Promise<void>) & { OWN_CACHE_ENV: string };
const teardown = require("./global-teardown") as () => Promise<void>;

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
  const dir = process.env.NODE_COMPILE_CACHE!;
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
  expect(process.env.NODE_COMPILE_CACHE).toBeUndefined();
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
