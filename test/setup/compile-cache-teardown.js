// jest globalTeardown: removes the compile cache compile-cache-setup.js created for this run.
const fs = require("node:fs");
const { OWN_CACHE_ENV } = require("./compile-cache-setup");

module.exports = async function compileCacheTeardown() {
  const dir = process.env[OWN_CACHE_ENV];
  if (!dir) return;
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.NODE_COMPILE_CACHE;
  delete process.env[OWN_CACHE_ENV];
};
