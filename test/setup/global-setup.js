// jest globalSetup: what every process of a test run inherits from it, set once before any test.
// - lazy-sdk-parts.js preloaded (NODE_OPTIONS): the SDK's unused start-up parts load on first use.
// - compile-cache-setup.js: a V8 compile cache of the run's own, filled before any test, and
//   compile-cache-preload.js (NODE_OPTIONS) turning it on in each process but jest's workers.
// Both are accelerators of the run: no test depends on either, and the product sets neither.
const path = require("node:path");
const compileCacheSetup = require("./compile-cache-setup");

const PRELOAD = path.join(__dirname, "lazy-sdk-parts.js");
const CACHE_PRELOAD = path.join(__dirname, "compile-cache-preload.js");

/** When this run began (ms since the epoch), for the teardown's summary of npm test's background builds. */
const RUN_STARTED_ENV = "RESELLER_TEST_RUN_STARTED";

module.exports = async function globalSetup() {
  process.env[RUN_STARTED_ENV] = String(Date.now());
  preload(PRELOAD);
  preload(CACHE_PRELOAD);
  await compileCacheSetup();
};

/** Adds a preload to NODE_OPTIONS (after the caller's own options), once. */
function preload(file) {
  const own = process.env.NODE_OPTIONS ?? "";
  if (own.includes(file)) return;
  process.env.NODE_OPTIONS = `${own} --require ${JSON.stringify(file)}`.trim();
}
module.exports.PRELOAD = PRELOAD;
module.exports.RUN_STARTED_ENV = RUN_STARTED_ENV;
