#!/usr/bin/env node
/**
 * `npm run sdk`: the SDKs under sdk/ (nodejs, go, python), generated from schema.json by Pulumi's own
 * code generators through this folder's Go module (main.go, at the CLI's pinned pkg/v3).
 *   npm run sdk                 regenerate them
 *   npm run sdk -- --check      write nothing; fail naming each file that differs, is missing or is extra
 *   npm run sdk -- --build      install the Node.js SDK's dependencies (sdk/nodejs/node_modules/,
 *                               git-ignored) and compile it into sdk/nodejs/bin/ (git-ignored), the
 *                               folder a project installs; no Go needed
 * Regenerating and checking leave what the build keeps (node_modules/, bin/) alone.
 */
"use strict";
const { execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const nodejsSdk = path.join(root, "sdk", "nodejs");
const check = process.argv.includes("--check");
const build = process.argv.includes("--build");

if (!build || check) {
  const go = spawnSync("go", ["version"], { stdio: "ignore" });
  if (go.error || go.status !== 0) {
    console.error("sdk: Go is not installed (no `go` on PATH): the SDKs are generated with Go 1.26 or newer, as the CLI is built");
    process.exit(1);
  }
  const r = spawnSync("go", ["-C", __dirname, "run", ".", ...(check ? ["-check"] : [])], { stdio: "inherit", env: { ...process.env, GOFLAGS: "-mod=readonly" } });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (build) {
  // The SDK builds with its own dependencies (the @pulumi/pulumi its code needs), from the npm registry or a warm npm cache.
  if (!fs.existsSync(path.join(nodejsSdk, "node_modules", "@pulumi", "pulumi"))) {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    execFileSync(npm, ["install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"], { cwd: nodejsSdk, stdio: "inherit" });
  }
  const tsc = require.resolve("typescript/bin/tsc", { paths: [nodejsSdk] });
  execFileSync(process.execPath, [tsc, "-p", path.join(nodejsSdk, "tsconfig.json")], { cwd: nodejsSdk, stdio: "inherit" });
  fs.copyFileSync(path.join(nodejsSdk, "package.json"), path.join(nodejsSdk, "bin", "package.json"));
}
