/**
 * A lying service on every paid call (register, transfer, renew, privacy, protection): the sandbox
 * takes the order and charges it, and a proxy in front of it (test/support/rewriting-service.proxy.ts)
 * rewrites the answer into each wrong shape: another shape, a malformed charge, a body cut off on
 * every attempt, not JSON, 200 with an error body. Through the SDK's provider host, each must end
 * in "may have been charged" (never "nothing charged"), one charge only, and state true to what the
 * service holds, the order kept unconfirmed; the next up reads the order back under the same key (a
 * replay) and records exactly what it charged, buying nothing again. Add-ons record their charge
 * too; an unconfirmed purchase older than the service keeps keys is not sent again.
 */
import { FOREIGN_AUTH_CODE } from "../../sandbox/state";
import { contact, Managed } from "../resources/lifecycle/harness";
import { dataWith, type Lie } from "../support/rewriting-proxy";
import { failureOf, lyingService } from "./lying-service";
import { until } from "../support/until";

jest.setTimeout(300_000);

const service = lyingService();

const contacts = { registrant: contact };
/** Every attempt is lied to (the client re-sends a keyed order whose answer was cut off). */
const EVERY_ATTEMPT = 10;
const LIES: [name: string, lie: (a: { status: number; body: string }) => Lie, times: number, reason: RegExp][] = [
  ["another shape", () => ({ body: JSON.stringify({ success: true, data: { result: "ok" } }) }), 1, /its answer could not be read \(.* with an unexpected body at data\./],
  ["cut off on every attempt", () => ({ truncate: true }), EVERY_ATTEMPT, /no answer came back/],
  ["not JSON", () => ({ body: "<html>Order received</html>", contentType: "text/html" }), 1, /its answer could not be read \(.* with an unexpected body at \(body\)/],
  ["200 with an error body", () => ({ status: 200, body: JSON.stringify({ success: false, error: { code: "internal_error", message: "try later" } }) }), 1, /its answer could not be read \(.* at success\)/],
];
/** A Domain order's answer also carries the charge. */
const ORDER_LIES: typeof LIES = [...LIES, ["a malformed charge", dataWith("charged", "-12.00"), 1, /its answer could not be read \(charged: "-12\.00" must be a decimal amount/]];

const ledger = (domain: string, action: string) => service.env.sandbox.operator.ledger().filter((e) => e.domain === domain && e.action === action);

/**
 * The up under the lie fails as a partial failure that says the order may have been charged and
 * keeps it unconfirmed; the next up confirms it by replay: charged as the ledger says, once.
 */
async function unconfirmedThenConfirmed(d: Managed, args: Record<string, unknown>, domain: string, action: "register" | "transfer" | "renew", reason: RegExp, times: number) {
  const f = await failureOf(d.up(args));
  expect(service.proxy.pending()).toBeLessThan(times);
  service.proxy.clear();
  expect(f.message).toMatch(/may have been charged: /);
  expect(f.message).toMatch(reason);
  expect(f.message).toMatch(/kept in state as an unconfirmed order/);
  expect(f.message).not.toMatch(/nothing (was )?charged/);
  expect(f.id).toBe(domain);
  expect(ledger(domain, action)).toHaveLength(1);
  expect(d.state!.outputs).toMatchObject({ domain, unconfirmedOrder: { operation: action } });
  expect(d.state!.outputs.stage).toBe((await service.env.client.getDomain(domain)).stage);

  expect(await d.up(args)).toBe("update");
  const [order] = ledger(domain, action);
  expect(ledger(domain, action)).toHaveLength(1);
  expect(d.state!.outputs).toMatchObject({ charged: order.amount, currency: order.currency, invoice: order.invoice });
  expect(d.state!.outputs.unconfirmedOrder).toBeUndefined();
  expect(d.state!.initErrors).toBeUndefined();
}

describe.each(ORDER_LIES.map((l, i) => [...l, i] as const))("an answer with %s", (_name, lie, times, reason, i) => {
  test("to a register", async () => {
    const domain = `lie-register-${i}.com`;
    service.proxy.rewrite({ method: "POST", path: /\/domains\/register$/, times, lie });
    await unconfirmedThenConfirmed(new Managed(service.env, "Domain", `register-${i}`), { domain, contacts }, domain, "register", reason, times);
  });

  test("to a transfer", async () => {
    const domain = `taken-transfer-${i}.com`;
    service.proxy.rewrite({ method: "POST", path: /\/domains\/transfer$/, times, lie });
    await unconfirmedThenConfirmed(new Managed(service.env, "Domain", `transfer-${i}`), { domain, contacts, authCode: FOREIGN_AUTH_CODE }, domain, "transfer", reason, times);
  });

  test("to a renewal", async () => {
    const domain = `lie-renew-${i}.com`;
    const d = new Managed(service.env, "Domain", `renew-${i}`);
    // Due once: a year's registration is inside 400 days of its expiry, a renewed one is not.
    const args = { domain, contacts, renewal: { minDaysRemaining: 400 } };
    expect(await d.up(args)).toBe("create");
    const expiry = (await service.env.client.getDomain(domain)).expiry_date;
    service.proxy.rewrite({ method: "POST", path: /\/renew$/, times, lie });
    await unconfirmedThenConfirmed(d, args, domain, "renew", reason, times);
    expect((await service.env.client.getDomain(domain)).expiry_date).not.toBe(expiry);
    expect(d.state!.outputs.expiryDate).toBe((await service.env.client.getDomain(domain)).expiry_date);
  });
});

const ADDONS = [
  ["PrivacyAddon", "privacy", /\/privacy$/, "WHOIS Privacy"],
  ["Protection", "protection", /\/protection$/, "Domain Protection"],
] as const;

/** A domain of the account to buy add-ons for. */
async function domainFor(name: string, i: number | string): Promise<string> {
  const domain = `${name}.com`;
  await new Managed(service.env, "Domain", `${name}-domain-${i}`).up({ domain, contacts });
  return domain;
}

describe.each(ORDER_LIES.map((l, i) => [...l, i] as const))("an add-on purchase answered with %s", (_name, lie, times, reason, i) => {
  test.each(ADDONS)("%s: may have been charged, kept unconfirmed; the next up records exactly what it charged, bought once", async (kind, action, path, label) => {
    const domain = await domainFor(`lie-${action}-${i}`, i);
    service.proxy.rewrite({ method: "POST", path, times, lie });
    const a = new Managed(service.env, kind, `${action}-${i}`);
    const f = await failureOf(a.up({ domain }));
    expect(service.proxy.pending()).toBeLessThan(times);
    service.proxy.clear();
    expect(f.message).toContain(`${domain}: the ${label} purchase may have been charged: `);
    expect(f.message).toMatch(reason);
    expect(f.message).toMatch(/kept in state as an unconfirmed order/);
    expect(f.message).not.toMatch(/nothing (was )?charged/i);
    expect(f.id).toBe(domain);
    expect(ledger(domain, action)).toHaveLength(1);
    const live = action === "privacy" ? await service.env.client.getPrivacy(domain) : await service.env.client.getProtection(domain);
    expect(live.enabled).toBe(true);
    expect(a.state!.outputs).toMatchObject({ domain, enabled: true, charged: null, unconfirmedOrder: { operation: action } });

    const keys = () => service.proxy.requests.filter((r) => r.method === "POST" && r.path.includes(`/domains/${domain}/`) && path.test(r.path)).map((r) => r.idempotencyKey);
    const sent = keys().length;
    expect(await a.up({ domain })).toBe("update");
    const [order] = ledger(domain, action);
    expect(ledger(domain, action)).toHaveLength(1);
    expect(order.amount).not.toBe("0.00");
    expect(a.state!.outputs).toMatchObject({ enabled: true, charged: order.amount, currency: order.currency, invoice: order.invoice });
    expect(a.state!.outputs.unconfirmedOrder).toBeUndefined();
    expect(a.state!.initErrors).toBeUndefined();
    // The read back was the first purchase's key, once more: a replay.
    expect(keys().slice(sent)).toEqual([keys()[0]]);
    expect(await a.up({ domain })).toBe("same");
    expect(ledger(domain, action)).toHaveLength(1);
  });
});

describe.each(ADDONS)("%s answered as the service sent it", (kind, action, _path, label) => {
  test("records what the purchase charged, as the ledger has it", async () => {
    const domain = await domainFor(`paid-${action}`, "plain");
    const a = new Managed(service.env, kind, `paid-${action}`);
    const logsBefore = service.env.host.logs().length;
    expect(await a.up({ domain })).toBe("create");
    const [order] = ledger(domain, action);
    expect(ledger(domain, action)).toHaveLength(1);
    expect(a.state!.outputs).toMatchObject({ domain, enabled: true, adopted: false, charged: order.amount, currency: order.currency, invoice: order.invoice });
    expect(await a.refresh()).toBe(true);
    expect(a.state!.outputs).toMatchObject({ charged: order.amount, currency: order.currency, invoice: order.invoice });
    expect(await a.up({ domain })).toBe("same");
    await until(`the host to log that ${label} was bought`, () => service.env.host.logs().slice(logsBefore).join("\n").includes(`${label} bought`));
    expect(service.env.host.logs().slice(logsBefore).join("\n")).toContain(`${domain}: ${label} bought; it charged ${order.amount} ${order.currency} (invoice ${order.invoice})`);
  });

  test("an unconfirmed purchase older than the service keeps keys is not sent again: said so, dropped, nothing bought", async () => {
    const domain = await domainFor(`old-${action}`, "old");
    const a = new Managed(service.env, kind, `old-${action}`);
    expect(await a.up({ domain })).toBe("create");
    const [order] = ledger(domain, action);
    const placedAt = "2001-01-01T00:00:00.000Z";
    const unconfirmedOrder = { operation: action, idempotencyKey: "rp1-not-sent-again", reason: "no answer came back (test)", placedAt };
    // As an earlier run left it: unconfirmed, its charge unknown, the engine's init error on the entry.
    a.state = { ...a.state!, outputs: { ...a.state!.outputs, charged: null, currency: null, invoice: null, unconfirmedOrder }, initErrors: ["may have been charged"] };
    const sent = service.proxy.requests.length;
    const logsBefore = service.env.host.logs().length;
    expect(await a.up({ domain })).toBe("update");
    expect(service.proxy.requests.slice(sent).filter((r) => r.method !== "GET")).toEqual([]);
    expect(a.state!.outputs.unconfirmedOrder).toBeUndefined();
    expect(a.state!.outputs.charged).toBeNull();
    expect(ledger(domain, action)).toEqual([order]);
    const said = () => service.env.host.logs().slice(logsBefore).join("\n");
    await until("the host to log that the purchase cannot be confirmed any more", () => said().includes("cannot be confirmed any more"));
    expect(said()).toContain(`${domain}: the ${label} purchase of an earlier run cannot be confirmed any more: it was sent at ${placedAt}`);
    expect(said()).toMatch(/so asking again would be a new order; none was sent/);
  });
});

test("a Domain's unconfirmed register whose program now adopts it without contacts: not asked for again (its body cannot be rebuilt), said so, dropped, nothing bought", async () => {
  const domain = "lie-adopted-later.com";
  service.proxy.rewrite({ method: "POST", path: /\/domains\/register$/, lie: () => ({ body: "<html>Order received</html>", contentType: "text/html" }) });
  const d = new Managed(service.env, "Domain", "adopted-later");
  expect((await failureOf(d.up({ domain, contacts }))).message).toMatch(/may have been charged/);
  expect(d.state!.outputs.unconfirmedOrder).toMatchObject({ operation: "register" });
  const sent = service.proxy.requests.length;
  const logsBefore = service.env.host.logs().length;
  expect(await d.up({ domain, adopt: true })).toBe("update");
  expect(service.proxy.requests.slice(sent).filter((r) => r.method !== "GET")).toEqual([]);
  expect(d.state!.outputs.unconfirmedOrder).toBeUndefined();
  expect(ledger(domain, "register")).toHaveLength(1);
  const said = () => service.env.host.logs().slice(logsBefore).join("\n");
  await until("the host to log that the register cannot be confirmed", () => said().includes("cannot be confirmed"));
  expect(said()).toContain(`${domain}: the register of an earlier run cannot be confirmed: asking for it again needs the contacts it was sent with, and the program gives none now (adopt); none was sent.`);
  expect(said()).not.toMatch(/nothing (was )?charged/i);
});
