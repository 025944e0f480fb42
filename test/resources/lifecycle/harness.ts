/**
 * Drives resources through the SDK's own dynamic-provider host over gRPC (engine/host.ts) against a
 * local sandbox, step by step as the Pulumi engine does: Check, then Create, or Diff and then
 * Update / Replace; Read for refresh; Delete with the old outputs. Needs `npm run build` (the host
 * requires reseller-pulumi/dist/resources/runtime, as it would in a user's project).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { startProviderHost, type PropertyMap, type ProviderHost } from "../../../engine/host";
import { ResellerClient } from "../../../provider/client";
import { startSandbox, type SandboxHandle, type SandboxOptions } from "../../../sandbox/index";
import { shim, type Kind } from "../../../resources/shim";

export const ROOT = path.resolve(__dirname, "../../..");

const providerText = new Map<Kind, string>();

/** The serialized `__provider` of a kind, exactly as a resource constructor produces it. */
export async function providerFor(kind: Kind): Promise<string> {
  let text = providerText.get(kind);
  if (!text) {
    const p = shim(kind);
    text = (await pulumi.runtime.serializeFunction(() => p)).text;
    providerText.set(kind, text);
  }
  return text;
}

export const urnOf = (kind: Kind, name: string): string => `urn:pulumi:test::lifecycle::pulumi-nodejs:dynamic/reseller:${kind}::${name}`;

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

export interface State {
  id: string;
  inputs: PropertyMap;
  outputs: PropertyMap;
}

export type Step = "create" | "update" | "replace" | "same";

/** One resource of a stack, with the state the engine would keep for it. */
export class Managed {
  state: State | undefined;
  readonly urn: string;

  constructor(
    readonly env: Env,
    readonly kind: Kind,
    readonly name: string,
  ) {
    this.urn = urnOf(kind, name);
  }

  /** The inputs a program would send: the given ones plus resourceUrn and __provider. */
  async inputs(args: PropertyMap): Promise<PropertyMap> {
    return { ...args, resourceUrn: this.urn, __provider: await providerFor(this.kind) };
  }

  async check(args: PropertyMap) {
    return this.env.host.check(this.urn, this.state?.inputs ?? {}, await this.inputs(args));
  }

  /** Check then diff, as `pulumi preview` does; no create or update. */
  async preview(args: PropertyMap) {
    const checked = await this.checked(args);
    if (!this.state) return { step: "create" as Step, inputs: checked };
    const diff = await this.env.host.diff(this.state.id, this.urn, this.state.outputs, checked);
    const step: Step = !diff.changes ? "same" : diff.replaces.length ? "replace" : "update";
    return { step, diff, inputs: checked };
  }

  private async checked(args: PropertyMap): Promise<PropertyMap> {
    const r = await this.check(args);
    if (r.failures.length) throw new Error(`check failed: ${r.failures.map((f) => f.reason).join("; ")}`);
    return r.inputs;
  }

  /** What `pulumi up` does for this resource; returns the step taken. */
  async up(args: PropertyMap): Promise<Step> {
    const p = await this.preview(args);
    const inputs = p.inputs;
    if (p.step === "create") {
      const r = await this.env.host.create(this.urn, inputs);
      this.state = { id: r.id, inputs, outputs: r.outputs };
    } else if (p.step === "update") {
      const r = await this.env.host.update(this.state!.id, this.urn, this.state!.outputs, inputs);
      this.state = { id: this.state!.id, inputs, outputs: r.outputs };
    } else if (p.step === "replace") {
      const old = this.state!;
      if (p.diff!.deleteBeforeReplace) await this.env.host.delete(old.id, this.urn, old.outputs);
      const r = await this.env.host.create(this.urn, inputs);
      this.state = { id: r.id, inputs, outputs: r.outputs };
      if (!p.diff!.deleteBeforeReplace) await this.env.host.delete(old.id, this.urn, old.outputs);
    } else this.state = { ...this.state!, inputs };
    return p.step;
  }

  /** `pulumi refresh`: read; an empty id drops the resource from state. Returns whether it still exists. */
  async refresh(): Promise<boolean> {
    const s = this.state!;
    const r = await this.env.host.read(s.id, this.urn, s.outputs, s.inputs);
    if (!r.id) {
      this.state = undefined;
      return false;
    }
    this.state = { id: r.id, inputs: r.inputs ?? s.inputs, outputs: r.props };
    return true;
  }

  async destroy(): Promise<void> {
    const s = this.state!;
    await this.env.host.delete(s.id, this.urn, s.outputs);
    this.state = undefined;
  }

  get outputs(): PropertyMap {
    if (!this.state) throw new Error(`${this.name} has no state`);
    return this.state.outputs;
  }
}

export const contact = {
  name: "Jane Tester",
  organization: null,
  email: "jane.tester@private-mail.test",
  phone: "+44 20 7946 0001",
  address_line_1: "2 Test Lane",
  city: "London",
  state: null,
  postal_code: "E1 6AN",
  country: "gb",
};
