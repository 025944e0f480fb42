// The scaffolding of the ported lifecycle scenarios, after pulumi/pulumi pkg/engine/lifecycletest
// (read at 1b5949891b3cefcb9974752b24a5ecef0acc86c8): a program is a function speaking gRPC to the
// engine's ResourceMonitor (deploytest.NewLanguageRuntime, deploytest.ResourceMonitor), and the
// provider is in this process, each call a function the scenario may replace (deploytest.Provider).
// The engine, its monitor, its step rules and its state are the real ones.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Alias } from "@pulumi/pulumi/proto/alias_pb";
import { ResourceMonitorClient } from "@pulumi/pulumi/proto/resource_grpc_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { Engine, EngineError, type EngineOptions, type RunResult } from "../../../../dev/engine/engine";
import type { CheckResult, DiffResult, PropertyMap, ProviderHost, ReadResult } from "../../../../dev/engine/host";
import { ProviderHostError } from "../../../../dev/engine/host";
import type { ResourceState } from "../../../../dev/engine/state";

export const COMMIT = "1b5949891b3cefcb9974752b24a5ecef0acc86c8";
/** A custom type the engine takes as a dynamic resource (pkgA:m:typA in the Go tests). */
export const TYP = "pulumi-nodejs:dynamic:typA";
export const COMPONENT = "my:module:Component";
/** resource.RootStackType. */
export const ROOT_STACK = "pulumi:pulumi:Stack";
/** resource.MakeSecret, as the SDK sends it over the wire. */
export const secret = (value: unknown): Record<string, unknown> => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });
/** resource.MakeComputed: an unknown value. */
export { UNKNOWN as COMPUTED } from "../../../../dev/engine/host";
export const urnOf = (name: string, type = TYP, parentType = ""): string =>
  `urn:pulumi:test::test::${parentType ? `${parentType}$` : ""}${type}::${name}`;

/** A ProviderHost in this process; each call answered by a replaceable function; every call logged. */
export class TestProvider implements ProviderHost {
  readonly pid = -1;
  readonly port = -1;
  /** "create A", "delete B", ... by resource name, in call order. */
  readonly calls: string[] = [];
  private next = 0;

  checkF?: (urn: string, olds: PropertyMap, news: PropertyMap) => Promise<CheckResult>;
  diffF?: (urn: string, id: string, olds: PropertyMap, news: PropertyMap, ignoreChanges: readonly string[]) => Promise<Partial<DiffResult>>;
  createF?: (urn: string, inputs: PropertyMap, preview: boolean) => Promise<{ id: string; outputs: PropertyMap }>;
  readF?: (urn: string, id: string, inputs: PropertyMap | undefined, state: PropertyMap) => Promise<ReadResult>;
  updateF?: (urn: string, id: string, olds: PropertyMap, news: PropertyMap, ignoreChanges: readonly string[]) => Promise<{ outputs: PropertyMap }>;
  deleteF?: (urn: string, id: string, props: PropertyMap) => Promise<void>;

  private log(op: string, urn: string): void {
    this.calls.push(`${op} ${urn.slice(urn.lastIndexOf("::") + 2)}`);
  }

  async configure(): Promise<void> {}

  async check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
    this.log("check", urn);
    return this.checkF ? this.checkF(urn, olds, news) : { inputs: news, failures: [] };
  }

  /** No DiffF: DiffUnknown, so the engine diffs the inputs itself (deploytest.Provider.Diff). */
  async diff(id: string, urn: string, olds: PropertyMap, news: PropertyMap, ignoreChanges: readonly string[] = []): Promise<DiffResult> {
    this.log("diff", urn);
    const d = this.diffF ? await this.diffF(urn, id, olds, news, ignoreChanges) : {};
    return { changes: undefined, replaces: [], stables: [], deleteBeforeReplace: false, diffs: [], ...d };
  }

  async create(urn: string, inputs: PropertyMap, opts: { preview?: boolean } = {}): Promise<{ id: string; outputs: PropertyMap }> {
    this.log("create", urn);
    if (this.createF) return this.createF(urn, inputs, opts.preview ?? false);
    return { id: opts.preview ? "" : `id-${++this.next}`, outputs: inputs };
  }

  async read(id: string, urn: string, props: PropertyMap, inputs?: PropertyMap): Promise<ReadResult> {
    this.log("read", urn);
    return this.readF ? this.readF(urn, id, inputs, props) : { id, props, inputs };
  }

  async update(id: string, urn: string, olds: PropertyMap, news: PropertyMap, ignoreChanges: readonly string[] = []): Promise<{ outputs: PropertyMap }> {
    this.log("update", urn);
    return this.updateF ? this.updateF(urn, id, olds, news, ignoreChanges) : { outputs: news };
  }

  async delete(id: string, urn: string, props: PropertyMap): Promise<void> {
    this.log("delete", urn);
    if (this.deleteF) await this.deleteF(urn, id, props);
  }

  logs(): string[] {
    return [];
  }
  async kill(): Promise<void> {}
  async close(): Promise<void> {}

  /** The calls of one kind, by resource name. */
  made(op: string): string[] {
    return this.calls.filter((c) => c.startsWith(op + " ")).map((c) => c.slice(op.length + 1));
  }

  reset(): void {
    this.calls.length = 0;
  }
}

/** A provider error carrying what a create/update made (ErrorResourceInitFailed). */
export const initFailure = (message: string, id: string, properties: PropertyMap, reasons: string[]): ProviderHostError =>
  new ProviderHostError(message, "Create", 2, id, properties, reasons);

export interface AliasOpt {
  urn?: string;
  name?: string;
  type?: string;
  parent?: string;
  noParent?: boolean;
  project?: string;
  stack?: string;
}

export interface ResourceOpts {
  inputs?: PropertyMap;
  parent?: string;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
  protect?: boolean;
  deleteBeforeReplace?: boolean;
  ignoreChanges?: string[];
  replaceOnChanges?: string[];
  retainOnDelete?: boolean;
  deletedWith?: string;
  aliases?: AliasOpt[];
  importId?: string;
  additionalSecretOutputs?: string[];
}

function toStruct(value: PropertyMap): Struct {
  return Struct.fromJavaScript(JSON.parse(JSON.stringify(value)) as Parameters<typeof Struct.fromJavaScript>[0]);
}

function alias(a: AliasOpt): Alias {
  const out = new Alias();
  if (a.urn) return out.setUrn(a.urn);
  const spec = new Alias.Spec();
  if (a.name) spec.setName(a.name);
  if (a.type) spec.setType(a.type);
  if (a.project) spec.setProject(a.project);
  if (a.stack) spec.setStack(a.stack);
  if (a.noParent) spec.setNoparent(true);
  else if (a.parent !== undefined) spec.setParenturn(a.parent);
  return out.setSpec(spec);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Unary<Req, Res> = (req: Req, cb: (err: grpc.ServiceError | null, res: Res) => void) => any;

/** The program's side of the ResourceMonitor, as deploytest.ResourceMonitor offers it. */
export class TestMonitor {
  private readonly client: ResourceMonitorClient;

  constructor(address: string) {
    this.client = new ResourceMonitorClient(address, grpc.credentials.createInsecure());
  }

  private call<Req, Res>(fn: Unary<Req, Res>, req: Req): Promise<Res> {
    return new Promise((resolve, reject) => fn.call(this.client, req, (err, res) => (err ? reject(new Error(err.details || err.message)) : resolve(res))));
  }

  async register(type: string, name: string, custom: boolean, o: ResourceOpts = {}): Promise<{ urn: string; id: string; outputs: PropertyMap }> {
    const req = new resproto.RegisterResourceRequest()
      .setType(type)
      .setName(name)
      .setCustom(custom)
      .setParent(o.parent ?? "")
      .setObject(toStruct(o.inputs ?? {}))
      .setDependenciesList(o.dependencies ?? [])
      .setIgnorechangesList(o.ignoreChanges ?? [])
      .setReplaceonchangesList(o.replaceOnChanges ?? [])
      .setAdditionalsecretoutputsList(o.additionalSecretOutputs ?? [])
      .setDeletedwith(o.deletedWith ?? "")
      .setImportid(o.importId ?? "")
      .setAliasesList((o.aliases ?? []).map(alias))
      .setAliasspecs(true)
      .setAcceptsecrets(true);
    if (o.protect !== undefined) req.setProtect(o.protect);
    if (o.retainOnDelete !== undefined) req.setRetainondelete(o.retainOnDelete);
    if (o.deleteBeforeReplace !== undefined) req.setDeletebeforereplace(o.deleteBeforeReplace).setDeletebeforereplacedefined(true);
    for (const [k, urns] of Object.entries(o.propertyDependencies ?? {})) {
      req.getPropertydependenciesMap().set(k, new resproto.RegisterResourceRequest.PropertyDependencies().setUrnsList(urns));
    }
    const res = await this.call<resproto.RegisterResourceRequest, resproto.RegisterResourceResponse>(this.client.registerResource, req);
    return { urn: res.getUrn(), id: res.getId(), outputs: (res.getObject()?.toJavaScript() ?? {}) as PropertyMap };
  }

  resource(name: string, o: ResourceOpts = {}): Promise<{ urn: string; id: string; outputs: PropertyMap }> {
    return this.register(TYP, name, true, o);
  }

  component(name: string, o: ResourceOpts = {}, type = COMPONENT): Promise<{ urn: string; id: string; outputs: PropertyMap }> {
    return this.register(type, name, false, o);
  }

  /** RegisterResourceOutputs. */
  async registerOutputs(urn: string, outputs: PropertyMap): Promise<void> {
    const req = new resproto.RegisterResourceOutputsRequest().setUrn(urn).setOutputs(toStruct(outputs));
    await this.call<resproto.RegisterResourceOutputsRequest, unknown>(this.client.registerResourceOutputs, req);
  }

  async read(name: string, id: string, o: { parent?: string; inputs?: PropertyMap; type?: string } = {}): Promise<{ urn: string; outputs: PropertyMap }> {
    const req = new resproto.ReadResourceRequest()
      .setType(o.type ?? TYP)
      .setName(name)
      .setId(id)
      .setParent(o.parent ?? "")
      .setProperties(toStruct(o.inputs ?? {}))
      .setAcceptsecrets(true);
    const res = await this.call<resproto.ReadResourceRequest, resproto.ReadResourceResponse>(this.client.readResource, req);
    return { urn: res.getUrn(), outputs: (res.getProperties()?.toJavaScript() ?? {}) as PropertyMap };
  }

  close(): void {
    this.client.close();
  }
}

export type ProgramF = (m: TestMonitor, opts: { dryRun: boolean }) => Promise<void>;

/** A state entry as the Go tests write snapshots by hand: type, id, custom and empty maps by default. */
export type SnapshotEntry = Partial<ResourceState> & { urn: string };

const snapshotDirs: string[] = [];

/** Removes the state files written for snapshots (afterAll of each file). */
export function removeSnapshots(): void {
  for (const d of snapshotDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

function snapshotFile(entries: SnapshotEntry[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lifecycle-"));
  snapshotDirs.push(dir);
  const file = path.join(dir, "state.json");
  const resources = entries.map((e) => ({
    type: e.urn.split("::")[2]!.split("$").pop(),
    name: e.urn.split("::")[3],
    id: "",
    custom: true,
    inputs: {},
    outputs: {},
    secretKeys: [],
    dependencies: [],
    ...e,
  }));
  fs.writeFileSync(file, JSON.stringify({ version: 2, encryptionsalt: "c2FsdHNhbHRzYWx0c2FsdA==", resources }));
  return file;
}

/** One stack: an engine with its state (in memory, or from a snapshot), the in-test provider, and the scenario's runs. */
export class TestStack {
  readonly provider: TestProvider = new TestProvider();
  readonly engine: Engine;
  readonly lines: string[] = [];

  constructor(extra: Partial<EngineOptions> & { snapshot?: SnapshotEntry[]; provider?: TestProvider } = {}) {
    const { snapshot, provider, ...opts } = extra;
    if (provider) this.provider = provider;
    this.engine = new Engine({
      ...(snapshot ? { stateFile: snapshotFile(snapshot) } : {}),
      config: {},
      project: "test",
      stack: "test",
      parallel: 4,
      startHost: async () => this.provider,
      log: (l) => this.lines.push(l),
      ...opts,
    });
  }

  /** The programs of this stack's runs, settled or not (a stopped run abandons its program). */
  private readonly programs: Promise<unknown>[] = [];

  private program(f: ProgramF) {
    return {
      monitor: async (address: string, opts: { dryRun: boolean }) => {
        const m = new TestMonitor(address);
        const run = f(m, opts);
        this.programs.push(run.catch(() => undefined));
        try {
          await run;
        } finally {
          m.close();
        }
      },
    };
  }

  /**
   * Waits for every program to end: one the engine stopped gets its pending calls failed when the
   * monitor shuts down (the Go tests' "resource monitor shut down while waiting on step's done channel").
   */
  async settled(): Promise<void> {
    await Promise.all(this.programs);
  }

  up(f: ProgramF): Promise<RunResult> {
    return this.engine.up(this.program(f));
  }

  preview(f: ProgramF): Promise<RunResult> {
    return this.engine.preview(this.program(f));
  }

  refresh(o: { preview?: boolean } = {}): Promise<RunResult> {
    return this.engine.refresh(undefined, o);
  }

  destroy(o: { preview?: boolean } = {}): Promise<RunResult> {
    return this.engine.destroy(undefined, o);
  }

  /**
   * A stack starting from this one's state as it is now (edited by `edit`), with the same provider: a
   * Go test running an operation on an earlier snapshot (p.GetTarget(t, snap)).
   */
  fork(edit: (entries: ResourceState[]) => ResourceState[] = (e) => e): TestStack {
    return new TestStack({ snapshot: edit(this.state()), provider: this.provider });
  }

  /** Every resource in state, in state order. */
  state(): ResourceState[] {
    return this.engine.allResources();
  }

  /** A resource in state by name (the first with that name). */
  get(name: string): ResourceState | undefined {
    return this.state().find((r) => r.name === name);
  }

  names(): string[] {
    return this.state().map((r) => r.name);
  }

  /** A step list as "op name" in the order the engine recorded them (custom resources only). */
  static steps(r: RunResult, o: { replacingDeletes?: boolean } = {}): string[] {
    return r.steps.filter((s) => o.replacingDeletes !== false || !s.replacing).map((s) => `${s.op} ${s.name}`);
  }
}

/**
 * Snapshot.VerifyIntegrity's reference rule: a resource's parent, dependencies, property dependencies
 * and deletedWith name resources earlier in state. The problems found, none when whole.
 */
export function integrityProblems(state: ResourceState[]): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const r of state) {
    const refs = [...(r.parent ? [r.parent] : []), ...r.dependencies, ...Object.values(r.propertyDependencies ?? {}).flat(), ...(r.deletedWith ? [r.deletedWith] : [])];
    for (const u of refs) if (!seen.has(u)) problems.push(`${r.urn} refers to ${u}, which is not before it`);
    seen.add(r.urn);
  }
  return problems;
}

/** The run's EngineError (failing the test if it succeeded). */
export async function failure(p: Promise<RunResult>): Promise<EngineError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!(e instanceof EngineError)) throw new Error(`expected the run to fail, got ${String(e)}`);
  return e;
}
