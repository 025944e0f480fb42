// Starts a program the way the CLI's Node.js language host does (pulumi/pulumi
// sdk/nodejs/cmd/pulumi-language-nodejs/main.go, constructArguments and execRuntime): node running the
// SDK's own `@pulumi/pulumi/cmd/run` with --monitor, --engine, --project, --stack, --pwd, --dry-run,
// --parallel and the entry point; config in PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as readline from "node:readline";
import { guardedNodeArgs } from "./guarded-node";
import { PROGRAM_ARGS_ENV } from "./program-args";

/**
 * A program that is a function of the monitor's address, run in this process: it registers through
 * its own gRPC client, as the programs of pulumi's lifecycle tests do (deploytest.NewLanguageRuntime).
 * For the engine's own step-rule tests; a thrown error fails the run as a program's exit would.
 */
export interface MonitorProgram {
  monitor: (address: string, opts: { dryRun: boolean }) => Promise<void>;
}

export type Program = string | { file: string; args?: unknown } | MonitorProgram;

export interface ProgramRun {
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Its stdout and stderr lines. */
  output(): string[];
  /** Ends the process (a deployment that failed stops its program, as the CLI cancels it). */
  stop(): void;
}

export interface ProgramOptions {
  program: Program;
  monitor: string;
  project: string;
  stack: string;
  dryRun: boolean;
  parallel: number;
  config: Record<string, string>;
  secretConfigKeys: string[];
  env?: Record<string, string | undefined>;
  /**
   * A project of its own: `cmd/run` from its node_modules' @pulumi/pulumi, and the program run in it
   * (`--pwd` and cwd). Default: this package's SDK, the program in its own folder.
   */
  projectDir?: string;
}

/**
 * The runner the language host starts (its defaultRunPath), resolved from this package's SDK, or from
 * `projectDir`'s node_modules (that project's own @pulumi/pulumi, whatever its version).
 */
export function runnerPath(projectDir?: string): string {
  return require.resolve("@pulumi/pulumi/cmd/run", projectDir ? { paths: [path.resolve(projectDir)] } : undefined);
}

/**
 * --pwd and entry point: a directory runs "." in itself (package.json main), a file runs itself from
 * its folder; in a project of its own, --pwd is the project and a program other than it runs by path.
 */
function entry(file: string, projectDir: string | undefined): { pwd: string; entryPoint: string } {
  const abs = path.resolve(file);
  if (projectDir) {
    const pwd = path.resolve(projectDir);
    return { pwd, entryPoint: abs === pwd ? "." : abs };
  }
  if (fs.existsSync(abs) && fs.statSync(abs).isDirectory()) return { pwd: abs, entryPoint: "." };
  return { pwd: path.dirname(abs), entryPoint: abs };
}

/** A MonitorProgram: exits 0 when its function resolves, 1 with the message when it throws; stop() ends it. */
function runInProcess(program: MonitorProgram, opts: ProgramOptions): ProgramRun {
  const lines: string[] = [];
  let stopped: (exit: { code: number | null; signal: NodeJS.Signals | null }) => void = () => undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    stopped = resolve;
    program.monitor(opts.monitor, { dryRun: opts.dryRun }).then(
      () => resolve({ code: 0, signal: null }),
      (e: unknown) => {
        lines.push(e instanceof Error ? e.message : String(e));
        resolve({ code: 1, signal: null });
      },
    );
  });
  return { exited, output: () => [...lines], stop: () => stopped({ code: null, signal: "SIGKILL" }) };
}

export function startProgram(opts: ProgramOptions): ProgramRun {
  if (typeof opts.program === "object" && "monitor" in opts.program) return runInProcess(opts.program, opts);
  const file = typeof opts.program === "string" ? opts.program : opts.program.file;
  const args = typeof opts.program === "string" ? undefined : opts.program.args;
  if (!fs.existsSync(path.resolve(file))) throw new Error(`program not found: ${file} (compile it first: npm run build)`);
  const { pwd, entryPoint } = entry(file, opts.projectDir);
  const argv = [
    runnerPath(opts.projectDir),
    "--monitor", opts.monitor,
    "--engine", opts.monitor,
    "--project", opts.project,
    "--stack", opts.stack,
    "--pwd", pwd,
    ...(opts.dryRun ? ["--dry-run"] : []),
    "--parallel", String(opts.parallel),
    entryPoint,
  ];
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...opts.env,
    PULUMI_CONFIG: JSON.stringify(opts.config),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(opts.secretConfigKeys),
    [PROGRAM_ARGS_ENV]: args === undefined ? undefined : JSON.stringify(args),
  };
  // A .ts program goes through the runner's own TypeScript path (its vendored ts-node), as the CLI's
  // `runtime.options.typescript` default does; jest's variables would make the child think it is a test.
  if (/\.tsx?$/.test(entryPoint)) env.PULUMI_NODEJS_TYPESCRIPT = "true";
  for (const k of Object.keys(env)) if (k.startsWith("JEST_") || env[k] === undefined) delete env[k];

  const child: ChildProcess = spawn(process.execPath, guardedNodeArgs(argv), { cwd: pwd, env, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  readline.createInterface({ input: child.stdout! }).on("line", (l) => lines.push(l));
  readline.createInterface({ input: child.stderr! }).on("line", (l) => lines.push(l));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", () => resolve({ code: -1, signal: null }));
  });
  return {
    exited,
    output: () => [...lines],
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}
