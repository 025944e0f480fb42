// jest globalTeardown: removes the compile cache compile-cache-setup.js created for this run, and
// waits for what npm test built while the tests ran (dev/pulumi-cli/background.js), saying when that
// failed, so that no build outlives the command that started it.
const fs = require("node:fs");
const { OWN_CACHE_ENV } = require("./compile-cache-setup");
const { npmTestBuilds: background } = require("../../dev/pulumi-cli/background");

module.exports = async function globalTeardown() {
  const end = background.running() ? background.wait() : undefined;
  if (end && end.code !== 0) console.error(`\n${background.failureMessage(end.code)}`);
  removeCompileCache();
};

/** The compile cache's half: removes the run's own cache folder and unsets it. */
function removeCompileCache() {
  const dir = process.env[OWN_CACHE_ENV];
  if (!dir) return;
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env[OWN_CACHE_ENV];
}
module.exports.removeCompileCache = removeCompileCache;
