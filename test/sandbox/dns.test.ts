/** DNS hosting: zone preconditions, delegation check, per-type record validation, shared TTL, paging, templates. */
import * as V from "../../api/views";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { makeApi, type Api } from "./signed-fetch";

const code = (r: { body: unknown }) => V.ErrorBody.parse(r.body).error.code;
const Z = "/dns/zones/demo-shop.net";

describe("DNS hosting", () => {
  let sb: SandboxHandle;
  let api: Api;
  beforeAll(async () => {
    sb = await startSandbox({ requestsPerMinute: 10000, processingDelaySeconds: 0 });
    api = makeApi(sb.url, sb.credentials);
  });
  afterAll(() => sb.close());
  const zone = () => sb.operator.state().zones["demo-shop.net"];

  it("checks preconditions: active domain, DNS add-on, no existing zone", async () => {
    const expired = await api("POST", "/dns/zones", { domain: "lapsed-name.net" });
    expect([expired.status, code(expired)]).toEqual([409, "domain_not_active"]);
    const noAddon = await api("POST", "/dns/zones", { domain: "no-dns-addon.org" });
    expect([noAddon.status, code(noAddon)]).toEqual([409, "dns_addon_required"]);
    const exists = await api("POST", "/dns/zones", { domain: "demo-reseller.com" });
    expect([exists.status, code(exists)]).toEqual([409, "zone_exists"]);
    const unknown = await api("POST", "/dns/zones", { domain: "not-mine.com" });
    expect(unknown.status).toBe(404);
    expect(Object.keys(sb.operator.state().zones)).toEqual(["demo-reseller.com"]);
  });

  it("creates a zone pending_nameserver; records wait until delegation is checked", async () => {
    const r = await api("POST", "/dns/zones", { domain: "demo-shop.net" });
    expect(r.status).toBe(201);
    const z = V.DnsZone.parse(r.body.data);
    expect(z).toMatchObject({ status: "pending_nameserver", delegated: false, nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"] });
    const early = await api("POST", `${Z}/records`, { type: "A", name: "@", content: "192.0.2.1", ttl: 300 });
    expect([early.status, code(early)]).toEqual([409, "zone_not_active"]);
    const stillPending = await api("POST", `${Z}/check`);
    expect(stillPending.body.data.status).toBe("pending_nameserver");
    await api("PUT", "/domains/demo-shop.net/nameservers", { nameservers: z.nameservers });
    const checked = V.DnsZone.parse((await api("POST", `${Z}/check`)).body.data);
    expect(checked).toMatchObject({ status: "active", delegated: true });
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ["A with IPv6", { type: "A", name: "x", content: "2001:db8::1" }, "content"],
    ["AAAA with IPv4", { type: "AAAA", name: "x", content: "192.0.2.1" }, "content"],
    ["CNAME at apex", { type: "CNAME", name: "@", content: "example.com" }, "name"],
    ["CNAME to a non-host", { type: "CNAME", name: "x", content: "not a host" }, "content"],
    ["MX without priority", { type: "MX", name: "@", content: "mx.example.com" }, "priority"],
    ["MX priority out of range", { type: "MX", name: "@", content: "mx.example.com", priority: 70000 }, "priority"],
    ["TXT empty", { type: "TXT", name: "@", content: "" }, "content"],
    ["SRV without port", { type: "SRV", name: "_sip._tcp", content: "sip.example.com", priority: 1, extra: { weight: 1 } }, "extra.port"],
    ["SRV without extra", { type: "SRV", name: "_sip._tcp", content: "sip.example.com", priority: 1 }, "extra.weight"],
    ["CAA bad tag", { type: "CAA", name: "@", content: "letsencrypt.org", extra: { flag: 0, tag: "is-sue" } }, "extra.tag"],
    ["CAA bad flag", { type: "CAA", name: "@", content: "letsencrypt.org", extra: { flag: 300, tag: "issue" } }, "extra.flag"],
    ["PTR to a non-host", { type: "PTR", name: "1", content: "x" }, "content"],
    ["TLSA malformed", { type: "TLSA", name: "_443._tcp", content: "9 9 9 zz" }, "content"],
    ["SSHFP malformed", { type: "SSHFP", name: "h", content: "7 1 abcd" }, "content"],
    ["DS malformed", { type: "DS", name: "sub", content: "12345 8 9 abcd" }, "content"],
    ["HTTPS malformed", { type: "HTTPS", name: "@", content: "high . alpn=h2" }, "content"],
    ["SVCB malformed", { type: "SVCB", name: "_x", content: "1" }, "content"],
    ["TTL below 60", { type: "A", name: "x", content: "192.0.2.1", ttl: 59 }, "ttl"],
    ["TTL above 86400", { type: "A", name: "x", content: "192.0.2.1", ttl: 86401 }, "ttl"],
    ["type missing", { name: "x", content: "192.0.2.1" }, "type"],
    ["name absolute outside the zone", { type: "A", name: "www.other-shop.net.", content: "192.0.2.1" }, "name"],
    ["name holding a slash", { type: "A", name: "www/x", content: "192.0.2.1" }, "name"],
    ["CNAME target with a path", { type: "CNAME", name: "x", content: "google.com/some/path" }, "content"],
    ["MX null with a preference", { type: "MX", name: "nullmx", content: ".", priority: 10 }, "priority"],
    ["TLSA odd-length data", { type: "TLSA", name: "_443._tcp", content: "3 1 0 abc" }, "content"],
    ["SVCB port out of range", { type: "SVCB", name: "_x", content: "1 . port=100000" }, "content"],
    ["apex NS (service managed)", { type: "NS", name: "@", content: "ns.example.com" }, "name"],
    ["DS at the apex (RFC 4035 §2.4)", { type: "DS", name: "@", content: `12345 8 2 ${"ab".repeat(32)}` }, "name"],
    ["DS where no NS delegates (RFC 4035 §2.4)", { type: "DS", name: "nodeleg", content: `12345 8 2 ${"ab".repeat(32)}` }, "name"],
    ["NAPTR with a relative replacement", { type: "NAPTR", name: "n", content: '100 10 "S" "SIP+D2U" "" _sip._udp' }, "content"],
  ];
  it.each(bad)("refuses %s with 422 naming the field, zone unchanged", async (_l, body, field) => {
    const before = zone().records;
    const r = await api("POST", `${Z}/records`, body);
    expect([r.status, code(r), r.body.error.field]).toEqual([422, "validation_error", field]);
    expect(zone().records).toEqual(before);
  });

  it("says why: a DS off a delegation cites RFC 4035, a CNAME conflict names the records it meets", async () => {
    const ds = await api("POST", `${Z}/records`, { type: "DS", name: "nodeleg", content: `12345 8 2 ${"ab".repeat(32)}` });
    expect(ds.body.error.message).toContain("nodeleg is not a delegation point (no NS records at that name); DS is only at a delegation point below the apex (RFC 4035 §2.4)");
    const a = await api("POST", `${Z}/records`, { type: "A", name: "shared", content: "192.0.2.7" });
    const cname = await api("POST", `${Z}/records`, { type: "CNAME", name: "shared", content: "x.example.net" });
    expect(cname.body.error.message).toContain(`a CNAME cannot share its name with other records (RFC 1034 §3.6.2, RFC 2181 §10.1): shared holds A 192.0.2.7 (${a.body.data.id})`);
  });

  it("keeps character-strings byte for byte: spaces inside quotes, several TXT strings", async () => {
    const bodies = [
      { type: "HINFO", name: "strings", content: '"Intel  486" "Linux"' },
      { type: "TXT", name: "strings", content: '"txtvers=1" "rp=x"' },
      { type: "TXT", name: "strings", content: "  two  spaces  " },
    ];
    for (const b of bodies) expect((await api("POST", `${Z}/records`, b)).status).toBe(201);
    const live = (await api("GET", `${Z}/records`)).body.data.items.filter((r: { name: string }) => r.name === "strings");
    expect(live.map((r: { content: string }) => r.content).sort()).toEqual(bodies.map((b) => b.content).sort());
  });

  it("accepts each checked type and passes others through, with rec_<n> ids", async () => {
    const good = [
      { type: "A", name: "@", content: "192.0.2.1", ttl: 300 },
      { type: "AAAA", name: "@", content: "2001:db8::1" },
      { type: "CNAME", name: "www", content: "demo-shop.net" },
      { type: "MX", name: "@", content: "mx.demo-shop.net", priority: 10 },
      { type: "TXT", name: "@", content: "v=spf1 -all" },
      { type: "SRV", name: "_sip._tcp", content: "sip.demo-shop.net", priority: 1, extra: { weight: 5, port: 5060 } },
      { type: "CAA", name: "@", content: "letsencrypt.org", extra: { flag: 0, tag: "issue" } },
      { type: "PTR", name: "1", content: "host.demo-shop.net" },
      { type: "TLSA", name: "_443._tcp", content: "03 1 0 abcdef" },
      { type: "CAA", name: "@", content: "letsencrypt.org; validationmethods=dns-01; accounturi=https://acme-v02.api.letsencrypt.org/acme/acct/1", extra: { flag: 0, tag: "issue" } },
      { type: "CAA", name: "@", content: "security@demo-shop.net", extra: { flag: 0, tag: "contactemail" } },
      { type: "SRV", name: "_client._smtp", content: "demo-shop.net", priority: 1, extra: { weight: 1, port: 1 } },
      { type: "SRV", name: "*._tcp", content: "demo-shop.net", priority: 1, extra: { weight: 1, port: 1 } },
      { type: "TXT", name: "spaced", content: "  kept  " },
      { type: "SSHFP", name: "h", content: `4 2 ${"ab".repeat(32)}` },
      // A DS only at a delegation point (RFC 4035 §2.4): the NS records of "sub" come first.
      { type: "NS", name: "sub", content: "ns.sub-provider.net" },
      { type: "DS", name: "sub", content: `12345 8 2 ${"ab".repeat(32)}` },
      { type: "HTTPS", name: "@", content: "1 . alpn=h2" },
      { type: "SVCB", name: "_svc", content: "1 svc.demo-shop.net port=8443" },
      { type: "NAPTR", name: "n", content: '100 10 "u" "E2U+sip" "!^.*$!sip:info@example.com!" .' },
    ];
    for (const body of good) {
      const r = await api("POST", `${Z}/records`, body);
      expect(r.status).toBe(201);
      const rec = V.DnsRecord.parse(r.body.data);
      expect(rec.id).toMatch(/^rec_\d+$/);
      expect(rec.type).toBe(body.type);
    }
    const mx = await api("GET", `${Z}/records?type=MX`);
    expect(mx.body.data.items.map((x: { type: string }) => x.type)).toEqual(["MX"]);
  });

  it("shares the TTL per name and type: a different TTL on create is 409 ttl_conflict, PUT changes all siblings", async () => {
    const a = await api("POST", `${Z}/records`, { type: "A", name: "multi", content: "192.0.2.10", ttl: 600 });
    const b = await api("POST", `${Z}/records`, { type: "A", name: "multi", content: "192.0.2.11" });
    expect(b.body.data.ttl).toBe(600);
    const c = await api("POST", `${Z}/records`, { type: "A", name: "multi", content: "192.0.2.12", ttl: 900 });
    expect([c.status, code(c)]).toEqual([409, "ttl_conflict"]);
    expect(zone().records.filter((r) => r.name === "multi")).toHaveLength(2);
    const put = await api("PUT", `${Z}/records/${a.body.data.id}`, { ttl: 1200 });
    expect(put.status).toBe(200);
    expect(zone().records.filter((r) => r.name === "multi").map((r) => r.ttl)).toEqual([1200, 1200]);
    const badPut = await api("PUT", `${Z}/records/${b.body.data.id}`, { content: "not-an-ip" });
    expect([badPut.status, badPut.body.error.field]).toEqual([422, "content"]);
    expect((await api("DELETE", `${Z}/records/${b.body.data.id}`)).status).toBe(200);
    expect((await api("DELETE", `${Z}/records/${b.body.data.id}`)).status).toBe(404);
  });

  it("pages record lists up to the contract maximum", async () => {
    const p = await api("GET", `${Z}/records?per_page=3&page=1`);
    expect(p.body.data.items).toHaveLength(3);
    expect(V.Pagination.parse(p.body.data.pagination)).toMatchObject({ per_page: 3, next_page: 2 });
    const big = await api("GET", `${Z}/records?per_page=100000`);
    expect(big.body.data.pagination.per_page).toBe(500);
    const bad = await api("GET", `${Z}/records?page=0`);
    expect([bad.status, bad.body.error.field]).toEqual([422, "page"]);
  });

  it("templates: required variables, cancel leaves everything, skip and replace", async () => {
    const list = (await api("GET", "/dns/templates")).body.data.items.map((t: unknown) => V.Template.parse(t));
    expect(list.find((t: V.Template) => t.id === "custom-mail")?.variables).toEqual(["mx_host"]);
    const missing = await api("POST", `${Z}/templates/custom-mail`, { variables: {}, conflict_strategy: "skip" });
    expect([missing.status, missing.body.error.field]).toEqual([422, "variables.mx_host"]);
    const badIp = await api("POST", `${Z}/templates/web`, { variables: { ipv4: "999.1.1.1" }, conflict_strategy: "skip" });
    expect([badIp.status, badIp.body.error.field]).toEqual([422, "variables.ipv4"]);
    const before = zone().records;
    const cancel = await api("POST", `${Z}/templates/google-workspace`, { conflict_strategy: "cancel" });
    expect([cancel.status, code(cancel)]).toEqual([409, "template_conflict"]);
    expect(zone().records).toEqual(before);
    const skip = V.TemplateApplied.parse((await api("POST", `${Z}/templates/google-workspace`, { variables: {}, conflict_strategy: "skip" })).body.data);
    expect(skip.created).toHaveLength(0);
    expect(skip.skipped.map((s) => s.type).sort()).toEqual(["MX", "TXT"]);
    const replace = V.TemplateApplied.parse((await api("POST", `${Z}/templates/google-workspace`, { variables: {}, conflict_strategy: "replace" })).body.data);
    expect(replace.created.map((r) => r.content)).toEqual(["smtp.google.com", "v=spf1 include:_spf.google.com ~all"]);
    expect(replace.replaced.length).toBeGreaterThan(0);
    expect(zone().records.filter((r) => r.type === "MX").map((r) => r.content)).toEqual(["smtp.google.com"]);
    const badStrategy = await api("POST", `${Z}/templates/google-workspace`, { conflict_strategy: "merge" });
    expect([badStrategy.status, badStrategy.body.error.field]).toEqual([422, "conflict_strategy"]);
    expect((await api("POST", `${Z}/templates/nope`, {})).status).toBe(404);
  });

  it("lists zones, returns a zone with all records, deletes a zone", async () => {
    const zones = (await api("GET", "/dns/zones")).body.data.items.map((z: unknown) => V.DnsZone.parse(z));
    expect(zones.map((z: V.DnsZone) => z.domain)).toEqual(["demo-reseller.com", "demo-shop.net"]);
    const full = V.DnsZoneWithRecords.parse((await api("GET", Z)).body.data);
    expect(full.records).toHaveLength(full.records_count);
    expect((await api("DELETE", Z)).status).toBe(200);
    expect(sb.operator.state().zones["demo-shop.net"]).toBeUndefined();
  });
});
