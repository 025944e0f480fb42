// One preview or update: the real engine's step rules applied to the registrations a program sends
// (pulumi/pulumi pkg/resource/deploy/step_generator.go, step.go, step_executor.go), each rule naming
// the function it mirrors. Provider calls go to the SDK's dynamic provider host.
import { isDeepStrictEqual } from "node:util";
import type { Step } from "./display";
import type { CheckResult, DiffResult, PropertyMap, ProviderHost, ReadResult } from "./host";
import { isProviderHostError, UNKNOWN } from "./host";
import type { AliasSpec, MonitorHandler, ReadRegistration, Registration } from "./monitor";
import { markSecrets, unwrapInputs } from "./secrets";
import type { ResourceState } from "./state";
import { applyIgnoreChanges, diffPaths, formatPath, parsePropertyPath, pathContains, type PropertyPath } from "./property-path";
import { createUrn, newUrn, qualifiedType, ROOT_STACK_TYPE, urnName } from "./urn";

export const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic";

/** The host's resource operations. */
export type HostCalls = Pick<ProviderHost, "check" | "diff" | "create" | "read" | "update" | "delete">;

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, val: unknown) =>
    val && typeof val === "object" && !Array.isArray(val)
      ? Object.fromEntries(Object.entries(val as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : val,
  );
}

/** Changed input properties between two input sets, for display; the serialized provider text is left out. */
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

/**
 * diffResource (step_generator.go): a provider answering DiffUnknown (no `diff` method) gets the
 * engine's own diff of old and new inputs, every key included: its changed keys and, as the
 * detailed diff there, the changed paths under them.
 */
export function classify(
  diff: DiffResult,
  oldInputs: PropertyMap,
  newInputs: PropertyMap,
): { changes: boolean; changedKeys: string[]; paths: PropertyPath[] } {
  if (diff.changes !== undefined) {
    const paths: PropertyPath[] = [];
    for (const p of Object.keys(diff.detailedDiff ?? {})) {
      try {
        paths.push(parsePropertyPath(p));
      } catch {
        // A path that does not parse names nothing replaceOnChanges could contain.
      }
    }
    return { changes: diff.changes, changedKeys: diff.diffs, paths };
  }
  const keys = new Set([...Object.keys(oldInputs), ...Object.keys(newInputs)]);
  const changedKeys = [...keys].filter((k) => canonical(oldInputs[k]) !== canonical(newInputs[k]));
  return { changes: changedKeys.length > 0, changedKeys, paths: diffPaths(oldInputs, newInputs) };
}

/**
 * The provider's replace keys and the paths its detailed diff replaces: either makes a replace
 * (plugin.DiffResult.Replace).
 */
export function replacesOf(diff: DiffResult): string[] {
  const detailed = Object.entries(diff.detailedDiff ?? {}).filter(([, d]) => d.kind.endsWith("Replace")).map(([p]) => p);
  return [...new Set([...diff.replaces, ...detailed])];
}

/**
 * applyReplaceOnChanges (step_generator.go): a changed key, or a changed path of the detailed diff,
 * that lies under a replaceOnChanges path (PropertyPath.Contains) becomes a replace key. So a path
 * `a.b` replaces on a change of `a.b` or under it, not on one of its sibling `a.c`. Throws on a path
 * that does not parse, as there.
 */
export function replaceKeysWith(
  replaces: readonly string[],
  changed: { changedKeys: readonly string[]; paths: readonly PropertyPath[] },
  replaceOnChanges: readonly string[],
): string[] {
  const rocs = replaceOnChanges.map((p) => parsePropertyPath(p));
  const under = (p: PropertyPath): boolean => rocs.some((r) => pathContains(r, p));
  const out = new Set(replaces);
  for (const k of changed.changedKeys) {
    let keyPath: PropertyPath;
    try {
      keyPath = parsePropertyPath(k);
    } catch {
      continue;
    }
    if (under(keyPath)) out.add(k);
  }
  for (const p of changed.paths) if (under(p)) out.add(formatPath(p));
  return [...out];
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

/** A registration the engine will not answer: after a failure the deployment stops, as the CLI's does. */
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** Thrown by a registration that got its turn after the run failed. */
const STOPPED = Symbol("stopped");

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
  const step: Step = { op: "delete", urn: r.urn, type: r.type, name: r.name, id: r.id, diffs: [], replaces: [], ...(replacing ? { replacing } : {}) };
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

/** DependingOn's edges (graph/dependency_graph.go, children left out): dependencies, property dependencies, deletedWith. */
function dependsOnAny(d: ResourceState, urns: ReadonlySet<string>): boolean {
  return (
    (d.deletedWith !== undefined && urns.has(d.deletedWith)) ||
    d.dependencies.some((u) => urns.has(u)) ||
    Object.values(d.propertyDependencies ?? {}).some((deps) => deps.some((u) => urns.has(u)))
  );
}

/** What `d` must be deleted before: its parent, what it depends on, what it is deleted with. */
function dependedOnBy(d: ResourceState): string[] {
  return [
    ...(d.parent ? [d.parent] : []),
    ...(d.deletedWith ? [d.deletedWith] : []),
    ...d.dependencies,
    ...Object.values(d.propertyDependencies ?? {}).flat(),
  ];
}

/**
 * URNs that some item still waiting depends on, leaving out an item's own URN (the old and new
 * halves of a replace share one). One pass, so a layer costs O(N), not O(N²): 10,000 resources
 * made 10^8 pair checks per destroy.
 */
function blockedUrns(items: { r: ResourceState }[]): Set<string> {
  const out = new Set<string>();
  for (const { r } of items) for (const urn of dependedOnBy(r)) if (urn !== r.urn) out.add(urn);
  return out;
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
    // The new state takes the Read's init errors only (step.go RefreshStep.Apply): a clean Read clears old ones.
    delete r.initErrors;
    if (initErrors.length > 0) r.initErrors = initErrors;
  } catch (e) {
    step.error = errorMessage(e);
  }
  return { step, read, ...(warning ? { warning } : {}) };
}

/**
 * rebuildBaseState and undangleParentResources (deployment_executor.go), after a refresh removed what
 * it found gone: the references left to it go, each entry keeping only URNs of entries before it in
 * state (dependencies, property dependencies, deletedWith); a child whose parent went gets no parent.
 */
export function rebuildBaseState(resources: ResourceState[]): ResourceState[] {
  const referenceable = new Set<string>();
  const availableParents = new Map<string, string>();
  return resources.map((r) => {
    const next: ResourceState = { ...r };
    if (r.dependencies.length > 0) next.dependencies = r.dependencies.filter((u) => referenceable.has(u));
    if (r.propertyDependencies) {
      const deps = Object.entries(r.propertyDependencies)
        .map(([k, urns]) => [k, urns.filter((u) => referenceable.has(u))] as const)
        .filter(([, urns]) => urns.length > 0);
      next.propertyDependencies = Object.fromEntries(deps);
    }
    if (r.deletedWith !== undefined && !referenceable.has(r.deletedWith)) delete next.deletedWith;
    if (r.parent !== undefined && !referenceable.has(r.parent)) {
      const parent = availableParents.get(r.parent);
      if (parent) next.parent = parent;
      else delete next.parent;
    }
    referenceable.add(next.urn);
    availableParents.set(next.urn, next.parent ?? "");
    return next;
  });
}

export interface DeploymentOptions {
  preview: boolean;
  /** Registrations are answered from the state without provider calls (refresh/destroy --run-program). */
  readOnly?: boolean;
  host: HostCalls;
  olds: ResourceState[];
  project: string;
  stack: string;
  parallel: number;
  continueOnError?: boolean;
  record(step: Step, started: number): void;
  /** Takes a step's checkpoint (not called in a preview); `snapshot` builds the state, O(N). */
  save(snapshot: () => ResourceState[]): void;
  log(line: string): void;
}

export class Deployment implements MonitorHandler {
  readonly errors: string[] = [];
  /** Errors that do not stop the run (the step generator's sawError): the run fails when it is done. */
  readonly reportedErrors: string[] = [];
  /** The root stack resource's outputs, as the program registered them. */
  stackOutputs: PropertyMap = {};
  private rootUrn = "";
  private readonly olds: ResourceState[];
  private readonly live = new Map<string, ResourceState>();
  private readonly news: ResourceState[] = [];
  private readonly consumed = new Set<ResourceState>();
  /** Olds the program registered again (by URN or alias): not deleted at the end. */
  private readonly matched = new Set<ResourceState>();
  private readonly condemned: ResourceState[] = [];
  private readonly gone = new Set<ResourceState>();
  private readonly urns = new Set<string>();
  private readonly aliased = new Map<string, string>();
  /** The registrations of this run by URN, for their children to inherit from. */
  private readonly goals = new Map<string, Registration>();
  private readonly aliases = new Map<string, string>();
  private readonly replaced = new Set<string>();
  /** sg.deletes: URNs a delete-before-replace deleted in this run; a dependent among them that registers is recreated. */
  private readonly deletes = new Set<string>();
  /** sg.pendingDeletes: the states those deletes were for. */
  private readonly pendingDeletes = new Set<ResourceState>();
  /** sg.dependentReplaceKeys: why each dependent is replaced, shown when it is recreated. */
  private readonly dependentReplaceKeys = new Map<string, string[]>();
  private readonly gate: Gate;
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private failedSignal: () => void = () => undefined;
  /** Resolves at the first failure. */
  readonly failed: Promise<void>;

  constructor(private readonly opts: DeploymentOptions) {
    this.olds = opts.olds;
    for (const o of opts.olds) if (!o.delete) this.live.set(o.urn, o);
    this.gate = new Gate(opts.parallel);
    this.failed = new Promise((r) => (this.failedSignal = r));
  }

  get hasFailed(): boolean {
    return this.errors.length > 0;
  }

  /** Reports an error and lets the run go on; it fails when it is done (the step generator's sawError). */
  reportError(message: string): void {
    if (!this.reportedErrors.includes(message)) this.reportedErrors.push(message);
  }

  fail(message: string): void {
    if (!this.errors.includes(message)) this.errors.push(message);
    this.failedSignal();
  }

  /** Resolves when no registration is in flight. */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private async track<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) this.idleWaiters.splice(0).forEach((r) => r());
    }
  }

  /** The state as it stands: new entries, olds not yet superseded, old halves still to delete. */
  snapshot(): ResourceState[] {
    // The old half of a replace stays right after its new half, as the snapshot manager writes it.
    const condemned = new Map<string, ResourceState[]>();
    for (const c of this.condemned) if (!this.gone.has(c)) condemned.set(c.urn, [...(condemned.get(c.urn) ?? []), c]);
    const out: ResourceState[] = [];
    for (const n of this.news) {
      out.push(n);
      const halves = condemned.get(n.urn);
      if (halves) {
        out.push(...halves);
        condemned.delete(n.urn);
      }
    }
    out.push(...this.olds.filter((o) => !this.consumed.has(o) && !this.gone.has(o)));
    for (const halves of condemned.values()) out.push(...halves);
    return out;
  }

  checkpoint(): void {
    if (!this.opts.preview && !this.opts.readOnly) this.opts.save(() => this.snapshot());
  }

  // ---- aliases: step_generator.go generateAliases, collapseAliasToUrn, inheritedChildAlias ----

  private collapseAlias(name: string, type: string, parent: string, a: AliasSpec): string {
    if ("urn" in a) return a.urn;
    let p = a.parentUrn ?? parent;
    if (a.parentUrn && this.aliases.has(a.parentUrn)) p = this.aliases.get(a.parentUrn)!;
    if (a.noParent || (p !== "" && qualifiedType(p) === ROOT_STACK_TYPE)) p = "";
    return createUrn(a.name ?? name, a.type ?? type, p, a.project ?? this.opts.project, a.stack ?? this.opts.stack);
  }

  private inheritedChildAlias(childType: string, childName: string, parentName: string, parentAlias: string): string {
    const aliasName = childName.startsWith(parentName) ? urnName(parentAlias) + childName.slice(parentName.length) : childName;
    return newUrn(this.opts.stack, this.opts.project, qualifiedType(parentAlias), childType, aliasName);
  }

  private generateAliases(reg: Registration): string[] {
    const out = new Set<string>();
    for (const a of reg.aliases) out.add(this.collapseAlias(reg.name, reg.type, reg.parent, a));
    const parentAlias = reg.parent ? this.aliases.get(reg.parent) : undefined;
    if (parentAlias) {
      const parentName = urnName(reg.parent);
      out.add(this.inheritedChildAlias(reg.type, reg.name, parentName, parentAlias));
      for (const a of reg.aliases) {
        const child = this.collapseAlias(reg.name, reg.type, reg.parent, a);
        const childType = qualifiedType(child).split("$").pop() ?? reg.type;
        out.add(this.inheritedChildAlias(childType, urnName(child), parentName, parentAlias));
      }
    }
    return [...out];
  }

  /** getOldResource: by URN first, then by alias; an alias claimed twice is an error. */
  private getOld(urn: string, reg: Registration): ResourceState | undefined {
    // A resource registering under a URN another resource already claimed through an alias.
    const claimedBy = this.aliased.get(urn);
    if (claimedBy) throw new Error(`Duplicate resource URN '${urn}' conflicting with alias on resource with URN '${claimedBy}'`);
    for (const candidate of [urn, ...this.generateAliases(reg)]) {
      const old = this.live.get(candidate);
      if (!old) continue;
      if (candidate !== urn) {
        if (this.urns.has(candidate)) throw new Error(`Duplicate resource alias '${candidate}' applied to resource with URN '${urn}' conflicting with resource with URN '${candidate}'`);
        const previous = this.aliased.get(candidate);
        if (previous) throw new Error(`Duplicate resource alias '${candidate}' applied to resource with URN '${urn}' conflicting with resource with URN '${previous}'`);
        this.aliased.set(candidate, urn);
        this.aliases.set(urn, candidate);
      }
      this.matched.add(old);
      return old;
    }
    return undefined;
  }

  /** processIgnoreChanges: the ignored paths take their old values; what cannot be reset is said, as there. */
  private ignoreChanges(urn: string, news: PropertyMap, olds: PropertyMap, paths: readonly string[]): PropertyMap {
    const { inputs, invalid } = applyIgnoreChanges(news, olds, paths);
    if (invalid.length > 0) {
      this.opts.log(`    info: ${urnName(urn)}: cannot ignore changes in added or removed elements of the path: ${JSON.stringify(invalid.join(", "))}`);
    }
    return inputs;
  }

  // ---- the monitor's calls ----

  /**
   * inheritFromParent (source_eval.go): a child without its own deletedWith, protect or
   * retainOnDelete takes its parent's.
   */
  private inheritFromParent(reg: Registration): Registration {
    const parent = this.goals.get(reg.parent);
    if (!parent) return reg;
    return {
      ...reg,
      deletedWith: reg.deletedWith || parent.deletedWith,
      protect: reg.protect ?? parent.protect,
      retainOnDelete: reg.retainOnDelete ?? parent.retainOnDelete,
    };
  }

  async register(given: Registration): Promise<{ urn: string; id: string; object: PropertyMap }> {
    if (this.hasFailed) return never();
    const reg = this.inheritFromParent(given);
    // Tracked while it works; a failed one is left unanswered outside the count, so the run can end.
    const res = await this.track(async () => {
      let urn = "";
      try {
        // checkParent and generateURN (step_generator.go).
        if (reg.parent && !this.urns.has(reg.parent)) throw new Error(`could not find parent resource ${reg.parent}`);
        urn = createUrn(reg.name, reg.type, reg.parent, this.opts.project, this.opts.stack);
        if (this.urns.has(urn)) throw new Error(`Duplicate resource URN '${urn}'; try giving it a unique name`);
        this.urns.add(urn);
        this.goals.set(urn, reg);
        if (!reg.custom) return this.registerComponent(urn, reg);
        if (!reg.type.startsWith(DYNAMIC_PREFIX)) throw new Error(`only dynamic resources are supported by this engine, not ${reg.type}`);
        return await this.gate.run(async () => {
          if (this.hasFailed) throw STOPPED;
          return this.registerCustom(urn, reg);
        });
      } catch (e) {
        if (e !== STOPPED) this.fail(urn ? `${urn}: ${errorMessage(e)}` : errorMessage(e));
        return undefined;
      }
    });
    return res ?? never();
  }

  private entry(urn: string, reg: Registration, id: string, inputs: PropertyMap, outputs: PropertyMap, secretKeys: string[]): ResourceState {
    const deps = Object.fromEntries(Object.entries(reg.propertyDependencies).filter(([, v]) => v.length > 0));
    return {
      urn,
      type: reg.type,
      name: reg.name,
      id,
      custom: reg.custom,
      ...(reg.parent ? { parent: reg.parent } : {}),
      inputs,
      outputs,
      secretKeys,
      dependencies: [...reg.dependencies],
      ...(Object.keys(deps).length ? { propertyDependencies: deps } : {}),
      ...(reg.protect ? { protect: true } : {}),
      ...(reg.retainOnDelete ? { retainOnDelete: true } : {}),
      ...(reg.deletedWith ? { deletedWith: reg.deletedWith } : {}),
      ...(reg.additionalSecretOutputs.length ? { additionalSecretOutputs: [...reg.additionalSecretOutputs] } : {}),
      ...(reg.ignoreChanges.length ? { ignoreChanges: [...reg.ignoreChanges] } : {}),
      ...(reg.replaceOnChanges.length ? { replaceOnChanges: [...reg.replaceOnChanges] } : {}),
    };
  }

  private supersede(old: ResourceState | undefined, next: ResourceState): void {
    if (old) this.consumed.add(old);
    this.news.push(next);
    this.checkpoint();
  }

  private registerComponent(urn: string, reg: Registration): { urn: string; id: string; object: PropertyMap } {
    const old = this.getOld(urn, reg);
    if (reg.type === ROOT_STACK_TYPE && !reg.parent) this.rootUrn = urn;
    const { plain } = unwrapInputs(reg.object);
    this.supersede(old, this.entry(urn, reg, "", plain, old?.outputs ?? {}, old?.secretKeys ?? []));
    return { urn, id: "", object: {} };
  }

  private async registerCustom(urn: string, reg: Registration): Promise<{ urn: string; id: string; object: PropertyMap }> {
    const { preview, host } = this.opts;
    const started = Date.now();
    const step: Step = { op: "create", urn, type: reg.type, name: reg.name, diffs: [], replaces: [] };
    const { plain, secretKeys: inputSecrets } = unwrapInputs(reg.object);
    const secretKeys = [...new Set([...inputSecrets, ...reg.additionalSecretOutputs])];
    const reply = (id: string, outputs: PropertyMap) => ({ urn, id, object: markSecrets(outputs, secretKeys) });
    const failStep = (e: unknown): never => {
      step.error = errorMessage(e);
      this.opts.record(step, started);
      throw new Error(step.error);
    };
    let old = this.getOld(urn, reg);
    // Declaring as managed what was read with `.get()`: it is created, the read entry dropped without
    // a Delete (step_generator.go, TestTakeOwnershipStep).
    if (old?.external && !this.opts.readOnly) {
      if (!preview) this.consumed.add(old);
      old = undefined;
    }

    if (this.opts.readOnly) {
      if (old) this.supersede(old, { ...old });
      return reply(old?.id ?? "", old?.outputs ?? plain);
    }

    // The `import` option: an ImportStep reads the resource by id with no state, as the CLI does;
    // the dynamic host cannot load a provider from no state (pulumi/pulumi#3550, #16175).
    if (reg.importId && (!old || old.id !== reg.importId)) {
      try {
        const read = await host.read(reg.importId, urn, {}, {});
        if (read.id === "" || !read.props) throw new Error(`resource '${reg.importId}' does not exist`);
        old = { ...this.entry(urn, reg, read.id, read.inputs ?? {}, read.props, secretKeys) };
      } catch (e) {
        return failStep(new Error(`importing ${reg.importId}: ${errorMessage(e)}`));
      }
    }

    // Check: ignoreChanges takes the old inputs first (processIgnoreChanges); olds are the old inputs.
    const news = old ? this.ignoreChanges(urn, plain, old.inputs, reg.ignoreChanges) : plain;
    const check = async (olds: PropertyMap): Promise<PropertyMap> => {
      let res: CheckResult;
      try {
        res = await host.check(urn, olds, news);
      } catch (e) {
        return failStep(e);
      }
      if (res.failures.length > 0) return failStep(new Error(res.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")));
      return res.inputs;
    };
    // Recreating a dependent deleted earlier in this run by a delete-before-replace: its old inputs
    // are gone, so Check gets no olds (step_generator.go generateResourceSteps, `recreating`).
    const recreating = old !== undefined && this.deletes.has(urn);
    let checked = await check(recreating ? {} : (old?.inputs ?? {}));
    const entry = (id: string, outputs: PropertyMap, initErrors?: string[]): ResourceState => ({
      ...this.entry(urn, reg, id, checked, outputs, secretKeys),
      ...(initErrors && initErrors.length ? { initErrors } : {}),
    });

    if (!old) {
      if (preview) {
        if (checked.adopt === true) step.adopt = true;
        this.opts.record(step, started);
        return reply("", checked);
      }
      return this.create(step, started, undefined, checked, entry, reply);
    }

    step.id = old.id;
    step.diffs = inputDiffs(old.inputs, checked);
    if (recreating) {
      // Case 1 of generateResourceSteps: a replacement, without a Diff, for the reason it was deleted.
      this.deletes.delete(urn);
      this.replaced.add(urn);
      step.op = "replace";
      step.replaces = this.dependentReplaceKeys.get(urn) ?? [];
      return this.createReplacement(step, started, old, checked, entry, reply);
    }

    // Diff (generateStepsFromDiff, diffResource, applyReplaceOnChanges).
    let changes = false;
    let replaces: string[] = [];
    let providerDbr = false;
    if (!old.pendingReplacement) {
      if (reg.deletedWith && this.replaced.has(reg.deletedWith)) {
        changes = true;
        replaces = ["deletedWith"];
      } else {
        let diff: DiffResult;
        try {
          diff = await host.diff(old.id, urn, old.outputs, checked, reg.ignoreChanges);
        } catch (e) {
          return failStep(e);
        }
        const c = classify(diff, old.inputs, checked);
        changes = c.changes;
        try {
          replaces = changes ? replaceKeysWith(replacesOf(diff), c, reg.replaceOnChanges) : [];
        } catch (e) {
          return failStep(e);
        }
        providerDbr = diff.deleteBeforeReplace;
      }
    }
    const hasInitErrors = (old.initErrors?.length ?? 0) > 0;

    if ((changes && replaces.length > 0) || old.pendingReplacement) {
      if (reg.protect && old.protect) {
        const message = `unable to replace resource "${urn}" as it is currently marked for protection. To unprotect the resource, remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\``;
        // An update stops here; a preview reports the error and goes on, so the whole plan is shown,
        // and fails when it is done (generateStepsFromDiff, sawError).
        if (!preview) return failStep(new Error(message));
        this.reportError(`${urn}: ${message}`);
      }
      step.op = "replace";
      step.replaces = replaces;
      this.replaced.add(urn);
      // A replacement is checked again without olds: the old defaults no longer apply.
      checked = await check({});
      const deleteFirst = reg.deleteBeforeReplace ?? providerDbr;
      if (deleteFirst || old.pendingReplacement) {
        try {
          await this.deleteBeforeReplace(old, deleteFirst);
        } catch (e) {
          return failStep(e);
        }
        return this.createReplacement(step, started, old, checked, entry, reply);
      }
      if (preview) {
        this.opts.record(step, started);
        return reply("", checked);
      }
      return this.create(step, started, old, checked, entry, reply);
    }

    if (!changes && !hasInitErrors) {
      step.op = "same";
      this.supersede(old, entry(old.id, old.outputs));
      this.opts.record(step, started);
      return reply(old.id, old.outputs);
    }

    // An update; also "continuing" a resource left with init errors, with no change at all.
    step.op = "update";
    if (preview) {
      // Provider Update in preview without provider preview support (provider_plugin.go): the new inputs.
      this.opts.record(step, started);
      return reply(old.id, checked);
    }
    try {
      const { outputs } = await host.update(old.id, urn, old.outputs, checked, reg.ignoreChanges);
      this.supersede(old, entry(old.id, outputs));
      this.opts.record(step, started);
      return reply(old.id, outputs);
    } catch (e) {
      // A partially failed update keeps the old inputs with the new outputs, so the next run's Check
      // and ignoreChanges see what the resource was last made from (engine/update.go OnResourceStepPost).
      if (isProviderHostError(e) && e.id) this.supersede(old, { ...entry(e.id, e.properties ?? {}, e.reasons ?? []), inputs: old.inputs });
      return failStep(e);
    }
  }

  /** CreateStep / CreateReplacementStep (step.go); the old half of a create-before-delete waits for the end. */
  private async create(
    step: Step,
    started: number,
    old: ResourceState | undefined,
    checked: PropertyMap,
    entry: (id: string, outputs: PropertyMap, initErrors?: string[]) => ResourceState,
    reply: (id: string, outputs: PropertyMap) => { urn: string; id: string; object: PropertyMap },
  ): Promise<{ urn: string; id: string; object: PropertyMap }> {
    const condemn = (): void => {
      if (!old) return;
      old.delete = true;
      this.condemned.push(old);
    };
    try {
      const created = await this.opts.host.create(step.urn, checked);
      step.id = created.id;
      condemn();
      this.supersede(old, entry(created.id, created.outputs));
      this.opts.record(step, started);
      return reply(created.id, created.outputs);
    } catch (e) {
      // A partial failure: kept with its init errors, outputs exactly what the error carried.
      if (isProviderHostError(e) && e.id) {
        condemn();
        this.supersede(old, entry(e.id, e.properties ?? {}, e.reasons ?? []));
      }
      step.error = errorMessage(e);
      this.opts.record(step, started);
      throw new Error(step.error);
    }
  }

  /**
   * Delete-before-replace (generateStepsFromDiff): the dependents that would be replaced by the old's
   * deletion are deleted first, dependents of dependents before them, then the old; each is kept as
   * `pendingReplacement` until it is recreated. Throws, having deleted nothing more, when one of them
   * is protected or could not be deleted.
   */
  private async deleteBeforeReplace(old: ResourceState, withDependents: boolean): Promise<void> {
    const dependents = withDependents ? [...(await this.dependentReplacements(old)), ...this.cascadeReplacements(old.urn)] : [];
    const chain: { r: ResourceState; replacing: boolean }[] = [];
    for (const { r, keys } of dependents.reverse()) {
      if (this.pendingDeletes.has(r)) continue;
      this.dependentReplaceKeys.set(r.urn, keys);
      if (!r.delete && r.protect) {
        throw new Error(
          `unable to replace resource "${r.urn}" as part of replacing "${old.urn}" as it is currently marked for protection. To unprotect the resource, remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\`, or use the command: \`pulumi state unprotect '${r.urn}'\``,
        );
      }
      // One already waiting for its delete (`delete: true`) gets a plain delete.
      chain.push({ r, replacing: !r.delete });
      this.deletes.add(r.urn);
      this.pendingDeletes.add(r);
    }
    if (!old.pendingReplacement) {
      // Marked before any delete runs, so what is deletedWith the old makes no provider call.
      this.deletes.add(old.urn);
      chain.push({ r: old, replacing: true });
    }
    // One chain, run in order, as the step executor runs a resource's steps (ExecuteSerial).
    const ctx = this.deleteContext(this.deletes);
    for (const { r, replacing } of chain) {
      const deleted = await deleteOne(ctx, r, replacing);
      if (this.opts.preview) continue;
      if (!deleted) {
        // Still live (a failed delete leaves the flags as they were): the next run diffs it again.
        this.checkpoint();
        throw new Error(r === old ? "the resource it replaces could not be deleted" : `${r.urn}, deleted before it, could not be deleted`);
      }
      if (replacing) r.pendingReplacement = true;
      else this.gone.add(r);
      this.checkpoint();
    }
  }

  /**
   * calculateDependentReplacements (step_generator.go): the old resources that depend on `root`
   * (DependingOn: dependencies, property dependencies, deletedWith; not children), in state order,
   * that a replacement of `root` would replace: one deletedWith a replaced resource always; one with
   * an input that came from a replaced resource when its provider's Diff, that input made unknown,
   * asks for a replace. Resources this run has already registered or deleted are left out.
   */
  private async dependentReplacements(root: ResourceState): Promise<{ r: ResourceState; keys: string[] }[]> {
    const at = this.olds.indexOf(root);
    // An import in a preview is not in the old state: it has no dependents there.
    if (at < 0) return [];
    const dependentSet = new Set([root.urn]);
    const replaceSet = new Set([root.urn]);
    const out: { r: ResourceState; keys: string[] }[] = [];
    for (const d of this.olds.slice(at + 1)) {
      if (this.urns.has(d.urn) || this.deletes.has(d.urn) || !dependsOnAny(d, dependentSet)) continue;
      dependentSet.add(d.urn);
      const keys = await this.requiresReplacement(d, replaceSet);
      if (keys) {
        out.push({ r: d, keys });
        replaceSet.add(d.urn);
      }
    }
    return out;
  }

  /** requiresReplacement in calculateDependentReplacements: the replace keys, or undefined. */
  private async requiresReplacement(d: ResourceState, replaceSet: Set<string>): Promise<string[] | undefined> {
    if (!d.custom || d.external) return undefined;
    if (d.deletedWith !== undefined && replaceSet.has(d.deletedWith)) return [];
    const affected = (k: string): boolean => (d.propertyDependencies?.[k] ?? []).some((u) => replaceSet.has(u));
    if (!Object.keys(d.inputs).some(affected)) return undefined;
    const news = Object.fromEntries(Object.entries(d.inputs).map(([k, v]) => [k, affected(k) ? UNKNOWN : v]));
    const diff = await this.opts.host.diff(d.id, d.urn, d.outputs, news, d.ignoreChanges ?? []);
    // diffResource: a DiffUnknown answer gets the engine's own diff, ignoreChanges applied first.
    const c = classify(diff, d.inputs, applyIgnoreChanges(news, d.inputs, d.ignoreChanges ?? []).inputs);
    const replaces = replaceKeysWith(replacesOf(diff), c, d.replaceOnChanges ?? []);
    return replaces.length > 0 ? replaces : undefined;
  }

  /**
   * findDependentCascadeReplacements (step_generator.go): what is deletedWith `urn` goes too. Only
   * olds: a new resource deletedWith it registers after its registration is answered.
   */
  private cascadeReplacements(urn: string): { r: ResourceState; keys: string[] }[] {
    return [...this.live.values()].filter((o) => o.deletedWith === urn).map((r) => ({ r, keys: [] }));
  }

  /** CreateReplacementStep (step.go) after a delete-before-replace: the old leaves the state once its replacement exists. */
  private async createReplacement(
    step: Step,
    started: number,
    old: ResourceState,
    checked: PropertyMap,
    entry: (id: string, outputs: PropertyMap, initErrors?: string[]) => ResourceState,
    reply: (id: string, outputs: PropertyMap) => { urn: string; id: string; object: PropertyMap },
  ): Promise<{ urn: string; id: string; object: PropertyMap }> {
    if (this.opts.preview) {
      this.opts.record(step, started);
      return reply("", checked);
    }
    const dropOld = (): void => {
      this.gone.add(old);
    };
    try {
      const created = await this.opts.host.create(step.urn, checked);
      step.id = created.id;
      dropOld();
      this.supersede(old, entry(created.id, created.outputs));
      this.opts.record(step, started);
      return reply(created.id, created.outputs);
    } catch (e) {
      if (isProviderHostError(e) && e.id) {
        dropOld();
        this.supersede(old, entry(e.id, e.properties ?? {}, e.reasons ?? []));
      } else this.checkpoint();
      step.error = errorMessage(e);
      this.opts.record(step, started);
      throw new Error(step.error);
    }
  }

  private deleteContext(deletions: Set<string> = new Set()): DeleteContext {
    return { preview: this.opts.preview, continueOnError: this.opts.continueOnError, host: this.opts.host, deletions, record: (s, t) => this.opts.record(s, t) };
  }

  /**
   * GenerateDeletes + ScheduleDeletes, after the program is done: olds it no longer registers (not
   * claimed by an alias), old halves of create-before-delete replaces, and deletes left pending by
   * an earlier run. Returns false when one failed.
   */
  async performDeletes(): Promise<boolean> {
    // What a delete-before-replace already deleted stays in state as pendingReplacement when the
    // program did not register it again, until the next run (isOperatedOn, pendingDeletes).
    const deletedBefore = (o: ResourceState): boolean => (o.delete ? this.pendingDeletes.has(o) : this.deletes.has(o.urn));
    const items = [
      ...this.olds
        .filter((o) => !this.matched.has(o) && !this.consumed.has(o) && !this.gone.has(o) && !deletedBefore(o))
        .map((r) => ({ r, replacing: !!r.delete })),
      ...this.condemned.filter((c) => !this.gone.has(c)).map((r) => ({ r, replacing: true })),
    ];
    const deletions = new Set([...this.deletes, ...items.map((it) => it.r.urn)]);
    const ok = await scheduleDeletes(items, this.deleteContext(deletions), this.opts.parallel, (r) => {
      this.gone.add(r);
      this.checkpoint();
    });
    this.checkpoint();
    return ok;
  }

  /**
   * After the program has exited: the deletes, unless the run failed (then none runs), and the last
   * checkpoint. Returns false when a delete failed.
   */
  async finish(failed: boolean): Promise<boolean> {
    const ok = failed || (await this.performDeletes());
    this.finalizeStackOutputs(failed || !ok || this.reportedErrors.length > 0);
    this.checkpoint();
    return ok;
  }

  /** The root stack's outputs, kept for the end of the run (step_executor.go stackOutputsEvent). */
  private pendingStackOutputs?: PropertyMap;

  /**
   * executeRegisterResourceOutputs with finalizingStackOutputs (step_executor.go, called from
   * deployment_executor.go Execute): the root stack's outputs are set when the run is done; after an
   * error, an output the program did not register again keeps its old value.
   */
  private finalizeStackOutputs(errored: boolean): void {
    const outputs = this.pendingStackOutputs;
    const r = outputs && this.news.find((n) => n.urn === this.rootUrn);
    if (!outputs || !r) return;
    this.setOutputs(r, outputs, errored);
  }

  private setOutputs(r: ResourceState, outputs: PropertyMap, keepOld: boolean): void {
    const { plain, secretKeys } = unwrapInputs(outputs);
    r.outputs = keepOld ? { ...r.outputs, ...plain } : plain;
    r.secretKeys = [...new Set([...r.secretKeys, ...secretKeys])];
  }

  async registerOutputs(urn: string, outputs: PropertyMap): Promise<void> {
    if (urn === this.rootUrn) {
      this.stackOutputs = outputs;
      this.pendingStackOutputs = outputs;
      return;
    }
    const r = this.news.find((n) => n.urn === urn);
    if (r) {
      this.setOutputs(r, outputs, false);
      this.checkpoint();
    }
  }

  /** ReadResource (a `.get()`): a ReadStep through the provider's Read, kept as an external resource. */
  async read(req: ReadRegistration): Promise<{ urn: string; properties: PropertyMap }> {
    if (this.hasFailed) return never();
    const res = await this.track(async () => {
      const urn = createUrn(req.name, req.type, req.parent, this.opts.project, this.opts.stack);
      const started = Date.now();
      const step: Step = { op: "read", urn, type: req.type, name: req.name, id: req.id, diffs: [], replaces: [] };
      try {
        if (!req.type.startsWith(DYNAMIC_PREFIX)) throw new Error(`only dynamic resources are supported by this engine, not ${req.type}`);
        const { plain } = unwrapInputs(req.properties);
        const answer = await this.gate.run(() => this.opts.host.read(req.id, urn, plain, undefined));
        // ReadStep.Apply: a Read with no outputs means the resource does not exist; one with no id
        // keeps the id asked for. (A dynamic provider's read always answers outputs: `.get()` of a
        // resource it found gone is kept with the asked id, as under the CLI.)
        if (!answer.props) throw new Error(`resource '${req.id}' does not exist`);
        const read = { ...answer, id: answer.id || req.id, props: answer.props };
        this.urns.add(urn);
        const old = this.live.get(urn);
        // A managed resource read by another id is replaced by the read: the managed object is deleted
        // with the other deletes (ReadReplacementStep, then GenerateDeletes); by its own id it is only
        // relinquished, left to live unmanaged (TestRelinquishStep).
        if (old && !old.external && old.custom && old.id !== read.id && !this.opts.preview) {
          old.delete = true;
          this.condemned.push(old);
        }
        this.supersede(old, {
          urn,
          type: req.type,
          name: req.name,
          id: read.id,
          custom: true,
          ...(req.parent ? { parent: req.parent } : {}),
          inputs: read.inputs ?? {},
          outputs: read.props,
          secretKeys: req.additionalSecretOutputs,
          dependencies: req.dependencies,
          external: true,
        });
        this.opts.record(step, started);
        return { urn, properties: markSecrets(read.props, req.additionalSecretOutputs) };
      } catch (e) {
        step.error = errorMessage(e);
        this.opts.record(step, started);
        this.fail(`${urn}: ${step.error}`);
        return undefined;
      }
    });
    return res ?? never();
  }

  invoke(token: string): Promise<never> {
    return Promise.reject(new Error(`invokes are not supported: the dynamic provider host implements none (${token})`));
  }

  log(severity: "debug" | "info" | "warning" | "error", message: string, urn: string): void {
    if (severity === "debug") return;
    const where = urn ? `${urnName(urn)}: ` : "";
    if (severity === "error") this.fail(`${where}${message}`);
    else this.opts.log(`    ${severity}: ${where}${message}`);
  }

  shutdown(): Promise<void> {
    return this.idle();
  }
}

/** The stack outputs as a run reports them: secrets shown as "[secret]", values still unknown left out. */
export function reportedOutputs(outputs: PropertyMap): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const { plain, secretKeys } = unwrapInputs(outputs);
  for (const [k, v] of Object.entries(plain)) {
    if (v === UNKNOWN) continue;
    out[k] = secretKeys.includes(k) ? "[secret]" : v;
  }
  return out;
}
