// A mini Pulumi engine: runs an unmodified program in-process under `pulumi.runtime.setMocks` and
// forwards every dynamic-resource registration to the SDK's provider host over gRPC, the way
// `pulumi preview/up/refresh/destroy` do. Used by tests, the demo, the bench and the chaos runs.
//
// Known gaps against the real engine (the mocks are not told about them):
// - resource options: retainOnDelete, additionalSecretOutputs, ignoreChanges, protect, dependsOn and
//   parent are not seen. Declare secret outputs with `secretOutputs(type)` instead.
// - URNs carry no parent type chain; deletes run in reverse registration order (which respects
//   dependencies, since a dependent registers only after its inputs resolved).
// - Only dynamic resources (`pulumi-nodejs:dynamic...`) are supported; invokes are refused.
// - The replaced half of a create-before-delete replace is deleted right after its replacement is
//   created, not at the end of the run.
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { emptySummary, header, stepLine, summaryLines, type Operation, type Step, type Summary } from "./display";
import { startProviderHost, type HostOptions, type PropertyMap, type ProviderHost } from "./host";
import { markSecrets, unwrapInputs } from "./secrets";
import { StateStore, type ResourceState } from "./state";
import { PROGRAM_ARGS_ENV } from "./program-args";

/**
 * A program module: compiled JS, a `.ts` file (run through the SDK's own TypeScript path), or a
 * directory with a package.json, run in its own Node process by `@pulumi/pulumi/cmd/run`. `args`
 * (JSON) reach it through `programArgs<T>()`.
 */
export type Program = string | { file: string; args?: unknown };

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
  host?: HostOptions;
  /** Resource operations run at once, like `pulumi up --parallel`; default 4 × CPUs as the CLI's. */
  parallel?: number;
  /** refresh/destroy: run the program and use today's config (the CLI's `--run-program`), instead of the config saved at the last `up`. */
  runProgram?: boolean;
  log?: (line: string) => void;
  /** Called with each run's provider host as soon as it has started (chaos runs kill it mid-apply). */
  onHostStarted?: (host: ProviderHost) => void;
}

export interface RunResult {
  operation: Operation;
  summary: Summary;
  steps: Step[];
  errors: string[];
  /** The program's stack outputs (what it returned or exported), resolved; unknowns in a preview are omitted. */
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

const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic";

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, val: unknown) =>
    val && typeof val === "object" && !Array.isArray(val)
      ? Object.fromEntries(Object.entries(val as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : val,
  );
}

/** Changed input properties between two input sets, ignoring the serialized provider text. */
export function inputDiffs(olds: PropertyMap, news: PropertyMap): string[] {
  const diffs: string[] = [];
  for (const k of Object.keys(news)) {
    if (k === "__provider") continue;
    if (!(k in olds)) diffs.push("+" + k);
    else if (canonical(olds[k]) !== canonical(news[k])) diffs.push("~" + k);
  }
  for (const k of Object.keys(olds)) if (k !== "__provider" && !(k in news)) diffs.push("-" + k);
  return diffs;
}

/** A counting semaphore for registrations, which arrive concurrently from the program. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      const next = this.waiting.shift();
      if (next) next();
      else if (this.active === 0) this.idleWaiters.splice(0).forEach((r) => r());
    }
  }

  /** Resolves when no step is running and none is waiting to run. */
  idle(): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }
}

/** Thrown inside the gate by a registration that starts after the run has failed. */
const STOPPED = Symbol("stopped");

/** A registration the engine will not answer: after an error the deployment stops, as Pulumi's does. */
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** Runs a program given as a file: fresh module cache for the program's own files, so it can run again. */
function runProgramFile(program: Program): unknown {
  const file = typeof program === "string" ? program : program.file;
  const args = typeof program === "string" ? undefined : program.args;
  if (args === undefined) delete process.env[PROGRAM_ARGS_ENV];
  else process.env[PROGRAM_ARGS_ENV] = JSON.stringify(args);
  const resolved = require.resolve(path.resolve(file));
  const dir = path.dirname(resolved) + path.sep;
  for (const key of Object.keys(require.cache)) {
    if (key.startsWith(dir) && !key.includes(`${path.sep}node_modules${path.sep}`)) delete require.cache[key];
  }
  const mod = require(resolved) as unknown;
  const entry =
    typeof mod === "function" ? mod : (mod as { default?: unknown } | undefined)?.default;
  return typeof entry === "function" ? (entry as () => unknown)() : mod;
}

/** Resolves a program's stack outputs; values still unknown (preview) are left out. */
async function resolveOutputs(result: unknown): Promise<Record<string, unknown>> {
  if (!result || typeof result !== "object") return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(result as Record<string, unknown>)) {
    if (k === "__esModule" || typeof v === "function") continue;
    const o: pulumi.Output<unknown> = pulumi.output(v as pulumi.Input<unknown>);
    const internal = o as unknown as { isKnown: Promise<boolean>; isSecret: Promise<boolean> };
    if (!(await internal.isKnown)) continue;
    out[k] = (await internal.isSecret) ? "[secret]" : await new Promise((resolve) => o.apply((x: unknown) => resolve(x)));
  }
  return out;
}

/** The host's resource operations. */
type HostCalls = Pick<ProviderHost, "check" | "diff" | "create" | "read" | "update" | "delete">;

/** Each call waits for the host to be up and configured, so the program runs while the host starts. */
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

  /** The resources in state, secrets in plain text (in memory only). */
  resources(): ResourceState[] {
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

  preview(program: Program): Promise<RunResult> {
    return this.runProgram("preview", program);
  }

  up(program: Program): Promise<RunResult> {
    return this.runProgram("update", program);
  }

  refresh(_program?: Program): Promise<RunResult> {
    return this.withHost("refresh", async (ctx) => {
      for (const r of [...this.state.resources]) {
        const started = Date.now();
        const step: Step = { op: "same", urn: r.urn, type: r.type, name: r.name, id: r.id, diffs: [], replaces: [] };
        try {
          const read = await ctx.host.read(r.id, r.urn, r.outputs, r.inputs);
          ctx.summary.read++;
          if (read.id === "") {
            step.op = "delete";
            this.state.resources = this.state.resources.filter((x) => x !== r);
          } else {
            step.diffs = inputDiffs(r.outputs, read.props);
            if (step.diffs.length > 0) step.op = "update";
            r.id = read.id;
            r.outputs = read.props;
            if (read.inputs) r.inputs = read.inputs;
          }
          this.state.save();
        } catch (e) {
          step.error = errorMessage(e);
        }
        this.record(ctx, step, started);
      }
    });
  }

  destroy(_program?: Program): Promise<RunResult> {
    return this.withHost("destroy", async (ctx) => {
      for (const r of [...this.state.resources].reverse()) {
        if (ctx.errors.length > 0) break;
        await this.deleteResource(ctx, r);
      }
    });
  }

  private log(line: string): void {
    (this.opts.log ?? ((l: string) => console.log(l)))(line);
  }

  private record(ctx: RunContext, step: Step, started: number): void {
    ctx.steps.push(step);
    if (step.error) ctx.errors.push(`${step.urn}: ${step.error}`);
    else ctx.summary[step.op]++;
    if (step.op !== "same" || step.error) {
      const planned = ctx.operation === "preview";
      this.log(stepLine(step, planned, planned ? undefined : (Date.now() - started) / 1000));
    }
  }

  private async withHost(
    operation: Operation,
    body: (ctx: RunContext) => Promise<Record<string, unknown> | void>,
  ): Promise<RunResult> {
    const started = Date.now();
    this.log(header(operation, this.opts.stack));
    this.log("");
    // Started, not awaited: the host's ~1 s start-up overlaps the program's own start.
    const starting = startProviderHost(this.opts.host).then((host) => {
      this.opts.onHostStarted?.(host);
      return host;
    });
    const ready = starting.then(async (host) => {
      await host.configure(this.opts.config);
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

  private async deleteResource(ctx: RunContext, r: ResourceState): Promise<void> {
    const started = Date.now();
    const step: Step = { op: "delete", urn: r.urn, type: r.type, name: r.name, id: r.id, diffs: [], replaces: [] };
    if (ctx.operation !== "preview") {
      try {
        await ctx.host.delete(r.id, r.urn, r.outputs);
        this.state.resources = this.state.resources.filter((x) => x !== r);
        this.state.save();
      } catch (e) {
        step.error = errorMessage(e);
      }
    }
    this.record(ctx, step, started);
  }

  private runProgram(operation: "preview" | "update", program: Program): Promise<RunResult> {
    return this.withHost(operation, async (ctx) => {
      const preview = operation === "preview";
      const olds = [...this.state.resources];
      const registered: ResourceState[] = [];
      const seen = new Set<string>();
      const gate = new Gate(this.opts.parallel);
      // State during an update: what the program registered so far, then the olds not yet touched.
      const checkpoint = (): void => {
        if (preview) return;
        const done = new Set(registered.map((r) => r.urn));
        const kept = this.state.resources.filter((r) => r.pendingDelete || !done.has(r.urn));
        this.state.resources = [...registered, ...kept];
        this.state.save();
      };

      for (const r of olds.filter((o) => o.pendingDelete)) {
        if (!preview) await this.deleteResource(ctx, r);
      }

      // After the first failure no registration is answered: the program's dependents never see a
      // value and, unlike a rejected registration, no unhandled rejections escape into the process.
      let stop: () => void = () => undefined;
      const stopped = new Promise<void>((r) => (stop = r));
      const failed = (e: unknown, urn: string): Promise<never> => {
        const msg = errorMessage(e);
        if (!ctx.errors.some((x) => x.includes(msg))) ctx.errors.push(`${urn}: ${msg}`);
        stop();
        return never();
      };

      pulumi.runtime.setAllConfig(this.opts.config, this.opts.secretConfigKeys ?? []);
      await pulumi.runtime.setMocks(
        {
          newResource: async (args: pulumi.runtime.MockResourceArgs) => {
            const urn = `urn:pulumi:${this.opts.stack}::${this.opts.project}::${args.type}::${args.name}`;
            if (ctx.errors.length > 0) return never();
            if (seen.has(urn)) return failed(new Error("duplicate resource URN"), urn);
            seen.add(urn);
            if (!args.custom) return { id: undefined, state: {} };
            if (!args.type.startsWith(DYNAMIC_PREFIX)) {
              return failed(new Error(`only dynamic resources are supported by this engine, not ${args.type}`), urn);
            }
            try {
              // A registration still queued when another fails leaves the gate at once (never holding
              // a slot), so the run can end; it is then left unanswered like every later one.
              return await gate.run(async () => {
                if (ctx.errors.length > 0) throw STOPPED;
                return this.registerOne(ctx, urn, args, olds, registered, checkpoint);
              });
            } catch (e) {
              return e === STOPPED ? never() : failed(e, urn);
            }
          },
          call: (args: pulumi.runtime.MockCallArgs) => {
            throw new Error(`invokes are not supported by the dynamic provider host (${args.token})`);
          },
        },
        this.opts.project,
        this.opts.stack,
        preview,
      );

      let returned: unknown;
      try {
        const running = Promise.resolve().then(() => runProgramFile(program));
        returned = await Promise.race([running, stopped.then(() => undefined)]);
      } catch (e) {
        ctx.errors.push(`program failed: ${errorMessage(e)}`);
      }
      if (ctx.errors.length === 0) await Promise.race([pulumi.runtime.disconnect(), stopped]);
      await gate.idle();
      if (ctx.errors.length > 0) {
        checkpoint();
        return {};
      }
      const outputs = await resolveOutputs(returned);

      // Resources the program no longer declares: deleted in reverse registration order.
      for (const r of olds.filter((o) => !seen.has(o.urn) && !o.pendingDelete).reverse()) {
        await this.deleteResource(ctx, r);
        if (ctx.errors.length > 0) break;
      }
      checkpoint();
      return outputs;
    });
  }

  private async registerOne(
    ctx: RunContext,
    urn: string,
    args: pulumi.runtime.MockResourceArgs,
    olds: ResourceState[],
    registered: ResourceState[],
    checkpoint: () => void,
  ): Promise<{ id: string | undefined; state: Record<string, unknown> }> {
    const preview = ctx.operation === "preview";
    const started = Date.now();
    const { plain, secretKeys: inputSecrets } = unwrapInputs(args.inputs as Record<string, unknown>);
    const old = olds.find((o) => o.urn === urn && !o.pendingDelete);
    const secretKeys = inputSecrets;
    const step: Step = { op: "create", urn, type: args.type, name: args.name, diffs: [], replaces: [] };
    const fail = (e: unknown): never => {
      step.error = errorMessage(e);
      this.record(ctx, step, started);
      throw new Error(step.error);
    };

    let check;
    try {
      check = await ctx.host.check(urn, old?.inputs ?? {}, plain);
    } catch (e) {
      return fail(e);
    }
    if (check.failures.length > 0) {
      return fail(new Error(check.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")));
    }
    const checked = check.inputs;

    const entry = (id: string, outputs: PropertyMap): ResourceState => ({
      urn,
      type: args.type,
      name: args.name,
      id,
      inputs: checked,
      outputs,
      secretKeys,
    });
    const answer = (id: string | undefined, outputs: PropertyMap) => ({
      id,
      state: markSecrets(outputs, secretKeys),
    });

    if (old) {
      let diff;
      try {
        diff = await ctx.host.diff(old.id, urn, old.outputs, checked);
      } catch (e) {
        return fail(e);
      }
      step.id = old.id;
      step.diffs = inputDiffs(old.inputs, checked);
      // A provider without `diff` leaves the decision to the engine: any input change is an update.
      const changed = diff.changes ?? step.diffs.length > 0;
      if (!changed) {
        step.op = "same";
        registered.push({ ...old, inputs: checked, secretKeys });
        this.record(ctx, step, started);
        checkpoint();
        return answer(old.id, old.outputs);
      }
      step.op = diff.replaces.length > 0 ? "replace" : "update";
      step.replaces = diff.replaces;
      if (preview) {
        this.record(ctx, step, started);
        return answer(step.op === "update" ? old.id : undefined, step.op === "update" ? { ...old.outputs, ...checked } : checked);
      }
      if (step.op === "update") {
        try {
          const { outputs } = await ctx.host.update(old.id, urn, old.outputs, checked);
          registered.push(entry(old.id, outputs));
          this.record(ctx, step, started);
          checkpoint();
          return answer(old.id, outputs);
        } catch (e) {
          registered.push({ ...old, secretKeys });
          checkpoint();
          return fail(e);
        }
      }
      return this.replace(ctx, step, started, old, diff.deleteBeforeReplace, checked, entry, registered, checkpoint, answer);
    }

    if (preview) {
      this.record(ctx, step, started);
      return answer(undefined, checked);
    }
    try {
      const created = await ctx.host.create(urn, checked);
      step.id = created.id;
      registered.push(entry(created.id, created.outputs));
      this.record(ctx, step, started);
      checkpoint();
      return answer(created.id, created.outputs);
    } catch (e) {
      this.keepPartial(e, entry, registered, checkpoint);
      return fail(e);
    }
  }

  /** A create that made something but failed (error carries an id) stays in state, as Pulumi keeps it. */
  private keepPartial(
    e: unknown,
    entry: (id: string, outputs: PropertyMap) => ResourceState,
    registered: ResourceState[],
    checkpoint: () => void,
  ): void {
    const partial = e as { id?: string; properties?: PropertyMap };
    if (partial.id) {
      const r = entry(partial.id, partial.properties ?? {});
      r.outputs = { ...r.inputs, ...r.outputs };
      registered.push(r);
      checkpoint();
    }
  }

  private async replace(
    ctx: RunContext,
    step: Step,
    started: number,
    old: ResourceState,
    deleteFirst: boolean,
    checked: PropertyMap,
    entry: (id: string, outputs: PropertyMap) => ResourceState,
    registered: ResourceState[],
    checkpoint: () => void,
    answer: (id: string | undefined, outputs: PropertyMap) => { id: string | undefined; state: Record<string, unknown> },
  ): Promise<{ id: string | undefined; state: Record<string, unknown> }> {
    const fail = (e: unknown): never => {
      step.error = errorMessage(e);
      this.record(ctx, step, started);
      throw new Error(step.error);
    };
    const dropOld = (): void => {
      this.state.resources = this.state.resources.filter((x) => x !== old);
    };
    if (deleteFirst) {
      try {
        await ctx.host.delete(old.id, old.urn, old.outputs);
      } catch (e) {
        registered.push(old);
        checkpoint();
        return fail(e);
      }
      dropOld();
      checkpoint();
    }
    let created: { id: string; outputs: PropertyMap };
    try {
      created = await ctx.host.create(step.urn, checked);
    } catch (e) {
      this.keepPartial(e, entry, registered, checkpoint);
      if (!deleteFirst && !registered.some((r) => r.urn === step.urn)) registered.push(old);
      checkpoint();
      return fail(e);
    }
    step.id = created.id;
    registered.push(entry(created.id, created.outputs));
    if (!deleteFirst) {
      try {
        await ctx.host.delete(old.id, old.urn, old.outputs);
        dropOld();
      } catch (e) {
        old.pendingDelete = true;
        this.log(`    warning: ${old.urn}: the replaced resource was not deleted (${errorMessage(e)}); the next run retries`);
      }
    }
    this.record(ctx, step, started);
    checkpoint();
    return answer(created.id, created.outputs);
  }
}


