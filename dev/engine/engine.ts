// A stand-in for the Pulumi CLI: runs a program in its own Node process through the SDK's own runner
// (`@pulumi/pulumi/cmd/run`), serves it the ResourceMonitor and Engine gRPC services, applies the
// real engine's step rules (deployment.ts, step-generator.ts, step-executor.ts) and sends every
// provider call to the SDK's dynamic provider host over gRPC, the process `pulumi up` starts. Used by
// tests, the demo, the bench and the chaos runs. What it mirrors and what still differs: dev/engine/conformance.md.
import * as os from "node:os";
import { emptySummary, header, stepLine, summaryLines, type Operation, type Step, type Summary } from "./display";
import { Deployment, rebuildBaseState, reportedOutputs } from "./deployment";
import { destroyAll, errorMessage, Gate, refreshOne, type HostCalls } from "./step-executor";
import { startProviderHost, type HostOptions, type ProviderHost } from "./host";
import { startMonitor } from "./monitor";
import { startProgram, type Program } from "./program";
import { StateStore, type ResourceState } from "./state";

export type { Program } from "./program";
export { inputDiffs } from "./step-generator";

export interface EngineOptions {
  /** Where the state is persisted (atomically, after every step). In memory only when absent. */
  stateFile?: string;
  /** Stack config, e.g. { "reseller:apiKey": "...", "reseller:baseUrl": "..." }. */
  config: Record<string, string>;
  /** Config keys that are secrets (e.g. "reseller:apiSecret"), as `pulumi config set --secret` marks them. */
  secretConfigKeys?: string[];
  /** Passphrase for secrets in the state file; default PULUMI_CONFIG_PASSPHRASE, else "reseller-demo". */
  passphrase?: string;
  project?: string;
  stack?: string;
  /** The provider host's working directory and the extra environment of the host and the program. */
  host?: Omit<HostOptions, "projectDir">;
  /**
   * A Pulumi project of its own (a user's, outside this repository): the program and the provider
   * host run with that project's @pulumi/pulumi (`cmd/run` and `cmd/dynamic-provider` resolved from
   * its node_modules, any supported version) and in it (the program's `--pwd` and cwd, the host's
   * cwd unless `host.cwd`). Default: this repository's SDK; the program in its own folder, the host
   * in this package's root.
   */
  projectDir?: string;
  /** Resource operations run at once, like `pulumi up --parallel`; default 4 × CPUs as the CLI's. */
  parallel?: number;
  /**
   * Like `pulumi up/destroy --continue-on-error`, for deletes only: a failed delete skips what it
   * depends on and the other deletes go on (step_executor.go cancelDueToError, deployment_executor.go
   * erroredDeps). A failed create or update still stops the run.
   */
  continueOnError?: boolean;
  /** refresh/destroy: run the program and use today's config (the CLI's `--run-program`), instead of the config saved at the last `up`. */
  runProgram?: boolean;
  log?: (line: string) => void;
  /**
   * Starts each run's provider in place of the SDK's dynamic provider host: the engine's own tests
   * give an in-test provider, as pulumi's lifecycle tests do (deploytest.Provider).
   */
  startHost?: () => Promise<ProviderHost>;
  /** Called with each run's provider host as soon as it has started (chaos runs kill it mid-apply). */
  onHostStarted?: (host: ProviderHost) => void;
}

export interface RunResult {
  operation: Operation;
  summary: Summary;
  steps: Step[];
  errors: string[];
  /** The program's stack outputs, resolved; secrets as "[secret]"; unknowns in a preview are omitted. */
  outputs: Record<string, unknown>;
}

export class EngineError extends Error {
  override readonly name = "EngineError";
  constructor(
    message: string,
    readonly result: RunResult,
  ) {
    super(message);
  }
}

/** Each call waits for the host to be up and configured, so the program starts while the host does. */
function whenReady(ready: Promise<ProviderHost>): HostCalls {
  return {
    check: async (...a) => (await ready).check(...a),
    diff: async (...a) => (await ready).diff(...a),
    create: async (...a) => (await ready).create(...a),
    read: async (...a) => (await ready).read(...a),
    update: async (...a) => (await ready).update(...a),
    delete: async (...a) => (await ready).delete(...a),
  };
}

interface RunContext {
  operation: Operation;
  host: HostCalls;
  steps: Step[];
  summary: Summary;
  errors: string[];
}

/** The last lines a failed program printed, for the error message. */
const TAIL_LINES = 15;

export class Engine {
  private readonly opts: Required<Pick<EngineOptions, "project" | "stack" | "parallel" | "passphrase">> & EngineOptions;
  private state: StateStore;
  private readonly hostLogLines: string[] = [];

  constructor(opts: EngineOptions) {
    this.opts = {
      project: "reseller",
      stack: "dev",
      parallel: 4 * os.availableParallelism(),
      passphrase: process.env.PULUMI_CONFIG_PASSPHRASE ?? "reseller-demo",
      ...opts,
    };
    this.state = StateStore.load(opts.stateFile, this.opts.passphrase);
  }

  /** The custom resources in state, secrets in plain text (in memory only). */
  resources(): ResourceState[] {
    return this.state.resources.filter((r) => r.custom).map((r) => ({ ...r }));
  }

  /** Every resource in state: the stack and components too. */
  allResources(): ResourceState[] {
    return this.state.resources.map((r) => ({ ...r }));
  }

  /** The state file's text as written (secrets sealed). */
  serializedState(): string {
    return this.state.serialize();
  }

  /** Every line the provider hosts of this engine's runs wrote, for audits. */
  hostLogs(): string[] {
    return [...this.hostLogLines];
  }

  /** Every line the programs of this engine's runs printed, for audits. */
  programLogs(): string[] {
    return [...this.programLogLines];
  }

  private readonly programLogLines: string[] = [];

  preview(program: Program): Promise<RunResult> {
    return this.deploy("preview", program);
  }

  up(program: Program): Promise<RunResult> {
    return this.deploy("update", program);
  }

  /**
   * Reads every resource in parallel and classifies each through the provider's Diff (RefreshStep in
   * step.go); the provider is configured with the config saved at the last `up` unless runProgram.
   */
  refresh(program?: Program, opts: { preview?: boolean } = {}): Promise<RunResult> {
    return this.withHost("refresh", this.configForStateOps(), async (ctx) => {
      if (this.opts.runProgram && program) await this.runReadOnly(ctx, program);
      const gate = new Gate(this.opts.parallel);
      await Promise.all(
        this.state.resources
          .filter((r) => r.custom && !r.pendingReplacement)
          .map((r) => gate.run(() => (opts.preview ? this.refreshOne(ctx, structuredClone(r), true) : this.refreshOne(ctx, r)))),
      );
      if (opts.preview) return;
      this.state.resources = rebuildBaseState(this.state.resources);
      this.state.save();
    });
  }

  /** Deletes everything in state, dependents first, in parallel (ScheduleDeletes); `preview` calls no Delete. */
  destroy(program?: Program, opts: { preview?: boolean } = {}): Promise<RunResult> {
    return this.withHost("destroy", this.configForStateOps(), async (ctx) => {
      if (this.opts.runProgram && program) await this.runReadOnly(ctx, program);
      const preview = opts.preview ?? false;
      await destroyAll(this.state.resources, ctx.host, this.opts.parallel, (s, t) => this.record(ctx, s, t), (r) => {
        this.state.resources = this.state.resources.filter((x) => x !== r);
        this.state.save();
      }, { preview, continueOnError: this.opts.continueOnError ?? false });
      this.state.save();
    });
  }

  /** refresh and destroy: the config saved with the last `up` (deployment_executor.go), unless runProgram. */
  private configForStateOps(): Record<string, string> {
    if (this.opts.runProgram || !this.state.config) return this.opts.config;
    return this.state.config;
  }

  /** One RefreshStep; `preview` works on a copy and leaves the state as it is. */
  private async refreshOne(ctx: RunContext, r: ResourceState, preview = false): Promise<void> {
    const started = Date.now();
    const { step, read, warning } = await refreshOne(ctx.host, r);
    if (read) ctx.summary.read++;
    if (warning) this.log(`    warning: ${r.name}: ${warning}`);
    if (step.op === "delete" && !preview) this.state.resources = this.state.resources.filter((x) => x !== r);
    if (!step.error && !preview) this.state.save();
    this.record(ctx, step, started);
  }

  private log(line: string): void {
    (this.opts.log ?? ((l: string) => console.log(l)))(line);
  }

  private record(ctx: RunContext, step: Step, started: number): void {
    ctx.steps.push(step);
    if (step.error) {
      const msg = `${step.urn}: ${step.error}`;
      if (!ctx.errors.includes(msg)) ctx.errors.push(msg);
    } else if (!step.replacing) ctx.summary[step.adopt ? "adopt" : step.op]++;
    if (step.op !== "same" || step.error) {
      const planned = ctx.operation === "preview";
      this.log(stepLine(step, planned, planned ? undefined : (Date.now() - started) / 1000));
    }
  }

  private async withHost(
    operation: Operation,
    config: Record<string, string>,
    body: (ctx: RunContext) => Promise<Record<string, unknown> | void>,
  ): Promise<RunResult> {
    const started = Date.now();
    this.log(header(operation, this.opts.stack));
    this.log("");
    // Started, not awaited: the host's start-up overlaps the program's own.
    const start = this.opts.startHost ?? (() => startProviderHost({ ...this.opts.host, projectDir: this.opts.projectDir }));
    const starting = start().then((host) => {
      this.opts.onHostStarted?.(host);
      return host;
    });
    const ready = starting.then(async (host) => {
      await host.configure(config);
      return host;
    });
    ready.catch(() => undefined); // seen by the first call, or below
    const ctx: RunContext = { operation, host: whenReady(ready), steps: [], summary: emptySummary(), errors: [] };
    let outputs: Record<string, unknown> = {};
    try {
      outputs = (await body(ctx)) ?? {};
      await ready;
    } catch (e) {
      const msg = errorMessage(e);
      if (!ctx.errors.some((x) => x.includes(msg))) ctx.errors.push(msg);
    } finally {
      const host = await starting.catch(() => undefined);
      if (host) {
        await host.close();
        this.hostLogLines.push(...host.logs());
      }
      this.state.save();
    }
    if (ctx.steps.some((s) => s.op !== "same" || s.error)) this.log("");
    if (Object.keys(outputs).length > 0) {
      this.log("Outputs:");
      for (const [k, v] of Object.entries(outputs)) this.log(`    ${k}: ${JSON.stringify(v)}`);
      this.log("");
    }
    for (const line of summaryLines(ctx.summary, operation === "preview", (Date.now() - started) / 1000)) this.log(line);
    const result: RunResult = { operation, summary: ctx.summary, steps: ctx.steps, errors: ctx.errors, outputs };
    if (ctx.errors.length > 0) {
      for (const e of ctx.errors) this.log(`error: ${e}`);
      throw new EngineError(`${operation} failed: ${ctx.errors.join("; ")}`, result);
    }
    return result;
  }

  /**
   * Runs the program against a Deployment until it exits, or until a step failed and the steps in
   * flight are done (then the program is stopped, as the CLI cancels it). Returns the Deployment.
   */
  private async runProgramProcess(ctx: RunContext, program: Program, dep: Deployment, dryRun: boolean): Promise<void> {
    const monitor = await startMonitor(dep);
    try {
      const run = startProgram({
        program,
        monitor: monitor.address,
        project: this.opts.project,
        stack: this.opts.stack,
        dryRun,
        parallel: this.opts.parallel,
        config: this.opts.config,
        secretConfigKeys: this.opts.secretConfigKeys ?? [],
        env: this.opts.host?.env,
        projectDir: this.opts.projectDir,
      });
      const failed = dep.failed.then(() => dep.idle()).then(() => "failed" as const);
      const outcome = await Promise.race([run.exited, failed]);
      if (outcome === "failed") run.stop();
      const exit = await run.exited;
      await (dep.hasFailed ? Promise.resolve() : dep.idle());
      const output = run.output();
      this.programLogLines.push(...output);
      if (!dep.hasFailed && exit.code !== 0) {
        // 32: the SDK already reported the error through Log (run/index.js); otherwise say how it ended.
        const tail = output.slice(-TAIL_LINES).join("\n");
        dep.fail(
          exit.code === 32
            ? `the program failed${tail ? `:\n${tail}` : ""}`
            : `Program exited with non-zero exit code: ${exit.code ?? exit.signal}${tail ? `\n${tail}` : ""}`,
        );
      }
    } finally {
      await monitor.close();
      for (const e of dep.errors) if (!ctx.errors.includes(e)) ctx.errors.push(e);
    }
  }

  private deployment(ctx: RunContext, preview: boolean, readOnly: boolean): Deployment {
    return new Deployment({
      preview,
      readOnly,
      host: ctx.host,
      olds: this.state.resources,
      project: this.opts.project,
      stack: this.opts.stack,
      parallel: this.opts.parallel,
      continueOnError: this.opts.continueOnError ?? false,
      record: (step, started) => this.record(ctx, step, started),
      save: (snapshot) => this.state.checkpoint(snapshot),
      log: (line) => this.log(line),
    });
  }

  /** refresh/destroy --run-program: the program runs, its registrations answered from the state. */
  private async runReadOnly(ctx: RunContext, program: Program): Promise<void> {
    const dep = this.deployment(ctx, true, true);
    await this.runProgramProcess(ctx, program, dep, true);
  }

  private deploy(operation: "preview" | "update", program: Program): Promise<RunResult> {
    const preview = operation === "preview";
    if (!preview) {
      // The config of this `up` is what refresh and destroy will configure the provider with.
      this.state.config = { ...this.opts.config };
      this.state.secretConfigKeys = [...(this.opts.secretConfigKeys ?? [])];
    }
    return this.withHost(operation, this.opts.config, async (ctx) => {
      const dep = this.deployment(ctx, preview, false);
      await this.runProgramProcess(ctx, program, dep, preview);
      await dep.finish(ctx.errors.length > 0);
      for (const e of dep.reportedErrors) if (!ctx.errors.includes(e)) ctx.errors.push(e);
      return ctx.errors.length === 0 ? reportedOutputs(dep.stackOutputs) : {};
    });
  }
}
