// Preloaded into every process of a test run (global-setup.js puts it in NODE_OPTIONS): turns on the
// run's compile cache (compile-cache-setup.js) in every process but jest's workers. Node writes what a
// process compiled to the cache as the process exits, and a worker that had compiled jest's, ts-jest's
// and TypeScript's modules took longer than the 500 ms jest gives it at the end of a run on a loaded
// machine: "A worker process has failed to exit gracefully and has been force exited". Measured at a
// load of 30 to 40 (two small suites, two workers): with the cache in the workers, 3 runs of 4 printed
// it; without, 0 of 6. The programs, provider hosts and CLIs the tests start keep the cache.
"use strict";
const nodeModule = require("node:module");
const path = require("node:path");

const dir = process.env.RESELLER_TEST_COMPILE_CACHE;
const WORKER = path.join("jest-worker", "build", "workers");
const isJestWorker = !!process.env.JEST_WORKER_ID && (process.argv[1] ?? "").includes(WORKER);
if (dir && !isJestWorker && typeof nodeModule.enableCompileCache === "function") nodeModule.enableCompileCache(dir);
