/**
 * A lying service that stretches waits: a 5xx with `Retry-After: 999999` on every attempt, 429s and
 * 5xx taking turns, and a `server_time` in the year 5138. Through the real client, on a virtual clock,
 * against the sandbox behind the rewriting proxy: every wait before a retry draws from one budget per
 * call (contract rateLimit.maxWaitSeconds), whatever the status, and a clock offset beyond
 * signing.maxClockOffsetSeconds is not adopted, with a warning.
 */
import type * as http from "node:http";
import { ManualClock } from "../../api/clock";
import { ResellerClient } from "../../api/client";
import { DEFAULT_CONTRACT } from "../../api/contract";
import { AuthenticationError, ResellerApiError } from "../../api/errors";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { startRewritingProxy, type RewritingProxy } from "../support/rewriting-proxy";
import { CONTACT } from "../sandbox/signed-fetch";

const RL = DEFAULT_CONTRACT.rateLimit;
const START = Date.parse("2026-03-01T00:00:00Z");

let sb: SandboxHandle;
let proxy: RewritingProxy;
let clock: ManualClock;
let c: ResellerClient;
let warnings: string[];
/** Virtual ms after START at which each lie was told. */
let seenAt: number[];

beforeEach(async () => {
  clock = new ManualClock({ start: START, autoAdvance: true });
  sb = await startSandbox({ port: 0, now: clock.now, processingDelaySeconds: 0 });
  proxy = await startRewritingProxy(sb.url);
  warnings = [];
  c = client(clock.now);
});

afterEach(async () => {
  await c.close();
  await proxy.close();
  await sb.close();
});

function client(now: () => number): ResellerClient {
  return new ResellerClient({
    baseUrl: proxy.url,
    apiKey: sb.credentials.key,
    apiSecret: sb.credentials.secret,
    now,
    sleep: clock.sleep,
    rateLimitLogDir: null,
    logger: { warn: (m) => warnings.push(m) },
  });
}

/** An error answer the proxy writes itself, with the headers a lying service chooses. */
const answer =
  (status: number, code: string, headers: Record<string, string>, details?: Record<string, unknown>) =>
  (_a: unknown, res: http.ServerResponse): void => {
    seenAt.push(clock.now() - START);
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify({ success: false, error: { code, message: "lying", ...(details ? { details } : {}) } }));
  };

beforeEach(() => {
  seenAt = [];
});

const failureOf = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => new Error("the call succeeded"),
    (e: unknown) => e,
  );

describe("one wait budget per call, whatever the status", () => {
  test("a read answered 503 with Retry-After: 999999 on every attempt waits the capped Retry-After until the budget, not once more", async () => {
    proxy.rewrite({ method: "GET", path: /\/account\/balance$/, times: 10, write: answer(503, "internal_error", { "retry-after": "999999" }) });
    const e = await failureOf(c.getBalance());
    const cap = RL.maxRetryAfterSeconds * 1000;
    const tries = Math.floor(RL.maxWaitSeconds / RL.maxRetryAfterSeconds) + 1;
    expect(tries).toBeLessThan(4); // fewer than the retries of a 5xx (3), so the budget is what stops it
    expect(seenAt).toEqual(Array.from({ length: tries }, (_, i) => i * cap));
    expect(clock.now() - START).toBeLessThanOrEqual(RL.maxWaitSeconds * 1000);
    expect(e).toBeInstanceOf(ResellerApiError);
    expect((e as ResellerApiError).status).toBe(503);
    expect((e as Error).message).toContain(
      `The service answered 503 ${tries} times; the client gave up rather than wait ${RL.maxRetryAfterSeconds} s more after ${((tries - 1) * cap) / 1000} s (at most ${RL.maxWaitSeconds} s for one call): contract rateLimit.maxWaitSeconds ${RL.maxWaitSeconds}.`,
    );
  });

  test("429s and a 5xx draw from the same budget: a paid order (register) stops at it, and the service took it once", async () => {
    const ask = 100;
    proxy.rewrite({ method: "POST", path: /\/domains\/register$/, times: 2, write: answer(429, "rate_limited", { "retry-after": String(ask) }) });
    proxy.rewrite({ method: "POST", path: /\/domains\/register$/, times: 10, write: answer(502, "internal_error", { "retry-after": "999999" }) });
    const e = await failureOf(c.register({ domain: "budget.com", years: 1, contacts: { registrant: CONTACT } }, { idempotencyKey: "waits-budget.com" }));
    // 2 × 100 s of 429s leave 100 s: the 502's capped Retry-After (120 s) does not fit.
    expect(seenAt).toEqual([0, ask * 1000, 2 * ask * 1000]);
    expect(e).toBeInstanceOf(ResellerApiError);
    expect((e as ResellerApiError).status).toBe(502);
    expect((e as Error).message).toContain(`gave up rather than wait ${RL.maxRetryAfterSeconds} s more after ${2 * ask} s (at most ${RL.maxWaitSeconds} s for one call)`);
    expect(sb.operator.ledger().filter((x) => x.domain === "budget.com")).toHaveLength(1);
  });
});

describe("the clock offset learnt from the service is bounded (contract signing.maxClockOffsetSeconds)", () => {
  const MAX = DEFAULT_CONTRACT.signing.maxClockOffsetSeconds;

  test("a server_time in the year 5138 is ignored with a warning; the next call signs with the local clock", async () => {
    const year5138 = Date.UTC(5138, 0, 1) / 1000;
    proxy.rewrite({ method: "GET", path: /\/domains\?/, write: answer(401, "timestamp_out_of_range", {}, { server_time: year5138 }) });
    const e = await failureOf(c.listDomains());
    expect(e).toBeInstanceOf(AuthenticationError);
    expect(c.clockOffsetMs).toBe(0);
    expect(warnings).toEqual([expect.stringContaining(`more than the ${MAX} s the client adopts (contract signing.maxClockOffsetSeconds); it is ignored`)]);
    await expect(c.listDomains()).resolves.toEqual(expect.any(Array));
  });

  test("an offset inside the bound is adopted: a local clock 23 hours behind signs with the service's time", async () => {
    const behind = 23 * 3600 * 1000;
    const late = client(() => clock.now() - behind);
    try {
      await expect(late.listDomains()).resolves.toEqual(expect.any(Array));
      expect(Math.abs(late.clockOffsetMs - behind)).toBeLessThan(1000);
    } finally {
      await late.close();
    }
  });

  test("an offset beyond it is not adopted, even from the service's own refusal: a local clock 2 days behind", async () => {
    const late = client(() => clock.now() - 2 * MAX * 1000);
    try {
      expect(await failureOf(late.listDomains())).toBeInstanceOf(AuthenticationError);
      expect(late.clockOffsetMs).toBe(0);
      expect(warnings).toEqual([expect.stringContaining(`${2 * MAX} s behind, more than the ${MAX} s the client adopts`)]);
    } finally {
      await late.close();
    }
  });
});
