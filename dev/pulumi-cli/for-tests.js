#!/usr/bin/env node
// `npm test`'s first step: the tests run the real Pulumi CLI at the version dev/pulumi-cli/go.mod pins
// and at the oldest the README claims (dev/pulumi-cli/oldest/go.mod). This starts the build of each
// one that is missing or stale through install.js (`npm run pulumi-cli`, which does nothing for a
// current build), beside the tests, so `npm test` in a fresh checkout needs nothing run before it.
// Without Go it stops at once with one line, unless both are built already (copied in from another
// checkout). It also
// fetches the Go modules the tests compile and fills npm's cache for the packed install's test, so
// the tests themselves need no network.
"use strict";
const { execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pinnedVersion } = require("./pinned");
const { npmTestBuilds } = require("./background");
const { PARTS, binDir } = require("./parts");

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
  const dir = binDir(version);
  return [PARTS.cli.stamp, "pulumi", "pulumi-language-nodejs"].every((f) => fs.existsSync(path.join(dir, f)));
}

/** Whether install.js with `args` has nothing to do (it says so; quick: it compares fingerprints). */
function builtPart(args) {
  const r = spawnSync(process.execPath, [path.join(here, "install.js"), ...args, "--check"], { encoding: "utf8" });
  return r.status === 0;
}

/** What npm's cache must hold for pack.test.ts, and the stamp that says it was filled for exactly that. */
function npmCacheWanted() {
  const installs = JSON.parse(fs.readFileSync(path.join(root, "test", "package", "user-installs.json"), "utf8"));
  const own = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).dependencies;
  const project = { name: "npm-cache", private: true, dependencies: { ...own, ...installs.project.dependencies }, devDependencies: installs.project.devDependencies };
  const stamp = path.join(root, ".pulumi-cli", "npm-cache.json");
  return { installs, project, stamp, want: JSON.stringify({ project, currentTypeScript: installs.currentTypeScript }) };
}

/** Whether the stamp says npm's cache was filled for `wanted` (npmCacheWanted's). */
const filledFor = ({ stamp, want }) => fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === want;

/** Whether npm's cache was filled for the current list (pack.test.ts waits for it: it is filled beside the tests). */
function npmCacheCurrent() {
  return filledFor(npmCacheWanted());
}

/**
 * test/package/pack.test.ts installs the packed package into a new project with `npm install --offline`:
 * this puts what those installs need into npm's cache, by installing them once into a folder thrown
 * away (the project's dependencies of test/package/user-installs.json with the package's own, then
 * the current TypeScript). Done again only when that list changes (the stamp in .pulumi-cli/).
 */
function warmNpmCache() {
  const wanted = npmCacheWanted();
  if (filledFor(wanted)) return;
  const { installs, project, stamp, want } = wanted;
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const flags = ["--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "npm-cache-"));
  try {
    for (const [pkg, args] of [[project, []], [{ name: "npm-cache-ts", private: true }, [installs.currentTypeScript]]]) {
      fs.rmSync(path.join(dir, "node_modules"), { recursive: true, force: true });
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg));
      const r = spawnSync(npm, ["install", ...flags, ...args], { cwd: dir, stdio: "inherit" });
      if (r.status !== 0) {
        console.error(`npm test: npm install ${args.join(" ") || "(a new project's dependencies)"} for npm's cache failed (exit ${r.status ?? r.signal})`);
        process.exit(r.status ?? 1);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, want);
}

function main() {
  const versions = [pinnedVersion(path.join(here, "go.mod")), pinnedVersion(path.join(here, "oldest", "go.mod"))];
  if (!hasGo()) {
    if (versions.every(built)) return warmNpmCache();
    console.error(
      "npm test: the tests run the real Pulumi CLI, built from source with Go 1.26 or newer, and Go is not installed (no `go` on PATH): install it (https://go.dev/dl/) and run npm test again",
    );
    process.exit(1);
  }
  // What is missing of the pinned CLI, the YAML host and the oldest CLI is built while the tests run
  // (background.js), in that order: the suites that need no CLI go first then (test/setup/sequencer.js),
  // and a suite that needs a part waits for it (builtCli in index.ts).
  // npm's cache for the package test comes after the pinned CLI, which nearly every CLI suite waits for.
  const install = path.join(here, "install.js");
  const parts = [
    [[install, "--no-yaml-host"], `the pinned CLI (${versions[0]})`, !builtPart(["--no-yaml-host"])],
    [[__filename, "--npm-cache"], "npm's cache for the package test", !npmCacheCurrent()],
    [[install, "--yaml-host"], "the YAML host", !builtPart(["--yaml-host"])],
    [[install, "--oldest"], `the oldest CLI (${versions[1]})`, !builtPart(["--oldest"])],
  ].filter(([, , missing]) => missing);
  if (parts.length) {
    console.log(`npm test: building ${parts.map(([, what]) => what).join(", ")} while the tests run (.pulumi-cli/background.log)`);
    npmTestBuilds.start(parts.map(([step]) => step));
  }
  // The Go modules the tests compile against (examples/go with the generated sdk/go; dev/codegen, which
  // regenerates and tidies the SDKs), fetched here, the one step that may use the network, so that the
  // tests run with GOPROXY=off. Nothing is fetched when Go's module cache holds them.
  for (const dir of [path.join(root, "examples", "go"), path.join(root, "dev", "codegen")]) {
    const r = spawnSync("go", ["mod", "download"], { cwd: dir, stdio: "inherit", env: { ...process.env, GOFLAGS: "-mod=readonly", GOWORK: "off" } });
    if (r.status !== 0) {
      console.error(`npm test: go mod download in ${path.relative(root, dir)} failed (exit ${r.status ?? r.signal})`);
      process.exit(r.status ?? 1);
    }
  }
  // The codegen test tidies the generated Go SDK offline, and `go mod tidy` loads the tests of its
  // dependencies' packages too (testify, goleak, ...), modules no build needs: `tidy -diff` on the
  // committed sdk/go fetches them and changes no file (a difference is the codegen test's to report).
  const tidy = spawnSync("go", ["mod", "tidy", "-diff"], { cwd: path.join(root, "sdk", "go"), stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, GOFLAGS: "-mod=mod", GOWORK: "off", GOTOOLCHAIN: "local" } });
  // It exits 1 alike for a difference and for a module it could not fetch: either way the codegen test
  // fails and says which, so this says only that it did not come out clean.
  if (tidy.status !== 0) console.error(`npm test: go mod tidy -diff in sdk/go exited ${tidy.status ?? tidy.signal}: the codegen test (test/dev/codegen) will say why`);
}

if (require.main === module) {
  if (process.argv[2] === "--npm-cache") warmNpmCache();
  else main();
}

module.exports = { npmCacheCurrent };
