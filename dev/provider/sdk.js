#!/usr/bin/env node
/**
 * The provider's TypeScript SDK, sdk/nodejs/, generated from schema.json by Pulumi's own Node.js code
 * generator (dev/provider/sdkgen, a Go module at the CLI's pinned pkg/v3). `npm run provider-sdk`
 * writes it; `-- --check` fails when the committed SDK differs from what schema.json makes (CI runs
 * it); `-- --build` installs its dependencies (sdk/nodejs/node_modules/, git-ignored) and compiles it
 * into sdk/nodejs/bin/ (git-ignored), the folder a project installs.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const gen = path.join(root, "dev", "provider", "sdkgen");
const out = path.join(root, "sdk", "nodejs");
const check = process.argv.includes("--check");
const build = process.argv.includes("--build");

if (!build || check) {
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
  } catch {
    console.log("provider-sdk: Go is not installed; the SDK was not generated or checked (needs Go 1.26)");
    process.exit(check ? 1 : 0);
  }
  execFileSync("go", ["run", ".", path.join(root, "schema.json"), out, ...(check ? ["--check"] : [])], { cwd: gen, stdio: "inherit" });
}
if (build) {
  // The SDK builds with its own dependencies (the @pulumi/pulumi its code needs), from the npm registry or a warm npm cache.
  if (!fs.existsSync(path.join(out, "node_modules", "@pulumi", "pulumi"))) {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    execFileSync(npm, ["install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"], { cwd: out, stdio: "inherit" });
  }
  const tsc = require.resolve("typescript/bin/tsc", { paths: [out] });
  execFileSync(process.execPath, [tsc, "-p", path.join(out, "tsconfig.json")], { cwd: out, stdio: "inherit" });
  fs.copyFileSync(path.join(out, "package.json"), path.join(out, "bin", "package.json"));
}
