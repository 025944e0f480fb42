/** Small helpers shared by the bench sections: rounding, medians, reading the sandbox request log. */
import { Engine, type EngineOptions } from "../engine/engine";
import { ResellerClient } from "../provider/client";
import type { Clock } from "../provider/clock";
import { startSandbox, type SandboxHandle } from "../sandbox/index";
import type { RequestLogEntry } from "../sandbox/server";

export const round = (v: number, digits: number): number => Number(v.toFixed(digits));

export function median(values: number[]): number {
  if (values.length === 0) throw new Error("median of no values");
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Requests that may change something: every method but GET and HEAD. */
export const isMutatingMethod = (e: Pick<RequestLogEntry, "method">): boolean => !["GET", "HEAD"].includes(e.method.toUpperCase());

/** Milliseconds since the epoch of a log entry (the sandbox logs ISO times with milliseconds). */
export const atMs = (e: Pick<RequestLogEntry, "at">): number => Date.parse(e.at);

/** The stack config that points at `sandbox` with its credential, paced at `limitPerMinute`. */
export function sandboxConfig(sandbox: SandboxHandle, limitPerMinute: number): Record<string, string> {
  return {
    "reseller:baseUrl": sandbox.url,
    "reseller:apiKey": sandbox.credentials.key,
    "reseller:apiSecret": sandbox.credentials.secret,
    "reseller:requestsPerMinute": String(limitPerMinute),
  };
}

/**
 * An engine against a sandbox, quiet, with the sandbox's credential as stack config (the secret
 * marked secret) and the given client rate limit; RESELLER_* of this shell are not passed on
 * (`extra.host.env` is added to the environment of the host and the program).
 */
export function sandboxEngine(sandbox: SandboxHandle, limitPerMinute: number, extra: Partial<EngineOptions> = {}): Engine {
  return new Engine({
    config: sandboxConfig(sandbox, limitPerMinute),
    secretConfigKeys: ["reseller:apiSecret"],
    passphrase: "bench",
    log: () => undefined,
    ...extra,
    host: { ...extra.host, env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined, ...extra.host?.env } },
  });
}

export { BENCH_REGISTRANT } from "./registrant";

/**
 * A sandbox and a client of it sharing `clock` (service and caller on one virtual time: the client
 * signs and paces by it, the sandbox checks signatures, counts its limit and processes orders by it).
 */
export async function sandboxOnClock(clock: Clock, limitPerMinute: number, processingDelaySeconds: number): Promise<{ sandbox: SandboxHandle; client: ResellerClient }> {
  const sandbox = await startSandbox({ port: 0, now: () => clock.now(), requestsPerMinute: limitPerMinute, processingDelaySeconds });
  const client = new ResellerClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.credentials.key,
    apiSecret: sandbox.credentials.secret,
    requestsPerMinute: limitPerMinute,
    now: () => clock.now(),
    sleep: (ms) => clock.sleep(ms),
    rateLimitLogDir: null,
  });
  return { sandbox, client };
}
