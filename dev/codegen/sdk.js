#!/usr/bin/env node
/**
 * `npm run sdk`: the SDKs under sdk/ (nodejs, go, python), generated from schema.json by Pulumi's own
 * code generators through this folder's Go module (main.go, at the CLI's pinned pkg/v3).
 *   npm run sdk                 regenerate them
 *   npm run sdk -- --check      write nothing; fail naming each file that differs, is missing or is extra
 *   npm run sdk -- --build      link the Node.js SDK's dependencies from the checkout's node_modules
 *                               into sdk/nodejs/node_modules/ (git-ignored; no npm install, no
 *                               registry) and compile it into sdk/nodejs/bin/ (git-ignored), the
 *                               folder a project installs; no Go needed
 * Regenerating and checking leave what the build keeps (node_modules/, bin/) alone.
 */
"use strict";
const { execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { goBuildFlags, GO_BUILD_ENV } = require("../pulumi-cli/go-build");

const root = path.resolve(__dirname, "..", "..");
const nodejsSdk = path.join(root, "sdk", "nodejs");
const check = process.argv.includes("--check");
// The checkout's @pulumi/pulumi is the one the dynamic resources are developed against, older than
// the generated SDK needs (^3.269.0, the code generator's minimum); the SDK's is installed beside it
// under another name (package.json's devDependencies, an npm alias).
const INSTALLED_AS = { "@pulumi/pulumi": "native-sdk-pulumi" };
const build = process.argv.includes("--build");

if (!build || check) {
  const go = spawnSync("go", ["version"], { stdio: "ignore" });
  if (go.error || go.status !== 0) {
    console.error("sdk: Go is not installed (no `go` on PATH): the SDKs are generated with Go 1.26 or newer, as the CLI is built");
    process.exit(1);
  }
  // Built as the CLI is (go-build.js), so the Pulumi packages the CLI's build compiled come from Go's cache.
  const r = spawnSync("go", ["-C", __dirname, "run", ...goBuildFlags(), ".", ...(check ? ["-check"] : [])], { stdio: "inherit", env: { ...process.env, ...GO_BUILD_ENV, GOFLAGS: "-mod=readonly" } });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (build) {
  // The SDK compiles against this checkout's own packages, linked (no npm install, so no registry):
  // each package its package.json names, from the checkout's node_modules (npm ci).
  const manifest = JSON.parse(fs.readFileSync(path.join(nodejsSdk, "package.json"), "utf8"));
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
    const target = path.join(root, "node_modules", INSTALLED_AS[name] ?? name);
    if (!fs.existsSync(path.join(target, "package.json"))) {
      console.error(`sdk: ${INSTALLED_AS[name] ?? name} (for ${name}, which sdk/nodejs/package.json names) is not in this checkout's node_modules: run npm ci`);
      process.exit(1);
    }
    linkTo(target, path.join(nodejsSdk, "node_modules", name));
  }
  // Compiled again only when a source or a dependency's version changed: a test's program may be
  // loading bin/ while another test asks for the build.
  const stamp = path.join(nodejsSdk, "bin", ".built");
  const fingerprint = buildFingerprint(manifest);
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === fingerprint) process.exit(0);
  const tsc = require.resolve("typescript/bin/tsc", { paths: [nodejsSdk] });
  execFileSync(process.execPath, [tsc, "-p", path.join(nodejsSdk, "tsconfig.json")], { cwd: nodejsSdk, stdio: "inherit" });
  fs.copyFileSync(path.join(nodejsSdk, "package.json"), path.join(nodejsSdk, "bin", "package.json"));
  fs.writeFileSync(stamp, fingerprint);
}

/** What the build depends on: the SDK's files but for its build, and the version of each dependency linked. */
function buildFingerprint(manifest) {
  const hash = require("node:crypto").createHash("sha256");
  const files = fs.readdirSync(nodejsSdk, { recursive: true, encoding: "utf8" }).filter((f) => !/^(node_modules|bin)([\\/]|$)/.test(f)).sort();
  for (const f of files) {
    const file = path.join(nodejsSdk, f);
    if (fs.statSync(file).isFile()) hash.update(f).update(fs.readFileSync(file));
  }
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).sort()) {
    hash.update(name).update(fs.readFileSync(path.join(nodejsSdk, "node_modules", name, "package.json")));
  }
  return hash.digest("hex");
}

/** `link` becomes a link to `target`, whatever was there (an earlier npm install's folder); another build making the same link at once is fine. */
function linkTo(target, link) {
  try {
    if (fs.realpathSync(link) === fs.realpathSync(target)) return;
  } catch {
    // not there yet
  }
  fs.rmSync(link, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(link), { recursive: true });
  try {
    fs.symlinkSync(target, link, "junction");
  } catch (e) {
    if (e.code !== "EEXIST" || fs.realpathSync(link) !== fs.realpathSync(target)) throw e;
  }
}
