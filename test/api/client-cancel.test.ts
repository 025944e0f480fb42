/**
 * The client's cancel (option `signal`, aborted by the provider host on the engine's Cancel): against
 * the sandbox over HTTP, a purchase already sent gets its answer and is charged once; a request
 * waiting for its turn in the rate limit is never sent; a retry after the cancel is not sent either,
 * and its outcome is reported unknown, not "nothing charged".
 */
import { ResellerClient } from "../../api/client";
import { isOutcomeUnknownError, isRequestCancelledError } from "../../api/errors";
import { deriveIdempotencyKey } from "../../api/idempotency";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import * as F from "./fixtures";

let sandbox: SandboxHandle;
const clients: ResellerClient[] = [];
const clientOf = (signal: AbortSignal, opts: { requestsPerMinute?: number; burst?: number; sleep?: (ms: number) => Promise<void> } = {}): ResellerClient => {
  const c = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 6000, burst: 100, rateLimitLogDir: null, signal, ...opts });
  clients.push(c);
  return c;
};
/** Resolves once the sandbox has taken every fault: the faulted request has arrived. */
async function arrived(): Promise<void> {
  while (sandbox.operator.faults().length > 0) await new Promise((r) => setTimeout(r, 20));
}

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 6000, seed: false });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await sandbox.close();
});

test("a purchase in flight when the cancel comes gets its answer, charged once", async () => {
  const cancel = new AbortController();
  const c = clientOf(cancel.signal);
  const tld = (await c.listTlds())[0].tld;
  const domain = `inflight-${Date.now()}.${tld}`;
  sandbox.operator.injectFault({ kind: "hold", count: 1, match: { method: "POST", path: "/domains/register" } });
  const order = c.register({ domain, years: 1, contacts: { registrant: F.contact } }, { idempotencyKey: deriveIdempotencyKey("urn:test::Domain::inflight", "register") });
  // The sandbox holds the order, unanswered, until the cancel has come.
  while (sandbox.operator.held().length === 0) await new Promise((r) => setTimeout(r, 20));
  cancel.abort(new Error("the command was cancelled (test)"));
  sandbox.operator.release();
  await expect(order).resolves.toMatchObject({ domain, charged: expect.any(String) });
  expect(sandbox.operator.ledger().filter((e) => e.domain === domain).map((e) => e.action)).toEqual(["register"]);
  // After the cancel, nothing more is sent.
  const before = sandbox.operator.requests().length;
  await expect(c.getDomain(domain)).rejects.toThrow(/not sent: the command was cancelled \(test\); nothing of it reached the service/);
  expect(sandbox.operator.requests()).toHaveLength(before);
});

test("a request waiting for its turn in the rate limit is not sent after the cancel", async () => {
  const cancel = new AbortController();
  // One request per minute: the second waits for the window (on a timer that does not hold jest open).
  const c = clientOf(cancel.signal, { requestsPerMinute: 1, burst: 1, sleep: (ms) => new Promise((r) => setTimeout(r, ms).unref()) });
  await c.ping();
  const paced = c.listZones();
  const settled = paced.then(
    () => "sent",
    (e: unknown) => e,
  );
  await new Promise((r) => setTimeout(r, 200));
  cancel.abort(new Error("the command was cancelled (test)"));
  const e = await settled;
  expect(isRequestCancelledError(e)).toBe(true);
  expect(sandbox.operator.requests().map((r) => `${r.method} ${r.path}`)).toEqual([expect.stringMatching(/^GET .*\/ping$/)]);
});

test("a keyed retry the cancel stops is reported as outcome unknown, never as nothing charged", async () => {
  const cancel = new AbortController();
  const c = clientOf(cancel.signal);
  const tld = (await c.listTlds())[0].tld;
  const domain = `retry-${Date.now()}.${tld}`;
  // The first attempt is applied and its answer dropped: the client would retry under the same key.
  sandbox.operator.injectFault({ kind: "drop-after-commit", count: 1, match: { method: "POST", path: "/domains/register" } });
  const order = c.register({ domain, years: 1, contacts: { registrant: F.contact } }, { idempotencyKey: deriveIdempotencyKey("urn:test::Domain::retry", "register") });
  const settled = order.then(
    () => "answered",
    (e: unknown) => e,
  );
  await arrived();
  cancel.abort(new Error("the command was cancelled (test)"));
  const e = await settled;
  // Either the retry was already on its way (answered by replay) or it was stopped: never "not sent".
  if (e !== "answered") {
    expect(isOutcomeUnknownError(e)).toBe(true);
    expect(String(e)).toMatch(/before a retry; an earlier attempt reached the service/);
  }
  expect(sandbox.operator.ledger().filter((x) => x.domain === domain).map((x) => x.action)).toEqual(["register"]);
});
