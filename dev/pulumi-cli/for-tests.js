#!/usr/bin/env node
// `npm test`'s first step: the tests run the real Pulumi CLI at the version dev/pulumi-cli/go.mod pins
// and at the oldest the README claims (dev/pulumi-cli/oldest/go.mod). This builds each one that is
// missing or stale through install.js (`npm run pulumi-cli`, which does nothing for a current
// build), so `npm test` in a fresh checkout needs nothing run before it. Without Go it stops at
// once with one line, unless both are built already (copied in from another checkout).
"use strict";
const { execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { pinnedVersion } = require("./pinned");

const here = __dirname;
const root = path.resolve(here, "..", "..");

function hasGo() {
  try {
    execFileSync("go", ["env", "GOVERSION"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Whether install.js built `version` (its binaries and its fingerprint are there). */
function built(version) {
  const dir = path.join(root, ".pulumi-cli", version);
  return [".fingerprint", "pulumi", "pulumi-language-nodejs"].every((f) => fs.existsSync(path.join(dir, f)));
}

function main() {
  const versions = [pinnedVersion(path.join(here, "go.mod")), pinnedVersion(path.join(here, "oldest", "go.mod"))];
  if (!hasGo()) {
    if (versions.every(built)) return;
    console.error(
      "npm test: the tests run the real Pulumi CLI, built from source with Go 1.26 or newer, and Go is not installed (no `go` on PATH): install it (https://go.dev/dl/) and run npm test again",
    );
    process.exit(1);
  }
  for (const args of [[], ["--oldest"]]) {
    const r = spawnSync(process.execPath, [path.join(here, "install.js"), ...args], { stdio: "inherit" });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

main();
