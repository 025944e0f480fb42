/**
 * A lying service on every paid call (register, transfer, renew, privacy, protection): the sandbox
 * takes the order and charges it, and a proxy in front of it (test/support/rewriting-service.proxy.ts)
 * rewrites the answer into each wrong shape: another shape, a malformed charge, a body cut off on
 * every attempt, not JSON, 200 with an error body. Through the SDK's provider host, each must end
 * in "may have been charged" (never "nothing charged"), one charge only, and state true to what the
 * service holds; the next up reads the order back under the same key (a replay) and records exactly
 * what it charged, buying nothing again.
 */
import { FOREIGN_AUTH_CODE } from "../../sandbox/state";
import { contact, Managed } from "../resources/lifecycle/harness";
import { dataWith, type Lie } from "../support/rewriting-proxy";
import { failureOf, lyingService } from "./lying-service";

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

describe.each(LIES.map((l, i) => [...l, i] as const))("an add-on purchase answered with %s", (_name, lie, times, reason, i) => {
  test.each([
    ["PrivacyAddon", "privacy", /\/privacy$/, "WHOIS Privacy"],
    ["Protection", "protection", /\/protection$/, "Domain Protection"],
  ] as const)("%s: taken as the service shows it, said to be possibly charged, bought once", async (kind, action, path, label) => {
    const domain = `lie-${action}-${i}.com`;
    await new Managed(service.env, "Domain", `${action}-domain-${i}`).up({ domain, contacts });
    service.proxy.rewrite({ method: "POST", path, times, lie });
    const a = new Managed(service.env, kind, `${action}-${i}`);
    const logsBefore = service.env.host.logs().length;
    expect(await a.up({ domain })).toBe("create");
    expect(service.proxy.pending()).toBeLessThan(times);
    service.proxy.clear();
    const said = service.env.host.logs().slice(logsBefore).join("\n");
    expect(said).toMatch(new RegExp(`${domain.replace(/\./g, "\\.")}: ${label} purchase may have been charged: `));
    expect(said).toMatch(reason);
    expect(ledger(domain, action)).toHaveLength(1);
    const live = action === "privacy" ? await service.env.client.getPrivacy(domain) : await service.env.client.getProtection(domain);
    expect(a.state!.outputs).toMatchObject({ domain, enabled: true });
    expect(live.enabled).toBe(true);
    expect(await a.up({ domain })).toBe("same");
    expect(ledger(domain, action)).toHaveLength(1);
  });
});
