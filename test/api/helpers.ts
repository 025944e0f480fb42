/** Shared set-up of client tests: a fake clock whose sleep advances it, and a client for a recording server. */
import { ResellerClient, type ResellerClientOptions } from "../../api/client";
import type { RecordingServer } from "../support/recording-server";

export const API_KEY = "key_live_abc123";
/** Distinctive so a leak is easy to find in any output. */
export const API_SECRET = "sk_TOPSECRET_9f8e7d6c5b4a";

export interface FakeClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  sleeps: number[];
}

/** Time starts at `start` and moves only by sleep(). */
export function fakeClock(start = Date.parse("2025-06-01T12:00:00Z")): FakeClock {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
    sleeps,
  };
}

/** A counter-based byte source: every call returns new bytes, so nonces differ and are predictable. */
export function countingRandom(): (n: number) => Uint8Array {
  let i = 0;
  return (n) => {
    i++;
    const b = new Uint8Array(n);
    for (let j = 0; j < n; j++) b[j] = (i * 31 + j * 7) & 0xff;
    return b;
  };
}

/** A client on a fake clock with a limiter wide enough not to interfere, unless overridden. */
export function clientFor(server: RecordingServer, clock: FakeClock, opts: Partial<ResellerClientOptions> = {}): ResellerClient {
  return new ResellerClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    requestsPerMinute: 60_000,
    burst: 1000,
    now: clock.now,
    sleep: clock.sleep,
    random: countingRandom(),
    timeoutMs: 5000,
    rateLimitLogDir: null,
    ...opts,
  });
}
