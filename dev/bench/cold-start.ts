/**
 * Bench section: cold start of the SDK's dynamic provider host. Time from spawning the host to
 * the first answered Check (spawn, port on stdout, Configure, Check), for a Check carrying one of
 * our resources' serialized provider and for a bare dynamic provider serialized the same way.
 * Runs alternate (ours, bare, ours, ...) so drift of the machine hits both; medians are compared.
 */
import * as pulumi from "@pulumi/pulumi";
import { packageRoot, startProviderHost, type PropertyMap } from "../engine/host";
import { shim } from "../../resources/program/shim";
import type { Measurement } from "./section";
import { median, round } from "./measure";

export interface ColdStartOptions {
  /** Spawns of each kind. */
  runs: number;
}

export const COLD_START_DEFAULTS: ColdStartOptions = { runs: 7 };

/** Serializes a provider exactly as `new pulumi.dynamic.Resource` does (SDK dynamic/index.js). */
export async function serializeProvider(provider: pulumi.dynamic.ResourceProvider): Promise<string> {
  return (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
}

/** The smallest useful dynamic provider: what a program's inline provider costs at minimum. */
export const bareProvider: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async create(inputs) {
    return { id: "bare", outs: inputs };
  },
};

/** One cold start: spawn, Configure, Check; ms until the Check is answered. */
export async function timeToFirstCheck(urn: string, inputs: PropertyMap, config: Record<string, string>): Promise<number> {
  const started = performance.now();
  const host = await startProviderHost({
    cwd: packageRoot(),
    env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined },
  });
  try {
    await host.configure(config);
    const checked = await host.check(urn, {}, inputs);
    const ms = performance.now() - started;
    if (checked.failures.length > 0) throw new Error(`cold start: Check refused the inputs: ${JSON.stringify(checked.failures)}`);
    return ms;
  } finally {
    await host.close();
  }
}

export function coldStart(opts: ColdStartOptions = COLD_START_DEFAULTS): Measurement {
  return {
    id: "cold-start",
    name: `provider host cold start (${opts.runs} spawns each, alternating)`,
    metrics: ["hostColdStartOursMs", "hostColdStartBareMs", "hostColdStartRuns", "hostColdStartRatio"],
    async run(progress) {
      const oursUrn = "urn:pulumi:bench::reseller::pulumi-nodejs:dynamic/reseller:DnsRecord::www";
      const ours: PropertyMap = {
        zone: "example.com",
        type: "A",
        name: "www",
        content: "192.0.2.1",
        ttl: 300,
        resourceUrn: oursUrn,
        __provider: await serializeProvider(shim("DnsRecord")),
      };
      const bareUrn = "urn:pulumi:bench::reseller::pulumi-nodejs:dynamic:Resource::bare";
      const bare: PropertyMap = { value: "x", __provider: await serializeProvider(bareProvider) };
      // The config has the engine's shape so `configure` runs as it would. No service listens at
      // the base URL, so Check's preflight reads (what preview predicts) are turned off: Check then
      // runs offline, as the bare provider's does, and the two spawns are compared like for like.
      const config = {
        "reseller:baseUrl": "http://127.0.0.1:1",
        "reseller:apiKey": "bench-key",
        "reseller:apiSecret": "bench-secret",
        "reseller:preflight": "false",
      };
      const oursMs: number[] = [];
      const bareMs: number[] = [];
      // One unmeasured spawn of each warms the file system cache for both equally.
      await timeToFirstCheck(oursUrn, ours, config);
      await timeToFirstCheck(bareUrn, bare, config);
      for (let i = 0; i < opts.runs; i++) {
        oursMs.push(await timeToFirstCheck(oursUrn, ours, config));
        bareMs.push(await timeToFirstCheck(bareUrn, bare, config));
        progress(`spawn ${i + 1}/${opts.runs}: ours ${Math.round(oursMs[i])} ms, bare ${Math.round(bareMs[i])} ms`);
      }
      const oursMedian = median(oursMs);
      const bareMedian = median(bareMs);
      return {
        hostColdStartOursMs: round(oursMedian, 1),
        hostColdStartBareMs: round(bareMedian, 1),
        hostColdStartRuns: opts.runs,
        hostColdStartRatio: round(oursMedian / bareMedian, 3),
      };
    },
  };
}
