// The step executor (pulumi/pulumi pkg/resource/deploy/step_executor.go) and the steps' Apply
// (step.go): the provider calls that carry out what dev/engine/step-generator.ts decided, with the state
// each leaves behind, handed to dev/engine/deployment.ts through a StateSink. Also the deletes of a run
// (ScheduleDeletes' antichains, each run in parallel), a destroy, and a refresh's RefreshStep.
import { isDeepStrictEqual } from "node:util";
import type { Step } from "./display";
import type { PropertyMap, ProviderHost, ReadResult } from "./host";
import { isProviderHostError, secretKeysOf } from "./host";
import type { ResourceState } from "./state";
import { blockedUrns, classify, dependedOnBy, inputDiffs, type DeleteChain } from "./step-generator";

/** The host's resource operations. */
export type HostCalls = Pick<ProviderHost, "check" | "diff" | "create" | "read" | "update" | "delete">;

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A counting semaphore: at most `limit` provider operations at once (the CLI's --parallel). */
export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** What a deletion needs to know about the run (DeleteStep in step.go). */
export interface DeleteContext {
  preview: boolean;
  /** A failed delete does not cancel the later ones (--continue-on-error). */
  continueOnError?: boolean;
  host: HostCalls;
  /** URNs deleted in the same run: a resource deletedWith one of them is not deleted itself. */
  deletions: Set<string>;
  record(step: Step, started: number): void;
}

function deleteProtectedError(urn: string): string {
  return `resource "${urn}" cannot be deleted because it is protected. To unprotect the resource, either remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\`, or use the command: \`pulumi state unprotect '${urn}'\``;
}

/**
 * DeleteStep.Apply (step.go): protect refuses (unless replacing); a preview calls nothing; external,
 * retainOnDelete, deletedWith a resource deleted in the same run, and components make no provider call.
 * Resolves true when the resource left the state.
 */
export async function deleteOne(ctx: DeleteContext, r: ResourceState, replacing: boolean): Promise<boolean> {
  const started = Date.now();
  // A `.get()` resource leaves the state by a discard (DeleteStep.Op: OpReadDiscard), with no call.
  const op = r.external && !replacing ? "discard" : "delete";
  const step: Step = { op, urn: r.urn, type: r.type, name: r.name, id: r.id, diffs: [], replaces: [], ...(replacing ? { replacing } : {}) };
  const record = (): void => {
    if (r.custom) ctx.record(step, started);
  };
  if (!replacing && r.protect) {
    step.error = deleteProtectedError(r.urn);
    record();
    return false;
  }
  if (ctx.preview) {
    record();
    return false;
  }
  const skip = r.external || r.retainOnDelete || !r.custom || r.pendingReplacement || (r.deletedWith !== undefined && ctx.deletions.has(r.deletedWith));
  if (!skip) {
    try {
      await ctx.host.delete(r.id, r.urn, r.outputs);
    } catch (e) {
      // A failed delete leaves the resource in state as it was: live, or, the old half of a
      // create-before-delete replace, still `delete: true` (only CreateStep.Apply sets that flag).
      step.error = errorMessage(e);
      record();
      return false;
    }
  }
  record();
  return true;
}

/**
 * ScheduleDeletes (step_generator.go): deletions in antichains, each run in parallel, dependents
 * before what they depend on. A protected delete fails the run but the others go on: only what it
 * depends on is skipped, and what that depends on in turn (deployment_executor.go erroredDeps;
 * step_executor.go cancelDueToError always continues past a deleteProtectedError). A copy pending
 * delete is never skipped so: what depends on a URN depends on its live copy (TestProtectedDelete
 * ChainsWithDuplicateDeletedResources). Any other failed delete cancels the run: the later antichains
 * do not start; with continueOnError it is skipped around like a protected one. Returns false when one failed.
 */
export async function scheduleDeletes(
  items: { r: ResourceState; replacing: boolean }[],
  ctx: DeleteContext,
  parallel: number,
  onDeleted: (r: ResourceState) => void,
): Promise<boolean> {
  const gate = new Gate(parallel);
  let remaining = [...items];
  let ok = true;
  let cancelled = false;
  /** URNs a protected resource left in place still depends on: their live copies' deletes are skipped. */
  const stillNeeded = new Set<string>();
  const keep = (r: ResourceState): void => {
    for (const urn of dependedOnBy(r)) if (urn !== r.urn) stillNeeded.add(urn);
  };
  while (remaining.length > 0 && !cancelled) {
    const blocked = blockedUrns(remaining);
    let layer = remaining.filter((it) => !blocked.has(it.r.urn));
    if (layer.length === 0) layer = remaining; // a cycle cannot be recorded by the SDK; never stall on one
    const inLayer = new Set(layer);
    remaining = remaining.filter((it) => !inLayer.has(it));
    const results = await Promise.all(
      layer.map((it) =>
        gate.run(async () => {
          if (stillNeeded.has(it.r.urn) && !it.r.delete) return { it, outcome: "skipped" as const };
          const protectedOne = !it.replacing && !!it.r.protect;
          const gone = await deleteOne(ctx, it.r, it.replacing);
          if (gone) onDeleted(it.r);
          if (protectedOne) return { it, outcome: "protected" as const };
          return { it, outcome: gone || ctx.preview || !it.r.custom ? ("done" as const) : ("failed" as const) };
        }),
      ),
    );
    for (const { it, outcome } of results) {
      if (outcome === "done") continue;
      if (outcome !== "skipped") ok = false;
      if (outcome === "failed" && !ctx.continueOnError) cancelled = true;
      keep(it.r);
    }
  }
  return ok;
}

/**
 * `pulumi destroy` without the program: every resource in state, dependents first (ScheduleDeletes),
 * each deletion known up front so what is deletedWith another makes no call. False when one failed.
 */
export function destroyAll(
  resources: ResourceState[],
  host: HostCalls,
  parallel: number,
  record: (step: Step, started: number) => void,
  onDeleted: (r: ResourceState) => void,
  o: { preview: boolean; continueOnError: boolean } = { preview: false, continueOnError: false },
): Promise<boolean> {
  const items = resources.map((r) => ({ r, replacing: false }));
  const deletions = new Set(items.map((it) => it.r.urn));
  return scheduleDeletes(items, { ...o, host, deletions, record }, parallel, onDeleted);
}

/**
 * RefreshStep.Apply (step.go): Read with the state's id, outputs and inputs; an empty id means the
 * resource is gone (op "delete"); otherwise the state takes what was read, in place, and the
 * provider's Diff from the refreshed state to the inputs in state says update or same (the real
 * refresh diffs, then inverts). A failed call is the step's error, the state left as it was, unless
 * it is a partial failure: then the resource takes what it carried and its init errors, and the
 * refresh goes on with a warning. `read` says whether the Read answered. A Read that answers clears
 * the init errors in state.
 */
export async function refreshOne(host: HostCalls, r: ResourceState): Promise<{ step: Step; read: boolean; warning?: string }> {
  const step: Step = { op: "same", urn: r.urn, type: r.type, name: r.name, id: r.id, diffs: [], replaces: [] };
  let read = false;
  let warning: string | undefined;
  try {
    let res: ReadResult;
    let initErrors: string[] = [];
    try {
      res = await host.read(r.id, r.urn, r.outputs, r.inputs);
    } catch (e) {
      // A partial failure does not fail the refresh: its init errors are kept for the next up, with a warning.
      if (!isProviderHostError(e) || !e.id) throw e;
      res = { id: e.id, props: e.properties ?? {}, inputs: undefined };
      initErrors = e.reasons ?? [];
      warning = `Refreshed resource is in an unhealthy state:\n* ${initErrors.join("\n* ")}`;
    }
    read = true;
    // A blank id, or no outputs, is a delete (RefreshStep.Apply).
    const props = res.id === "" ? undefined : res.props;
    if (!props) {
      step.op = "delete";
      return { step, read };
    }
    const inputs = res.inputs ?? r.inputs;
    // An external resource is not diffed by its provider, only its outputs compared (RefreshStep.ResultOp).
    const changes = r.external
      ? !isDeepStrictEqual(r.outputs, props)
      : classify(await host.diff(res.id, r.urn, props, r.inputs), inputs, r.inputs).changes;
    step.diffs = inputDiffs(r.outputs, props);
    if (changes) step.op = "update";
    r.id = res.id;
    r.inputs = inputs;
    r.outputs = props;
    r.secretKeys = [...new Set([...r.secretKeys, ...secretKeysOf(props), ...secretKeysOf(inputs)])];
    // The new state takes the Read's init errors only (step.go RefreshStep.Apply): a clean Read clears old ones.
    delete r.initErrors;
    if (initErrors.length > 0) r.initErrors = initErrors;
  } catch (e) {
    step.error = errorMessage(e);
  }
  return { step, read, ...(warning ? { warning } : {}) };
}


/** Where the executor leaves the state its steps make (deployment.ts, the snapshot manager's role). */
export interface StateSink {
  /** `next` takes `old`'s place in the new state (or is new). */
  supersede(old: ResourceState | undefined, next: ResourceState): void;
  /** The old half of a create-before-delete replace, marked `delete`, deleted at the end. */
  condemn(old: ResourceState): void;
  /** A resource that left the state. */
  drop(old: ResourceState): void;
  checkpoint(): void;
  record(step: Step, started: number): void;
}

/** Builds a step's new state entry from what the provider answered. */
export type EntryOf = (id: string, outputs: PropertyMap, initErrors?: string[]) => ResourceState;
/** The answer to the program's registration. */
export type Reply = { urn: string; id: string; object: PropertyMap };

export interface StepExecutorOptions {
  preview: boolean;
  continueOnError?: boolean;
  host: HostCalls;
  sink: StateSink;
}

/**
 * Each method applies one step (step.go): records it, leaves its state with the sink and answers
 * the registration through `reply`; a failed step is recorded with its error and throws.
 */
export class StepExecutor {
  constructor(private readonly opts: StepExecutorOptions) {}

  private fail(step: Step, started: number, e: unknown): never {
    step.error = errorMessage(e);
    this.opts.sink.record(step, started);
    throw new Error(step.error);
  }

  /** SameStep.Apply: the old state, with the registration's options, under the new goal. */
  same(step: Step, started: number, old: ResourceState, entry: EntryOf, reply: (id: string, outputs: PropertyMap) => Reply): Reply {
    this.opts.sink.supersede(old, entry(old.id, old.outputs));
    this.opts.sink.record(step, started);
    return reply(old.id, old.outputs);
  }

  /**
   * UpdateStep.Apply. In a preview, a provider without preview support answers the new inputs
   * (provider_plugin.go). A partially failed update keeps the old inputs with the new outputs, so the
   * next run's Check and ignoreChanges see what the resource was last made from (engine/update.go
   * OnResourceStepPost).
   */
  async update(
    step: Step,
    started: number,
    old: ResourceState,
    checked: PropertyMap,
    ignoreChanges: readonly string[],
    entry: EntryOf,
    reply: (id: string, outputs: PropertyMap) => Reply,
  ): Promise<Reply> {
    const { sink } = this.opts;
    if (this.opts.preview) {
      sink.record(step, started);
      return reply(old.id, checked);
    }
    try {
      const { outputs } = await this.opts.host.update(old.id, step.urn, old.outputs, checked, ignoreChanges);
      sink.supersede(old, entry(old.id, outputs));
      sink.record(step, started);
      return reply(old.id, outputs);
    } catch (e) {
      if (isProviderHostError(e) && e.id) sink.supersede(old, { ...entry(e.id, e.properties ?? {}, e.reasons ?? []), inputs: old.inputs });
      return this.fail(step, started, e);
    }
  }

  /**
   * CreateStep / CreateReplacementStep.Apply (create before delete); the old half of a replace waits
   * for the end. In a preview, the checked inputs (no preview support). A partial failure is kept
   * with its init errors, outputs exactly what the error carried.
   */
  async create(step: Step, started: number, old: ResourceState | undefined, checked: PropertyMap, entry: EntryOf, reply: (id: string, outputs: PropertyMap) => Reply): Promise<Reply> {
    const { sink } = this.opts;
    if (this.opts.preview) {
      sink.record(step, started);
      return reply("", checked);
    }
    const condemn = (): void => {
      if (old) sink.condemn(old);
    };
    try {
      const created = await this.opts.host.create(step.urn, checked);
      step.id = created.id;
      condemn();
      sink.supersede(old, entry(created.id, created.outputs));
      sink.record(step, started);
      return reply(created.id, created.outputs);
    } catch (e) {
      if (isProviderHostError(e) && e.id) {
        condemn();
        sink.supersede(old, entry(e.id, e.properties ?? {}, e.reasons ?? []));
      }
      return this.fail(step, started, e);
    }
  }

  /**
   * The deletes of a delete-before-replace, in order, as the step executor runs a resource's chain
   * (ExecuteSerial); each deleted old is kept as `pendingReplacement` until it is recreated. A failed
   * delete leaves the flags as they were (the next run diffs it again), records the step and throws.
   */
  async deleteBeforeReplace(step: Step, started: number, old: ResourceState, chain: DeleteChain): Promise<void> {
    const { sink } = this.opts;
    const ctx = this.deleteContext(chain.deletions);
    for (const { r, replacing } of chain.items) {
      const deleted = await deleteOne(ctx, r, replacing);
      if (this.opts.preview) continue;
      if (!deleted) {
        sink.checkpoint();
        this.fail(step, started, new Error(r === old ? "the resource it replaces could not be deleted" : `${r.urn}, deleted before it, could not be deleted`));
      }
      if (replacing) r.pendingReplacement = true;
      else sink.drop(r);
      sink.checkpoint();
    }
  }

  /** CreateReplacementStep.Apply after a delete-before-replace: the old leaves the state once its replacement exists. */
  async createReplacement(step: Step, started: number, old: ResourceState, checked: PropertyMap, entry: EntryOf, reply: (id: string, outputs: PropertyMap) => Reply): Promise<Reply> {
    const { sink } = this.opts;
    if (this.opts.preview) {
      sink.record(step, started);
      return reply("", checked);
    }
    try {
      const created = await this.opts.host.create(step.urn, checked);
      step.id = created.id;
      sink.drop(old);
      sink.supersede(old, entry(created.id, created.outputs));
      sink.record(step, started);
      return reply(created.id, created.outputs);
    } catch (e) {
      if (isProviderHostError(e) && e.id) {
        sink.drop(old);
        sink.supersede(old, entry(e.id, e.properties ?? {}, e.reasons ?? []));
      } else sink.checkpoint();
      return this.fail(step, started, e);
    }
  }

  /**
   * ImportStep.Apply: the resource read by id with no state, as the CLI does; the dynamic host cannot
   * load a provider from no state (pulumi/pulumi#3550, #16175).
   */
  async importRead(importId: string, urn: string): Promise<ReadResult & { props: PropertyMap }> {
    const read = await this.opts.host.read(importId, urn, {}, {});
    if (read.id === "" || !read.props) throw new Error(`resource '${importId}' does not exist`);
    return { ...read, props: read.props };
  }

  /**
   * ReadStep.Apply: a Read with no outputs means the resource does not exist; one with no id keeps
   * the id asked for. (A dynamic provider's read always answers outputs: `.get()` of a resource it
   * found gone is kept with the asked id, as under the CLI.)
   */
  async read(id: string, urn: string, props: PropertyMap): Promise<ReadResult & { props: PropertyMap }> {
    const answer = await this.opts.host.read(id, urn, props, undefined);
    if (!answer.props) throw new Error(`resource '${id}' does not exist`);
    return { ...answer, id: answer.id || id, props: answer.props };
  }

  /** The run's deletes (GenerateDeletes' list) in antichains; false when one failed. */
  scheduleDeletes(chain: DeleteChain, parallel: number, onDeleted: (r: ResourceState) => void): Promise<boolean> {
    return scheduleDeletes(chain.items, this.deleteContext(chain.deletions), parallel, onDeleted);
  }

  private deleteContext(deletions: Set<string>): DeleteContext {
    const { preview, continueOnError, host, sink } = this.opts;
    return { preview, continueOnError, host, deletions, record: (s, t) => sink.record(s, t) };
  }
}
