/**
 * The provider host killed while a register is in flight, through the SDK's provider host over gRPC
 * against the sandbox: the sandbox holds the register's answer (a delay fault), the host is killed
 * (SIGKILL) while it waits, and the sandbox then takes the order and charges it. The run recorded
 * nothing. The next up, on a new host, finds the domain in the account: it asks for the order again
 * under the same Idempotency-Key, the service replays it, and state records exactly what it charged;
 * nothing is bought again and nothing claims that nothing was charged. A domain bought outside the
 * stack gets no replay (the service refuses the key's order, the name being the account's): taken
 * over, charged null, the ledger unchanged. The same for a renewal: killed mid-renew, the next up
 * replays it and records its charge; renewed outside the stack, the replay is refused
 * (expiry_mismatch, no charge) and nothing is renewed again. And for an add-on killed mid-purchase.
 */
import { startProviderHost, type ProviderHost } from "../../dev/engine/host";
import { canonicalContact } from "../../resources/shared/normalize";
import { toServiceContact } from "../../api/contact-names";
import { contact, Managed, providerFor, ROOT, startEnv, urnOf, type Env } from "../resources/lifecycle/harness";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { atMs, maxInWindow } from "../support/request-log";
import { until } from "../support/until";

jest.setTimeout(300_000);

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => env?.close());

const contacts = { registrant: contact };
const ledger = (domain: string) => env.sandbox.operator.ledger().filter((e) => e.domain === domain);
/** The register requests the sandbox logged since `mark` (each test orders one domain). */
const registers = (mark: number) => env.sandbox.operator.requests().slice(mark).filter((r) => r.method === "POST" && r.path.endsWith("/domains/register"));

/** The host's log lines since `from`, once `text` is among them (stdout and gRPC may arrive in either order). */
async function logged(from: number, text: string): Promise<string> {
  const since = () => env.host.logs().slice(from).join("\n");
  await until(`the host to log ${JSON.stringify(text)}`, () => since().includes(text));
  return since();
}

/** Replaces the env's host by a new one, configured as before (a new `pulumi up`). */
async function newHost(): Promise<void> {
  const host = await startProviderHost({ cwd: ROOT, env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined } });
  await host.configure(env.config);
  env.host = host;
}

/**
 * Runs one `up` of the given resources with the first POST matching each one's `path` held by the
 * sandbox (a hold fault), kills the host once every such request has arrived, then lets them go and
 * waits until the sandbox has charged each: the host is dead before any answer, whatever the load.
 */
async function killedWhileAnswering(runs: { r: Managed; args: Record<string, unknown>; path: string; charged: () => boolean }[]): Promise<void> {
  for (const { path } of runs) env.sandbox.operator.injectFault({ kind: "hold", count: 1, match: { method: "POST", path } });
  const ups = runs.map(({ r, args }) =>
    r.up(args).then(
      () => "finished",
      () => "failed",
    ),
  );
  await until("the held requests to arrive", () => env.sandbox.operator.held().length === runs.length);
  await env.host.kill();
  expect(await Promise.all(ups)).toEqual(runs.map(() => "failed"));
  // The sandbox takes each order once it is let go, the client gone.
  env.sandbox.operator.release();
  for (const { path, charged } of runs) await until(`the request to ${path} to be charged`, charged);
}

// One host killed with four purchases in flight (a stack's up runs them in parallel): a register, a
// renewal, WHOIS Privacy and Domain Protection. Each is charged; the next up (a new host) finds each
// by replay. What each proves is its own: a test for each would kill a host of its own.
test("killed mid-register, mid-renew and mid-purchase of each add-on: each order is charged, the next up reads it back by replay and records exactly what it charged, buying nothing again", async () => {
  const domain = "killed-mid-register.com";
  const args = { domain, years: 1, contacts };
  const d = new Managed(env, "Domain", "killed");

  const renewDomain = "killed-mid-renew.com";
  // Due once: a year's registration is inside 400 days of its expiry, a renewed one is not.
  const renewArgs = { domain: renewDomain, contacts, renewal: { minDaysRemaining: 400 } };
  const rd = new Managed(env, "Domain", "killed-renew");
  expect(await rd.up({ domain: renewDomain, contacts })).toBe("create");
  const expiry = rd.outputs.expiryDate;

  const addons = [
    ["PrivacyAddon", "privacy", "WHOIS Privacy"],
    ["Protection", "protection", "Domain Protection"],
  ] as const;
  const purchases = [];
  for (const [kind, action, label] of addons) {
    const on = `killed-mid-${action}.com`;
    await new Managed(env, "Domain", `killed-${action}-domain`).up({ domain: on, contacts });
    purchases.push({ domain: on, action, label, a: new Managed(env, kind, `killed-${action}`), bought: () => ledger(on).filter((e) => e.action === action) });
  }

  const mark = env.mark();
  await killedWhileAnswering([
    { r: d, args, path: "/domains/register", charged: () => ledger(domain).length === 1 },
    { r: rd, args: renewArgs, path: "/renew", charged: () => ledger(renewDomain).some((e) => e.action === "renew") },
    ...purchases.map((p) => ({ r: p.a, args: { domain: p.domain }, path: `/domains/${p.domain}/${p.action}`, charged: () => p.bought().length === 1 })),
  ]);
  expect(d.state).toBeUndefined();
  const [order] = ledger(domain);
  expect(order).toMatchObject({ action: "register" });
  const [renewal] = ledger(renewDomain).filter((e) => e.action === "renew");
  expect(rd.outputs.expiryDate).toBe(expiry);
  expect((await env.client.getDomain(renewDomain)).expiry_date).not.toBe(expiry);
  for (const p of purchases) expect([p.action, p.a.state]).toEqual([p.action, undefined]);
  const bought = purchases.map((p) => p.bought()[0]);

  await newHost();
  const from = env.host.logs().length;
  // The register.
  expect(await d.up(args)).toBe("create");
  expect(ledger(domain)).toEqual([order]);
  expect(d.outputs).toMatchObject({ domain, adopted: false, charged: order.amount, currency: order.currency, invoice: order.invoice });
  expect(d.outputs.unconfirmedOrder).toBeUndefined();
  // The same key twice: the killed run's order, then its replay.
  const sent = registers(mark);
  expect(sent.map((r) => [r.fault, r.replayed])).toEqual([
    ["hold", false],
    [null, true],
  ]);
  expect(new Set(sent.map((r) => r.idempotency_key)).size).toBe(1);
  const said = await logged(from, "the service replayed that order's answer");
  expect(said).toContain(`${domain}: is in this account already (stage ${d.outputs.stage}), ordered by an earlier run of this resource that was interrupted before it recorded the order; the service replayed that order's answer to the same Idempotency-Key: it charged ${order.amount} ${order.currency} (invoice ${order.invoice}). Taking it; nothing was bought again.`);
  expect(said).not.toMatch(/nothing (was )?charged/i);
  expect(await d.up(args)).toBe("same");
  expect(ledger(domain)).toEqual([order]);

  // The renewal.
  expect(await rd.up(renewArgs)).toBe("update");
  expect(ledger(renewDomain).filter((e) => e.action === "renew")).toEqual([renewal]);
  expect(rd.outputs).toMatchObject({ charged: renewal.amount, currency: renewal.currency, invoice: renewal.invoice, expiryDate: (await env.client.getDomain(renewDomain)).expiry_date });
  expect(rd.outputs.unconfirmedOrder).toBeUndefined();
  const renews = env.sandbox.operator.requests().slice(mark).filter((r) => r.method === "POST" && r.path.endsWith("/renew"));
  expect(renews.map((r) => [r.fault, r.replayed])).toEqual([
    ["hold", false],
    [null, true],
  ]);
  expect(new Set(renews.map((r) => r.idempotency_key)).size).toBe(1);
  const renewSaid = await logged(from, "replayed that renewal's answer");
  expect(renewSaid).toContain(`${renewDomain}: the expiry moved on from ${expiry} to ${rd.outputs.expiryDate} by a renewal of an earlier run of this resource, interrupted before it recorded it; the service replayed that renewal's answer to the same Idempotency-Key: it charged ${renewal.amount} ${renewal.currency} (invoice ${renewal.invoice}). Nothing was bought again.`);
  expect(await rd.up(renewArgs)).toBe("same");

  // The add-ons.
  for (const [i, p] of purchases.entries()) {
    const purchase = bought[i];
    expect(await p.a.up({ domain: p.domain })).toBe("create");
    expect(p.bought()).toEqual([purchase]);
    expect(p.a.outputs).toMatchObject({ domain: p.domain, enabled: true, adopted: false, charged: purchase.amount, currency: purchase.currency, invoice: purchase.invoice });
    const addonSaid = await logged(from, `${p.domain}: ${p.label} is on already`);
    expect(addonSaid).toContain(`${p.domain}: ${p.label} is on already, bought by an earlier run of this resource that was interrupted before it recorded the purchase; the service replayed that purchase's answer to the same Idempotency-Key: it charged ${purchase.amount} ${purchase.currency} (invoice ${purchase.invoice}). Taking it; nothing was bought again.`);
    expect(await p.a.up({ domain: p.domain })).toBe("same");
  }
});

test("renewed outside the stack: the next up's one renewal from the old expiry is refused (expiry_mismatch, no charge), its own charge stays, nothing renewed again", async () => {
  const domain = "renewed-elsewhere.com";
  const args = { domain, contacts, renewal: { minDaysRemaining: 400 } };
  const d = new Managed(env, "Domain", "renewed-elsewhere");
  expect(await d.up({ domain, contacts })).toBe("create");
  const [order] = ledger(domain);
  const expiry = String(d.outputs.expiryDate);
  await env.client.renew(domain, { years: 1, current_expiry: expiry }, { idempotencyKey: "renewed-in-the-portal" });
  const mark = env.mark();
  expect(await d.up(args)).toBe("update");
  expect(ledger(domain).map((e) => e.action)).toEqual(["register", "renew"]);
  expect(d.outputs).toMatchObject({ charged: order.amount, invoice: order.invoice, expiryDate: (await env.client.getDomain(domain)).expiry_date });
  // Check prices the renewal its state calls due (POST /pricing, a read); the one order sent is refused.
  const sent = env.sandbox.operator.requests().slice(mark).filter((r) => r.method === "POST" && !r.path.endsWith("/pricing"));
  expect(sent.map((r) => [r.path, r.error])).toEqual([[`/api/v1/domains/${domain}/renew`, "expiry_mismatch"]]);
  expect(await d.up(args)).toBe("same");
});

test("a domain bought outside the stack is taken over with no replay to have: charged null, nothing bought, nothing claimed", async () => {
  const domain = "bought-elsewhere.com";
  const mark = env.mark();
  await env.client.register({ domain, years: 1, contacts: { registrant: toServiceContact(canonicalContact(contact)) } }, { idempotencyKey: "bought-in-the-portal" });
  const [order] = ledger(domain);
  const d = new Managed(env, "Domain", "elsewhere");
  const from = env.host.logs().length;
  expect(await d.up({ domain, contacts })).toBe("create");
  expect(ledger(domain)).toEqual([order]);
  expect(d.outputs).toMatchObject({ domain, adopted: false, charged: null, currency: null, invoice: null });
  // The one register the take-over sent was refused (the name is the account's), and charged nothing.
  const sent = registers(mark).filter((r) => r.idempotency_key !== "bought-in-the-portal");
  expect(sent.map((r) => [r.error, r.replayed])).toEqual([["domain_unavailable", false]]);
  const said = await logged(from, "has no order of this resource to replay");
  expect(said).toContain(`${domain}: is in this account already`);
  expect(said).toMatch(/Taking it over: this run buys and changes nothing; what it cost is on the account's invoices/);
  expect(said).not.toMatch(/nothing (was )?charged/i);
  expect(await d.up({ domain, contacts })).toBe("same");
});

test("Domain Protection switched on outside the stack: the resource's purchase asked for again buys nothing (charged 0.00 now); taken over, charged null, nothing claimed", async () => {
  const domain = "protected-elsewhere.com";
  await new Managed(env, "Domain", "protected-elsewhere-domain").up({ domain, contacts });
  await env.client.enableProtection(domain, { idempotencyKey: "switched-on-in-the-portal" });
  const bought = ledger(domain).filter((e) => e.action === "protection");
  expect(bought).toHaveLength(1);
  const a = new Managed(env, "Protection", "protected-elsewhere");
  const from = env.host.logs().length;
  expect(await a.up({ domain })).toBe("create");
  expect(ledger(domain).filter((e) => e.action === "protection")).toEqual(bought);
  expect(a.outputs).toMatchObject({ domain, enabled: true, adopted: false, charged: null, currency: null, invoice: null });
  const said = await logged(from, "replayed none");
  expect(said).toContain(`${domain}: Domain Protection is on already (a Protection renamed or moved without aliases, enabled outside this stack, or bought longer ago than the service keeps a purchase's answer): asked for this resource's purchase again under its Idempotency-Key, the service replayed none (it answered that this request bought nothing (charged 0.00)). Taking it over: this run buys nothing; what it cost is on the account's invoices.`);
  expect(said).not.toMatch(/nothing (was )?charged/i);
  expect(await a.up({ domain })).toBe("same");
});

// Pacing across a restart of the SDK's provider host within one command: the second host reads the
// credential's request log the first one left and keeps the window. Scaled: the contract's window is 4
// s and the limit 10 per window (both the client and the sandbox follow the contract), so the test
// takes seconds instead of minutes; the 60-a-minute case runs on a virtual clock in
// test/api/rate-limiter.test.ts.
const WINDOW_S = 4;
const PER_MINUTE = 150; // 10 per 4-second window
const contract = { rateLimit: { windowSeconds: WINDOW_S } };

let sb: SandboxHandle;
const hosts: ProviderHost[] = [];
afterAll(async () => {
  for (const h of hosts) await h.close().catch(() => undefined);
  await sb?.close();
});

/** A host on the pacing test's own sandbox, whose contract's window is 4 s. */
async function pacedHost(): Promise<ProviderHost> {
  const h = await startProviderHost({ cwd: ROOT, env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined } });
  hosts.push(h);
  await h.configure({
    "reseller:apiKey": sb.credentials.key,
    "reseller:apiSecret": sb.credentials.secret,
    "reseller:baseUrl": sb.url,
    "reseller:requestsPerMinute": String(PER_MINUTE),
    "reseller:contract": JSON.stringify(contract),
  });
  return h;
}

test("a provider host started after another in the same command keeps the window: no 429, never more than the limit", async () => {
  sb = await startSandbox({ port: 0, requestsPerMinute: PER_MINUTE, contract, processingDelaySeconds: 0 });
  const urn = urnOf("DnsZone", "z");
  const props = { domain: "demo-reseller.com", resourceUrn: urn, __provider: await providerFor("DnsZone") };
  // Each zone read is one GET of the zone.
  const reads = (h: ProviderHost, n: number) => Promise.all(Array.from({ length: n }, () => h.read("demo-reseller.com", urn, props)));

  const first = await pacedHost();
  await reads(first, 15);
  await first.kill();
  const second = await pacedHost();
  await reads(second, 15);

  const log = sb.operator.requests();
  expect(log).toHaveLength(30);
  expect(log.filter((e) => e.status === 429)).toHaveLength(0);
  expect(maxInWindow(log.map(atMs), WINDOW_S * 1000)).toBeLessThanOrEqual(10);
}, 60_000);
