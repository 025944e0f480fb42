/**
 * A cancel (the engine's Cancel: the first Ctrl-C, a CI job's SIGINT) that arrives after a paid order
 * was sent and before its step completes, for every paid step: register, transfer, renew, WHOIS
 * Privacy, Domain Protection. The real Host (resources/host/host.ts) and its handlers, over real
 * HTTP, against the sandbox behind a rewriting proxy that cancels the host the moment the service
 * has answered the order (or, for the registration wait, its first poll), then hands the answer on:
 * from then on every request is refused unsent. Each step records the charge in state (as a partial
 * failure where the step could not finish), holds it against maxPrice, and says what was charged;
 * none says "nothing charged".
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as http from "node:http";
import { ManualClock } from "../../api/clock";
import { ResellerClient } from "../../api/client";
import { PartialFailure } from "../../resources/kit/partial-failure";
import { domainHandler } from "../../resources/domain/handler";
import { privacyHandler, protectionHandler } from "../../resources/domain-addon/handler";
import { checkDomainInputs } from "../../resources/domain/schema";
import { checkDomainOnlyInputs } from "../../resources/domain-addon/schema";
import type { CheckResult } from "../../resources/kit/check";
import type { DomainOutputs } from "../../resources/domain/state";
import { FOREIGN_AUTH_CODE } from "../../sandbox/state";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { startRewritingProxy, type Answer, type RewritingProxy } from "../support/rewriting-proxy";
import { testHost, type TestHost } from "../support/host-context";
import { contact } from "../resources/lifecycle/harness";

jest.setTimeout(60_000);

const contacts = { registrant: contact };
const CONTRACT = { money: { addonPricesPerYear: { privacy: "5.00", protection: "15.00" } } };
let sandbox: SandboxHandle;
let proxy: RewritingProxy;
let client: ResellerClient;
let t: TestHost;
let logDir: string;

async function start(processingDelaySeconds = 0): Promise<void> {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds });
  proxy = await startRewritingProxy(sandbox.url);
  client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 100_000, rateLimitLogDir: null });
  logDir = fs.mkdtempSync(path.join(os.tmpdir(), "hostile-cancel-"));
  // The host's waits pass on a clock of their own, at once; its requests are signed by it, close to the real time.
  t = testHost({ clock: new ManualClock({ start: Date.now(), autoAdvance: true }) });
  t.host.useSettings({ baseUrl: proxy.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 100_000, rateLimitLogDir: logDir, contract: CONTRACT });
}
afterEach(async () => {
  await client?.close();
  await proxy?.close();
  await sandbox?.close();
  if (logDir) fs.rmSync(logDir, { recursive: true, force: true });
});

function inputs<T>(r: CheckResult<T>): T {
  if (!r.ok) throw new Error(`check failed: ${JSON.stringify(r.failures)}`);
  return r.inputs;
}

/** Answers as the service did (or with `charged` instead), after cancelling the host (once `when` holds): the order is taken, the step not done. */
const cancelThenAnswer =
  (charged?: string, when: () => boolean = () => true) =>
  (answer: Answer, res: http.ServerResponse): void => {
    if (when()) t.host.cancel("the test cancelled the command");
    let body = answer.body;
    if (charged !== undefined) {
      const b = JSON.parse(body) as { data: Record<string, unknown> };
      body = JSON.stringify({ ...b, data: { ...b.data, charged } });
    }
    res.writeHead(answer.status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) });
    res.end(body);
  };

const ledger = (domain: string, action: string) => sandbox.operator.ledger().filter((e) => e.domain === domain && e.action === action);
/** Requests the proxy passed on after the order (`path`): none may leave after the cancel. */
const sentAfter = (pathPart: string): string[] => {
  const i = proxy.requests.findIndex((r) => r.method === "POST" && r.path.includes(pathPart));
  return proxy.requests.slice(i + 1).map((r) => `${r.method} ${r.path}`);
};
async function failureOf(p: Promise<unknown>): Promise<PartialFailure> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!(e instanceof PartialFailure)) throw e ?? new Error("the step did not fail");
  return e;
}

describe.each([
  ["register", "cancelled-register.com", undefined],
  ["transfer", "cancelled-taken.com", FOREIGN_AUTH_CODE],
] as const)("%s", (action, domain, authCode) => {
  const urn = `urn:pulumi:test::p::pulumi-nodejs:dynamic/reseller:Domain::${action}`;
  const args = { domain, contacts, maxPrice: "25.00", resourceUrn: urn, ...(authCode ? { authCode } : {}) };

  test("cancelled while the order is answered: the answer is recorded with its charge and said, nothing sent after it", async () => {
    await start();
    proxy.rewrite({ method: "POST", path: new RegExp(`/domains/${action}$`), write: cancelThenAnswer() });
    const { id, outs } = await domainHandler.create(t.ctx, inputs(checkDomainInputs(args)));
    const [order] = ledger(domain, action);
    expect(ledger(domain, action)).toHaveLength(1);
    expect({ id, charged: outs.charged, currency: outs.currency, invoice: outs.invoice }).toEqual({ id: domain, charged: order.amount, currency: "USD", invoice: order.invoice });
    expect(t.lines.join("\n")).toContain(`${domain}: ${action} answered (stage ${outs.stage}, charged ${order.amount} USD (invoice ${order.invoice})) after the command was cancelled`);
    expect(sentAfter(`/domains/${action}`)).toEqual([]);
  });

  test("cancelled while the order is answered charged 999.00: held against maxPrice, a partial failure keeping the charge as an overcharge", async () => {
    await start();
    proxy.rewrite({ method: "POST", path: new RegExp(`/domains/${action}$`), write: cancelThenAnswer("999.00") });
    const f = await failureOf(domainHandler.create(t.ctx, inputs(checkDomainInputs(args))));
    const [order] = ledger(domain, action);
    expect(f.message).toContain(`${domain}: the ${action} charged 999.00 USD, above maxPrice 25.00 USD`);
    expect(f.message).not.toMatch(/nothing (was )?charged|charged nothing/i);
    expect(f.id).toBe(domain);
    expect(f.properties).toMatchObject({ charged: "999.00", currency: "USD", invoice: order.invoice, overcharges: [{ acknowledge: order.invoice }] });
  });

});

// A transfer ends its apply in pending_transfer: only a register waits for the registry.
describe("register's registry wait", () => {
  const action = "register";
  const domain = "cancelled-waiting.com";
  const args = { domain, contacts, maxPrice: "25.00", resourceUrn: "urn:pulumi:test::p::pulumi-nodejs:dynamic/reseller:Domain::waiting" };
  test("cancelled during the wait for the registry: the order's answer is recorded with its charge, not a failure to read", async () => {
    await start(600);
    // The first read of the domain after its order is the wait's first poll.
    proxy.rewrite({ method: "GET", path: new RegExp(`/domains/${domain.replace(/\./g, "\\.")}$`), times: 10, write: cancelThenAnswer(undefined, () => ledger(domain, action).length > 0) });
    const { outs } = await domainHandler.create(t.ctx, inputs(checkDomainInputs(args)));
    const [order] = ledger(domain, action);
    expect(outs).toMatchObject({ charged: order.amount, currency: "USD", invoice: order.invoice, stage: "pending" });
    expect(t.lines.join("\n")).toContain(`charged ${order.amount} USD (invoice ${order.invoice})) after the command was cancelled; recorded without waiting for the registry`);
    expect(t.lines.join("\n")).not.toMatch(/reading it failed/);
  });
});

describe("renew", () => {
  const domain = "cancelled-renewal.com";
  const urn = "urn:pulumi:test::p::pulumi-nodejs:dynamic/reseller:Domain::renewal";
  // Due once: a year's registration is inside 400 days of its expiry, a renewed one is not.
  const args = { domain, contacts, maxPrice: "25.00", renewal: { minDaysRemaining: 400 }, resourceUrn: urn };

  /** The domain bought (before the cancel), its state as create left it. */
  async function bought(): Promise<DomainOutputs> {
    await start();
    return (await domainHandler.create(t.ctx, inputs(checkDomainInputs(args)))).outs;
  }

  test.each([
    ["as quoted", undefined],
    ["charged 999.00", "999.00"],
  ])("cancelled while the renewal is answered (%s): a partial failure keeping the charge and the new expiry, held against maxPrice, saying what was charged", async (_name, charged) => {
    const olds = await bought();
    proxy.rewrite({ method: "POST", path: /\/renew$/, write: cancelThenAnswer(charged) });
    const f = await failureOf(domainHandler.update(t.ctx, domain, olds, inputs(checkDomainInputs(args))));
    const [order] = ledger(domain, "renew");
    expect(ledger(domain, "renew")).toHaveLength(1);
    const expiry = (await client.getDomain(domain)).expiry_date;
    expect(expiry).not.toBe(olds.expiryDate);
    expect(f.id).toBe(domain);
    expect(f.properties).toMatchObject({ charged: charged ?? order.amount, currency: "USD", invoice: order.invoice, expiryDate: expiry });
    expect(f.message).toContain("Then the command was cancelled (the test cancelled the command), before the update finished: the requests after it were not sent");
    expect(f.message).not.toMatch(/nothing (was )?charged|charged nothing/i);
    if (charged === undefined) {
      expect(f.message).toContain(`${domain}: the renewal from ${olds.expiryDate} to ${expiry} charged ${order.amount} USD (invoice ${order.invoice}); the charge is recorded in state.`);
    } else {
      expect(f.message).toContain(`charged 999.00 USD, above maxPrice 25.00 USD`);
      expect(f.properties).toMatchObject({ overcharges: [{ acknowledge: order.invoice }] });
    }
    expect(sentAfter("/renew")).toEqual([]);
  });
});

describe.each([
  ["PrivacyAddon", privacyHandler, "privacy", "5.00"],
  ["Protection", protectionHandler, "protection", "15.00"],
] as const)("%s", (kind, handler, action, price) => {
  const urn = `urn:pulumi:test::p::pulumi-nodejs:dynamic/reseller:${kind}::${action}`;

  test.each([
    ["as priced", undefined],
    ["charged 99.00", "99.00"],
  ])("cancelled while the purchase is answered (%s): recorded with its charge, held against maxPrice, said", async (_name, charged) => {
    await start();
    const domain = `cancelled-${action}-${charged ? "over" : "priced"}.com`;
    await domainHandler.create(t.ctx, inputs(checkDomainInputs({ domain, contacts, resourceUrn: `urn:pulumi:test::p::pulumi-nodejs:dynamic/reseller:Domain::${domain}` })));
    proxy.rewrite({ method: "POST", path: new RegExp(`/${action}$`), write: cancelThenAnswer(charged) });
    const run = handler.create(t.ctx, inputs(checkDomainOnlyInputs({ domain, maxPrice: "40.00", resourceUrn: urn })));
    const [order] = await run.then(
      () => ledger(domain, action),
      () => ledger(domain, action),
    );
    expect(order.amount).toBe(price);
    expect(sentAfter(`/${action}`)).toEqual([]);
    if (charged === undefined) {
      const { id, outs } = await run;
      expect({ id, charged: outs.charged, invoice: outs.invoice }).toEqual({ id: domain, charged: price, invoice: order.invoice });
      expect(t.lines.join("\n")).toContain(`charged ${price} USD (invoice ${order.invoice})`);
    } else {
      const f = await failureOf(run);
      expect(f.message).toContain(`charged 99.00 USD, above maxPrice 40.00 USD`);
      expect(f.message).not.toMatch(/nothing (was )?charged|charged nothing/i);
      expect(f.properties).toMatchObject({ charged: "99.00", invoice: order.invoice, overcharges: [{ acknowledge: order.invoice }] });
    }
  });
});
