/**
 * Domain through the SDK's provider host over gRPC against the sandbox: register, no-op up, in-place
 * updates, drift found by refresh, a rename replace run (the old name stays registered), price
 * guard, declarative renewal and its 409 expiry_mismatch branch, approval, KYC and long-wait stages,
 * gone domains, adopt, protection refusals, delete leaving the domain registered, and a crash
 * between the charge and the response followed by a retry (exactly one charge).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isProviderHostError, type PropertyMap } from "../../../dev/engine/host";
import { canonicalContact } from "../../../resources/shared/normalize";
import { FOREIGN_AUTH_CODE } from "../../../sandbox/state";
import { contact, Managed, ROOT, startEnv, type Env } from "./harness";
import { until } from "../../support/until";

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => env?.close());

const charges = (domain: string) => env.sandbox.operator.ledger().filter((e) => e.domain === domain && Number(e.amount) > 0);
const contacts = { registrant: contact };

/**
 * Expects the host's log lines since `from` to include `text`. The host writes a line to its stdout
 * before it answers over gRPC, but the two pipes may reach this process in either order: it waits for the line.
 */
async function expectLogged(from: number, text: string): Promise<void> {
  const since = () => env.host.logs().slice(from).join("\n");
  await until(`the host to log ${JSON.stringify(text)}`, () => since().includes(text));
  expect(since()).toContain(text);
}

test("register, no-op up, in-place updates, refresh after an out-of-band change, delete keeps the domain", async () => {
  const d = new Managed(env, "Domain", "main");
  const args = {
    domain: "Pulumi-Lifecycle.com",
    years: 1,
    contacts,
    nameservers: ["NS1.dns.sandbox.test.", "ns2.dns.sandbox.test"],
    locked: false,
    maxPrice: "20.00",
    clientReference: "order-1",
  };
  expect(await d.up(args)).toBe("create");
  expect(d.state!.id).toBe("pulumi-lifecycle.com");
  expect(d.outputs).toMatchObject({
    domain: "pulumi-lifecycle.com",
    stage: "active",
    nameservers: expect.arrayContaining(["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"]),
    locked: false,
    currency: "USD",
    adopted: false,
  });
  expect(d.outputs.charged).toBe("12.00");
  expect(d.outputs.expiryDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(charges("pulumi-lifecycle.com")).toHaveLength(1);

  // Same program again (other spelling, nameservers in another order): no change, no mutating call.
  let mark = env.mark();
  expect(await d.up({ ...args, domain: "pulumi-lifecycle.com", nameservers: ["ns2.dns.sandbox.test", "ns1.dns.sandbox.test"] })).toBe("same");
  expect(await d.refresh()).toBe(true);
  expect((await d.preview(args)).step).toBe("same");
  expect(env.mutatingSince(mark)).toEqual([]);

  // In place: lock and nameservers.
  const ns = ["ns1.example-dns.net", "ns2.example-dns.net", "ns3.example-dns.net"];
  expect(await d.up({ ...args, locked: true, nameservers: ns })).toBe("update");
  const live = await env.client.getDomain("pulumi-lifecycle.com");
  expect(live.locked).toBe(true);
  expect([...(live.nameservers ?? [])].sort()).toEqual(ns);
  expect(charges("pulumi-lifecycle.com")).toHaveLength(1);

  // Contacts in place; the change is sent only for what differs.
  expect(await d.up({ ...args, locked: true, nameservers: ns, contacts: { registrant: { ...contact, city: "Leeds" } } })).toBe("update");
  expect((await env.client.getContacts("pulumi-lifecycle.com")).registrant?.city).toBe("Leeds");
  const current = { ...args, locked: true, nameservers: ns, contacts: { registrant: { ...contact, city: "Leeds" } } };
  expect(await d.up(current)).toBe("same");

  // Out of band: someone unlocks the domain. Refresh sees it; the next up puts it back.
  await env.client.setLock("pulumi-lifecycle.com", false);
  await d.refresh();
  expect(d.outputs.locked).toBe(false);
  const p = await d.preview(current);
  expect(p.step).toBe("update");
  expect(p.diff!.replaces).toEqual([]);
  expect(await d.up(current)).toBe("update");
  expect((await env.client.getDomain("pulumi-lifecycle.com")).locked).toBe(true);

  // Renaming is a replace: the new domain is bought (one charge), then the old one is "deleted",
  // which leaves it registered and says so; the old name sees no call but reads.
  const renamed = { ...current, domain: "pulumi-lifecycle.net" };
  expect((await d.preview(renamed)).diff!.replaces).toEqual(["domain"]);
  mark = env.mark();
  let logsBefore = env.host.logs().length;
  expect(await d.up(renamed)).toBe("replace");
  expect(d.state!.id).toBe("pulumi-lifecycle.net");
  expect(d.outputs).toMatchObject({ domain: "pulumi-lifecycle.net", stage: "active", locked: true, charged: "13.00" });
  expect(charges("pulumi-lifecycle.net").map((e) => e.action)).toEqual(["register"]);
  expect(charges("pulumi-lifecycle.com")).toHaveLength(1);
  const sent = env.sandbox.operator.requests().slice(mark);
  expect(sent.filter((r) => r.path.includes("pulumi-lifecycle.com") && r.method !== "GET").map((r) => `${r.method} ${r.path}`)).toEqual([]);
  expect(env.mutatingSince(mark).filter((r) => !r.path.endsWith("/domains/register") && !r.path.includes("pulumi-lifecycle.net"))).toEqual([]);
  expect(env.mutatingSince(mark).filter((r) => r.path.endsWith("/domains/register"))).toHaveLength(1);
  expect((await env.client.getDomain("pulumi-lifecycle.com")).stage).toBe("active");
  await expectLogged(logsBefore, "pulumi-lifecycle.com: a domain cannot be deleted through the API; it stays registered");
  expect(await d.up(renamed)).toBe("same");

  // Delete leaves the domain registered.
  mark = env.mark();
  logsBefore = env.host.logs().length;
  await d.destroy();
  expect(env.mutatingSince(mark)).toEqual([]);
  expect((await env.client.getDomain("pulumi-lifecycle.net")).stage).toBe("active");
  await expectLogged(logsBefore, "pulumi-lifecycle.net: a domain cannot be deleted through the API; it stays registered");
});

test("maxPrice below the quote refuses before any money moves", async () => {
  const d = new Managed(env, "Domain", "pricey");
  const mark = env.mark();
  await expect(d.up({ domain: "too-dear.io", contacts, maxPrice: "10.00" })).rejects.toThrow(/costs 39\.00 USD, above maxPrice 10\.00; nothing was charged/);
  expect(env.mutatingSince(mark)).toEqual([]);
  expect(charges("too-dear.io")).toHaveLength(0);
});

test("a crash between the charge and the response, then a retry: exactly one charge", async () => {
  const args = { domain: "crash-retry.com", contacts, nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"] };
  const mark = env.mark();
  // The order is committed and charged, then its answer is lost.
  env.sandbox.operator.injectFault({ kind: "drop-after-commit", count: 1, match: { path: "/domains/register" } });
  const first = new Managed(env, "Domain", "crashy");
  expect(await first.up(args)).toBe("create");
  expect(charges("crash-retry.com")).toHaveLength(1);
  const registers = () => env.sandbox.operator.requests().slice(mark).filter((r) => r.path.endsWith("/domains/register"));
  expect(registers().map((r) => [r.fault, r.replayed])).toEqual([
    ["drop-after-commit", false],
    [null, true],
  ]);

  // The whole run crashes before state is written: the host dies, a new one starts, and `up`
  // creates again from scratch with the same inputs. Same URN, same key: a replay, no second charge.
  await env.host.kill();
  const { startProviderHost } = (require("../../../dev/engine/host") as typeof import("../../../dev/engine/host"));
  const host = await startProviderHost({ cwd: ROOT });
  try {
    await host.configure(env.config);
    const again = new Managed({ ...env, host }, "Domain", "crashy");
    // The domain is in the account already: taken as it is, never ordered again.
    expect(await again.up(args)).toBe("create");
    expect(again.outputs).toMatchObject({ domain: "crash-retry.com", stage: "active", adopted: false });
  } finally {
    env.host = host;
  }
  expect(charges("crash-retry.com")).toHaveLength(1);
  expect(new Set(registers().map((r) => r.idempotency_key)).size).toBe(1);
  expect(registers().slice(-1)[0].replayed).toBe(true);
});

test("a failure after the purchase keeps the domain in state (partial failure carrying the id)", async () => {
  env.sandbox.operator.injectFault({ kind: "error", status: 422, count: 1, match: { path: "/domains/partial-fail.com/lock" } });
  const d = new Managed(env, "Domain", "partial");
  let failure: unknown;
  try {
    await d.up({ domain: "partial-fail.com", contacts, locked: false });
  } catch (e) {
    failure = e;
  }
  expect(isProviderHostError(failure)).toBe(true);
  if (!isProviderHostError(failure)) throw failure;
  expect(failure.id).toBe("partial-fail.com");
  expect(failure.message).toMatch(/partial-fail\.com: registered \(charged 12\.00 USD \(invoice INV-\d+\); recorded in state\), but setting the lock failed/);
  expect(failure.properties).toMatchObject({ domain: "partial-fail.com", stage: "active", charged: "12.00" });
  expect(charges("partial-fail.com")).toHaveLength(1);
  // The engine keeps it with its init errors; the next up updates the lock in place and charges nothing.
  expect(d.state).toMatchObject({ id: "partial-fail.com", outputs: failure.properties, initErrors: failure.reasons });
  expect(await d.up({ domain: "partial-fail.com", contacts, locked: false })).toBe("update");
  expect((await env.client.getDomain("partial-fail.com")).locked).toBe(false);
  expect(charges("partial-fail.com")).toHaveLength(1);
});

test("renewal policy: due renewal is an update keyed on the live expiry; an out-of-band renewal charges nothing more", async () => {
  const d = new Managed(env, "Domain", "renewing");
  const args = { domain: "renew-me.com", contacts, renewal: { minDaysRemaining: 400, years: 1 } };
  expect(await d.up(args)).toBe("create");
  expect(charges("renew-me.com")).toHaveLength(1);
  const firstExpiry = d.outputs.expiryDate as string;

  // About 365 days remain, fewer than 400: diff (offline, from state) says renew.
  const p = await d.preview(args);
  expect(p.step).toBe("update");
  expect(p.diff!.replaces).toEqual([]);
  expect(await d.up(args)).toBe("update");
  expect(charges("renew-me.com").map((e) => e.action)).toEqual(["register", "renew"]);
  expect(Number((d.outputs.expiryDate as string).slice(0, 4))).toBe(Number(firstExpiry.slice(0, 4)) + 1);
  // Now about 730 days remain: nothing to do, no call.
  const mark = env.mark();
  expect(await d.up(args)).toBe("same");
  expect(env.mutatingSince(mark)).toEqual([]);

  // A policy needing more days is due again, but the domain was renewed out of band meanwhile:
  // update re-reads the live expiry and finds nothing to renew.
  const longer = { ...args, renewal: { minDaysRemaining: 1000, years: 1 } };
  await env.client.renew("renew-me.com", { years: 2, current_expiry: d.outputs.expiryDate as string }, { idempotencyKey: "out-of-band-renewal" });
  const before = charges("renew-me.com").length;
  expect(await d.up(longer)).toBe("update");
  expect(charges("renew-me.com")).toHaveLength(before);
});

test("renewal answered 409 expiry_mismatch (another renewal held for approval): nothing charged, the apply ends well, later ups change nothing", async () => {
  const domain = "renew-held.com";
  const d = new Managed(env, "Domain", "renew-held");
  const args = { domain, contacts, renewal: { minDaysRemaining: 400, years: 1 } };
  expect(await d.up(args)).toBe("create");
  const expiry = d.outputs.expiryDate as string;
  env.sandbox.operator.settings({ approval: { renewals: true } });
  try {
    // Out of band, someone renews; the renewal is held for review: charged, expiry unchanged.
    const held = await env.client.renew(domain, { years: 1, current_expiry: expiry }, { idempotencyKey: "held-out-of-band" });
    expect(held.stage).toBe("pending_approval");
    expect((await env.client.getDomain(domain)).expiry_date).toBe(expiry);
    const ledger = env.sandbox.operator.ledger().length;

    // The resource's renewal is still due and re-reads the same expiry, so it renews from it: 409.
    expect((await d.preview(args)).step).toBe("update");
    const mark = env.mark();
    const logsBefore = env.host.logs().length;
    expect(await d.up(args)).toBe("update");
    const sent = env.sandbox.operator.requests().slice(mark);
    const renewals = sent.filter((r) => r.path.endsWith(`/domains/${domain}/renew`));
    expect(renewals.map((r) => [r.method, r.status, r.error])).toEqual([["POST", 409, "expiry_mismatch"]]);
    // Re-read after the refusal: the outputs are the live domain.
    expect(sent.slice(sent.indexOf(renewals[0]) + 1).some((r) => r.method === "GET" && r.path.endsWith(`/domains/${domain}`))).toBe(true);
    expect(env.sandbox.operator.ledger()).toHaveLength(ledger);
    expect(env.mutatingSince(mark)).toEqual([]);
    expect(d.outputs).toMatchObject({ domain, stage: "active", expiryDate: expiry, charged: "12.00" });
    await expectLogged(logsBefore, `${domain}: the service will not renew from ${expiry} (expiry_mismatch: another renewal was made, or is waiting for approval); nothing charged`);

    // While the other renewal is held, a further up asks again and is refused again: no charge, no change.
    let m = env.mark();
    expect(await d.up(args)).toBe("update");
    expect(env.mutatingSince(m)).toEqual([]);
    expect(env.sandbox.operator.ledger()).toHaveLength(ledger);

    // Once the operator approves it the expiry moves a year; the next up finds nothing due and sends nothing.
    env.sandbox.operator.approve(domain);
    m = env.mark();
    await d.up(args);
    expect(Number((d.outputs.expiryDate as string).slice(0, 4))).toBe(Number(expiry.slice(0, 4)) + 1);
    expect(await d.up(args)).toBe("same");
    expect(env.mutatingSince(m)).toEqual([]);
    expect(env.sandbox.operator.ledger()).toHaveLength(ledger);
  } finally {
    env.sandbox.operator.settings({ approval: { renewals: false } });
  }
});

test("an order under review ends the apply with its stage; refresh follows it", async () => {
  env.sandbox.operator.settings({ approval: { orders: true } });
  try {
    const d = new Managed(env, "Domain", "reviewed");
    expect(await d.up({ domain: "under-review.com", contacts })).toBe("create");
    expect(d.outputs.stage).toBe("pending_approval");
    await d.refresh();
    expect(d.outputs.stage).toBe("pending_approval");
    env.sandbox.operator.approve("under-review.com");
    await d.refresh();
    expect(["pending", "active"]).toContain(d.outputs.stage);
  } finally {
    env.sandbox.operator.settings({ approval: { orders: false } });
  }
});

test("transfer with an auth code: ends the apply in pending_transfer; refresh follows it; the code never shows", async () => {
  env.sandbox.operator.settings({ processingDelaySeconds: 3600 });
  const authCode = FOREIGN_AUTH_CODE;
  try {
    const d = new Managed(env, "Domain", "incoming");
    expect(await d.up({ domain: "transfer-me.com", contacts, authCode, waitTimeoutSeconds: 5 })).toBe("create");
    expect(d.outputs.stage).toBe("pending_transfer");
    expect(charges("transfer-me.com").map((e) => e.action)).toEqual(["transfer"]);
    env.sandbox.operator.completeTransfer("transfer-me.com");
    await d.refresh();
    expect(d.outputs.stage).toBe("active");
    // authCode matters only when buying: changing it later is no diff.
    expect(await d.up({ domain: "transfer-me.com", contacts, authCode: "another-code", waitTimeoutSeconds: 5 })).toBe("same");
  } finally {
    env.sandbox.operator.settings({ processingDelaySeconds: 0 });
  }
  expect(env.host.logs().join("\n")).not.toContain(authCode);
});

// The wait's schedule, its lines over minutes and its deadline are proven on virtual time, calling the
// handler in process (test/resources/waits-on-clock.test.ts); here a 1 s wait shows both of its lines
// reach the engine through the SDK's provider host.
test("a long registry wait is logged through the host; the apply ends in stage pending; refresh follows it to active", async () => {
  const domain = "slow-registry.com";
  const args = { domain, contacts, waitTimeoutSeconds: 1 };
  env.sandbox.operator.settings({ processingDelaySeconds: 3600 });
  try {
    const d = new Managed(env, "Domain", "slow");
    const logsBefore = env.host.logs().length;
    expect(await d.up(args)).toBe("create");
    expect(d.outputs).toMatchObject({ domain, stage: "pending", charged: "12.00" });
    expect(charges(domain)).toHaveLength(1);
    await expectLogged(logsBefore, `${domain}: waiting up to 1 s for the registry to finish (stage pending)`);
    await expectLogged(logsBefore, `${domain}: still in stage pending after 1 s; the next refresh will follow it`);

    // Still pending: refresh keeps it, and the next up buys nothing and changes nothing.
    const mark = env.mark();
    expect(await d.refresh()).toBe(true);
    expect(d.outputs.stage).toBe("pending");
    expect(await d.up(args)).toBe("same");
    expect(env.mutatingSince(mark)).toEqual([]);

    // The sandbox clock passes the processing delay: refresh shows it active.
    env.sandbox.operator.advanceClock(3600);
    await d.refresh();
    expect(d.outputs.stage).toBe("active");
    expect(charges(domain)).toHaveLength(1);
  } finally {
    env.sandbox.operator.settings({ processingDelaySeconds: 0 });
  }
});

test("a registration on a KYC TLD ends the apply in pending_kyc; after KYC, refresh shows active", async () => {
  const domain = "kyc-needed.de";
  env.sandbox.operator.settings({ kycTlds: ["de"] });
  const d = new Managed(env, "Domain", "kyc");
  const logsBefore = env.host.logs().length;
  expect(await d.up({ domain, contacts })).toBe("create");
  expect(d.outputs).toMatchObject({ domain, stage: "pending_kyc", charged: "9.00" });
  expect(charges(domain).map((e) => e.action)).toEqual(["register"]);
  await expectLogged(logsBefore, `${domain}: register is in stage pending_kyc; the apply ends here and later refreshes follow it`);

  const mark = env.mark();
  await d.refresh();
  expect(d.outputs.stage).toBe("pending_kyc");
  expect(await d.up({ domain, contacts })).toBe("same");
  expect(env.mutatingSince(mark)).toEqual([]);

  env.sandbox.operator.completeKyc(domain);
  await d.refresh();
  expect(d.outputs.stage).toBe("active");
  expect(charges(domain)).toHaveLength(1);
});

test("a domain the account no longer holds reads as gone: a rejected order (cancelled)", async () => {
  const domain = "rejected-order.com";
  env.sandbox.operator.settings({ approval: { orders: true } });
  try {
    const d = new Managed(env, "Domain", "rejected");
    expect(await d.up({ domain, contacts })).toBe("create");
    expect(d.outputs.stage).toBe("pending_approval");
    expect(await d.refresh()).toBe(true);
    env.sandbox.operator.reject(domain);
    expect((await env.client.getDomain(domain)).stage).toBe("cancelled");
    const mark = env.mark();
    expect(await d.refresh()).toBe(false);
    expect(d.state).toBeUndefined();
    expect(env.mutatingSince(mark)).toEqual([]);
    expect(env.sandbox.operator.ledger().filter((e) => e.domain === domain).map((e) => e.action)).toEqual(["register", "refund"]);
  } finally {
    env.sandbox.operator.settings({ approval: { orders: false } });
  }
});

test("adopt takes an existing domain with no charge or change; differences then show as a diff", async () => {
  const d = new Managed(env, "Domain", "adopted");
  const mark = env.mark();
  const ledger = env.sandbox.operator.ledger().length;
  expect(await d.up({ domain: "demo-shop.net", adopt: true })).toBe("create");
  expect(env.mutatingSince(mark)).toEqual([]);
  expect(env.sandbox.operator.ledger()).toHaveLength(ledger);
  expect(d.outputs).toMatchObject({ domain: "demo-shop.net", adopted: true, stage: "active", locked: false });
  expect(await d.up({ domain: "demo-shop.net", adopt: true })).toBe("same");
  const p = await d.preview({ domain: "demo-shop.net", adopt: true, locked: true });
  expect(p.step).toBe("update");
  expect(p.diff!.replaces).toEqual([]);

  const missing = new Managed(env, "Domain", "not-mine");
  await expect(missing.up({ domain: "not-in-account.com", adopt: true })).rejects.toThrow(/not-in-account\.com is not in this reseller account/);
});

test("lock removal refused by Domain Protection says protection is on", async () => {
  const d = new Managed(env, "Domain", "protected");
  expect(await d.up({ domain: "protected-brand.com", adopt: true })).toBe("create");
  await expect(d.up({ domain: "protected-brand.com", adopt: true, locked: false })).rejects.toThrow(/Domain Protection is on/);
});

describe("a state written by 0.2.0, whose contacts have the service's field names (address_line_1, address_line_2, postal_code)", () => {
  // What 0.2.0 wrote for { registrant: contact, tech } (captured through the provider host before the rename).
  const written = JSON.parse(fs.readFileSync(path.join(__dirname, "../fixtures/state-v0.2/domain-contacts.json"), "utf8")) as { inputs: PropertyMap; outputs: PropertyMap };
  const tech = { ...contact, name: "Second Tester", addressLine2: "Flat 3", postalCode: "LS1 1AA", city: "Leeds" };
  const args = { domain: "old-contacts.com", contacts: { registrant: contact, tech }, locked: false };
  /** The contacts as this version holds them: canonical, in its own names, none lost. */
  const held = { registrant: canonicalContact(contact), tech: canonicalContact(tech) };
  const OLD_NAMES = /address_line_|postal_code/;

  let d: Managed;
  /** The live domain registered by this version, its state's contacts put back as 0.2.0 wrote them. */
  const asWrittenBy020 = () => {
    const s = d.state!;
    d.state = { id: s.id, inputs: { ...s.inputs, contacts: written.inputs.contacts }, outputs: { ...s.outputs, contacts: written.outputs.contacts } };
    expect(JSON.stringify(d.state!.inputs.contacts)).toMatch(OLD_NAMES);
  };
  const liveContacts = async () => JSON.stringify(await env.client.getContacts("old-contacts.com"));

  beforeAll(async () => {
    d = new Managed(env, "Domain", "old-contacts");
    expect(await d.up(args)).toBe("create");
    expect(d.outputs.contacts).toEqual(held);
  });

  test("the fixture is what 0.2.0 wrote for these contacts: the same values under the service's names", () => {
    // Spelled out here, not through api/contact-names.ts: the test of the mapping must not use it.
    const in020Names = ({ addressLine1, addressLine2, postalCode, ...rest }: ReturnType<typeof canonicalContact>) => ({ ...rest, address_line_1: addressLine1, address_line_2: addressLine2, postal_code: postalCode });
    for (const where of [written.inputs, written.outputs]) expect(where.contacts).toEqual({ registrant: in020Names(held.registrant), tech: in020Names(held.tech) });
  });

  test("preview and up of the camelCase program show no change and send nothing; refresh keeps every contact, in the new names", async () => {
    asWrittenBy020();
    const mark = env.mark();
    const p = await d.preview(args);
    expect([p.step, p.diff?.diffs]).toEqual(["same", []]);
    expect(await d.up(args)).toBe("same");
    // Not even a read: check's olds, upgraded, are the inputs it returns (preflight's no-op path).
    expect(env.sandbox.operator.requests().slice(mark).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    asWrittenBy020();
    expect(await d.refresh()).toBe(true);
    expect(d.outputs.contacts).toEqual(held);
    expect(env.mutatingSince(mark)).toEqual([]);
  });

  test("an update (the lock) sends only the lock, and the contacts stay as they were, at the service and in state", async () => {
    asWrittenBy020();
    const before = await liveContacts();
    const mark = env.mark();
    expect(await d.up({ ...args, locked: true })).toBe("update");
    expect(env.mutatingSince(mark)).toEqual([{ method: "PUT", path: "/api/v1/domains/old-contacts.com/lock" }]);
    expect(await liveContacts()).toBe(before);
    expect(d.outputs.contacts).toEqual(held);
    expect(JSON.stringify(d.state!.inputs)).not.toMatch(OLD_NAMES);

    // A real contact change from such a state sends only the contact that changed.
    asWrittenBy020();
    const moved = { ...args, locked: true, contacts: { registrant: contact, tech: { ...tech, city: "York" } } };
    const at = env.mark();
    expect(await d.up(moved)).toBe("update");
    expect(env.mutatingSince(at)).toEqual([{ method: "PUT", path: "/api/v1/domains/old-contacts.com/contacts" }]);
    const live = await env.client.getContacts("old-contacts.com");
    expect([live.registrant?.city, live.tech?.city, live.tech?.address_line_2]).toEqual([contact.city, "York", tech.addressLine2]);
    expect(await d.up(moved)).toBe("same");
  });

  test("a program or stack config still using the old names: check reads them as the new ones with a warning naming each field, never a value", async () => {
    const logged = env.host.logs().length;
    const was = written.inputs.contacts as Record<"registrant" | "tech", PropertyMap>;
    const old = { ...args, locked: true, contacts: { registrant: was.registrant, tech: { ...was.tech, city: "York" } } };
    const checked = await d.check(old);
    expect(checked.failures).toEqual([]);
    expect(JSON.stringify(checked.inputs.contacts)).not.toMatch(OLD_NAMES);
    expect(checked.inputs.contacts).toEqual({ registrant: held.registrant, tech: { ...held.tech, city: "York" } });
    expect(await d.up(old)).toBe("same");
    await expectLogged(logged, "contacts.registrant.address_line_1 → addressLine1, contacts.registrant.address_line_2 → addressLine2, contacts.registrant.postal_code → postalCode");
    await expectLogged(logged, "contacts.tech.postal_code → postalCode");
    const lines = env.host.logs().slice(logged).join("\n");
    for (const v of [contact.addressLine1, contact.postalCode, tech.postalCode, tech.addressLine2]) expect(lines).not.toContain(v);

    // Both spellings of one field: refused, naming it, before anything is sent.
    const both = await d.check({ ...args, contacts: { registrant: { ...contact, postal_code: "E1 6AN" } } });
    expect(both.failures).toEqual([{ property: "contacts.registrant.postal_code", reason: expect.stringContaining("is the name 0.2.0 used for postalCode; give postalCode only") }]);
  });

  test("destroy from such a state removes it from the stack and leaves the domain registered", async () => {
    asWrittenBy020();
    const mark = env.mark();
    await d.destroy();
    expect(d.state).toBeUndefined();
    expect(env.mutatingSince(mark)).toEqual([]);
    expect((await env.client.getDomain("old-contacts.com")).stage).toBe("active");
  });
});

test("no secret reaches the host's logs or the error messages", async () => {
  const logs = env.host.logs().join("\n");
  for (const s of [env.sandbox.credentials.secret, contact.email, "+442079460001"]) expect(logs).not.toContain(s);
});

// Last in the file: the reset wipes what the other tests bought.
test("a domain missing from the account (404, here after a sandbox reset) reads as gone", async () => {
  const d = new Managed(env, "Domain", "vanished");
  expect(await d.up({ domain: "vanished-name.com", contacts })).toBe("create");
  env.sandbox.operator.reset();
  await expect(env.client.getDomain("vanished-name.com")).rejects.toThrow(/not.found|404/i);
  expect(await d.refresh()).toBe(false);
  expect(d.state).toBeUndefined();
});
