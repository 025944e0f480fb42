// One preview or update (pulumi/pulumi pkg/resource/deploy/deployment_executor.go and source_eval.go):
// the registrations a program sends go to the step generator (dev/engine/step-generator.ts,
// step_generator.go), which decides the steps, and the steps to the step executor
// (dev/engine/step-executor.ts, step_executor.go and step.go), which applies them; the state they make
// is kept here (the snapshot manager's role) and saved after every step. Each rule names the
// function it mirrors. Provider calls go to the SDK's dynamic provider host.
import type { Step } from "./display";
import type { PropertyMap } from "./host";
import { secretKeysOf, UNKNOWN } from "./host";
import type { MonitorHandler, ReadRegistration, Registration } from "./monitor";
import { markSecrets, unwrapInputs } from "./secrets";
import type { ResourceState } from "./state";
import { errorMessage, Gate, StepExecutor, type HostCalls, type Reply } from "./step-executor";
import { DYNAMIC_PREFIX, StepGenerator } from "./step-generator";
import { createUrn, ROOT_STACK_TYPE, urnName } from "./urn";

export { destroyAll, refreshOne, type HostCalls } from "./step-executor";

/** A registration the engine will not answer: after a failure the deployment stops, as the CLI's does. */
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** Thrown by a registration that got its turn after the run failed. */
const STOPPED = Symbol("stopped");

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
  private readonly news: ResourceState[] = [];
  private readonly consumed = new Set<ResourceState>();
  private readonly condemned: ResourceState[] = [];
  private readonly gone = new Set<ResourceState>();
  private readonly generator: StepGenerator;
  private readonly executor: StepExecutor;
  private readonly gate: Gate;
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private failedSignal: () => void = () => undefined;
  /** Resolves at the first failure. */
  readonly failed: Promise<void>;

  constructor(private readonly opts: DeploymentOptions) {
    this.olds = opts.olds;
    this.gate = new Gate(opts.parallel);
    this.failed = new Promise((r) => (this.failedSignal = r));
    this.generator = new StepGenerator({
      preview: opts.preview,
      host: opts.host,
      olds: opts.olds,
      project: opts.project,
      stack: opts.stack,
      log: (line) => opts.log(line),
      reportError: (message) => this.reportError(message),
    });
    this.executor = new StepExecutor({
      preview: opts.preview,
      continueOnError: opts.continueOnError,
      host: opts.host,
      sink: {
        supersede: (old, next) => this.supersede(old, next),
        condemn: (old) => {
          old.delete = true;
          this.condemned.push(old);
        },
        drop: (old) => void this.gone.add(old),
        checkpoint: () => this.checkpoint(),
        record: (step, started) => this.opts.record(step, started),
      },
    });
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

  // ---- the monitor's calls (source_eval.go) ----

  /**
   * inheritFromParent (source_eval.go): a child without its own deletedWith, protect or
   * retainOnDelete takes its parent's.
   */
  private inheritFromParent(reg: Registration): Registration {
    const parent = this.generator.goal(reg.parent);
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
        this.generator.checkParent(reg);
        urn = createUrn(reg.name, reg.type, reg.parent, this.opts.project, this.opts.stack);
        this.generator.generateURN(reg);
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
    const old = this.generator.getOld(urn, reg);
    if (reg.type === ROOT_STACK_TYPE && !reg.parent) this.rootUrn = urn;
    const { plain } = unwrapInputs(reg.object);
    this.supersede(old, this.entry(urn, reg, "", plain, old?.outputs ?? {}, old?.secretKeys ?? []));
    return { urn, id: "", object: {} };
  }

  /** A custom resource: the generator's steps, then the executor's (deploymentExecutor.handleSingleEvent). */
  private async registerCustom(urn: string, reg: Registration): Promise<Reply> {
    const { preview } = this.opts;
    const started = Date.now();
    const step: Step = { op: "create", urn, type: reg.type, name: reg.name, diffs: [], replaces: [] };
    const { plain, secretKeys: inputSecrets } = unwrapInputs(reg.object);
    const secretKeys = [...new Set([...inputSecrets, ...reg.additionalSecretOutputs])];
    // With what the provider sent as secrets (a property derived from a secret input).
    const reply = (id: string, outputs: PropertyMap): Reply => ({ urn, id, object: markSecrets(outputs, [...secretKeys, ...secretKeysOf(outputs)]) });
    const failStep = (e: unknown): never => {
      step.error = errorMessage(e);
      this.opts.record(step, started);
      throw new Error(step.error);
    };
    let old = this.generator.getOld(urn, reg);
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

    // The `import` option: an ImportStep reads the resource by id before anything else.
    if (reg.importId && (!old || old.id !== reg.importId)) {
      try {
        const read = await this.executor.importRead(reg.importId, urn);
        old = { ...this.entry(urn, reg, read.id, read.inputs ?? {}, read.props, secretKeys) };
      } catch (e) {
        // The ImportStep failed (step.go ImportStep, OpImport): the step is the import's.
        step.op = "import";
        return failStep(new Error(`importing ${reg.importId}: ${errorMessage(e)}`));
      }
    }

    const plan = await this.generator.generateSteps(urn, reg, plain, old, step, failStep);
    const entry = (id: string, outputs: PropertyMap, initErrors?: string[]): ResourceState => ({
      ...this.entry(urn, reg, id, plan.checked, outputs, [...new Set([...secretKeys, ...secretKeysOf(plan.checked), ...secretKeysOf(outputs)])]),
      ...(initErrors && initErrors.length ? { initErrors } : {}),
    });
    switch (plan.kind) {
      case "create":
        return this.executor.create(step, started, undefined, plan.checked, entry, reply);
      case "same":
        return this.executor.same(step, started, plan.old, entry, reply);
      case "update":
        return this.executor.update(step, started, plan.old, plan.checked, reg.ignoreChanges, entry, reply);
      case "replace":
        return this.executor.create(step, started, plan.old, plan.checked, entry, reply);
      case "deleteBeforeReplace":
        await this.executor.deleteBeforeReplace(step, started, plan.old, plan.chain);
        return this.executor.createReplacement(step, started, plan.old, plan.checked, entry, reply);
      case "recreate":
        return this.executor.createReplacement(step, started, plan.old, plan.checked, entry, reply);
    }
  }

  /**
   * GenerateDeletes (the generator) + ScheduleDeletes (the executor), after the program is done.
   * Returns false when one failed.
   */
  async performDeletes(): Promise<boolean> {
    const deletes = this.generator.generateDeletes({ consumed: this.consumed, gone: this.gone, condemned: this.condemned });
    const ok = await this.executor.scheduleDeletes(deletes, this.opts.parallel, (r) => {
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

  /**
   * ReadResource (a `.get()`): GenerateReadSteps, then ReadStep.Apply through the provider's Read; kept
   * as an external resource. A managed resource read by another id is replaced by the read: the
   * managed object is deleted with the other deletes (ReadReplacementStep, then GenerateDeletes); by
   * its own id it is only relinquished, left to live unmanaged (TestRelinquishStep).
   */
  async read(req: ReadRegistration): Promise<{ urn: string; properties: PropertyMap }> {
    if (this.hasFailed) return never();
    const res = await this.track(async () => {
      const urn = createUrn(req.name, req.type, req.parent, this.opts.project, this.opts.stack);
      const started = Date.now();
      const step: Step = { op: "read", urn, type: req.type, name: req.name, id: req.id, diffs: [], replaces: [] };
      try {
        if (!req.type.startsWith(DYNAMIC_PREFIX)) throw new Error(`only dynamic resources are supported by this engine, not ${req.type}`);
        const { plain } = unwrapInputs(req.properties);
        const read = await this.gate.run(() => this.executor.read(req.id, urn, plain));
        const { old, replacing } = this.generator.generateReadSteps(urn, read.id);
        if (old && replacing) {
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
          // The registration's inputs, not the Read's (step.go ReadStep.Apply sets only the outputs and id).
          inputs: plain,
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
