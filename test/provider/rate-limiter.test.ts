/** Token bucket math on a fake clock, the process-wide registry, and a real burst against a server that counts. */
import { ResellerClient } from "../../provider/client";
import { acquire, bucketFor, credentialId, TokenBucket } from "../../provider/rate-limiter";
import { ok, fail, startRecordingServer, type RecordingServer } from "../support/recording-server";
import { API_KEY, API_SECRET } from "./helpers";

describe("TokenBucket (fake clock)", () => {
  it("lets a burst through, then one token per 60/rpm seconds", () => {
    const b = new TokenBucket(60, 10, 0);
    const waits = Array.from({ length: 13 }, () => b.reserve(0));
    expect(waits).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1000, 2000, 3000]);
  });

  it("refills with time, never above capacity", () => {
    const b = new TokenBucket(60, 10, 0);
    for (let i = 0; i < 10; i++) b.reserve(0);
    expect(b.available(0)).toBe(0);
    expect(b.available(5000)).toBe(5);
    expect(b.available(3_600_000)).toBe(10);
  });

  it("a pause holds every request until it ends, then resumes at the steady rate without a burst", () => {
    const b = new TokenBucket(60, 10, 0);
    b.pause(0, 30_000);
    expect(b.pausedUntil).toBe(30_000);
    expect(b.reserve(0)).toBe(30_000);
    expect(b.reserve(10_000)).toBe(21_000);
    expect(b.reserve(30_000)).toBe(2000);
  });

  it("acquire waits the reserved time and queues again when a pause begins during the wait", async () => {
    let t = 0;
    const b = new TokenBucket(60, 1, 0);
    b.reserve(0); // bucket empty: the next token is due at 1 s
    const waits: [number, boolean][] = [];
    await acquire(b, {
      now: () => t,
      sleep: async (ms) => {
        if (t === 0) b.pause(0, 20_000); // a 429 elsewhere while we sleep
        t += ms;
      },
      onWait: (ms, paused) => waits.push([ms, paused]),
    });
    expect(waits[0]).toEqual([1000, false]);
    expect(waits[1][1]).toBe(true);
    expect(t).toBeGreaterThanOrEqual(20_000);
  });

  it("a clock stepped back (NTP, a resumed VM) does not make the next request wait out the step", () => {
    const b = new TokenBucket(60, 10, 1_200_000);
    for (let i = 0; i < 10; i++) expect(b.reserve(1_200_000)).toBe(0);
    // Twenty minutes earlier by the clock: the next token is one interval away, not twenty minutes.
    expect(b.reserve(0)).toBe(1000);
    expect(b.reserve(0)).toBe(2000);
    // A pause the service asked for is not mistaken for a step back.
    b.pause(0, 30_000);
    expect(b.reserve(10_000)).toBe(20_000);
  });

  it("refuses a nonsensical configuration", () => {
    expect(() => new TokenBucket(0, 10, 0)).toThrow(RangeError);
    expect(() => new TokenBucket(60, 0, 0)).toThrow(RangeError);
  });
});

describe("registry", () => {
  it("one bucket per credential, shared; keyed by a hash, not the key", () => {
    const a = bucketFor("http://h.example", "k1", 60, 10, 0);
    expect(bucketFor("http://h.example", "k1", 999, 99, 0)).toBe(a);
    expect(bucketFor("http://h.example", "k2", 60, 10, 0)).not.toBe(a);
    expect(bucketFor("http://other.example", "k1", 60, 10, 0)).not.toBe(a);
    const id = credentialId("http://h.example", "k1");
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(id).not.toContain("k1");
  });
});

describe("a real burst", () => {
  let server: RecordingServer;
  afterEach(() => server.close());

  it("two clients of one credential together stay within the limit the server enforces", async () => {
    const RPM = 600; // 10 per second
    const BURST = 2;
    // The server allows BURST + RPM/60 requests in any one-second window (plus one for network jitter) and answers 429 beyond.
    const perSecond = BURST + RPM / 60 + 1;
    const arrivals: number[] = [];
    let refused = 0;
    let busiest = 0;
    server = await startRecordingServer(() => {
      const t = Date.now();
      arrivals.push(t);
      const inWindow = arrivals.filter((x) => x > t - 1000).length;
      busiest = Math.max(busiest, inWindow);
      if (inWindow > perSecond) {
        refused++;
        return fail(429, "rate_limited", "slow down", {}, { "Retry-After": "1" });
      }
      return ok({ account: "acc", currency: "USD", balance: "1.00", scopes: [] });
    });
    const opts = { baseUrl: server.url, apiKey: API_KEY, apiSecret: API_SECRET, requestsPerMinute: RPM, burst: BURST };
    const a = new ResellerClient(opts);
    const b = new ResellerClient(opts);
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).ping()));
    await Promise.all([a.close(), b.close()]);
    expect(results).toHaveLength(30);
    expect(refused).toBe(0);
    expect(server.requests).toHaveLength(30);
    expect(busiest).toBeLessThanOrEqual(perSecond);
  });
});
