/**
 * Hostile answers between the client and the sandbox (test/support/rewriting-proxy.ts, with the
 * writers of ./answer-writers.ts): late headers,
 * a dripped or oversized body, truncated JSON, a non-JSON page, 200 with an error body, a redirect
 * to another host. For each: what the client does (retry under the same key, or "outcome unknown"
 * and no re-send), that the sandbox's ledger holds each charge once, and what the message says.
 */
import { ResellerClient } from "../../api/client";
import { isOutcomeUnknownError, isResellerNetworkError, ResponseShapeError } from "../../api/errors";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import * as F from "../api/fixtures";
import { startRecordingServer } from "../support/recording-server";
import { startRewritingProxy, type Lie, type RewritingProxy } from "../support/rewriting-proxy";
import { declaresSize, dripped, lateHeaders, oversized, redirectTo } from "./answer-writers";

/** Deadline of one attempt: generous for a loaded machine, short enough for a test to wait out. */
const DEADLINE_MS = 4000;
const WITHIN_DEADLINE = new RegExp(`no whole answer within ${DEADLINE_MS} ms`);
const CAP = 64 * 1024;

let sandbox: SandboxHandle;
let proxy: RewritingProxy;
let client: ResellerClient;
/** The client's debug lines: one per attempt, with why it failed. */
let debugLines: string[];
beforeEach(async () => {
  debugLines = [];
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
  proxy = await startRewritingProxy(sandbox.url);
  client = new ResellerClient({
    baseUrl: proxy.url,
    apiKey: sandbox.credentials.key,
    apiSecret: sandbox.credentials.secret,
    requestsPerMinute: 60_000,
    burst: 100,
    timeoutMs: DEADLINE_MS,
    maxRetries: 2, // one retry shows the key is kept; a second spares a loaded machine's slow honest answer
    rateLimitLogDir: null,
    contract: { maxResponseBytes: CAP },
    sleep: async () => {}, // backoff between retries: not what is tested here
    logger: { debug: (line) => debugLines.push(line) },
  });
});
afterEach(async () => {
  await client.close();
  await proxy.close();
  await sandbox.close();
});

const DOMAIN = "hostile-order.com";
const KEY = "rp1-hostile-order";
const register = () => client.register({ domain: DOMAIN, years: 1, contacts: { registrant: F.contact } }, { idempotencyKey: KEY });
const charges = () => sandbox.operator.ledger().filter((e) => e.domain === DOMAIN);
const sent = (method: string, path: string) => proxy.requests.filter((r) => r.method === method && r.path.endsWith(path));

/** The register went through once: one charge, and the sandbox holds the domain. */
async function chargedOnce(): Promise<void> {
  expect(charges()).toHaveLength(1);
  expect(charges()[0]).toMatchObject({ action: "register", idempotency_key: KEY });
  await expect(client.getDomain(DOMAIN)).resolves.toMatchObject({ domain: DOMAIN });
}

describe("a keyed order whose answer is late, dripped or oversized is retried under the same key and charged once", () => {
  it.each([
    ["headers later than the deadline", lateHeaders(DEADLINE_MS * 3), WITHIN_DEADLINE],
    ["a body dripped a byte at a time", dripped(100), WITHIN_DEADLINE],
    ["a body above maxResponseBytes", oversized(CAP * 8), /answer larger than 65536 bytes/],
    ["a Content-Length above maxResponseBytes, its body never sent (refused unread)", declaresSize(CAP + 1), /answer larger than 65536 bytes/],
  ])("%s", async (_what, how, reason) => {
    proxy.rewrite({ method: "POST", path: /\/domains\/register$/, write: how });
    const order = await register();
    expect(order).toMatchObject({ domain: DOMAIN });
    expect(debugLines.filter((l) => l.startsWith("POST /domains/register attempt 1:"))).toEqual([expect.stringMatching(reason)]);
    const attempts = sent("POST", "/domains/register");
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(attempts.map((a) => a.idempotencyKey))).toEqual(new Set([KEY]));
    await chargedOnce();
  });

  it("when every answer is dripped, the error says the order was retried under one key and may have been applied", async () => {
    proxy.rewrite({ method: "POST", path: /\/domains\/register$/, write: dripped(100), times: 10 });
    const e = await register().catch((x: unknown) => x);
    expect(isResellerNetworkError(e)).toBe(true);
    expect((e as Error).message).toMatch(WITHIN_DEADLINE);
    expect((e as Error).message).toMatch(/retried under the same key/);
    expect((e as Error).message).toMatch(/applied it at most once, and may have/);
    expect(new Set(sent("POST", "/domains/register").map((a) => a.idempotencyKey))).toEqual(new Set([KEY]));
    expect(charges()).toHaveLength(1);
  });

  it("when every answer is oversized, the error names the cap and its contract entry", async () => {
    proxy.rewrite({ method: "POST", path: /\/domains\/register$/, write: oversized(CAP * 8), times: 10 });
    const e = await register().catch((x: unknown) => x);
    expect(isResellerNetworkError(e)).toBe(true);
    expect((e as Error).message).toMatch(new RegExp(`answer larger than ${CAP} bytes, not read \\(contract entry maxResponseBytes\\)`));
    expect((e as Error).message).toMatch(/retried under the same key/);
    expect(charges()).toHaveLength(1);
  });
});

describe("an unkeyed create whose answer is late, dripped or oversized is 'outcome unknown' and never re-sent", () => {
  it.each([
    ["headers later than the deadline", lateHeaders(DEADLINE_MS * 3), /no whole answer within/],
    ["a body dripped a byte at a time", dripped(100), /no whole answer within/],
    ["a body above maxResponseBytes", oversized(CAP * 8), /answer larger than 65536 bytes/],
  ])("%s", async (_what, how, reason) => {
    proxy.rewrite({ method: "POST", path: /\/dns\/zones$/, write: how });
    const e = await client.createZone("demo-shop.net").catch((x: unknown) => x);
    expect(isOutcomeUnknownError(e)).toBe(true);
    expect((e as Error).message).toMatch(/outcome unknown/);
    expect((e as Error).message).toMatch(reason);
    expect((e as Error).message).toMatch(/not re-sent/);
    expect(sent("POST", "/dns/zones")).toHaveLength(1);
    // The service did create it: reading back finds the zone the message tells the caller to look for.
    await expect(client.getZone("demo-shop.net")).resolves.toMatchObject({ domain: "demo-shop.net" });
  });
});

describe("a paid answer with the wrong shape is not retried; the order stands once, and asking again charges nothing", () => {
  const lies: [string, (a: { body: string }) => Lie, RegExp][] = [
    ["truncated JSON", (a) => ({ body: a.body.slice(0, a.body.length / 2) }), /answered 201 with an unexpected body at \(body\): not JSON/],
    ["an HTML page", () => ({ status: 200, contentType: "text/html; charset=utf-8", body: "<html>Sign in to the network</html>" }), /answered 200 with an unexpected body at \(body\): not JSON \(content type text\/html/],
    ["200 with an error body", () => ({ status: 200, body: '{"success":false,"error":{"code":"internal_error"}}' }), /answered 200 with an unexpected body at success: expected true, got false/],
  ];
  it.each(lies)("%s", async (_what, lie, message) => {
    proxy.rewrite({ method: "POST", path: /\/domains\/register$/, lie });
    const e = await register().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ResponseShapeError);
    expect((e as Error).message).toMatch(message);
    expect(sent("POST", "/domains/register")).toHaveLength(1);
    await chargedOnce();
    // The same key again: the service replays the order it made, nothing is charged twice.
    await expect(register()).resolves.toMatchObject({ domain: DOMAIN });
    expect(charges()).toHaveLength(1);
  });
});

describe("a redirect to another host is never followed", () => {
  it("a keyed order: refused as a redirect, nothing reaches the other host, the order stands once", async () => {
    const elsewhere = await startRecordingServer();
    try {
      proxy.rewrite({ method: "POST", path: /\/domains\/register$/, write: redirectTo(`${elsewhere.url}/api/v1/domains/register`) });
      const e = await register().catch((x: unknown) => x);
      expect(e).toMatchObject({ name: "RedirectNotFollowedError", status: 307 });
      expect((e as Error).message).toMatch(/redirect, which is never followed/);
      expect((e as Error).message).toMatch(/read the domain back before ordering again/);
      expect(elsewhere.requests).toHaveLength(0);
      expect(sent("POST", "/domains/register")).toHaveLength(1);
      await chargedOnce();
    } finally {
      await elsewhere.close();
    }
  });

  it("an unkeyed create: 'outcome unknown', not re-sent, not followed", async () => {
    const elsewhere = await startRecordingServer();
    try {
      proxy.rewrite({ method: "POST", path: /\/dns\/zones$/, write: redirectTo(`${elsewhere.url}/api/v1/dns/zones`) });
      const e = await client.createZone("demo-shop.net").catch((x: unknown) => x);
      expect(isOutcomeUnknownError(e)).toBe(true);
      expect((e as Error).message).toMatch(/status 307/);
      expect(elsewhere.requests).toHaveLength(0);
      expect(sent("POST", "/dns/zones")).toHaveLength(1);
    } finally {
      await elsewhere.close();
    }
  });
});
