// The Pulumi CLI version a Go module of this folder pins: the version of its
// github.com/pulumi/pulumi/pkg/v3 requirement (the YAML host's: of github.com/pulumi/pulumi-yaml).
// Read by install.js (plain Node, before any build) and by index.ts, so the rule is written once.
"use strict";
const fs = require("node:fs");

/**
 * @param {string} goModFile the go.mod to read
 * @param {string} modulePath the required module, e.g. "github.com/pulumi/pulumi-yaml"
 * @returns {string | undefined} e.g. "v1.25.0", undefined when the go.mod requires no such module directly
 */
function requiredVersion(goModFile, modulePath) {
  const escaped = modulePath.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const m = new RegExp(`^\\s*(?:require\\s+)?${escaped} (v\\d+\\.\\d+\\.\\d+)\\s*$`, "m").exec(fs.readFileSync(goModFile, "utf8"));
  return m ? m[1] : undefined;
}

/**
 * @param {string} goModFile the go.mod to read
 * @returns {string | undefined} e.g. "v3.274.1", undefined when it pins no pkg/v3
 */
function pinnedVersion(goModFile) {
  return requiredVersion(goModFile, "github.com/pulumi/pulumi/pkg/v3");
}

module.exports = { pinnedVersion, requiredVersion };
