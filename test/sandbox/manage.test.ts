/** Domain management: nameservers, contacts, lock, EPP code, child hosts, privacy, protection. */
import * as V from "../../api/views";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { CONTACT, makeApi, type Api } from "./signed-fetch";

const code = (r: { body: unknown }) => V.ErrorBody.parse(r.body).error.code;
let keyNo = 0;
const ik = () => `manage-key-${++keyNo}`;

describe("domain management", () => {
  let sb: SandboxHandle;
  let api: Api;
  beforeAll(async () => {
    sb = await startSandbox({ requestsPerMinute: 10000, processingDelaySeconds: 0 });
    api = makeApi(sb.url, sb.credentials);
  });
  afterAll(() => sb.close());

  it("sets 2 to 5 valid nameservers and refuses anything else unchanged", async () => {
    const before = sb.operator.state().domains["demo-shop.net"].nameservers;
    for (const [ns, field] of [
      [["ns1.example.net"], "nameservers"],
      [["a.example.net", "b.example.net", "c.example.net", "d.example.net", "e.example.net", "f.example.net"], "nameservers"],
      [["ns1.example.net", "-bad-.example.net"], "nameservers[1]"],
      [["ns1.example.net", "ns1.example.net"], "nameservers[1]"],
      ["ns1.example.net", "nameservers"],
    ] as const) {
      const r = await api("PUT", "/domains/demo-shop.net/nameservers", { nameservers: ns });
      expect([r.status, r.body.error.field]).toEqual([422, field]);
    }
    expect(sb.operator.state().domains["demo-shop.net"].nameservers).toEqual(before);
    const ok = await api("PUT", "/domains/demo-shop.net/nameservers", { nameservers: ["NS1.Example.NET.", "ns2.example.net"] });
    expect(V.NameserversView.parse(ok.body.data).nameservers).toEqual(["ns1.example.net", "ns2.example.net"]);
  });

  it("changes only the contact types sent; a registrant e-mail change under privacy is pending until confirmed", async () => {
    const tech = { ...CONTACT, name: "Tech Person" };
    const r = await api("PUT", "/domains/demo-shop.net/contacts", { contacts: { tech } });
    expect(V.ContactsUpdate.parse(r.body.data).status).toBe("updated");
    const c = V.Contacts.parse((await api("GET", "/domains/demo-shop.net/contacts")).body.data);
    expect(c.tech?.name).toBe("Tech Person");
    expect(c.admin?.name).toBe("Dana Demo");

    const moved = { ...CONTACT, email: "new-owner@example.org" };
    const p = await api("PUT", "/domains/demo-reseller.com/contacts", { contacts: { registrant: moved } });
    expect(p.body.data.status).toBe("pending");
    expect((await api("GET", "/domains/demo-reseller.com/contacts")).body.data.registrant.email).toBe("dana@demo-reseller.test");
    sb.operator.confirmContacts("demo-reseller.com");
    expect((await api("GET", "/domains/demo-reseller.com/contacts")).body.data.registrant.email).toBe("new-owner@example.org");

    const bad = await api("PUT", "/domains/demo-shop.net/contacts", { contacts: { billing: { ...CONTACT, email: "x" } } });
    expect([bad.status, bad.body.error.field]).toEqual([422, "contacts.billing.email"]);
  });

  it("locks and unlocks; refuses a non-boolean", async () => {
    expect((await api("PUT", "/domains/demo-shop.net/lock", { locked: true })).body.data.locked).toBe(true);
    expect((await api("PUT", "/domains/demo-shop.net/lock", { locked: false })).body.data.locked).toBe(false);
    const r = await api("PUT", "/domains/demo-shop.net/lock", { locked: "no" });
    expect([r.status, r.body.error.field]).toEqual([422, "locked"]);
  });

  it("returns a new EPP code on each call", async () => {
    const a = V.EppCode.parse((await api("POST", "/domains/demo-shop.net/epp-code")).body.data).auth_code;
    const b = V.EppCode.parse((await api("POST", "/domains/demo-shop.net/epp-code")).body.data).auth_code;
    expect(a).not.toBe(b);
  });

  it("protection: bought with a charge, then lock removal and EPP requests get 409; DELETE is always 403", async () => {
    const n = sb.operator.ledger().length;
    const r = await api("POST", "/domains/demo-labs.io/protection", {}, { idempotencyKey: ik() });
    expect(r.status).toBe(201);
    expect(V.ProtectionView.parse(r.body.data).enabled).toBe(true);
    expect(sb.operator.ledger()).toHaveLength(n + 1);
    const unlock = await api("PUT", "/domains/demo-labs.io/lock", { locked: false });
    expect([unlock.status, code(unlock)]).toEqual([409, "protection_enabled"]);
    const epp = await api("POST", "/domains/demo-labs.io/epp-code");
    expect([epp.status, code(epp)]).toEqual([409, "protection_enabled"]);
    const del = await api("DELETE", "/domains/demo-labs.io/protection");
    expect([del.status, code(del)]).toEqual([403, "requires_portal_verification"]);
    const del2 = await api("DELETE", "/domains/demo-shop.net/protection");
    expect(del2.status).toBe(403);
    expect((await api("DELETE", "/domains/not-in-account.com/protection")).status).toBe(403);
    expect(sb.operator.state().domains["demo-labs.io"].locked).toBe(true);
    expect(sb.operator.ledger()).toHaveLength(n + 1);
  });

  it("privacy: bought for the rest of the term, awaiting_verification until confirmed, DELETE disables", async () => {
    const r = await api("POST", "/domains/demo-shop.net/privacy", {}, { idempotencyKey: ik() });
    expect(r.status).toBe(201);
    expect(V.PrivacyView.parse(r.body.data)).toMatchObject({ enabled: true, status: "awaiting_verification" });
    expect(sb.operator.ledger().at(-1)).toMatchObject({ domain: "demo-shop.net", action: "privacy", amount: "5.00" });
    sb.operator.confirmPrivacy("demo-shop.net");
    expect((await api("GET", "/domains/demo-shop.net/privacy")).body.data.status).toBe("active");
    const off = await api("DELETE", "/domains/demo-shop.net/privacy");
    expect(off.body.data).toMatchObject({ enabled: false, status: "disabled" });
    const keyless = await api("POST", "/domains/demo-shop.net/privacy", {});
    expect(code(keyless)).toBe("idempotency_key_required");
    const n = sb.operator.ledger().length;
    const again = await api("POST", "/domains/demo-shop.net/privacy", {}, { idempotencyKey: ik() });
    expect(again.body.data).toMatchObject({ enabled: true, status: "active", charged: "0.00" });
    expect(sb.operator.ledger()).toHaveLength(n);
  });

  it("child hosts: under the domain, IPv4/IPv6 validated, change and delete", async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ hostname: "ns1.other.com", ipv4: ["192.0.2.1"] }, "hostname"],
      [{ hostname: "ns1.demo-shop.net", ipv4: ["300.1.1.1"] }, "ipv4[0]"],
      [{ hostname: "ns1.demo-shop.net", ipv4: ["192.0.2.1"], ipv6: ["not-v6"] }, "ipv6[0]"],
      [{ hostname: "ns1.demo-shop.net", ipv4: "192.0.2.1" }, "ipv4"],
    ];
    for (const [body, field] of bad) {
      const r = await api("POST", "/domains/demo-shop.net/hosts", body);
      expect([r.status, r.body.error.field]).toEqual([422, field]);
    }
    expect(sb.operator.state().domains["demo-shop.net"].hosts).toEqual([]);
    const c = await api("POST", "/domains/demo-shop.net/hosts", { hostname: "ns1.demo-shop.net", ipv4: ["192.0.2.1"], ipv6: [] });
    expect(c.status).toBe(201);
    V.Host.parse(c.body.data);
    const u = await api("PUT", "/domains/demo-shop.net/hosts/ns1.demo-shop.net", { ipv4: ["192.0.2.2"], ipv6: ["2001:db8::2"] });
    expect(u.body.data).toEqual({ hostname: "ns1.demo-shop.net", ipv4: ["192.0.2.2"], ipv6: ["2001:db8::2"] });
    expect((await api("GET", "/domains/demo-shop.net/hosts")).body.data.items).toHaveLength(1);
    expect((await api("DELETE", "/domains/demo-shop.net/hosts/ns1.demo-shop.net")).status).toBe(200);
    expect((await api("DELETE", "/domains/demo-shop.net/hosts/ns1.demo-shop.net")).status).toBe(404);
  });

  it("refuses management of a domain that is not active", async () => {
    const r = await api("PUT", "/domains/awaiting-review.dev/lock", { locked: false });
    expect([r.status, code(r)]).toEqual([409, "domain_not_active"]);
  });

  it("serves the catalogue and account views", async () => {
    V.Balance.parse((await api("GET", "/account/balance")).body.data);
    V.Tier.parse((await api("GET", "/account/tier")).body.data);
    const q = await api("POST", "/pricing", { action: "renew", domain: "x.com", years: 2 });
    expect(V.Quote.parse(q.body.data).amount).toBe("28.00");
    const av = await api("POST", "/domains/availability", { domains: ["demo-reseller.com", "free-one.com"], years: 1 });
    expect(V.AvailabilityBatch.parse(av.body.data).results.map((x) => x.available)).toEqual([false, true]);
    const many = await api("POST", "/domains/availability", { domains: Array.from({ length: 21 }, (_, i) => `n${i}.com`) });
    expect([many.status, many.body.error.field]).toEqual([422, "domains"]);
    expect(V.Availability.parse((await api("POST", "/domains/check", { domain: "free-two.net" })).body.data).available).toBe(true);
    const list = await api("GET", "/domains?per_page=2&page=2");
    expect(V.Pagination.parse(list.body.data.pagination)).toMatchObject({ page: 2, per_page: 2, next_page: 3 });
  });
});
