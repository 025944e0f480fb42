// The Pulumi CLI version a Go module of this folder pins: the version of its
// github.com/pulumi/pulumi/pkg/v3 requirement. Read by install.js (plain Node, before any build) and
// by index.ts, so the rule is written once.
"use strict";
const fs = require("node:fs");

/**
 * @param {string} goModFile the go.mod to read
 * @returns {string | undefined} e.g. "v3.274.1", undefined when it pins no pkg/v3
 */
function pinnedVersion(goModFile) {
  const m = /^\s*(?:require\s+)?github\.com\/pulumi\/pulumi\/pkg\/v3 (v\d+\.\d+\.\d+)\s*$/m.exec(fs.readFileSync(goModFile, "utf8"));
  return m ? m[1] : undefined;
}

module.exports = { pinnedVersion };
