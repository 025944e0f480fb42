// jest globalTeardown: removes the compile cache compile-cache-setup.js created for this run, and
// waits for what npm test built while the tests ran (dev/pulumi-cli/background.js), saying when that
// failed, so that no build outlives the command that started it.
const fs = require("node:fs");
const { OWN_CACHE_ENV } = require("./compile-cache-setup");
const { npmTestBuilds: background } = require("../../dev/pulumi-cli/background");
const { RUN_STARTED_ENV } = require("./global-setup");

module.exports = async function globalTeardown() {
  const end = background.running() ? background.wait() : undefined;
  if (end && end.code !== 0) console.error(`\n${background.failureMessage(end.code)}`);
  else printBuilt();
  removeCompileCache();
};

/** When npm test built beside this run, what it built and in how long (the log's summary lines). */
function printBuilt() {
  try {
    if (fs.statSync(background.logFile).mtimeMs < Number(process.env[RUN_STARTED_ENV] ?? Infinity)) return;
    const lines = fs.readFileSync(background.logFile, "utf8").split("\n").filter((l) => /^pulumi-cli: built |^background: exit /.test(l));
    if (lines.length) console.log(`\nnpm test built beside the tests (.pulumi-cli/background.log):\n${lines.join("\n")}`);
  } catch {
    // no log: nothing was built in the background
  }
}

/** The compile cache's half: removes the run's own cache folder and unsets it. */
function removeCompileCache() {
  const dir = process.env[OWN_CACHE_ENV];
  if (!dir) return;
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env[OWN_CACHE_ENV];
}
module.exports.removeCompileCache = removeCompileCache;
