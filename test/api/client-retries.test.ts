/**
 * The request loop over a real local server: retries and their limits, what is never re-sent,
 * Retry-After, waiting out 429, and clock-skew recovery. Time is a fake clock (sleep advances it).
 */
import * as net from "node:net";
import type { ResellerClient } from "../../api/client";
import { OutcomeUnknownError, RateLimitedError, ResellerNetworkError } from "../../api/errors";
import type { WaitEvent } from "../../api/request-loop";
import { ok, fail, startRecordingServer, type RecordingServer } from "../support/recording-server";
import { chargeUnknown } from "../../resources/kit/unanswered-order";
import * as F from "./fixtures";
import { clientFor, fakeClock, type FakeClock } from "./helpers";

let server: RecordingServer;
let clock: FakeClock;
let client: ResellerClient;
beforeEach(async () => {
  server = await startRecordingServer();
  clock = fakeClock();
  client = clientFor(server, clock);
});
afterEach(async () => {
  await client.close();
  await server.close();
});

const reg = { domain: "example.com", years: 1, contacts: { registrant: F.contact } };
const nonces = (): string[] => server.requests.map((r) => String(r.headers["x-nonce"]));

describe("retries of safe requests", () => {
  it("a GET is retried on 5xx with backoff, each attempt freshly signed with a new nonce", async () => {
    server.next(fail(500, "internal_error"), fail(503, "internal_error"), ok(F.info));
    await expect(client.getDomain("example.com")).resolves.toEqual(F.info);
    expect(server.requests).toHaveLength(3);
    expect(new Set(nonces()).size).toBe(3);
    expect(new Set(server.requests.map((r) => r.headers["x-signature"])).size).toBe(3);
    expect(clock.sleeps).toHaveLength(2);
    clock.sleeps.forEach((ms, i) => expect(ms).toBeLessThan(500 * 2 ** i));
  });

  it("gives up after maxRetries and throws the last answer's error", async () => {
    server.respond(() => fail(502, "internal_error", "bad gateway"));
    await expect(client.getDomain("example.com")).rejects.toMatchObject({ name: "ResellerApiError", status: 502 });
    expect(server.requests).toHaveLength(4); // 1 + maxRetries (3)
  });

  it("a GET is retried when the server drops the connection", async () => {
    server.next({ drop: true }, ok(F.info));
    await expect(client.getDomain("example.com")).resolves.toEqual(F.info);
    expect(server.requests).toHaveLength(2);
  });

  it("register is retried with the same Idempotency-Key and a fresh nonce on every attempt", async () => {
    server.next(fail(500, "internal_error"), { drop: true }, ok(F.order, 201));
    await expect(client.register(reg, { idempotencyKey: "rp1-same" })).resolves.toEqual(F.order);
    expect(server.requests.map((r) => r.headers["idempotency-key"])).toEqual(["rp1-same", "rp1-same", "rp1-same"]);
    expect(new Set(server.requests.map((r) => r.body)).size).toBe(1);
    expect(new Set(nonces()).size).toBe(3);
  });

  it("a 4xx other than 429 is not retried", async () => {
    server.next(fail(422, "validation_error", "bad", { field: "years" }));
    await expect(client.register(reg, { idempotencyKey: "k" })).rejects.toMatchObject({ name: "ValidationError", field: "years" });
    expect(server.requests).toHaveLength(1);
  });
});

describe("creating POSTs without Idempotency-Key are never re-sent once they may have arrived", () => {
  const creators: [string, (c: ResellerClient) => Promise<unknown>][] = [
    ["createZone", (c) => c.createZone("example.com")],
    ["createRecord", (c) => c.createRecord("example.com", { type: "A", name: "www", content: "192.0.2.1" })],
    ["createHost", (c) => c.createHost("example.com", F.host)],
    ["requestEppCode", (c) => c.requestEppCode("example.com")],
    ["applyTemplate", (c) => c.applyTemplate("example.com", "t1", { variables: {}, conflict_strategy: "cancel" })],
  ];

  it.each(creators)("%s: a 5xx gives OutcomeUnknownError after one attempt", async (_n, call) => {
    server.respond(() => fail(500, "internal_error"));
    const e = await call(client).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OutcomeUnknownError);
    expect((e as Error).message).toMatch(/read the resource back and reconcile/);
    expect(server.requests).toHaveLength(1);
  });

  it("a dropped connection gives OutcomeUnknownError, not a retry", async () => {
    server.respond(() => ({ drop: true }));
    await expect(client.createZone("example.com")).rejects.toMatchObject({ name: "OutcomeUnknownError", reason: expect.stringContaining("UND_ERR_SOCKET") });
    expect(server.requests).toHaveLength(1);
  });

  it("a timeout gives OutcomeUnknownError, while a GET that times out is retried", async () => {
    const slow = clientFor(server, clock, { timeoutMs: 150, maxRetries: 1 });
    server.respond(() => ({ hang: true }));
    await expect(slow.createRecord("example.com", { type: "TXT", name: "@", content: "x" })).rejects.toMatchObject({ name: "OutcomeUnknownError" });
    expect(server.requests).toHaveLength(1);
    await expect(slow.getDomain("example.com")).rejects.toBeInstanceOf(ResellerNetworkError);
    expect(server.requests).toHaveLength(3); // 1 create + GET twice
    await slow.close();
  });

  it("a 429 is retried: the service applied nothing", async () => {
    server.next(fail(429, "rate_limited", "slow", {}, { "Retry-After": "2" }), ok(F.zone, 201));
    await expect(client.createZone("example.com")).resolves.toEqual(F.zone);
    expect(server.requests).toHaveLength(2);
  });

  it("a refused connection (nothing sent) is retried, then reported as a network error, not an unknown outcome", async () => {
    const port = await closedPort();
    const c = clientFor(server, clock, { baseUrl: `http://127.0.0.1:${port}`, maxRetries: 2 });
    await expect(c.createZone("example.com")).rejects.toMatchObject({ name: "ResellerNetworkError", reason: expect.stringContaining("ECONNREFUSED") });
    expect(clock.sleeps).toHaveLength(2);
    await c.close();
  });
});

describe("a keyed order whose later attempts never leave: the earlier attempt may have been applied", () => {
  /** A client whose first backoff takes the server down: every later attempt is refused, nothing sent. */
  const downAfterFirst = () => {
    let down = false;
    return clientFor(server, clock, {
      sleep: async (ms) => {
        if (!down) await server.close();
        down = true;
        return clock.sleep(ms);
      },
    });
  };

  it.each([
    ["sent, then the connection dropped", { drop: true } as const, /an earlier attempt reached the service \(attempt 1: /],
    ["answered 503", fail(503, "internal_error"), /an earlier attempt reached the service \(attempt 1: status 503 internal_error\)/],
  ])("attempt 1 %s, the rest refused: not \"never reached the service\", and its charge is unknown", async (_name, first, reason) => {
    server.next(first);
    const c = downAfterFirst();
    const e = await c.register(reg, { idempotencyKey: "rp1-reached" }).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ResellerNetworkError);
    expect(e).toMatchObject({ sent: true, keyed: true, reason: expect.stringMatching(reason) });
    expect((e as Error).message).not.toMatch(/never reached|nothing was changed or charged/);
    expect((e as Error).message).toMatch(/ECONNREFUSED/);
    expect(chargeUnknown(e)).toMatch(/^no answer came back/);
    expect(server.requests).toHaveLength(1);
    await c.close();
  });

  it("control: no attempt ever left, so nothing was changed or charged", async () => {
    const port = await closedPort();
    const c = clientFor(server, clock, { baseUrl: `http://127.0.0.1:${port}` });
    const e = await c.register(reg, { idempotencyKey: "rp1-never" }).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toMatchObject({ name: "ResellerNetworkError", sent: false });
    expect((e as Error).message).toMatch(/never reached the service after 4 attempt\(s\) .*so nothing was changed or charged/);
    expect(chargeUnknown(e)).toBeUndefined();
    await c.close();
  });
});

describe("Retry-After", () => {
  it("seconds", async () => {
    server.next(fail(503, "internal_error", "busy", {}, { "Retry-After": "7" }), ok(F.info));
    await client.getDomain("example.com");
    expect(clock.sleeps).toEqual([7000]);
  });

  it("an HTTP date, relative to the client's clock", async () => {
    const at = new Date(clock.now() + 12_000).toUTCString();
    server.next(fail(503, "internal_error", "busy", {}, { "Retry-After": at }), ok(F.info));
    await client.getDomain("example.com");
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThan(11_000);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(12_000);
  });

  it("capped at contract.rateLimit.maxRetryAfterSeconds", async () => {
    server.next(fail(503, "internal_error", "busy", {}, { "Retry-After": "86400" }), ok(F.info));
    await client.getDomain("example.com");
    expect(clock.sleeps).toEqual([120_000]);
  });
});

describe("429 from the service", () => {
  it("is waited out (the credential's bucket pauses), reported through onWait, and the request succeeds", async () => {
    const waits: WaitEvent[] = [];
    const statuses: number[] = [];
    const c = clientFor(server, clock, { onWait: (e) => waits.push(e), onResponse: (e) => statuses.push(e.status) });
    server.next(
      fail(429, "rate_limited", "slow", { details: { retry_after: 30 } }, { "Retry-After": "30" }),
      fail(429, "rate_limited", "slow", { details: { retry_after: 5 } }),
      ok(F.info),
    );
    await expect(c.getDomain("example.com")).resolves.toEqual(F.info);
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([30_000, 5000]);
    expect(statuses).toEqual([429, 429, 200]);
    expect(waits).toEqual([
      { reason: "rate-limited-429", ms: 30_000, path: "GET /domains/{domain}", queue: { waiting: 1, drainMs: 30_000, perMinute: 60_000 } },
      { reason: "rate-limited-429", ms: 5000, path: "GET /domains/{domain}", queue: { waiting: 1, drainMs: 5000, perMinute: 60_000 } },
    ]);
    await c.close();
  });

  it("fails with RateLimitedError only after maxRateLimitRetries", async () => {
    const c = clientFor(server, clock, { maxRateLimitRetries: 2 });
    server.respond(() => fail(429, "rate_limited", "slow", {}, { "Retry-After": "1" }));
    const e = await c.ping().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e).toMatchObject({ retryAfterMs: 1000 });
    expect(server.requests).toHaveLength(3);
    await c.close();
  });

  it("the client's own limiter spaces requests and logs long waits", async () => {
    const info: string[] = [];
    const waits: WaitEvent[] = [];
    // Two requests a minute: the third waits until the first has left the window.
    const c = clientFor(server, clock, { requestsPerMinute: 2, baseUrl: `${server.url}/limited`, logger: { info: (m) => info.push(m) }, onWait: (e) => waits.push(e) });
    server.respond(() => ok(F.ping));
    await c.ping();
    await c.ping();
    await c.ping();
    expect(clock.sleeps).toEqual([60_000]);
    expect(waits.map((w) => w.reason)).toEqual(["rate-limit"]);
    expect(info[0]).toMatch(/waiting 60 s \(rate-limit\) before GET \/ping/);
    expect(server.requests.map((r) => r.path)).toEqual(Array(3).fill("/limited/api/v1/ping"));
    await c.close();
  });
});

describe("clock skew", () => {
  it("on 401 timestamp_out_of_range with server_time the client adopts the offset and retries once with a fresh nonce", async () => {
    const serverNow = Math.floor(clock.now() / 1000) + 900; // the service is 15 minutes ahead
    server.respond((req) => {
      const ts = Number(req.headers["x-timestamp"]);
      if (Math.abs(ts - serverNow) > 300) return fail(401, "timestamp_out_of_range", "skew", { details: { server_time: serverNow } });
      return ok(F.info);
    });
    await expect(client.getDomain("example.com")).resolves.toEqual(F.info);
    expect(server.requests).toHaveLength(2);
    expect(new Set(nonces()).size).toBe(2);
    expect(client.clockOffsetMs).toBe(900_000);
    // Later requests are signed with the corrected time straight away.
    await client.getDomain("example.com");
    expect(server.requests).toHaveLength(3);
  });

  it("retries only once", async () => {
    // A service 15 minutes ahead that refuses every timestamp all the same.
    server.respond(() => fail(401, "timestamp_out_of_range", "skew", { details: { server_time: Math.floor(clock.now() / 1000) + 900 } }));
    await expect(client.ping()).rejects.toMatchObject({ name: "AuthenticationError", code: "timestamp_out_of_range" });
    expect(server.requests).toHaveLength(2);
  });
});

/** A port that refuses connections: bound once, then released. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
