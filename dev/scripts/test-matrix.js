#!/usr/bin/env node
// `npm run test:matrix`: the whole suite on each supported line, each cell in a scratch copy of the
// sources (as a fresh clone has them): Node 22 and Node 24 (from the npm registry's `node`
// package) with the newest @pulumi/pulumi, and Node 22 with the lowest supported one (3.139.0).
// Per cell: `npm ci`, `npm install --no-save @pulumi/pulumi@<version>` (an `npm install` in the
// repository, after which the package must still resolve itself by name), the real Pulumi CLI (the
// pinned one and the oldest the README claims: the checkout's built `.pulumi-cli/` copied in, then
// `npm run pulumi-cli`, which rebuilds only what is stale and needs Go for that), then `npm test`,
// the CLI's tests (test/pulumi-cli) included: their programs run on the cell's SDK.
// Prints one line per cell: versions, suites and tests passed/failed, minutes, the machine's load
// average over the last 15 minutes when the cell ended. Exit 1 if any failed. Each run works in a
// scratch folder of its own (printed), so runs from two checkouts on one machine never share one.
//
//   npm run test:matrix                   all cells
//   npm run test:matrix -- node24-newest  only the named cells
//   npm run test:matrix -- node22-lowest --only test/pulumi-cli
//                                         only the test files matching the paths (what follows
//                                         --only goes to jest as it is)
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const LOWEST_SDK = require(path.join(root, "package.json")).peerDependencies["@pulumi/pulumi"].replace(/^\^/, "");
const CELLS = [
  { name: "node22-newest", node: "22", sdk: "latest" },
  { name: "node24-newest", node: "24", sdk: "latest" },
  { name: "node22-lowest", node: "22", sdk: LOWEST_SDK },
];

function sh(cmd, args, opts) {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", maxBuffer: 256 * 1024 * 1024, ...opts });
  if (r.status !== 0 && !opts.allowFail) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
  return r;
}

/** A Node.js binary of `line` from the npm registry, cached under the scratch folder. */
function nodeBin(scratch, line) {
  const dir = path.join(scratch, `node-${line}`);
  const bin = path.join(dir, "node_modules", ".bin");
  if (!fs.existsSync(path.join(bin, "node"))) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ private: true }));
    sh("npm", ["install", "--no-audit", "--no-fund", `node@${line}`], { cwd: dir });
  }
  return bin;
}

/** The files a fresh clone has (tracked, and new files not ignored), as they are in the working tree. */
function copySources(to) {
  const files = sh("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: root }).stdout.split("\0").filter(Boolean);
  for (const f of files) {
    const from = path.join(root, f);
    if (!fs.existsSync(from)) continue;
    fs.mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    fs.copyFileSync(from, path.join(to, f));
  }
}

/** The CLI versions the tests run (`npm run pulumi-cli`, and `-- --oldest`), copied from the checkout when built there. */
function installCli(dir, env) {
  const built = path.join(root, ".pulumi-cli");
  if (fs.existsSync(built)) fs.cpSync(built, path.join(dir, ".pulumi-cli"), { recursive: true });
  sh("npm", ["run", "pulumi-cli"], { cwd: dir, env });
  sh("npm", ["run", "pulumi-cli", "--", "--oldest"], { cwd: dir, env });
}

function runCell(scratch, cell, only) {
  const started = Date.now();
  const bin = nodeBin(scratch, cell.node);
  const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, npm_config_audit: "false", npm_config_fund: "false" };
  // The packing test installs the same SDK into its user project.
  if (cell.sdk !== "latest") env.RESELLER_PACK_SDK = cell.sdk;
  const dir = path.join(scratch, cell.name);
  fs.rmSync(dir, { recursive: true, force: true });
  copySources(dir);
  // A repository of its own, as a clone is (the packing test lists the files git would ship).
  sh("git", ["init", "-q"], { cwd: dir });
  sh("git", ["add", "-A"], { cwd: dir });
  const nodeVersion = sh("node", ["--version"], { cwd: dir, env }).stdout.trim();
  sh("npm", ["ci"], { cwd: dir, env });
  sh("npm", ["install", "--no-save", `@pulumi/pulumi@${cell.sdk}`], { cwd: dir, env });
  const sdk = sh("node", ["-p", 'require("@pulumi/pulumi/package.json").version'], { cwd: dir, env }).stdout.trim();
  // The self-reference survived that `npm install`: the package resolves by name to this copy.
  const self = sh("node", ["-p", 'require("fs").realpathSync(require.resolve("reseller-pulumi/package.json"))'], { cwd: dir, env }).stdout.trim();
  if (self !== fs.realpathSync(path.join(dir, "package.json"))) throw new Error(`${cell.name}: reseller-pulumi resolves to ${self} after npm install`);
  installCli(dir, env);
  const report = path.join(dir, "jest-report.json");
  const test = sh("npm", ["test", "--", "--json", `--outputFile=${report}`, ...only], { cwd: dir, env, allowFail: true });
  const r = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, "utf8")) : undefined;
  const failedNames = r ? r.testResults.filter((t) => t.status !== "passed").map((t) => path.relative(dir, t.name)) : [];
  return {
    cell: cell.name,
    node: nodeVersion,
    sdk,
    ok: test.status === 0,
    suites: r ? `${r.numPassedTestSuites}/${r.numTotalTestSuites}` : "?",
    tests: r ? `${r.numPassedTests}/${r.numTotalTests}` : "?",
    failed: failedNames,
    minutes: Math.round((Date.now() - started) / 6000) / 10,
    load15: Math.round(os.loadavg()[2] * 10) / 10,
    tail: test.status === 0 ? undefined : (test.stdout + test.stderr).slice(-3000),
  };
}

function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const names = at < 0 ? args : args.slice(0, at);
  const only = at < 0 ? [] : args.slice(at + 1);
  if (at >= 0 && !only.length) throw new Error("--only needs at least one test path (jest's patterns)");
  const unknown = names.filter((n) => !CELLS.some((c) => c.name === n));
  if (unknown.length) throw new Error(`no such cell: ${unknown.join(", ")}; cells: ${CELLS.map((c) => c.name).join(", ")}`);
  const cells = names.length ? CELLS.filter((c) => names.includes(c.name)) : CELLS;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "reseller-test-matrix-"));
  console.log(`test:matrix: scratch copies in ${scratch}`);
  let failed = 0;
  for (const cell of cells) {
    let line;
    try {
      line = runCell(scratch, cell, only);
    } catch (e) {
      line = { cell: cell.name, ok: false, error: e.message.slice(0, 3000) };
    }
    if (!line.ok) failed++;
    console.log(JSON.stringify(line));
  }
  console.log(failed ? `test:matrix: ${failed} of ${cells.length} cell(s) failed` : `test:matrix: all ${cells.length} cell(s) passed`);
  // A failed cell's copy stays for a look; a clean run leaves nothing behind.
  if (!failed) fs.rmSync(scratch, { recursive: true, force: true });
  process.exit(failed ? 1 : 0);
}

main();
