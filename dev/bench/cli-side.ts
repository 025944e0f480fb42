/**
 * The real Pulumi CLI side of a bench section: the same compiled program the stand-in (dev/engine/)
 * runs, in a project of its own, through `pulumi up`, `preview`, `refresh` and `destroy` against
 * the same kind of sandbox, measured as the stand-in's operations are (dev/bench/linear.ts `OpCost`):
 * wall time, API requests and the first one (the sandbox's own count), the CPU of the program's
 * process and of the provider host (dev/bench/cpu-preload.ts, through NODE_OPTIONS, which the CLI
 * passes on to both), and the CPU of everything the command ran (`allMs`: the CLI itself, its
 * language host, the program and the provider host, by /usr/bin/time, which counts every process
 * the CLI waited for). The stand-in's engine runs in the bench's own process, so its CPU has no
 * counterpart in its figures; `allMs` − program − host is what the CLI adds.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PROGRAM_ARGS_ENV } from "../engine/program-args";
import { CliStack, builtCli, makeProject, type PulumiCli } from "../pulumi-cli";
import type { SandboxHandle } from "../../sandbox/index";
import { CPU_DIR_ENV, CPU_PROFILE_DIR_ENV } from "./cpu-preload";
import { measureOp, preloadOptions, type OpCost } from "./op-cost";
import { sandboxConfig } from "./measure";

/** An operation through the CLI: the stand-in's figures, the CPU of every process, and the counts the CLI printed. */
export interface CliOpCost extends OpCost {
  /** CPU ms of the CLI and every process it waited for. */
  allMs: number;
  /** The CLI's closing "Resources:" counts: created, updated, unchanged, deleted, "to create", ... */
  summary: Record<string, number>;
}

export type CliOp = "up" | "preview" | "refresh" | "destroy";

const ARGS: Record<CliOp, string[]> = {
  up: ["up", "--yes", "--non-interactive", "--skip-preview"],
  preview: ["preview", "--non-interactive"],
  refresh: ["refresh", "--yes", "--non-interactive", "--skip-preview"],
  destroy: ["destroy", "--yes", "--non-interactive", "--skip-preview"],
};

/** The counts of the CLI's closing "Resources:" block: `+ 3 created`, `1 unchanged`, `~ 1 to update`. */
export function cliSummary(stdout: string): Record<string, number> {
  const block = stdout.split(/\nResources:\n/).pop() ?? "";
  const out: Record<string, number> = {};
  for (const line of block.split("\n")) {
    const m = /^\s+(?:[-+~]+\s*)?(\d+) (to \w+|\w+)\s*$/.exec(line);
    if (m) out[m[2]] = Number(m[1]);
    else if (line.trim() === "" && Object.keys(out).length > 0) break;
  }
  return out;
}

/** `BENCH_CLI_SKIP_CHECKPOINTS=1`: every CLI command of the bench runs with the CLI's own PULUMI_SKIP_CHECKPOINTS=true (dev/bench/README.md). */
export const SKIP_CHECKPOINTS_ENV = "BENCH_CLI_SKIP_CHECKPOINTS";
/** `BENCH_CLI_PROFILE_DIR=<dir>`: each CLI command writes its CPU profile (`--profiling`) and the program's and host's (cpu-preload.ts) into a folder of its own there. */
export const PROFILE_DIR_ENV = "BENCH_CLI_PROFILE_DIR";

export interface CliBenchSettings {
  /** The CLI writes its state once, when the command ends, not after every step. */
  skipCheckpoints: boolean;
  /** Where each command's profiles go, when set. */
  profileDir?: string;
}

/** The bench's CLI settings from the environment; throws on a value it does not know. */
export function cliBenchSettings(env: NodeJS.ProcessEnv = process.env): CliBenchSettings {
  const skip = env[SKIP_CHECKPOINTS_ENV] ?? "";
  if (!["", "0", "1"].includes(skip)) throw new Error(`${SKIP_CHECKPOINTS_ENV}: "${skip}" is not 1 (skip the CLI's checkpoints) or 0`);
  const profileDir = env[PROFILE_DIR_ENV] || undefined;
  if (profileDir !== undefined && !path.isAbsolute(profileDir)) throw new Error(`${PROFILE_DIR_ENV}: "${profileDir}" is not an absolute path`);
  return { skipCheckpoints: skip === "1", profileDir };
}

/** The environment the CLI's commands get for `settings`. */
export const checkpointEnv = (settings: CliBenchSettings): Record<string, string> => (settings.skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {});

/** How the figures' CLI wrote its state, for the bench's output. */
export const checkpointsFigure = (settings: CliBenchSettings = cliBenchSettings()): string =>
  settings.skipCheckpoints ? "once at the end (PULUMI_SKIP_CHECKPOINTS=true)" : "after every step";

/** A wrapper that runs each command under /usr/bin/time, which appends "user system" (seconds) to `timesFile`. */
function timedCli(cli: PulumiCli, dir: string): { cli: PulumiCli; timesFile: string } {
  const timesFile = path.join(dir, "times");
  const wrapper = path.join(dir, "pulumi");
  fs.writeFileSync(wrapper, `#!/bin/sh\nexec /usr/bin/time -f "%U %S" -a -o ${JSON.stringify(timesFile)} ${JSON.stringify(cli.bin)} "$@"\n`, { mode: 0o755 });
  return { cli: { ...cli, bin: wrapper }, timesFile };
}

/** The built CLI wrapped so each command's CPU is recorded; undefined when the CLI is not built or /usr/bin/time is missing. */
export function timedBuiltCli(dir: string): { cli: PulumiCli; timesFile: string } | undefined {
  const found = builtCli();
  if (!found) return undefined;
  try {
    execFileSync("/usr/bin/time", ["-f", "%U", "true"], { stdio: "ignore" });
  } catch {
    return undefined;
  }
  return timedCli(found, dir);
}

/** Why a section that needs the timed CLI reports nothing. */
export const NO_TIMED_CLI = "the Pulumi CLI is not built (npm run pulumi-cli), or /usr/bin/time is missing";

/** A folder of its own (`prefix` in the system's temporary folder) holding the timed CLI; undefined, and no folder left, without one. */
export function timedCliFolder(prefix: string): { dir: string; cli: PulumiCli; timesFile: string } | undefined {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const timed = timedBuiltCli(dir);
  if (timed) return { dir, ...timed };
  fs.rmSync(dir, { recursive: true, force: true });
  return undefined;
}

/** The CPU seconds of the last command from the times file, checking it wrote exactly one more line. */
export function lastCommandCpuMs(timesFile: string, linesBefore: number): number {
  const lines = fs.readFileSync(timesFile, "utf8").trim().split("\n");
  if (lines.length !== linesBefore + 1) throw new Error(`cli: /usr/bin/time wrote ${lines.length - linesBefore} lines for one command`);
  const [user, system] = lines[lines.length - 1].split(" ").map(Number);
  return (user + system) * 1000;
}

/** A CLI stack's settings for `sandbox` (the secret set as a secret), paced at `limitPerMinute`. */
export async function configureForSandbox(stack: CliStack, sandbox: SandboxHandle, limitPerMinute: number): Promise<void> {
  for (const [key, value] of Object.entries(sandboxConfig(sandbox, limitPerMinute))) await stack.configSet(key, value, { secret: key === "reseller:apiSecret" });
}

export const timesLines = (timesFile: string): number => (fs.existsSync(timesFile) ? fs.readFileSync(timesFile, "utf8").trim().split("\n").length : 0);

export interface CliSideOptions {
  /** The stand-in's program: a compiled module that reads its arguments with `programArgs()`. */
  program: { file: string; args?: unknown };
  /** The client's limit (stack config `reseller:requestsPerMinute`). */
  limitPerMinute: number;
  /** More stack config, e.g. `reseller:contract`. */
  config?: Record<string, string>;
  /** The CLI's `--parallel` (its default otherwise: 8 on this machine's two cores). */
  parallel?: number;
  /** More environment for every command. */
  env?: Record<string, string>;
  /** Checkpoints and profiles; default: from the environment (`cliBenchSettings`). */
  settings?: CliBenchSettings;
}

/** One stack through the real CLI against `sandbox`, the program of the stand-in. */
export class CliSide {
  private constructor(
    readonly version: string,
    readonly stack: CliStack,
    private readonly sandbox: SandboxHandle,
    private readonly dir: string,
    private readonly cpuDir: string,
    private readonly timesFile: string,
    private readonly projectDir: string,
    private readonly opts: CliSideOptions,
    readonly settings: CliBenchSettings,
  ) {}

  private commands = 0;

  /** A stack of a project running `opts.program`; undefined when the CLI is not built (`npm run pulumi-cli`). */
  static async open(sandbox: SandboxHandle, opts: CliSideOptions): Promise<CliSide | undefined> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-cli-side-"));
    const timed = timedBuiltCli(dir);
    if (!timed) {
      fs.rmSync(dir, { recursive: true, force: true });
      return undefined;
    }
    const cpuDir = path.join(dir, "cpu");
    fs.mkdirSync(cpuDir);
    const projectDir = makeProject("bench", { "index.js": `module.exports = require(${JSON.stringify(opts.program.file)});\n` });
    const settings = opts.settings ?? cliBenchSettings();
    const env = { NODE_OPTIONS: preloadOptions(), [CPU_DIR_ENV]: cpuDir, RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined, ...checkpointEnv(settings), ...opts.env };
    const stack = await CliStack.init({ cli: timed.cli, projectDir, env });
    const side = new CliSide(timed.cli.version, stack, sandbox, dir, cpuDir, timed.timesFile, projectDir, opts, settings);
    const config = { ...sandboxConfig(sandbox, opts.limitPerMinute), ...opts.config };
    for (const [k, v] of Object.entries(config)) await stack.configSet(k, v, { secret: k === "reseller:apiSecret" });
    // The commands above ran under the preload too: their files are not an operation's.
    for (const f of fs.readdirSync(cpuDir)) fs.rmSync(path.join(cpuDir, f));
    return side;
  }

  /**
   * `pulumi <op>` with the program's `args` (default: the stand-in's), measured; throws unless it
   * exits 0 and, when `want` is given, its closing counts include each of `want`'s.
   */
  async run(op: CliOp, want?: Record<string, number>, args: unknown = this.opts.program.args, extra: string[] = []): Promise<CliOpCost> {
    const parallel = this.opts.parallel && op !== "refresh" && op !== "destroy" ? ["--parallel", String(this.opts.parallel)] : [];
    // Profiles: one folder per command, `<n>-<op>`, holding the CLI's `cli.<pid>.cpu` and the preload's `<role>-<pid>.cpuprofile`.
    const profileDir = this.settings.profileDir && path.join(this.settings.profileDir, `${String(++this.commands).padStart(2, "0")}-${op}`);
    if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
    const profiling = profileDir ? ["--profiling", path.join(profileDir, "cli")] : [];
    const command = [...ARGS[op], ...parallel, ...extra, ...profiling];
    let stdout = "";
    let allMs = 0;
    const cost = await measureOp(this.sandbox, this.cpuDir, async () => {
      const before = timesLines(this.timesFile);
      const r = await this.stack.must(command, { env: { [PROGRAM_ARGS_ENV]: args === undefined ? undefined : JSON.stringify(args), [CPU_PROFILE_DIR_ENV]: profileDir || undefined } });
      stdout = r.stdout;
      allMs = lastCommandCpuMs(this.timesFile, before);
    });
    const summary = cliSummary(stdout);
    for (const [k, v] of Object.entries(want ?? {}))
      if (summary[k] !== v) throw new Error(`cli ${command.join(" ")}: expected ${v} ${k}, the CLI printed ${JSON.stringify(summary)}:\n${stdout.slice(-2000)}`);
    return { ...cost, allMs, summary };
  }

  /** The stack's state as `pulumi stack export` prints it, and its custom resources of a type ending in `typeSuffix`. */
  async state(typeSuffix: string): Promise<{ bytes: number; resources: unknown[] }> {
    const r = await this.stack.must(["stack", "export"]);
    const parsed = JSON.parse(r.stdout) as { deployment: { resources?: { type: string }[] } };
    return { bytes: Buffer.byteLength(r.stdout), resources: (parsed.deployment.resources ?? []).filter((x) => x.type.endsWith(typeSuffix)) };
  }

  async close(): Promise<void> {
    await this.stack.dispose();
    fs.rmSync(this.projectDir, { recursive: true, force: true });
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** CLI over stand-in, rounded; NaN when either is missing. */
export const overStandIn = (cli: number | undefined, standIn: number | undefined): number =>
  cli === undefined || standIn === undefined || standIn === 0 ? NaN : Number((cli / standIn).toFixed(2));
