// jest testSequencer: the order in which the workers take the suites. Jest's own order runs the
// suites it has timings for longest first, and before them those it has none for, largest file
// first. A fresh checkout (and CI) has no timings, and file size says little here: the suites that
// run the real Pulumi CLI or npm take a minute or more whatever their length, and one of them taken
// last kept one worker busy for minutes after the other had finished. So, among the suites without
// timings, those that drive the CLI, npm or Go go first, after any that failed last time, then the
// rest as jest orders them. A suite drives the CLI when it is in test/pulumi-cli/, or it or a shared
// module of test/support/ it imports starts a CLI stack (the mistake catalogue's halves do so through
// test/support/mistakes-through-cli.ts). Among them, those that need a binary built while the tests
// run come last (needsLaterBuild). While npm test is still building the pinned CLI (a fresh machine:
// dev/pulumi-cli/background.js), the suites that need none go first instead, beside the build.
const fs = require("node:fs");
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

const SLOW = /\brequirePulumiCli\(|\bCliStack\.init\(|\brunChaosCli\(|\brunSharedCredentialCli\(|["']npm["']|\bspawn(Sync)?\(\s*["']go["']/;
const SUPPORT = path.join(__dirname, "..", "support");
const CLI_SUITES = path.join(__dirname, "..", "pulumi-cli") + path.sep;

/** The test/support/ modules a file imports (relative imports only). */
function supportImports(file, text) {
  const found = [];
  for (const m of text.matchAll(/from\s+["'](\.{1,2}\/[^"']+)["']/g)) {
    const target = path.resolve(path.dirname(file), m[1]);
    if (!target.startsWith(SUPPORT + path.sep)) continue;
    for (const candidate of [`${target}.ts`, `${target}.js`, target]) if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) found.push(candidate);
  }
  return found;
}

/** Whether the file is a CLI suite, or it or a test/support/ module it imports (to one level) drives the CLI, npm or Go. */
function drivesCli(file) {
  if (file.startsWith(CLI_SUITES)) return true;
  const text = fs.readFileSync(file, "utf8");
  return SLOW.test(text) || supportImports(file, text).some((f) => SLOW.test(fs.readFileSync(f, "utf8")));
}

/**
 * Whether the file needs what npm test builds while the tests run (dev/pulumi-cli/background.js: the
 * oldest CLI, the YAML host): such suites go after the other CLI suites, so that on a fresh machine
 * the build has minutes to finish before one waits for it.
 */
const BUILT_LATER = /\bOLDEST_CLI\b|\byamlHost: true\b/;
const needsLaterBuild = (file) => BUILT_LATER.test(fs.readFileSync(file, "utf8"));

/** Whether npm test is building the pinned CLI beside the tests (its stamp is written last: install.js). */
function pinnedCliBuilding() {
  const { pinnedVersion } = require("../../dev/pulumi-cli/pinned");
  const { npmTestBuilds } = require("../../dev/pulumi-cli/background");
  const { PARTS, binDir } = require("../../dev/pulumi-cli/parts");
  const version = pinnedVersion(path.join(__dirname, "..", "..", "dev", "pulumi-cli", "go.mod"));
  return npmTestBuilds.running() && !fs.existsSync(path.join(binDir(version), PARTS.cli.stamp));
}

/**
 * The order of `sorted` (jest's), given which failed last time and whether the pinned CLI is still
 * being built beside the tests.
 */
function order(sorted, hasFailed, pinnedBuilding) {
  // Each file read once, though both orders ask.
  const cliByPath = new Map();
  const drives = (t) => {
    if (!cliByPath.has(t.path)) cliByPath.set(t.path, drivesCli(t.path));
    return cliByPath.get(t.path);
  };
  const failed = sorted.filter(hasFailed);
  const rest = sorted.filter((t) => !hasFailed(t));
  const slow = rest.filter((t) => t.duration == null && drives(t));
  const later = new Set(slow.filter((t) => needsLaterBuild(t.path)));
  const first = new Set(slow.filter((t) => !later.has(t)));
  const all = [...failed, ...rest.filter((t) => first.has(t)), ...rest.filter((t) => later.has(t)), ...rest.filter((t) => !first.has(t) && !later.has(t))];
  if (!pinnedBuilding) return all;
  const cli = new Set(all.filter(drives));
  return [...all.filter((t) => !cli.has(t)), ...all.filter((t) => cli.has(t))];
}

class CliFirstSequencer extends Sequencer {
  sort(tests) {
    return order(super.sort(tests), (t) => this.hasFailed(t), pinnedCliBuilding());
  }
}

module.exports = CliFirstSequencer;
module.exports.drivesCli = drivesCli;
module.exports.order = order;
