/** Small helpers shared by the bench sections: rounding, medians, reading the sandbox request log. */
import { Engine, type EngineOptions } from "../engine/engine";
import type { SandboxHandle } from "../../sandbox/index";

export const round = (v: number, digits: number): number => Number(v.toFixed(digits));

export function median(values: number[]): number {
  if (values.length === 0) throw new Error("median of no values");
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * `BENCH_LARGE=1`: the sections' big sizes (1,000 to 10,000 records through the real CLI, hours in
 * all); without it the default sizes keep a whole `npm run bench` to about half an hour
 * (dev/bench/README.md). A section's own size setting wins over both.
 */
export const benchLarge = (env: NodeJS.ProcessEnv = process.env): boolean => env.BENCH_LARGE === "1";

export { atMs, isMutatingMethod, maxInWindow } from "../../test/support/request-log";

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

export { BENCH_REGISTRANT } from "../../test/support/registrant";
export { sandboxOnClock } from "../../test/support/sandbox-on-clock";
