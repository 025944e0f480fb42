/**
 * A lying purchase answer never becomes a quiet success. The sandbox takes each order and charges
 * what its price list says (a .com register 12.00 USD, WHOIS Privacy 5.00 and Domain Protection 15.00
 * a year); a proxy in front of it rewrites the answer: a charge above maxPrice, another currency, a
 * redirect. Through the SDK's provider host, each fails the step with the charge, the ceiling, the
 * quote and the invoice; the resource stays in state with what the answer says it charged, and
 * every later up fails on it, buying nothing (the sandbox's ledger), until the program lists the
 * invoice in acknowledgedCharges. An add-on's maxPrice also refuses, before buying, a
 * contract price above it. A 3xx to a keyed order is "may have been charged", never "nothing charged".
 */
import { contact, Managed } from "../resources/lifecycle/harness";
import { dataWith } from "../support/rewriting-proxy";
import { redirectTo } from "./answer-writers";
import { failureOf, lyingService } from "./lying-service";
import { until } from "../support/until";

jest.setTimeout(300_000);

// The sandbox's add-on prices, stated as a user states their portal's.
const service = lyingService({ "reseller:contract": JSON.stringify({ money: { addonPricesPerYear: { privacy: "5.00", protection: "15.00" } } }) });
afterEach(() => service.proxy.clear());

const contacts = { registrant: contact };
const ledger = (domain: string, action?: string) => service.env.sandbox.operator.ledger().filter((e) => e.domain === domain && (action === undefined || e.action === action));
/** How many paid orders (keyed POSTs) the proxy has passed on; the tests run one at a time. */
const ordersSent = () => service.proxy.requests.filter((r) => r.method === "POST" && r.idempotencyKey !== undefined).length;

/** The host's log lines since `from` once one contains `text` (the host's log reaches the test asynchronously). */
async function said(from: number, text: string): Promise<string> {
  const lines = () => service.env.host.logs().slice(from).join("\n");
  await until(`the host to log ${JSON.stringify(text)}`, () => lines().includes(text));
  return lines();
}

/**
 * The ups after a charge that did not hold: each fails on it (naming what to acknowledge), buys
 * nothing, sends no order and keeps the charge, until the program acknowledges it; then one update
 * clears it, and the next up changes nothing.
 */
async function nothingBoughtAgain(r: Managed, args: Record<string, unknown>, domain: string, action: string, kept: Record<string, unknown>, acknowledge: string) {
  const orders = ordersSent();
  for (let run = 0; run < 2; run++) {
    const f = await failureOf(r.up(args));
    expect(f.message).toMatch(/of an earlier run failed its check and is not acknowledged: .* Until it is acknowledged, every `pulumi up` fails here and this resource changes and buys nothing/);
    expect(f.message).toContain(`add ${JSON.stringify(acknowledge)} to this resource's acknowledgedCharges.`);
    expect(ledger(domain, action)).toHaveLength(1);
    expect(ordersSent()).toBe(orders);
    expect(r.state!.outputs).toMatchObject({ ...kept, overcharges: [{ acknowledge, problem: expect.stringContaining(domain) }] });
  }
  // Another value acknowledges nothing.
  await failureOf(r.up({ ...args, acknowledgedCharges: ["INV-not-this-one"] }));
  expect(await r.up({ ...args, acknowledgedCharges: [acknowledge] })).toBe("update");
  expect(ledger(domain, action)).toHaveLength(1);
  expect(ordersSent()).toBe(orders);
  expect(r.state!.outputs).toMatchObject(kept);
  expect(r.state!.outputs.overcharges).toBeUndefined();
  expect(r.state!.initErrors).toBeUndefined();
  expect(await r.up({ ...args, acknowledgedCharges: [acknowledge] })).toBe("same");
  expect(ledger(domain, action)).toHaveLength(1);
}

describe("a register whose answer does not hold against the quote (12.00 USD) and maxPrice 25.00", () => {
  test.each([
    ["charged 999.00", dataWith("charged", "999.00"), { charged: "999.00", currency: "USD" }, (inv: string) => `the register charged 999.00 USD, above maxPrice 25.00 USD / the quote 12.00 USD: check invoice ${inv}.`],
    ["in JPY", dataWith("currency", "JPY"), { charged: "12.00", currency: "JPY" }, (inv: string) => `the register charged 12.00 JPY, not in USD, the currency of maxPrice 25.00 USD / the quote 12.00 USD: check invoice ${inv}.`],
  ])("%s: fails loudly, the domain kept in state with that charge, and the next up buys nothing", async (name, lie, kept, message) => {
    const domain = `charged-${name.toLowerCase().replace(/[^a-z0-9]/g, "-")}.com`;
    const args = { domain, contacts, maxPrice: "25.00" };
    service.proxy.rewrite({ method: "POST", path: /\/domains\/register$/, lie });
    const d = new Managed(service.env, "Domain", `charged-${name}`);
    const f = await failureOf(d.up(args));
    const [order] = ledger(domain, "register");
    expect(ledger(domain)).toEqual([order]);
    expect(order).toMatchObject({ amount: "12.00", currency: "USD" });
    expect(f.message).toContain(`${domain}: ${message(order.invoice!)}`);
    expect(f.message).toMatch(/stays in state with what its answer says it charged, so no later `pulumi up` buys it again/);
    expect(f.message).not.toMatch(/nothing (was )?charged/i);
    expect(f.id).toBe(domain);
    expect(d.state!.outputs).toMatchObject({ domain, ...kept, invoice: order.invoice, adopted: false });
    expect(d.state!.initErrors?.length).toBeGreaterThan(0);
    await nothingBoughtAgain(d, args, domain, "register", { ...kept, invoice: order.invoice, stage: "active" }, order.invoice!);
  });

  test("charged 20.00 (above the quote, within maxPrice): up succeeds, with a warning naming the invoice", async () => {
    const domain = "charged-above-quote.com";
    service.proxy.rewrite({ method: "POST", path: /\/domains\/register$/, lie: dataWith("charged", "20.00") });
    const logs = service.env.host.logs().length;
    const d = new Managed(service.env, "Domain", "charged-above-quote");
    expect(await d.up({ domain, contacts, maxPrice: "25.00" })).toBe("create");
    const [order] = ledger(domain, "register");
    const warning = `${domain}: the register charged 20.00 USD, above the quote 12.00 USD (within maxPrice 25.00 USD): check invoice ${order.invoice}.`;
    expect(await said(logs, warning)).toContain(warning);
    expect(d.state!.outputs).toMatchObject({ charged: "20.00", currency: "USD", invoice: order.invoice });
    expect(d.state!.initErrors).toBeUndefined();
  });
});

test("a renewal charged above maxPrice: the update fails loudly, the new expiry and the charge kept; the next up renews nothing", async () => {
  const domain = "charged-renewal.com";
  // Due once: a year's registration is inside 400 days of its expiry, a renewed one is not.
  const args = { domain, contacts, maxPrice: "25.00", renewal: { minDaysRemaining: 400 } };
  const d = new Managed(service.env, "Domain", "charged-renewal");
  expect(await d.up(args)).toBe("create");
  service.proxy.rewrite({ method: "POST", path: /\/renew$/, lie: dataWith("charged", "999.00") });
  const f = await failureOf(d.up(args));
  const [order] = ledger(domain, "renew");
  expect(ledger(domain, "renew")).toEqual([order]);
  expect(f.message).toMatch(new RegExp(`${domain}: the renewal from \\d{4}-\\d{2}-\\d{2} charged 999\\.00 USD, above maxPrice 25\\.00 USD / the quote 14\\.00 USD: check invoice ${order.invoice}\\.`));
  const expiry = (await service.env.client.getDomain(domain)).expiry_date;
  expect(d.state!.outputs).toMatchObject({ charged: "999.00", currency: "USD", invoice: order.invoice, expiryDate: expiry });
  await nothingBoughtAgain(d, args, domain, "renew", { charged: "999.00", expiryDate: expiry }, order.invoice!);
});

test("an order of a run interrupted before it recorded it, replayed charged 999.00: held against maxPrice, fails loudly, kept; nothing bought again", async () => {
  const domain = "charged-interrupted.com";
  const args = { domain, contacts, maxPrice: "25.00" };
  const d = new Managed(service.env, "Domain", "charged-interrupted");
  expect(await d.up(args)).toBe("create");
  const [order] = ledger(domain, "register");
  // As a run killed before the engine recorded the create leaves it: the domain bought, nothing in state.
  d.state = undefined;
  service.proxy.rewrite({ method: "POST", path: /\/domains\/register$/, lie: dataWith("charged", "999.00") });
  const f = await failureOf(d.up(args));
  expect(f.message).toContain(`${domain}: the register of an earlier run charged 999.00 USD, above maxPrice 25.00 USD: check invoice ${order.invoice}.`);
  expect(f.id).toBe(domain);
  expect(ledger(domain, "register")).toEqual([order]);
  expect(d.state!.outputs).toMatchObject({ charged: "999.00", invoice: order.invoice, adopted: false });
  await nothingBoughtAgain(d, args, domain, "register", { charged: "999.00", invoice: order.invoice }, order.invoice!);
});

const ADDONS = [
  ["PrivacyAddon", "privacy", /\/privacy$/, "WHOIS Privacy", "5.00"],
  ["Protection", "protection", /\/protection$/, "Domain Protection", "15.00"],
] as const;

/** A domain of the account (one year: an add-on is charged for one year) to buy add-ons for. */
async function domainFor(name: string): Promise<string> {
  const domain = `${name}.com`;
  await new Managed(service.env, "Domain", `${name}-domain`).up({ domain, contacts });
  return domain;
}

describe.each(ADDONS)("%s with maxPrice", (kind, action, path, label, price) => {
  test("a purchase answered charged 99.00, above maxPrice 20.00: fails loudly, kept in state with that charge; the next up buys nothing", async () => {
    const domain = await domainFor(`charged-${action}`);
    service.proxy.rewrite({ method: "POST", path, lie: dataWith("charged", "99.00") });
    const a = new Managed(service.env, kind, `charged-${action}`);
    const args = { domain, maxPrice: "20.00" };
    const f = await failureOf(a.up(args));
    const [order] = ledger(domain, action);
    expect(ledger(domain, action)).toEqual([order]);
    expect(order.amount).toBe(price);
    expect(f.message).toContain(`${domain}: the ${label} purchase charged 99.00 USD, above maxPrice 20.00 USD / the contract's price ${price} USD: check invoice ${order.invoice}.`);
    expect(f.message).not.toMatch(/nothing (was )?charged/i);
    expect(f.id).toBe(domain);
    expect(a.state!.outputs).toMatchObject({ domain, enabled: true, charged: "99.00", currency: "USD", invoice: order.invoice, maxPrice: "20.00" });
    await nothingBoughtAgain(a, args, domain, action, { enabled: true, charged: "99.00", invoice: order.invoice }, order.invoice!);
  });

  test("a purchase of a run interrupted before it recorded it, replayed charged 99.00: held against maxPrice 20.00, fails loudly, kept; nothing bought again", async () => {
    const domain = await domainFor(`interrupted-${action}`);
    const a = new Managed(service.env, kind, `interrupted-${action}`);
    const args = { domain, maxPrice: "20.00" };
    expect(await a.up(args)).toBe("create");
    const [order] = ledger(domain, action);
    a.state = undefined;
    service.proxy.rewrite({ method: "POST", path, lie: dataWith("charged", "99.00") });
    const f = await failureOf(a.up(args));
    expect(f.message).toContain(`${domain}: the ${label} purchase of an earlier run charged 99.00 USD, above maxPrice 20.00 USD: check invoice ${order.invoice}.`);
    expect(ledger(domain, action)).toEqual([order]);
    expect(a.state!.outputs).toMatchObject({ enabled: true, charged: "99.00", invoice: order.invoice });
    await nothingBoughtAgain(a, args, domain, action, { charged: "99.00", invoice: order.invoice }, order.invoice!);
  });

  test("maxPrice below the contract's price: refused before buying, in preview and in up alike; nothing charged, nothing in state", async () => {
    const domain = await domainFor(`capped-${action}`);
    const a = new Managed(service.env, kind, `capped-${action}`);
    const orders = ordersSent();
    const refusal = `${domain}: ${label} for 1 year(s) costs ${price} USD at the contract's price (money.addonPricesPerYear.${action}, ${price} a year), above maxPrice 3.00; nothing was charged. Raise maxPrice to proceed.`;
    await expect(a.check({ domain, maxPrice: "3.00" })).rejects.toThrow(refusal);
    expect((await failureOf(a.up({ domain, maxPrice: "3.00" }))).message).toContain(refusal);
    expect(a.state).toBeUndefined();
    expect(ledger(domain, action)).toEqual([]);
    expect(ordersSent()).toBe(orders);
    expect(await a.up({ domain, maxPrice: `${price} USD` })).toBe("create");
    expect(ledger(domain, action)).toHaveLength(1);
  });

  test("maxPrice in another currency than the account's: refused before buying", async () => {
    const domain = await domainFor(`euro-${action}`);
    const f = await failureOf(new Managed(service.env, kind, `euro-${action}`).up({ domain, maxPrice: "100.00 EUR" }));
    expect(f.message).toContain(`maxPrice: "100.00 EUR" is stated in EUR, but ${label} is paid from the account's credit, in USD; nothing was charged`);
    expect(ledger(domain, action)).toEqual([]);
  });
});

describe("a redirect (307) answering a keyed order: its charge is unknown, never 'nothing charged'", () => {
  const redirect = redirectTo("http://elsewhere.invalid/api/v1/");

  test("a register: may have been charged, kept unconfirmed; the next up reads it back under the same key and records its charge, bought once", async () => {
    const domain = "redirected-register.com";
    const args = { domain, contacts, maxPrice: "25.00" };
    service.proxy.rewrite({ method: "POST", path: /\/domains\/register$/, write: redirect });
    const d = new Managed(service.env, "Domain", "redirected-register");
    const f = await failureOf(d.up(args));
    expect(f.message).toMatch(new RegExp(`${domain}: the register may have been charged: the service answered 307 `));
    expect(f.message).toMatch(/kept in state as an unconfirmed order/);
    expect(f.message).not.toMatch(/nothing (was )?charged/i);
    expect(f.id).toBe(domain);
    expect(ledger(domain, "register")).toHaveLength(1);
    expect(d.state!.outputs).toMatchObject({ domain, unconfirmedOrder: { operation: "register", accepted: { maxPrice: "25.00", currency: "USD", expected: "12.00" } } });
    const [order] = ledger(domain, "register");
    expect(await d.up(args)).toBe("update");
    expect(ledger(domain, "register")).toEqual([order]);
    expect(d.state!.outputs).toMatchObject({ charged: order.amount, currency: order.currency, invoice: order.invoice });
    expect(d.state!.outputs.unconfirmedOrder).toBeUndefined();
    expect(d.state!.initErrors).toBeUndefined();
  });

  test("a register whose read-back replay then says charged 999.00: held against what it was accepted at, fails loudly, kept; nothing bought again", async () => {
    const domain = "redirected-then-lying.com";
    const args = { domain, contacts, maxPrice: "25.00" };
    service.proxy.rewrite({ method: "POST", path: /\/domains\/register$/, write: redirect });
    const d = new Managed(service.env, "Domain", "redirected-then-lying");
    expect((await failureOf(d.up(args))).message).toMatch(/may have been charged: the service answered 307 /);
    service.proxy.rewrite({ method: "POST", path: /\/domains\/register$/, lie: dataWith("charged", "999.00") });
    const f = await failureOf(d.up(args));
    const [order] = ledger(domain, "register");
    expect(f.message).toContain(`${domain}: the register of an earlier run charged 999.00 USD, above maxPrice 25.00 USD / the quote 12.00 USD: check invoice ${order.invoice}.`);
    expect(d.state!.outputs).toMatchObject({ charged: "999.00", invoice: order.invoice });
    expect(d.state!.outputs.unconfirmedOrder).toBeUndefined();
    await nothingBoughtAgain(d, args, domain, "register", { charged: "999.00", invoice: order.invoice }, order.invoice!);
  });

  test.each(ADDONS)("%s: may have been charged, kept unconfirmed; the next up records its charge, bought once", async (kind, action, path, label) => {
    const domain = await domainFor(`redirected-${action}`);
    service.proxy.rewrite({ method: "POST", path, write: redirect });
    const a = new Managed(service.env, kind, `redirected-${action}`);
    const f = await failureOf(a.up({ domain }));
    expect(f.message).toMatch(new RegExp(`${domain}: the ${label} purchase may have been charged: the service answered 307 `));
    expect(f.message).not.toMatch(/nothing (was )?charged/i);
    expect(a.state!.outputs).toMatchObject({ domain, enabled: true, unconfirmedOrder: { operation: action } });
    const [order] = ledger(domain, action);
    expect(await a.up({ domain })).toBe("update");
    expect(ledger(domain, action)).toEqual([order]);
    expect(a.state!.outputs).toMatchObject({ charged: order.amount, currency: order.currency, invoice: order.invoice });
  });
});
