/**
 * One resource of a stack at a time, through dev/engine/'s own step rules: `up` and `preview` hand one
 * registration to a `Deployment` (dev/engine/deployment.ts) as a program's ResourceMonitor would,
 * without starting a program process; `refresh` and `destroy` are dev/engine/'s `refreshOne` and
 * `destroyAll`. Every provider call goes to the SDK's own dynamic-provider host over gRPC
 * (dev/engine/host.ts) against a local sandbox. Needs `npm run build` (the host requires
 * reseller-pulumi/dist/resources/runtime, as it would in a user's project).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { Deployment, destroyAll, refreshOne, type HostCalls } from "../../../dev/engine/deployment";
import type { Step as EngineStep } from "../../../dev/engine/display";
import { startProviderHost, type DiffResult, type PropertyMap, type ProviderHost } from "../../../dev/engine/host";
import type { Registration } from "../../../dev/engine/monitor";
import type { ResourceState } from "../../../dev/engine/state";
import { createUrn } from "../../../dev/engine/urn";
import { ResellerClient } from "../../../api/client";
import { startSandbox, type SandboxHandle, type SandboxOptions } from "../../../sandbox/index";
import { typeToken, type Kind } from "../../../resources/kinds";
import { SECRET_OUTPUTS } from "../../../resources/program/register";
import { shim } from "../../../resources/program/shim";
import { waitsFor, type DeclarationOrder } from "../../../resources/program/declaration-order";
import { CHILD_HOST_ORDER } from "../../../resources/child-host/resource";
import { DNS_RECORD_ORDER } from "../../../resources/dns-record/resource";
import { DNS_ZONE_ORDER } from "../../../resources/dns-zone/resource";
import { ADDON_ORDER } from "../../../resources/domain-addon/resource";
import { DOMAIN_ORDER } from "../../../resources/domain/resource";
import { EPP_CODE_ORDER } from "../../../resources/epp-code/resource";
import { ZONE_RECORDS_ORDER } from "../../../resources/zone-records/resource";
import { ZONE_TEMPLATE_ORDER } from "../../../resources/zone-template/resource";

/** Each kind's order, as its class passes it to ResellerResource. */
const ORDER_OF: Record<Kind, DeclarationOrder> = {
  ChildHost: CHILD_HOST_ORDER,
  DnsRecord: DNS_RECORD_ORDER,
  DnsZone: DNS_ZONE_ORDER,
  PrivacyAddon: ADDON_ORDER,
  Protection: ADDON_ORDER,
  Domain: DOMAIN_ORDER,
  EppCode: EPP_CODE_ORDER,
  DnsZoneRecords: ZONE_RECORDS_ORDER,
  ZoneTemplate: ZONE_TEMPLATE_ORDER,
};

export const ROOT = path.resolve(__dirname, "../../..");

/** Serializations under way or done, by kind: the promise is kept, so concurrent callers share one. */
const providerText = new Map<Kind, Promise<string>>();

/** The serialized `__provider` of a kind, exactly as a resource constructor produces it. */
export function providerFor(kind: Kind): Promise<string> {
  let text = providerText.get(kind);
  if (!text) {
    const p = shim(kind);
    text = pulumi.runtime.serializeFunction(() => p).then((f) => f.text);
    providerText.set(kind, text);
  }
  return text;
}

const PROJECT = "lifecycle";
const STACK = "test";

/** The URN of a resource of `kind` at the top of the stack, or under a component of type `parentType`. */
export const urnOf = (kind: Kind, name: string, parentType?: string): string =>
  createUrn(name, typeToken(kind), parentType ? createUrn(`${name}-parent`, parentType, "", PROJECT, STACK) : "", PROJECT, STACK);

export interface Env {
  sandbox: SandboxHandle;
  /** Replaceable: a crash test kills it and starts another. */
  host: ProviderHost;
  /** An independent client, for out-of-band changes and for reading what is live. */
  client: ResellerClient;
  config: Record<string, string>;
  /** Requests the sandbox saw since `mark()` that changed something. */
  mutatingSince(mark: number): { method: string; path: string }[];
  mark(): number;
  close(): Promise<void>;
}

export async function startEnv(options: SandboxOptions = {}): Promise<Env> {
  if (!fs.existsSync(path.join(ROOT, "dist/resources/runtime.js"))) throw new Error("run `npm run build` first: the host loads dist/resources/runtime.js");
  const sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0, ...options });
  const config = {
    "reseller:apiKey": sandbox.credentials.key,
    "reseller:apiSecret": sandbox.credentials.secret,
    "reseller:baseUrl": sandbox.url,
    "reseller:requestsPerMinute": "100000",
  };
  let host: ProviderHost;
  try {
    host = await startProviderHost({ cwd: ROOT, env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined } });
    await host.configure(config);
  } catch (e) {
    await sandbox.close();
    throw e;
  }
  const client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 100_000 });
  const env: Env = {
    sandbox,
    host,
    client,
    config,
    mark: () => sandbox.operator.requests().length,
    mutatingSince: (mark) =>
      sandbox.operator
        .requests()
        .slice(mark)
        .filter((r) => r.mutating)
        .map((r) => ({ method: r.method, path: r.path })),
    async close() {
      await client.close();
      await env.host.close();
      await sandbox.close();
    },
  };
  return env;
}

/** What a test may put in state by hand; the rest of the entry is filled in as the engine records it. */
export interface State {
  id: string;
  inputs: PropertyMap;
  outputs: PropertyMap;
}

export type Step = "create" | "update" | "replace" | "same";

/** What the provider answered during one run, for the assertions (the engine decides the steps). */
interface Seen {
  checked?: PropertyMap;
  diff?: DiffResult;
  /** The provider's own error, when a call threw: a partial failure's id and properties are on it. */
  error?: unknown;
}

/** One resource of a stack, with the state the engine keeps for it. */
export class Managed {
  /** The engine's entries for this URN: the live one, and an old half of a replace still to delete. */
  private entries: ResourceState[] = [];
  readonly urn: string;
  private readonly type: string;

  constructor(
    readonly env: Env,
    readonly kind: Kind,
    readonly name: string,
    /** Registered under a component of this type (a move under a component changes the URN). */
    readonly parentType?: string,
  ) {
    this.type = typeToken(kind);
    this.urn = urnOf(kind, name, parentType);
  }

  /** The live entry, as the engine keeps it (id, inputs, outputs, init errors, ...). */
  get state(): ResourceState | undefined {
    return this.entries.find((r) => !r.delete);
  }

  set state(s: State | ResourceState | undefined) {
    const rest = this.entries.filter((r) => r.delete);
    if (!s) {
      this.entries = rest;
      return;
    }
    const entry: ResourceState = {
      urn: this.urn,
      type: this.type,
      name: this.name,
      custom: true,
      secretKeys: [],
      dependencies: [],
      ...structuredClone(s),
    };
    this.entries = [entry, ...rest];
  }

  /** The inputs a program would send: the given ones plus resourceUrn and __provider. */
  async inputs(args: PropertyMap): Promise<PropertyMap> {
    return { ...args, resourceUrn: this.urn, __provider: await providerFor(this.kind) };
  }

  /** The provider's Check alone, against the inputs in state. */
  async check(args: PropertyMap) {
    return this.env.host.check(this.urn, this.state?.inputs ?? {}, await this.inputs(args));
  }

  /** `pulumi preview` of this resource: the step the engine plans, the provider's diff and the checked inputs. */
  async preview(args: PropertyMap): Promise<{ step: Step; diff?: DiffResult; inputs: PropertyMap }> {
    const { step, seen } = await this.run(true, args);
    return { step, ...(seen.diff ? { diff: seen.diff } : {}), inputs: seen.checked ?? {} };
  }

  /** What `pulumi up` does for this resource; returns the step taken. */
  async up(args: PropertyMap): Promise<Step> {
    return (await this.run(false, args)).step;
  }

  /**
   * One run of the engine with a program that registers this resource alone (under its component,
   * when it has one): the registration, then the run's deletes (an old half of a replace, kept or
   * left over), as dev/engine/engine.ts runs a program. The state becomes what the engine recorded,
   * failed runs included. A failure rejects with the provider's own error when a call threw one.
   */
  private async run(preview: boolean, args: PropertyMap): Promise<{ step: Step; seen: Seen }> {
    const seen: Seen = {};
    const { steps, dep } = await runDeployment({ preview, host: this.calls(seen), olds: this.entries, project: PROJECT, stack: STACK, parallel: 1 }, async (dep) => {
      let parent = "";
      if (this.parentType) parent = (await dep.register(registration(this.parentType, `${this.name}-parent`, "", false, {}))).urn;
      await dep.register(registration(this.type, this.name, parent, true, await this.inputs(args), SECRET_OUTPUTS[this.type] ?? []));
    });
    if (!preview) this.entries = dep.snapshot().filter((r) => r.custom);
    const errors = [...dep.errors, ...steps.filter((s) => s.error).map((s) => `${s.urn}: ${s.error}`), ...dep.reportedErrors];
    if (errors.length > 0) throw seen.error ?? new Error(errors.join("; "));
    const step = steps.find((s) => s.urn === this.urn && !s.replacing);
    if (!step) throw new Error(`the engine took no step for ${this.urn}`);
    return { step: step.op as Step, seen };
  }

  /** `pulumi refresh` of this resource (dev/engine/'s refreshOne); an empty id drops it from state. Returns whether it still exists. */
  async refresh(): Promise<boolean> {
    const s = this.state;
    if (!s) throw new Error(`${this.name} has no state`);
    const seen: Seen = {};
    const { step } = await refreshOne(this.calls(seen), s);
    if (step.error) throw seen.error ?? new Error(step.error);
    if (step.op === "delete") {
      this.entries = this.entries.filter((r) => r !== s);
      return false;
    }
    return true;
  }

  /** `pulumi destroy` of this resource (dev/engine/'s destroyAll): rejects with the provider's error when the delete failed. */
  async destroy(): Promise<void> {
    const seen: Seen = {};
    const failed: string[] = [];
    const ok = await destroyAll(
      this.entries,
      this.calls(seen),
      1,
      (step) => {
        if (step.error) failed.push(step.error);
      },
      (r) => (this.entries = this.entries.filter((x) => x !== r)),
    );
    if (!ok) throw seen.error ?? new Error(failed.join("; "));
  }

  get outputs(): PropertyMap {
    const s = this.state;
    if (!s) throw new Error(`${this.name} has no state`);
    return s.outputs;
  }

  /** The host of the moment (a crash test replaces it), noting what it answered. */
  private calls(seen: Seen): HostCalls {
    const host = this.env.host;
    const noted = async <T>(call: Promise<T>): Promise<T> => {
      try {
        return await call;
      } catch (e) {
        seen.error = e;
        throw e;
      }
    };
    return {
      check: async (...a) => {
        const r = await noted(host.check(...a));
        seen.checked = r.inputs;
        return r;
      },
      diff: async (...a) => (seen.diff = await noted(host.diff(...a))),
      create: (...a) => noted(host.create(...a)),
      read: (...a) => noted(host.read(...a)),
      update: (...a) => noted(host.update(...a)),
      delete: (...a) => noted(host.delete(...a)),
    };
  }
}

/** A resource a program declares at the top of its stack with literal arguments (no outputs of others). */
export interface Declared {
  kind: Kind;
  name: string;
  args: PropertyMap;
}

/**
 * The implicit dependencies the resource constructors give `declared` (resources/program/declaration-order.ts):
 * for each, the indices of the ones it waits for. Literal arguments: every one of them may be waited for.
 */
export const implicitWaits = (declared: readonly Pick<Declared, "kind" | "args">[], opts: { byNameOnly?: boolean } = {}): number[][] => {
  // `byNameOnly`: the waits for the Domain or DnsZone a literal names, without the chains of purchases and of an RRset's records.
  const orderOf = (kind: Kind): DeclarationOrder => (opts.byNameOnly ? { ...ORDER_OF[kind], purchase: undefined, peers: undefined } : ORDER_OF[kind]);
  const program = declared.map((r) => ({ kind: r.kind, order: orderOf(r.kind), account: undefined, args: r.args, waits: false }));
  return program.map((d) => waitsFor(d, program));
};

/**
 * One `pulumi preview` or `up` of a program that only declares `declared` (literal arguments, so no
 * program process is needed): `runDeployment` given the registrations such a program sends, all at
 * once but for the implicit dependencies its constructors add (a registration waits for the ones it
 * depends on to be answered), every provider call to `host`. The steps, the errors as the engine
 * reports them, and the state the run leaves (`olds` for a preview).
 */
export async function deployDeclared(
  host: HostCalls,
  o: { preview: boolean; olds: ResourceState[]; parallel: number; project: string; stack: string },
  declared: Declared[],
): Promise<{ steps: EngineStep[]; errors: string[]; state: ResourceState[] }> {
  const waits = implicitWaits(declared);
  const { steps, dep } = await runDeployment({ ...o, host }, (dep) => {
    // Each registration's answer, settled once it is: what the registrations that wait for it await.
    const answered = declared.map(() => {
      let resolve!: () => void;
      return { promise: new Promise<void>((r) => (resolve = r)), resolve: () => resolve() };
    });
    const registered = declared.map(async (r, i) => {
      await Promise.all(waits[i].map((w) => answered[w].promise));
      const type = typeToken(r.kind);
      const object = { ...r.args, resourceUrn: createUrn(r.name, type, "", o.project, o.stack), __provider: await providerFor(r.kind) };
      const dependencies = waits[i].map((w) => createUrn(declared[w].name, typeToken(declared[w].kind), "", o.project, o.stack));
      await dep.register({ ...registration(type, r.name, "", true, object, SECRET_OUTPUTS[type] ?? []), dependencies });
      answered[i].resolve();
    });
    // Registrations that wait for one that fails are never sent: the run ends with the failure.
    return Promise.all(registered);
  });
  const errors: string[] = [];
  for (const e of [...steps.filter((s) => s.error).map((s) => `${s.urn}: ${s.error}`), ...dep.errors, ...dep.reportedErrors]) if (!errors.includes(e)) errors.push(e);
  return { steps, errors, state: o.preview ? o.olds : dep.snapshot() };
}

/**
 * One engine run of a program whose registrations `register` sends: dev/engine/'s Deployment, every
 * provider call to `o.host`, then its deletes. A failed registration is never answered (the engine
 * stops the program): the failure ends the run. The steps the engine recorded, and the deployment
 * for its errors and state.
 */
async function runDeployment(
  o: { preview: boolean; host: HostCalls; olds: ResourceState[]; parallel: number; project: string; stack: string },
  register: (dep: Deployment) => Promise<unknown>,
): Promise<{ steps: EngineStep[]; dep: Deployment }> {
  const steps: EngineStep[] = [];
  const dep = new Deployment({ ...o, record: (s) => steps.push(s), save: () => undefined, log: () => undefined });
  await Promise.race([register(dep), dep.failed]);
  await dep.idle();
  await dep.finish(dep.hasFailed);
  return { steps, dep };
}

/** A RegisterResourceRequest as the SDK sends one for a resource with no options but its secret outputs. */
function registration(type: string, name: string, parent: string, custom: boolean, object: PropertyMap, additionalSecretOutputs: string[] = []): Registration {
  return {
    type,
    name,
    parent,
    custom,
    object,
    protect: undefined,
    dependencies: [],
    propertyDependencies: {},
    deleteBeforeReplace: undefined,
    ignoreChanges: [],
    additionalSecretOutputs,
    aliases: [],
    importId: "",
    retainOnDelete: undefined,
    deletedWith: "",
    replaceOnChanges: [],
    provider: "",
    remote: false,
  };
}

export const contact = {
  name: "Jane Tester",
  organization: null,
  email: "jane.tester@private-mail.test",
  phone: "+44 20 7946 0001",
  addressLine1: "2 Test Lane",
  city: "London",
  state: null,
  postalCode: "E1 6AN",
  country: "gb",
};
