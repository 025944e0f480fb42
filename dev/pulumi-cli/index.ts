/**
 * The real Pulumi CLI, driven as a user drives it: a project folder, a stack in a local backend
 * (`pulumi login file://`), config set with `pulumi config set`, secrets encrypted by passphrase,
 * and commands run non-interactively, their exit codes and output kept. Used by the tests, the demo
 * and the bench. Nothing here reaches the internet: the update check and plugin downloads are off.
 *
 * Which CLI: `findPulumiCli()` takes the one `npm run pulumi-cli` built (`.pulumi-cli/<version>/`),
 * or, when `preferPath` is set (the demo), a `pulumi` on the user's PATH first.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The checkout's root, from `dev/pulumi-cli/` or `dist/dev/pulumi-cli/`. */
export const checkoutRoot = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, "dev", "pulumi-cli", "go.mod"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error("pulumi-cli: not inside a checkout of reseller-pulumi");
    dir = up;
  }
  return dir;
})();

export interface PulumiCli {
  /** The `pulumi` binary. */
  bin: string;
  /** Put first on PATH: the language host and the dynamic provider plugin built beside the CLI. */
  pluginDir?: string;
  /** What `pulumi version` prints, e.g. `v3.274.1`. */
  version: string;
  /** Built by `npm run pulumi-cli`, or found on the user's PATH. */
  origin: "built" | "PATH";
}

// The rule is pinned.js's, shared with install.js (plain Node, run before any build).
const { pinnedVersion } = require(path.join(checkoutRoot, "dev", "pulumi-cli", "pinned.js")) as { pinnedVersion(goModFile: string): string | undefined };
const goModVersion = (file: string): string => {
  const version = pinnedVersion(file);
  if (!version) throw new Error(`${file} does not pin github.com/pulumi/pulumi/pkg/v3`);
  return version;
};

/**
 * The flags and environment of every Go build here (go-build.js, shared with install.js): a test's
 * `go build`/`go run` built as the CLI was finds the Pulumi packages that build compiled in Go's cache.
 */
export const { goBuildFlags, GO_BUILD_ENV } = require(path.join(checkoutRoot, "dev", "pulumi-cli", "go-build.js")) as {
  goBuildFlags(ldflags?: string[]): string[];
  GO_BUILD_ENV: Record<string, string>;
};

/** The CLI version the checkout pins (dev/pulumi-cli/go.mod), and the oldest it claims (dev/pulumi-cli/oldest/go.mod). */
export const PINNED_CLI = goModVersion(path.join(checkoutRoot, "dev", "pulumi-cli", "go.mod"));
export const OLDEST_CLI = goModVersion(path.join(checkoutRoot, "dev", "pulumi-cli", "oldest", "go.mod"));

const QUIET_ENV = { PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" };

function versionOf(bin: string): string {
  return execFileSync(bin, ["version"], { encoding: "utf8", env: { ...process.env, ...QUIET_ENV } }).trim();
}

// npm test builds some binaries while the tests run (background.js, plain Node like install.js), and
// where install.js puts them (parts.js).
const background = (require(path.join(checkoutRoot, "dev", "pulumi-cli", "background.js")) as typeof import("./background")).npmTestBuilds;
const { PARTS, binDir } = require(path.join(checkoutRoot, "dev", "pulumi-cli", "parts.js")) as typeof import("./parts");

/**
 * The CLI `npm run pulumi-cli` built at `version`, when it is there (with the YAML host beside it, when
 * `yamlHost`). While npm test builds (background.js), this waits for the part's stamp, which
 * install.js removes before it builds and writes once the part's binaries are whole.
 */
export function builtCli(version: string = PINNED_CLI, opts: { yamlHost?: boolean } = {}): PulumiCli | undefined {
  const dir = binDir(version);
  const bin = path.join(dir, "pulumi");
  const needed = [bin, path.join(dir, "pulumi-language-nodejs"), ...(opts.yamlHost ? PARTS.yaml.binaries.map((b) => path.join(dir, b)) : [])];
  const stamps = [PARTS.cli.stamp, ...(opts.yamlHost ? [PARTS.yaml.stamp] : [])].map((f) => path.join(dir, f));
  const there = (files: string[]) => files.every((f) => fs.existsSync(f));
  if (background.running() && !there(stamps)) {
    const end = background.wait(() => there(stamps));
    if (end?.code !== undefined && end.code !== 0 && !there(stamps)) throw new Error(background.failureMessage(end.code));
  }
  return there(needed) ? { bin, pluginDir: dir, version: versionOf(bin), origin: "built" } : undefined;
}

/** A `pulumi` on PATH, when there is one. */
export function cliOnPath(): PulumiCli | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const bin = path.join(dir, "pulumi");
    try {
      fs.accessSync(bin, fs.constants.X_OK);
    } catch {
      continue;
    }
    try {
      return { bin, version: versionOf(bin), origin: "PATH" };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** What `go env GOVERSION` prints (e.g. `go1.26.8`), or undefined when Go is not on PATH. */
export function goVersion(): string | undefined {
  try {
    return execFileSync("go", ["env", "GOVERSION"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

/** `npm run pulumi-cli -- --no-yaml-host`: builds the pinned CLI when it is missing or stale (its lines on this process's output); throws when the build fails. */
export function buildPinnedCli(): void {
  const r = spawnSync(process.execPath, [path.join(checkoutRoot, "dev", "pulumi-cli", "install.js"), "--no-yaml-host"], { stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) throw new Error(`npm run pulumi-cli failed (exit ${r.status ?? r.signal})`);
}

/** The CLI to use: the built one, or with `preferPath` a user's own first; undefined when neither is there. */
export function findPulumiCli(opts: { preferPath?: boolean; version?: string } = {}): PulumiCli | undefined {
  if (opts.preferPath) return cliOnPath() ?? builtCli(opts.version);
  return builtCli(opts.version);
}

/** The built CLI (with the YAML host beside it, when `yamlHost`), or an error saying how to build it. */
export function requirePulumiCli(version: string = PINNED_CLI, opts: { yamlHost?: boolean } = {}): PulumiCli {
  const cli = builtCli(version, opts);
  if (!cli) {
    const flag = version === OLDEST_CLI && version !== PINNED_CLI ? " -- --oldest" : "";
    throw new Error(`the Pulumi CLI ${version}${opts.yamlHost ? " with its YAML host" : ""} is not built: run \`npm run pulumi-cli${flag}\` (needs Go)`);
  }
  return cli;
}

export interface CliRun {
  args: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliStackOptions {
  cli: PulumiCli;
  /** The project folder (Pulumi.yaml). */
  projectDir: string;
  stack?: string;
  /** Encrypts the stack's secrets (PULUMI_CONFIG_PASSPHRASE). */
  passphrase?: string;
  /** More environment for every command. */
  env?: Record<string, string | undefined>;
}

/**
 * One stack of one project in a local backend of its own, with a PULUMI_HOME of its own: nothing of
 * the user's `~/.pulumi` is read or written. `dispose()` removes both.
 */
export class CliStack {
  readonly home: string;
  readonly backend: string;
  readonly stack: string;
  private constructor(
    readonly opts: CliStackOptions,
    home: string,
  ) {
    this.home = home;
    this.backend = path.join(home, "backend");
    this.stack = opts.stack ?? "dev";
  }

  /** `pulumi login file://<folder>` and `pulumi stack init`. */
  static async init(opts: CliStackOptions): Promise<CliStack> {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "reseller-cli-"));
    const s = new CliStack(opts, home);
    fs.mkdirSync(s.backend);
    await s.must(["login", `file://${s.backend}`]);
    await s.must(["stack", "init", s.stack]);
    return s;
  }

  env(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
    const pathParts = [this.opts.cli.pluginDir, process.env.PATH].filter((p): p is string => !!p);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...QUIET_ENV,
      PULUMI_HOME: this.home,
      PULUMI_BACKEND_URL: `file://${this.backend}`,
      PULUMI_CONFIG_PASSPHRASE: this.opts.passphrase ?? "a passphrase only tests know",
      PULUMI_CREDENTIAL_STORE: "plaintext",
      PATH: pathParts.join(path.delimiter),
      // A TypeScript program runs as ts-node transpiles it, without type-checking it first (3 to 9 s of
      // CPU a run): the programs the tests run are type-checked by tsc where that is the point (the
      // README's in test/resources/doc-examples, generated ones in test/cli). A command given
      // `PULUMI_NODEJS_TRANSPILE_ONLY: undefined` checks as a user's default project does.
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      ...this.opts.env,
      ...extra,
    };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
    return env;
  }

  /** Starts `pulumi <args>` in the project folder; the caller waits for it with `done`. */
  start(args: string[], opts: { env?: Record<string, string | undefined>; stdin?: string } = {}): { child: ChildProcess; done: Promise<CliRun> } {
    const child = spawn(this.opts.cli.bin, args, { cwd: this.opts.projectDir, env: this.env(opts.env), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdin!.end(opts.stdin ?? "");
    const done = new Promise<CliRun>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code, signal) => resolve({ args, code, signal, stdout, stderr }));
    });
    return { child, done };
  }

  /** Runs `pulumi <args>` to its end. */
  run(args: string[], opts: { env?: Record<string, string | undefined>; stdin?: string } = {}): Promise<CliRun> {
    return this.start(args, opts).done;
  }

  /** Runs `pulumi <args>`, and throws with its output unless it exits 0. */
  async must(args: string[], opts: { env?: Record<string, string | undefined>; stdin?: string } = {}): Promise<CliRun> {
    const r = await this.run(args, opts);
    if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${r.code ?? r.signal}:\n${r.stdout}\n${r.stderr}`);
    return r;
  }

  /** `pulumi config set [--secret] <key> <value>`; the value goes on stdin, as a user piping it would. */
  async configSet(key: string, value: string, opts: { secret?: boolean } = {}): Promise<void> {
    await this.must(["config", "set", ...(opts.secret ? ["--secret"] : []), key], { stdin: value });
  }

  /** `pulumi stack export` (secrets stay encrypted unless `showSecrets`). */
  async exportState(opts: { showSecrets?: boolean } = {}): Promise<StackExport> {
    const r = await this.must(["stack", "export", ...(opts.showSecrets ? ["--show-secrets"] : [])]);
    return JSON.parse(r.stdout) as StackExport;
  }

  /** `pulumi stack output --json` (`--show-secrets` when asked). */
  async outputs(opts: { showSecrets?: boolean } = {}): Promise<Record<string, unknown>> {
    const r = await this.must(["stack", "output", "--json", ...(opts.showSecrets ? ["--show-secrets"] : [])]);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  }

  async dispose(): Promise<void> {
    fs.rmSync(this.home, { recursive: true, force: true });
  }
}

/**
 * Every process below `pid`, each before its own children's. The CLI starts its language host and
 * its plugins (the program, the provider host) in process groups of their own, so a signal to the
 * CLI's group misses them: a runner that dies takes them all, which `killTree` does.
 */
export function descendants(pid: number): number[] {
  let kids: number[] = [];
  try {
    kids = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" }).split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // none
  }
  return kids.flatMap((k) => [k, ...descendants(k)]);
}

/** SIGKILL to `child` and every process below it (listed before the CLI dies, which would orphan them); returns their ids. */
export function killTree(child: ChildProcess): number[] {
  const tree = child.pid === undefined ? [] : descendants(child.pid);
  child.kill("SIGKILL");
  for (const pid of tree) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone already
    }
  }
  return tree;
}

export interface StackResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  protect?: boolean;
}

export interface StackExport {
  version: number;
  deployment: {
    resources?: StackResource[];
    pending_operations?: { resource: StackResource; type: string }[];
  };
}

/**
 * A project folder for a program: Pulumi.yaml (runtime nodejs), the program's file, and a
 * `node_modules` link to the checkout's, where `reseller-pulumi` is this checkout (its `dist/`) and
 * `@pulumi/pulumi` the SDK it is built against. `files` are written into it (index.ts or index.js).
 *
 * A JavaScript program's project sets the nodejs runtime's option `typescript: false`: the language
 * host then loads neither ts-node nor TypeScript for it (about a second of CPU each run).
 */
export function makeProject(name: string, files: Record<string, string>, opts: { main?: string } = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `reseller-project-`));
  const main = opts.main ?? Object.keys(files)[0] ?? "";
  const runtime = /\.[cm]?js$/.test(main) ? "runtime:\n  name: nodejs\n  options:\n    typescript: false\n" : "runtime: nodejs\n";
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\n${runtime}${opts.main ? `main: ${opts.main}\n` : ""}`);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, main: main || undefined }, null, 2));
  fs.symlinkSync(path.join(checkoutRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}
