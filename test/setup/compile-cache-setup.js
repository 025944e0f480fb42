// jest globalSetup: a V8 compile cache for this run's processes. Every process the tests start (the
// programs, provider hosts and CLIs, which inherit the environment) loads @pulumi/pulumi, grpc and
// TypeScript again; with the code cache Node 22.1+ keeps, `require("@pulumi/pulumi")` takes about
// 0.6 s of CPU instead of 0.9 s. jest's workers go without it (compile-cache-preload.js). A
// provider host ends by SIGTERM and so writes nothing to the cache; making it write first
// (module.flushCompileCache on SIGTERM) was measured and cost more than it saved. Node versions
// without the feature ignore the variable. The folder lives under the OS's temporary folder, is this
// run's own, and is removed by global-teardown.js; the product itself never sets the variable.
// A NODE_COMPILE_CACHE already set by whoever runs jest is theirs and is left as it is.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const nodeModule = require("node:module");
const { spawnSync } = require("node:child_process");

/** The variable global-teardown.js reads: the folder this run created. */
const OWN_CACHE_ENV = "RESELLER_TEST_COMPILE_CACHE";

module.exports = async function compileCacheSetup() {
  if (process.env.NODE_COMPILE_CACHE) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reseller-jest-compile-cache-"));
  // Not NODE_COMPILE_CACHE, which every process would inherit: compile-cache-preload.js turns the
  // cache on in each process but jest's workers (see there).
  process.env[OWN_CACHE_ENV] = dir;
  // This process too: run in band, it loads ts-jest and TypeScript after this hook (Node 22.8+).
  if (typeof nodeModule.enableCompileCache === "function") nodeModule.enableCompileCache(dir);
  warm(dir);
};

/**
 * Fills the cache before any test (compile-cache-warm.js): a process that loads what hosts and
 * programs load and exits, which is when Node writes the cache. About 1.2 s of CPU once; saves about
 * 0.2 s in each of the run's provider hosts. Skipped where Node has no compile cache.
 */
function warm(dir) {
  if (typeof nodeModule.enableCompileCache !== "function") return;
  spawnSync(process.execPath, [path.join(__dirname, "compile-cache-warm.js")], {
    env: { ...process.env, NODE_COMPILE_CACHE: dir },
    stdio: "ignore",
    timeout: 60_000,
  });
}
module.exports.OWN_CACHE_ENV = OWN_CACHE_ENV;
