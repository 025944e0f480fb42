// jest globalSetup: what every process of a test run inherits from it, set once before any test.
// - lazy-sdk-parts.js preloaded (NODE_OPTIONS): the SDK's unused start-up parts load on first use.
// - compile-cache-setup.js: a V8 compile cache of the run's own, filled before any test.
// Both are accelerators of the run: no test depends on either, and the product sets neither.
const path = require("node:path");
const compileCacheSetup = require("./compile-cache-setup");

const PRELOAD = path.join(__dirname, "lazy-sdk-parts.js");

module.exports = async function globalSetup() {
  preloadLazySdkParts();
  await compileCacheSetup();
};

/** Adds the preload to NODE_OPTIONS (after the caller's own options), once. */
function preloadLazySdkParts() {
  const own = process.env.NODE_OPTIONS ?? "";
  if (own.includes(PRELOAD)) return;
  process.env.NODE_OPTIONS = `${own} --require ${JSON.stringify(PRELOAD)}`.trim();
}
module.exports.PRELOAD = PRELOAD;
