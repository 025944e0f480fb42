/**
 * A service that answers 429 badly: `Retry-After: 0` (once 51 requests in 850 ms), a Retry-After of
 * a day, and a storm that never ends. Through the real client against the sandbox on a virtual
 * clock, on a paid call (register): the waits stay within the contract's floor and cap, a storm
 * ends in a bounded number of tries and time with a message naming the limit, and nothing is
 * charged twice (a 429 applied nothing; the retry after the storm, same key, charges once).
 */
import { ManualClock } from "../../api/clock";
import { ResellerClient } from "../../api/client";
import { DEFAULT_CONTRACT } from "../../api/contract";
import { RateLimitedError } from "../../api/errors";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { atMs } from "../support/request-log";
import { CONTACT } from "../sandbox/signed-fetch";

const RL = DEFAULT_CONTRACT.rateLimit;
const START = Date.parse("2026-03-01T00:00:00Z");
const match = { method: "POST", path: "/domains/register" };

let sb: SandboxHandle;
let clock: ManualClock;
let c: ResellerClient;

beforeEach(async () => {
  clock = new ManualClock({ start: START, autoAdvance: true });
  sb = await startSandbox({ port: 0, now: clock.now, processingDelaySeconds: 0 });
  c = new ResellerClient({ baseUrl: sb.url, apiKey: sb.credentials.key, apiSecret: sb.credentials.secret, now: clock.now, sleep: clock.sleep, rateLimitLogDir: null });
});

afterEach(async () => {
  await c.close();
  await sb.close();
});

const register = (domain: string) => c.register({ domain, years: 1, contacts: { registrant: CONTACT } }, { idempotencyKey: `retry-after-${domain}` });
/** When each register attempt reached the service, ms after START, and its status. */
const attempts = () =>
  sb.operator
    .requests()
    .filter((r) => r.path.endsWith("/domains/register"))
    .map((r) => [atMs(r) - START, r.status]);
const charges = (domain: string) => sb.operator.ledger().filter((e) => e.domain === domain).length;

test("Retry-After: 0 is held to the floor (contract rateLimit.minRetryAfterSeconds): one try a second, charged once", async () => {
  sb.operator.injectFault({ kind: "rate-limit", count: 3, retryAfterSeconds: 0, match });
  await register("floor.com");
  const floor = RL.minRetryAfterSeconds * 1000;
  expect(floor).toBeGreaterThan(0);
  expect(attempts()).toEqual([
    [0, 429],
    [floor, 429],
    [2 * floor, 429],
    [3 * floor, 201],
  ]);
  expect(charges("floor.com")).toBe(1);
});

test("a Retry-After of a day is capped (contract rateLimit.maxRetryAfterSeconds): charged once", async () => {
  sb.operator.injectFault({ kind: "rate-limit", count: 1, retryAfterSeconds: 86_400, match });
  await register("cap.com");
  expect(attempts()).toEqual([
    [0, 429],
    [RL.maxRetryAfterSeconds * 1000, 201],
  ]);
  expect(charges("cap.com")).toBe(1);
});

test("a storm of 429s with Retry-After 0 ends after maxRetries, naming the limit; nothing charged, and the retry with the same key charges once", async () => {
  sb.operator.injectFault({ kind: "rate-limit", count: 1000, retryAfterSeconds: 0, match });
  const e = await register("storm.com").catch((x: unknown) => x);
  expect(e).toBeInstanceOf(RateLimitedError);
  const tries = RL.maxRetries + 1;
  expect(attempts()).toEqual(Array.from({ length: tries }, (_, i) => [i * RL.minRetryAfterSeconds * 1000, 429]));
  expect((e as Error).message).toMatch(
    new RegExp(
      `429 rate_limited.*The service answered 429 ${tries} times; the client gave up after ${RL.maxRetries} retries \\(the most for one call\\): contract rateLimit.maxRetries ${RL.maxRetries}, maxWaitSeconds ${RL.maxWaitSeconds}\\. The service's limit is ${RL.requestsPerMinute} requests per minute per credential`,
    ),
  );
  expect(charges("storm.com")).toBe(0);

  sb.operator.clearFaults();
  await register("storm.com");
  expect(charges("storm.com")).toBe(1);
});

test("a storm of 429s with long Retry-After ends by the time bound (maxWaitSeconds), before a wait that would pass it", async () => {
  const ask = 100;
  sb.operator.injectFault({ kind: "rate-limit", count: 1000, retryAfterSeconds: ask, match });
  const e = await register("slow-storm.com").catch((x: unknown) => x);
  expect(e).toBeInstanceOf(RateLimitedError);
  const tries = Math.floor(RL.maxWaitSeconds / ask) + 1;
  expect(attempts()).toEqual(Array.from({ length: tries }, (_, i) => [i * ask * 1000, 429]));
  expect(clock.now() - START).toBeLessThanOrEqual(RL.maxWaitSeconds * 1000);
  expect((e as Error).message).toMatch(
    new RegExp(`answered 429 ${tries} times; the client gave up rather than wait ${ask} s more after ${(tries - 1) * ask} s \\(at most ${RL.maxWaitSeconds} s for one call\\)`),
  );
  expect(charges("slow-storm.com")).toBe(0);
});
