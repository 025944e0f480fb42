// Where install.js puts what it builds, and how a part says it is whole: each part's binaries in
// `.pulumi-cli/<version>/` of the checkout (git-ignored) and its stamp (the fingerprint of what it
// was built from), which install.js removes before a build and writes once the binaries are there.
// Read by install.js, for-tests.js, index.ts and jest's sequencer, so the names are written once.
"use strict";
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");

/** Each part's stamp and binaries. */
const PARTS = {
  cli: { stamp: ".fingerprint", binaries: ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"] },
  yaml: { stamp: ".fingerprint-yaml", binaries: ["pulumi-language-yaml"] },
};

/** The folder the binaries of `version` go to. */
function binDir(version) {
  return path.join(root, ".pulumi-cli", version);
}

module.exports = { PARTS, binDir };
