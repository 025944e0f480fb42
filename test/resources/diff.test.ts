import { diffChildHost } from "../../resources/child-host/diff";
import { diffDomain, renewalDue } from "../../resources/domain/diff";
import { diffDomainAddon } from "../../resources/domain-addon/diff";
import { diffEppCode } from "../../resources/epp-code/diff";
import { diffRecord } from "../../resources/dns-record/diff";
import { diffTemplate } from "../../resources/zone-template/diff";
import { diffZone } from "../../resources/dns-zone/diff";
import { checkRecordInputs } from "../../resources/dns-record/schema";
import { UNKNOWN } from "../../resources/kit/check";
import { recordHandler } from "../../resources/dns-record/handler";
import type { DomainInputs } from "../../resources/domain/state";
import { testHost, type TestHost } from "../support/host-context";

const jane = { name: "Jane", email: "jane@example.com", phone: "+441234567890", addressLine1: "1 St", city: "London", country: "GB" };
const NOW = Date.parse("2026-01-10T12:00:00Z");

describe("record diff", () => {
  const old = { zone: "example.com", type: "A", name: "www", content: "192.0.2.1", ttl: 300, priority: null, extra: null, recordId: "r1", fqdn: "www.example.com", adopted: false };
  test.each([
    ["nothing", {}, false, []],
    ["content", { content: "192.0.2.2" }, true, []],
    ["ttl", { ttl: 600 }, true, []],
    ["name", { name: "web" }, true, ["name"]],
    ["type", { type: "AAAA", content: "::1" }, true, ["type"]],
    ["zone", { zone: "example.org" }, true, ["zone"]],
    ["unknown content", { content: UNKNOWN }, true, []],
    ["unknown name", { name: UNKNOWN }, true, ["name"]],
  ] as const)("%s", (_l, change, changes, replaces) => {
    const news = { zone: old.zone, type: old.type, name: old.name, content: old.content, ttl: old.ttl, priority: null, extra: null, ...change };
    const d = diffRecord(old, news);
    expect(d.changes).toBe(changes);
    expect(d.replaces).toEqual(replaces);
    expect(d.deleteBeforeReplace).toBe(false);
  });

  test("a program written in another form than the service's shows no diff after check", () => {
    const service = { zone: "example.com", type: "MX", name: "@", content: "mail.example.com", ttl: 3600, priority: 10, extra: null };
    const r = checkRecordInputs({ zone: "Example.com", type: "mx", name: "example.com.", content: "10 MAIL.example.com." });
    if (!r.ok) throw new Error(r.failures.map((f) => f.reason).join("; "));
    const program = r.inputs;
    expect(diffRecord(service, program).changes).toBe(false);
  });

  test("the record handler never deletes before replacing", () => {
    const d = recordHandler.diff(testHost().ctx, "r1", old, { ...old, name: "other" });
    expect(d.replaces).toEqual(["name"]);
    expect(d.deleteBeforeReplace).toBe(false);
  });
});

describe("domain diff", () => {
  const old = { domain: "example.com", contacts: { registrant: jane }, nameservers: ["ns1.x.net", "ns2.x.net"], locked: true, expiryDate: "2027-01-01", years: 1 };
  test.each<[string, Partial<DomainInputs>, boolean, string[], string[]]>([
    ["nothing", {}, false, [], []],
    ["ns order only", { nameservers: ["NS2.x.net.", "ns1.x.net"] }, false, [], []],
    ["ns change", { nameservers: ["ns1.y.net", "ns2.y.net"] }, true, ["nameservers"], []],
    ["ns unmanaged", { nameservers: undefined }, false, [], []],
    ["lock", { locked: false }, true, ["locked"], []],
    ["contacts", { contacts: { registrant: { ...jane, city: "Paris" } } }, true, ["contacts"], []],
    ["admin = registrant is no change", { contacts: { registrant: jane, admin: jane } }, false, [], []],
    ["years ignored", { years: 5 }, false, [], []],
    ["authCode ignored", { authCode: "x" }, false, [], []],
    ["domain replaces", { domain: "example.org" }, true, ["domain"], ["domain"]],
    ["renewal not due", { renewal: { minDaysRemaining: 30 } }, true, ["renewal"], []],
  ])("%s", (_l, change, changes, diffs, replaces) => {
    const d = diffDomain(old, { ...old, ...change }, NOW);
    expect(d.changes).toBe(changes);
    expect(d.diffs).toEqual(diffs);
    expect(d.replaces).toEqual(replaces);
  });

  test("a due renewal is an update even with the same policy", () => {
    const policy = { minDaysRemaining: 30, years: 1 };
    const soon = { ...old, renewal: policy, expiryDate: "2026-01-20" };
    expect(diffDomain(soon, { ...soon }, NOW)).toMatchObject({ changes: true, diffs: ["renewal"], replaces: [] });
    expect(diffDomain({ ...soon, expiryDate: "2027-01-20" }, { ...soon }, NOW).changes).toBe(false);
  });

  test.each([
    [{ minDaysRemaining: 30 }, "2026-02-01", true],
    [{ minDaysRemaining: 30 }, "2026-03-01", false],
    [{}, "2026-02-01", true],
    [{ minDaysRemaining: 30, notBefore: "2026-01-15" }, "2026-02-01", false],
    [{ minDaysRemaining: 400 }, "2026-12-31", true],
    [undefined, "2026-01-11", false],
  ])("renewalDue(%j, %s) = %s", (policy, expiry, want) => expect(renewalDue(policy, expiry, NOW)).toBe(want));
});

describe("zone, child host, add-on, EPP code and template diffs", () => {
  test("zone", () => {
    expect(diffZone({ domain: "a.com", forceDestroy: false }, { domain: "a.com", forceDestroy: false }).changes).toBe(false);
    expect(diffZone({ domain: "a.com" }, { domain: "a.com", forceDestroy: true })).toMatchObject({ changes: true, replaces: [] });
    expect(diffZone({ domain: "a.com" }, { domain: "b.com" }).replaces).toEqual(["domain"]);
  });
  test("child host addresses compare as sets", () => {
    const old = { domain: "a.com", hostname: "ns1.a.com", ipv4: ["192.0.2.2", "192.0.2.1"], ipv6: ["2001:db8::1"] };
    expect(diffChildHost(old, { ...old, ipv4: ["192.0.2.1", "192.0.2.2"], ipv6: ["2001:DB8:0::1"] }).changes).toBe(false);
    expect(diffChildHost(old, { ...old, ipv4: ["192.0.2.1"] })).toMatchObject({ changes: true, replaces: [] });
    expect(diffChildHost(old, { ...old, hostname: "ns2.a.com" }).replaces).toEqual(["hostname"]);
  });
  test("add-ons, EPP code, template", () => {
    const privacy = { domain: "a.com", status: "active" };
    expect(diffDomainAddon(privacy, { domain: "a.com", adopt: true }).changes).toBe(false);
    expect(diffEppCode({ domain: "a.com", trigger: 1 }, { domain: "a.com", trigger: 2 }).replaces).toEqual(["trigger"]);
    const t = diffTemplate({ zone: "a.com", templateId: "mail", variables: { a: "1" } }, { zone: "a.com", templateId: "mail", variables: { a: "2" }, conflictStrategy: "cancel" });
    expect(t).toMatchObject({ replaces: ["variables"], deleteBeforeReplace: true });
  });
});

describe("shared-TTL registry (check)", () => {
  let t: TestHost;
  beforeEach(() => (t = testHost()));
  const check = async (r: Record<string, unknown>) => (await recordHandler.check(t.ctx, {}, r)).failures;
  const urn = (n: string) => `urn:pulumi:dev::p::pulumi-nodejs:dynamic/reseller:DnsRecord::${n}`;
  const rec = (n: string, ttl: number, name = "@") => ({ resourceUrn: urn(n), zone: "example.com", type: "A", name, content: "192.0.2.1", ttl });

  test("a second record of one name and type with another TTL fails, naming both", async () => {
    expect(await check(rec("apex-1", 300))).toEqual([]);
    const f = await check(rec("apex-2", 600));
    expect(f).toHaveLength(1);
    expect(f[0].reason).toContain('ttl: 300 and 600 differ between the A records named @ in example.com: "apex-1" has ttl 300, "apex-2" has ttl 600;');
  });

  test("same TTL, other name, or a re-check of the same resource pass", async () => {
    expect(await check(rec("a", 300))).toEqual([]);
    expect(await check(rec("b", 300))).toEqual([]);
    expect(await check(rec("c", 600, "www"))).toEqual([]);
    expect(await check(rec("a", 300))).toEqual([]);
  });

  test("changing every sibling's TTL together passes; a renamed record leaves its old group", async () => {
    await check(rec("a", 300));
    await check(rec("b", 300));
    // Next run in the same process: both move to 600; the first re-check meets b's old 300.
    expect(t.ctx.ttls.register(urn("a"), "example.com", "@", "A", 600)).toEqual({ urn: urn("b"), ttl: 300 });
    expect(t.ctx.ttls.register(urn("b"), "example.com", "@", "A", 600)).toBeUndefined();
    expect(t.ctx.ttls.register(urn("a"), "example.com", "mail", "A", 60)).toBeUndefined();
    expect(t.ctx.ttls.register(urn("c"), "example.com", "@", "A", 600)).toBeUndefined();
  });
});
