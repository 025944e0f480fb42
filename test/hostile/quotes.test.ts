/**
 * A lying price quote (POST /pricing rewritten by a proxy in front of the sandbox) never lets money
 * move: a malformed amount, or a quote for another currency, domain, operation or term, refuses
 * the purchase before it is sent, naming the field and the value, through the SDK's provider host.
 */
import { contact, Managed } from "../resources/lifecycle/harness";
import { dataWith } from "../support/rewriting-proxy";
import { failureOf, lyingService } from "./lying-service";

jest.setTimeout(300_000);

const service = lyingService();
afterEach(() => service.proxy.clear());

const contacts = { registrant: contact };
const paid = (domain: string) => service.env.sandbox.operator.ledger().filter((e) => e.domain === domain);
const sent = (suffix: string) => service.env.sandbox.operator.requests().filter((r) => r.path.endsWith(suffix)).length;

test.each([
  ["amount", "", 'quote.amount "" must be a decimal amount'],
  ["amount", ".99", 'quote.amount ".99" must be a decimal amount'],
  ["amount", "-500.00", 'quote.amount "-500.00" must be a decimal amount'],
  ["amount", "12.999", 'quote.amount "12.999" must be a decimal amount'],
  ["amount", "1e3", 'quote.amount "1e3" must be a decimal amount'],
  ["amount", null, "the register quote for quoted-amount-null.com (1 year(s)) could not be read: POST /pricing answered 200 with an unexpected body at data.amount"],
  ["currency", "EUR", 'quote.currency "EUR" is not the currency maxPrice is compared in ("USD")'],
  ["domain", "cheap-other.com", 'quote.domain "cheap-other.com" is not the domain asked for'],
  ["action", "renew", 'quote.action "renew" is not the operation asked for ("register")'],
  ["years", 2, "quote.years 2 is not the term asked for (1)"],
])("a register quote whose %s is %j refuses before any money moves", async (field, value, message) => {
  const domain = `quoted-${field}-${String(value).replace(/[^a-z0-9]/gi, "x") || "empty"}.com`;
  service.proxy.rewrite({ method: "POST", path: /\/pricing$/, lie: dataWith(field, value) });
  const registers = sent("/domains/register");
  const d = new Managed(service.env, "Domain", `quoted-${field}`);
  const f = await failureOf(d.up({ domain, contacts, maxPrice: "100.00" }));
  expect(f.message).toContain(message);
  expect(f.message).toContain("nothing was charged");
  expect(f.id ?? "").toBe("");
  expect(d.state).toBeUndefined();
  expect(sent("/domains/register")).toBe(registers);
  expect(paid(domain)).toEqual([]);
});

test("maxPrice stated in another currency than the quote's refuses; in the quote's, the order goes through once", async () => {
  const d = new Managed(service.env, "Domain", "quoted-currency");
  const f = await failureOf(d.up({ domain: "quoted-in-eur.com", contacts, maxPrice: "100.00 EUR" }));
  expect(f.message).toContain('quote.currency "USD" is not the currency maxPrice is compared in ("EUR")');
  expect(paid("quoted-in-eur.com")).toEqual([]);
  expect(await d.up({ domain: "quoted-in-eur.com", contacts, maxPrice: "100.00 USD" })).toBe("create");
  expect(paid("quoted-in-eur.com").map((e) => e.action)).toEqual(["register"]);
});

test("a renewal quote for another term refuses the renewal: nothing charged, the expiry unchanged", async () => {
  const domain = "quoted-renewal.com";
  const d = new Managed(service.env, "Domain", "quoted-renewal");
  // Due once: a year's registration is inside 400 days of its expiry.
  const args = { domain, contacts, maxPrice: "100.00", renewal: { minDaysRemaining: 400 } };
  expect(await d.up(args)).toBe("create");
  const expiry = (await service.env.client.getDomain(domain)).expiry_date;
  service.proxy.rewrite({ method: "POST", path: /\/pricing$/, lie: dataWith("years", 3) });
  const f = await failureOf(d.up(args));
  expect(f.message).toContain(`the renew quote for ${domain} (1 year(s)): quote.years 3 is not the term asked for (1); nothing was charged`);
  expect(paid(domain).map((e) => e.action)).toEqual(["register"]);
  expect((await service.env.client.getDomain(domain)).expiry_date).toBe(expiry);
  expect(d.state!.outputs.expiryDate).toBe(expiry);
});
