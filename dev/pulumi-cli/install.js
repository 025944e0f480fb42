#!/usr/bin/env node
// `npm run pulumi-cli`: builds the real Pulumi CLI from the Go module proxy, at the version pinned in
// dev/pulumi-cli/go.mod (or, with `--oldest`, in dev/pulumi-cli/oldest/go.mod), into `.pulumi-cli/<version>/`:
//   pulumi                          the CLI (module github.com/pulumi/pulumi/pkg/v3)
//   pulumi-language-nodejs          the Node.js language host (dev/pulumi-cli/nodejs-host, ours: see there)
//   pulumi-resource-pulumi-nodejs   the plugin that runs dynamic providers (as the SDK ships it)
//   pulumi-language-yaml            the YAML language host (github.com/pulumi/pulumi-yaml at the version
//                                   pinned in dev/pulumi-cli/yaml-host/go.mod; not with `--oldest`)
// `--no-yaml-host` leaves the YAML host out, `--yaml-host` builds only it (npm test builds it apart:
// for-tests.js); `--check` builds nothing and exits 0 when nothing is to be built. A second run with
// nothing changed does nothing. The build is Pulumi's release build (go-build.js, shared by every Go
// build here): no cgo, -trimpath, the tags osusergo and grpcnotrace, and the version stamped into the binary (without it
// `pulumi version` prints nothing and the Automation API refuses the binary). Go keeps its module
// and build caches (GOMODCACHE, GOCACHE) between runs, so only the first build costs minutes.
"use strict";
const { execFileSync, spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const { pinnedVersion, requiredVersion } = require("./pinned");
const { goBuildFlags, GO_BUILD_ENV } = require("./go-build");
const { PARTS, binDir } = require("./parts");

const here = __dirname;
const root = path.resolve(here, "..", "..");
const oldest = process.argv.includes("--oldest");
// What to build: the CLI with its hosts, the YAML host (pinned version only), or both (the default).
const parts = { cli: !process.argv.includes("--yaml-host"), yaml: !oldest && !process.argv.includes("--no-yaml-host") };
const moduleDir = oldest ? path.join(here, "oldest") : here;
// The YAML language host: its own module, because pulumi-yaml v1.25.0 does not compile against the
// CLI's pkg/sdk (it asks for v3.206.0); the two share every other dependency's version, so Go's build
// cache serves most of it after the CLI's build.
const yamlHostDir = path.join(here, "yaml-host");
const yamlHostModule = "github.com/pulumi/pulumi-yaml";

function fail(line) {
  console.error(`pulumi-cli: ${line}`);
  process.exit(1);
}

function pinnedVersionOf(dir) {
  const version = pinnedVersion(path.join(dir, "go.mod"));
  if (!version) fail(`${path.relative(root, dir)}/go.mod does not pin github.com/pulumi/pulumi/pkg/v3`);
  return version;
}

/** What decides a part's binaries: the Go version, its modules' files and this script. */
function fingerprint(goVersion, part) {
  const hash = crypto.createHash("sha256").update(goVersion);
  const files = part === "yaml" ? ["yaml-host/go.mod", "yaml-host/go.sum", "install.js", "go-build.js"] : ["go.mod", "go.sum", "nodejs-host/main.go", "install.js", "go-build.js"];
  if (part === "cli" && oldest) files.push("oldest/go.mod", "oldest/go.sum");
  for (const f of files) hash.update(f).update(fs.readFileSync(path.join(here, f)));
  return hash.digest("hex");
}

/** Whether `part` is built in `dir` for this Go version and these files. */
function current(dir, goVersion, part) {
  const stamp = path.join(dir, PARTS[part].stamp);
  return fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === fingerprint(goVersion, part) && PARTS[part].binaries.every((b) => fs.existsSync(path.join(dir, b)));
}

/** `-X` flags that stamp the CLI's version: the variable moved from pkg to sdk over the 3.x line (3.139.0 reads pkg's), so both. */
const cliVersionFlags = (version) => [`-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${version}`, `-X github.com/pulumi/pulumi/pkg/v3/version.Version=${version}`];

function goBuild(dir, out, pkg, versionFlags) {
  const args = ["build", ...goBuildFlags(versionFlags), "-o", out, pkg];
  const r = spawnSync("go", args, { cwd: dir, stdio: "inherit", env: { ...process.env, ...GO_BUILD_ENV, GOFLAGS: "-mod=readonly" } });
  if (r.status !== 0) fail(`go build ${pkg} failed (exit ${r.status})`);
}

// The plugin the engine runs a dynamic provider through: @pulumi/pulumi ships the same script at its
// root; this copy resolves the SDK from the program's folder, as that one does.
const dynamicProviderPlugin = `#!/bin/sh
PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH=$(node -e "console.log(require.resolve('@pulumi/pulumi/cmd/dynamic-provider'))")
if [ ! -z "$PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH" ]; then
    exec node "$PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH" "$@"
fi
`;

function main() {
  let goVersion;
  try {
    goVersion = execFileSync("go", ["env", "GOVERSION"], { encoding: "utf8" }).trim();
  } catch {
    fail("Go is not installed (no `go` on PATH): the Pulumi CLI is built from source with Go 1.26 or newer (https://go.dev/dl/)");
  }
  const version = pinnedVersionOf(moduleDir);
  const dir = binDir(version);
  const wanted = ["cli", "yaml"].filter((p) => parts[p]);
  const todo = wanted.filter((p) => !current(dir, goVersion, p));
  const what = parts.cli ? `pulumi ${version}` : "the YAML host";
  // `--check`: exit 0 when nothing is to be built, 3 otherwise, building nothing.
  if (process.argv.includes("--check")) process.exit(todo.length === 0 ? 0 : 3);
  if (todo.length === 0) {
    console.log(`pulumi-cli: ${version} is built (${path.relative(root, dir)}${parts.cli ? "" : ", its YAML host"}); nothing to do`);
    return;
  }
  fs.mkdirSync(dir, { recursive: true });
  const started = Date.now();
  console.log(`pulumi-cli: building ${what} with ${goVersion} (the first build downloads and compiles for minutes)`);
  if (todo.includes("cli")) {
    fs.rmSync(path.join(dir, PARTS.cli.stamp), { force: true });
    goBuild(moduleDir, path.join(dir, "pulumi"), "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi", cliVersionFlags(version));
    // The language host is ours and built from the newest module whatever the CLI's version: a CLI
    // asks a host only for what it needs, and treats what the host does not offer as not offered.
    goBuild(here, path.join(dir, "pulumi-language-nodejs"), "./nodejs-host", cliVersionFlags(pinnedVersionOf(here)));
    fs.writeFileSync(path.join(dir, "pulumi-resource-pulumi-nodejs"), dynamicProviderPlugin, { mode: 0o755 });
    fs.writeFileSync(path.join(dir, PARTS.cli.stamp), fingerprint(goVersion, "cli"));
    const printed = execFileSync(path.join(dir, "pulumi"), ["version"], { encoding: "utf8", env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } }).trim();
    console.log(`pulumi-cli: built pulumi ${printed} in ${((Date.now() - started) / 1000).toFixed(0)} s into ${path.relative(root, dir)}`);
  }
  if (todo.includes("yaml")) {
    const yamlVersion = requiredVersion(path.join(yamlHostDir, "go.mod"), yamlHostModule);
    if (!yamlVersion) fail(`dev/pulumi-cli/yaml-host/go.mod does not pin ${yamlHostModule}`);
    fs.rmSync(path.join(dir, PARTS.yaml.stamp), { force: true });
    const yamlStarted = Date.now();
    goBuild(yamlHostDir, path.join(dir, "pulumi-language-yaml"), `${yamlHostModule}/cmd/pulumi-language-yaml`, [`-X ${yamlHostModule}/pkg/version.Version=${yamlVersion}`]);
    fs.writeFileSync(path.join(dir, PARTS.yaml.stamp), fingerprint(goVersion, "yaml"));
    console.log(`pulumi-cli: built pulumi-language-yaml ${yamlVersion} in ${((Date.now() - yamlStarted) / 1000).toFixed(0)} s into ${path.relative(root, dir)}`);
  }
}

main();
