/**
 * DnsZone, DnsRecord and ZoneTemplate (its checks against the service's template list included)
 * through the SDK's provider host over gRPC against the sandbox; and, with inputs not known yet at
 * preview, ChildHost, PrivacyAddon, Protection, EppCode and ZoneTemplate.
 * The seeded zone demo-reseller.com is active; demo-labs.io has the DNS add-on and no zone.
 */
import { destroyAll } from "../../../dev/engine/deployment";
import { UNKNOWN } from "../../../dev/engine/host";
import type { Kind } from "../../../resources/kinds";
import { Managed, startEnv, type Env } from "./harness";

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => env?.close());

const ZONE = "demo-reseller.com";
const liveRecords = () => env.client.listRecords(ZONE);

test("record: create, no-op up, update in place, replace creating before deleting, drift, gone", async () => {
  const r = new Managed(env, "DnsRecord", "life-a");
  const args = { zone: ZONE, type: "A", name: "life.demo-reseller.com.", content: "192.0.2.50", ttl: 300 };
  expect(await r.up(args)).toBe("create");
  expect(r.outputs).toMatchObject({ zone: ZONE, type: "A", name: "life", fqdn: "life.demo-reseller.com", content: "192.0.2.50", ttl: 300, adopted: false });
  const id = r.outputs.recordId as string;
  expect(r.state!.id).toBe(id);
  expect((await liveRecords()).some((x) => x.id === id && x.content === "192.0.2.50")).toBe(true);

  let mark = env.mark();
  expect(await r.up({ ...args, name: "life" })).toBe("same");
  await r.refresh();
  expect((await r.preview(args)).step).toBe("same");
  expect(env.mutatingSince(mark)).toEqual([]);

  expect(await r.up({ ...args, content: "192.0.2.51", ttl: 600 })).toBe("update");
  expect(r.state!.id).toBe(id);
  expect((await liveRecords()).find((x) => x.id === id)).toMatchObject({ content: "192.0.2.51", ttl: 600 });

  // Rename: a new record is made before the old one is deleted.
  mark = env.mark();
  expect(await r.up({ ...args, name: "life2", content: "192.0.2.51", ttl: 600 })).toBe("replace");
  const calls = env.mutatingSince(mark).map((c) => c.method);
  expect(calls).toEqual(["POST", "DELETE"]);
  const records = await liveRecords();
  expect(records.some((x) => x.id === id)).toBe(false);
  expect(records.find((x) => x.id === r.state!.id)).toMatchObject({ name: "life2", content: "192.0.2.51" });

  // Out of band change via the client: refresh sees it, preview plans to put it back.
  const current = { ...args, name: "life2", content: "192.0.2.51", ttl: 600 };
  await env.client.updateRecord(ZONE, r.state!.id, { content: "192.0.2.99" });
  await r.refresh();
  expect(r.outputs.content).toBe("192.0.2.99");
  expect((await r.preview(current)).step).toBe("update");
  expect(await r.up(current)).toBe("update");

  // Deleted out of band: refresh drops it.
  await env.client.deleteRecord(ZONE, r.state!.id);
  expect(await r.refresh()).toBe(false);
});

test("record forms written differently from the service's show no diff after up and refresh", async () => {
  const cases: Record<string, Record<string, unknown>> = {
    mx: { type: "mx", name: "@", content: "30 MX3.demo-reseller.com." },
    txt: { type: "TXT", name: "_life", content: '"v=DKIM1; k=rsa; " "p=MIGfMA0"' },
    srv: { type: "SRV", name: "_xmpp._tcp", content: "sip.demo-reseller.com.", priority: 5, extra: { weight: 10, port: 5222 } },
    caa: { type: "CAA", name: "@", content: '0 iodef "mailto:sec@demo-reseller.com"' },
    aaaa: { type: "AAAA", name: "v6", content: "2001:DB8:0:0:0:0:0:50" },
    cname: { type: "CNAME", name: "alias", content: "@" },
  };
  const mark = env.mark();
  for (const [name, args] of Object.entries(cases)) {
    const r = new Managed(env, "DnsRecord", `form-${name}`);
    const full = { zone: ZONE, ttl: 3600, ...args };
    expect(await r.up(full)).toBe("create");
    expect(await r.up(full)).toBe("same");
    expect(await r.refresh()).toBe(true);
    expect((await r.preview(full)).step).toBe("same");
    await r.destroy();
  }
  // One create and one delete per record, nothing else.
  expect(env.mutatingSince(mark).map((c) => c.method)).toEqual(Object.keys(cases).flatMap(() => ["POST", "DELETE"]));
});

test("refreshing many records of one zone costs about one list call", async () => {
  const rs = [1, 2, 3, 4, 5, 6].map((i) => new Managed(env, "DnsRecord", `bulk-${i}`));
  for (const [i, r] of rs.entries()) await r.up({ zone: ZONE, type: "A", name: `bulk${i}`, content: `192.0.2.${100 + i}`, ttl: 300 });
  const mark = env.mark();
  expect((await Promise.all(rs.map((r) => r.refresh()))).every(Boolean)).toBe(true);
  const reads = env.sandbox.operator.requests().slice(mark).filter((q) => q.method === "GET" && q.path.includes(`/dns/zones/${ZONE}`));
  expect(reads).toHaveLength(1);
  expect(env.mutatingSince(mark)).toEqual([]);
  for (const r of rs) await r.destroy();
});

test("adopt a record: no change; the content picks among several of one name and type", async () => {
  const r = new Managed(env, "DnsRecord", "adopt-mx2");
  const mark = env.mark();
  expect(await r.up({ zone: ZONE, type: "MX", name: "@", content: "mx2.demo-reseller.com", priority: 20, adopt: true })).toBe("create");
  expect(r.state!.id).toBe("rec_7");
  expect(r.outputs).toMatchObject({ adopted: true, priority: 20, content: "mx2.demo-reseller.com" });
  expect(env.mutatingSince(mark)).toEqual([]);
  // A different priority in the program is then a normal in-place diff.
  expect((await r.preview({ zone: ZONE, type: "MX", name: "@", content: "mx2.demo-reseller.com", priority: 25, adopt: true })).step).toBe("update");
});

test("a record an earlier create made, its answer lost (an up killed mid-create): the create takes it, makes no second one, and the next up changes nothing", async () => {
  const live = () => env.client.listRecords(ZONE).then((rs) => rs.filter((r) => r.type === "CNAME" && r.name === "lost-answer"));
  const made = await env.client.createRecord(ZONE, { type: "CNAME", name: "lost-answer", content: "app.demo-reseller.com.", ttl: 3600 });
  const r = new Managed(env, "DnsRecord", "lost-answer");
  const args = { zone: ZONE, type: "CNAME", name: "lost-answer", content: "app.demo-reseller.com." };
  expect(await r.up(args)).toBe("create");
  expect(r.state!.id).toBe(made.id);
  expect(env.host.logs().join("\n")).toContain("the record exists already");
  expect(await live()).toHaveLength(1);
  const mark = env.mark();
  expect(await r.up(args)).toBe("same");
  expect(env.mutatingSince(mark)).toEqual([]);
  await r.destroy();
});

test("shared TTL: a managed record meeting an unmanaged sibling with another TTL is refused clearly", async () => {
  // The seeded TXT @ record has ttl 300.
  const r = new Managed(env, "DnsRecord", "txt-clash");
  await expect(r.up({ zone: ZONE, type: "TXT", name: "@", content: "google-site-verification=abc", ttl: 3600 })).rejects.toThrow(
    /ttl_conflict: the service refused ttl 3600 because other TXT records of this name have another TTL \(they have ttl 300\)/,
  );
  // With the shared TTL it is created.
  expect(await r.up({ zone: ZONE, type: "TXT", name: "@", content: "google-site-verification=abc", ttl: 300 })).toBe("create");
  await r.destroy();
});

test("DS only at a delegation point (RFC 4035 §2.4): refused before any write where no NS delegates; created once the NS is", async () => {
  const ds = { zone: ZONE, type: "DS", name: "lab", content: `12345 13 2 ${"ab".repeat(32)}`, ttl: 3600 };
  const r = new Managed(env, "DnsRecord", "ds-lab");
  const mark = env.mark();
  await expect(r.up(ds)).rejects.toThrow('name: "lab" cannot hold a DS record: lab.demo-reseller.com is not a delegation point (no NS records at that name); DS is only at a delegation point below the apex (RFC 4035 §2.4); declare its NS records first, with dependsOn');
  expect(env.mutatingSince(mark)).toEqual([]);
  const ns = new Managed(env, "DnsRecord", "ns-lab");
  expect(await ns.up({ zone: ZONE, type: "NS", name: "lab", content: "ns1.lab-host.net", ttl: 3600 })).toBe("create");
  expect(await r.up(ds)).toBe("create");
  await r.destroy();
  await ns.destroy();
});

test("unknown inputs during preview pass check and diff", async () => {
  const r = new Managed(env, "DnsRecord", "pending");
  const c = await r.check({ zone: ZONE, type: "A", name: "later", content: UNKNOWN, ttl: 300 });
  expect(c.failures).toEqual([]);
  expect(await r.up({ zone: ZONE, type: "A", name: "later", content: "192.0.2.77", ttl: 300 })).toBe("create");
  const p = await r.preview({ zone: ZONE, type: "A", name: "later", content: UNKNOWN, ttl: 300 });
  expect(p.step).toBe("update");
  const p2 = await r.preview({ zone: ZONE, type: "A", name: UNKNOWN, content: "192.0.2.77", ttl: 300 });
  expect(p2.step).toBe("replace");
  await r.destroy();
});

test("zone: create, wait for delegation, refuse deleting unmanaged records, forceDestroy, adopt (its second up changes nothing)", async () => {
  const DOMAIN = "demo-labs.io";
  await env.client.setNameservers(DOMAIN, ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"]);
  const z = new Managed(env, "DnsZone", "labs");
  expect(await z.up({ domain: DOMAIN, waitForDelegation: true, waitTimeoutSeconds: 30 })).toBe("create");
  expect(z.outputs).toMatchObject({ domain: DOMAIN, status: "active", delegated: true, nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"] });
  let mark = env.mark();
  expect(await z.up({ domain: DOMAIN, waitForDelegation: true, waitTimeoutSeconds: 30 })).toBe("same");
  expect(env.mutatingSince(mark).filter((c) => !c.path.endsWith("/check"))).toEqual([]);

  // A managed record, and one made out of band.
  const rec = new Managed(env, "DnsRecord", "labs-www");
  expect(await rec.up({ zone: DOMAIN, type: "A", name: "www", content: "192.0.2.80" })).toBe("create");
  await env.client.createRecord(DOMAIN, { type: "TXT", name: "@", content: "hand-made", ttl: 3600 });
  await z.refresh();
  expect(z.outputs).not.toHaveProperty("recordsCount");
  expect((await env.client.listRecords(DOMAIN, {})).filter((r) => r.type !== "NS" && r.type !== "SOA")).toHaveLength(2);

  // Destroy order: records first, then the zone, which still holds the hand-made record.
  await rec.destroy();
  await expect(z.destroy()).rejects.toThrow(/refusing to delete the zone: it still holds 1 record\(s\) this stack does not manage \(TXT @\)/);
  expect(await z.up({ domain: DOMAIN, waitForDelegation: true, forceDestroy: true })).toBe("update");
  await z.destroy();
  await expect(env.client.getZone(DOMAIN)).rejects.toMatchObject({ status: 404 });

  // Adopt the seeded zone: no change.
  const seeded = new Managed(env, "DnsZone", "seeded");
  mark = env.mark();
  expect(await seeded.up({ domain: ZONE, adopt: true })).toBe("create");
  expect(seeded.outputs).toMatchObject({ adopted: true, status: "active", delegated: true });
  // The same program again (the README's DNS-only starter's second up): no change.
  expect(await seeded.up({ domain: ZONE, adopt: true })).toBe("same");
  expect(env.mutatingSince(mark)).toEqual([]);
  // A second DnsZone for a zone another resource of this run holds is refused: one zone, one owner.
  mark = env.mark();
  await expect(new Managed(env, "DnsZone", "dup").up({ domain: ZONE })).rejects.toThrow(/the DNS zone is declared by both "dup" and "seeded" in this stack; declare one DnsZone per zone/);
  expect(env.mutatingSince(mark)).toEqual([]);
});

test("template: apply, re-apply on new variables, delete removes what it made", async () => {
  const DOMAIN = "demo-shop.net";
  await env.client.setNameservers(DOMAIN, ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"]);
  const z = new Managed(env, "DnsZone", "shop");
  await z.up({ domain: DOMAIN, waitForDelegation: true, waitTimeoutSeconds: 30 });
  const t = new Managed(env, "ZoneTemplate", "shop-web");
  expect(await t.up({ zone: DOMAIN, templateId: "web", variables: { ipv4: "192.0.2.44" } })).toBe("create");
  expect(t.outputs).toMatchObject({ created: 2, replaced: 0 });
  const ids = t.outputs.recordIds as string[];
  expect(ids).toHaveLength(2);
  expect(await t.up({ zone: DOMAIN, templateId: "web", variables: { ipv4: "192.0.2.44" } })).toBe("same");

  expect(await t.up({ zone: DOMAIN, templateId: "web", variables: { ipv4: "192.0.2.45" } })).toBe("replace");
  const live = await env.client.listRecords(DOMAIN);
  expect(live.filter((r) => r.type === "A" && r.name === "@").map((r) => r.content)).toEqual(["192.0.2.45"]);
  await t.destroy();
  expect((await env.client.listRecords(DOMAIN)).filter((r) => r.type !== "NS")).toEqual([]);
  await z.destroy();
});

// ZoneTemplate's templateId and variables are checked at preview (Check, through the provider host)
// against the service's template list: an unknown id or a missing variable fails by name before
// any apply, with no change made; unknown values (preview) are not judged.
test("template: an unknown template id and a missing variable fail at check, naming the input and what the service has", async () => {
  const mark = env.mark();
  const t = new Managed(env, "ZoneTemplate", "checked");
  expect((await t.check({ zone: ZONE, templateId: "no-such" })).failures).toEqual([
    { property: "templateId", reason: 'templateId: "no-such" is not a template of the service (known: google-workspace, custom-mail, web; see getTemplates)' },
  ]);
  expect((await t.check({ zone: ZONE, templateId: "custom-mail", variables: { mx: "mail.example.com" } })).failures).toEqual([
    { property: "variables.mx_host", reason: 'variables.mx_host: missing; template custom-mail needs "mx_host": add "mx_host" to variables' },
  ]);
  expect((await t.check({ zone: ZONE, templateId: "custom-mail", variables: { mx_host: "mail.example.com" } })).failures).toEqual([]);
  // Values not known yet at preview are not judged.
  expect((await t.check({ zone: ZONE, templateId: UNKNOWN })).failures).toEqual([]);
  expect((await t.check({ zone: ZONE, templateId: "web", variables: UNKNOWN })).failures).toEqual([]);
  expect((await t.check({ zone: ZONE, templateId: "web", variables: { ipv4: UNKNOWN } })).failures).toEqual([]);
  expect(env.mutatingSince(mark)).toEqual([]);
});

const SERVICE_NS = ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"];
const API = "/api/v1";
/** Every API request (reads included) since `mark`. */
const requestsSince = (mark: number) => env.sandbox.operator.requests().slice(mark).map((q) => `${q.method} ${q.path}`);

test("zone: delegation done out of band shows on refresh; unknown domain previews a replace; a new domain creates the new zone, then deletes the old; deleted out of band reads as gone", async () => {
  // demo-labs.io points elsewhere: the zone stays pending until someone delegates it.
  await env.client.setNameservers("demo-labs.io", ["ns1.elsewhere.test", "ns2.elsewhere.test"]);
  await env.client.setNameservers("demo-shop.net", SERVICE_NS);
  const z = new Managed(env, "DnsZone", "moving");
  let mark = env.mark();
  expect(await z.up({ domain: "demo-labs.io" })).toBe("create");
  expect(env.mutatingSince(mark)).toEqual([{ method: "POST", path: `${API}/dns/zones` }]);
  expect(z.outputs).toMatchObject({ domain: "demo-labs.io", status: "pending_nameserver", delegated: false, nameservers: SERVICE_NS, adopted: false });

  // Out of band: the registrant delegates and someone posts the check in the portal.
  await env.client.setNameservers("demo-labs.io", SERVICE_NS);
  await env.client.checkZone("demo-labs.io");
  mark = env.mark();
  expect(await z.refresh()).toBe(true);
  expect(z.outputs).toMatchObject({ domain: "demo-labs.io", status: "active", delegated: true });
  // Read from the account's zone list (contract.listEntries.zones: its entries carry the zone view).
  expect(requestsSince(mark)).toEqual([`GET ${API}/dns/zones?page=1&per_page=500`]);
  // The refreshed state is what the program declares: no diff, and preview reads nothing.
  mark = env.mark();
  expect((await z.preview({ domain: "Demo-Labs.IO." })).step).toBe("same");

  // Preview with a domain not known yet (another resource's output): check passes, diff says replace.
  const c = await z.check({ domain: UNKNOWN, waitForDelegation: true });
  expect(c.failures).toEqual([]);
  expect(c.inputs.domain).toBe(UNKNOWN);
  const p = await z.preview({ domain: UNKNOWN, waitForDelegation: true });
  expect(p.step).toBe("replace");
  expect(p.diff!.replaces).toEqual(["domain"]);
  expect(p.diff!.deleteBeforeReplace).toBe(false);
  // An unknown bookkeeping input is an update, not a replace.
  const q = await z.preview({ domain: "demo-labs.io", waitForDelegation: UNKNOWN });
  expect(q.step).toBe("update");
  expect(q.diff!.replaces).toEqual([]);
  expect(requestsSince(mark)).toEqual([]);

  // Replace by domain: the new zone first (and its delegation check), then the old one goes.
  mark = env.mark();
  expect(await z.up({ domain: "demo-shop.net", waitForDelegation: true, waitTimeoutSeconds: 30 })).toBe("replace");
  expect(env.mutatingSince(mark)).toEqual([
    { method: "POST", path: `${API}/dns/zones` },
    { method: "POST", path: `${API}/dns/zones/demo-shop.net/check` },
    { method: "DELETE", path: `${API}/dns/zones/demo-labs.io` },
  ]);
  expect(z.state!.id).toBe("demo-shop.net");
  expect(z.outputs).toMatchObject({ domain: "demo-shop.net", status: "active", delegated: true });
  await expect(env.client.getZone("demo-labs.io")).rejects.toMatchObject({ status: 404 });
  expect((await env.client.getZone("demo-shop.net")).status).toBe("active");
  mark = env.mark();
  expect(await z.up({ domain: "demo-shop.net", waitForDelegation: true, waitTimeoutSeconds: 30 })).toBe("same");
  expect(env.mutatingSince(mark)).toEqual([]);

  // Deleted out of band: refresh drops it, without writing anything.
  await env.client.deleteZone("demo-shop.net");
  mark = env.mark();
  expect(await z.refresh()).toBe(false);
  expect(z.state).toBeUndefined();
  expect(env.mutatingSince(mark)).toEqual([]);
});

test("template: refresh follows an out-of-band record delete; conflictStrategy changes in place with no call; adopt makes no call", async () => {
  const DOMAIN = "demo-labs.io";
  await env.client.setNameservers(DOMAIN, SERVICE_NS);
  const z = new Managed(env, "DnsZone", "labs-for-template");
  await z.up({ domain: DOMAIN, waitForDelegation: true, waitTimeoutSeconds: 30 });
  expect(z.outputs.status).toBe("active");

  const t = new Managed(env, "ZoneTemplate", "labs-web");
  const args = { zone: DOMAIN, templateId: "web", variables: { ipv4: "192.0.2.60" } };
  let mark = env.mark();
  expect(await t.up(args)).toBe("create");
  expect(env.mutatingSince(mark)).toEqual([{ method: "POST", path: `${API}/dns/zones/${DOMAIN}/templates/web` }]);
  const ids = t.outputs.recordIds as string[];
  expect(ids).toHaveLength(2);
  const [apexA, wwwCname] = ids;
  const live = await env.client.listRecords(DOMAIN);
  expect(live.find((r) => r.id === apexA)).toMatchObject({ type: "A", content: "192.0.2.60" });
  expect(live.find((r) => r.id === wwwCname)).toMatchObject({ type: "CNAME", name: "www" });

  // One of its records deleted out of band: refresh shrinks recordIds (a template is applied once; it is not re-applied).
  // (No refresh before this one: the host keeps a zone's records for 5 s, which within one real command is fine.)
  await env.client.deleteRecord(DOMAIN, apexA);
  mark = env.mark();
  expect(await t.refresh()).toBe(true);
  expect(t.outputs.recordIds).toEqual([wwwCname]);
  expect(t.outputs).toMatchObject({ created: 2, replaced: 0 });
  expect(env.mutatingSince(mark)).toEqual([]);
  expect((await t.preview(args)).step).toBe("same");

  // conflictStrategy is bookkeeping for the next apply: an in-place update that makes no request at all.
  mark = env.mark();
  expect(await t.up({ ...args, conflictStrategy: "skip" })).toBe("update");
  expect(requestsSince(mark)).toEqual([]);
  expect(t.outputs).toMatchObject({ conflictStrategy: "skip", recordIds: [wwwCname], created: 2 });
  expect(await t.up({ ...args, conflictStrategy: "skip" })).toBe("same");

  // Destroy deletes only what is still its own.
  mark = env.mark();
  await t.destroy();
  expect(env.mutatingSince(mark)).toEqual([{ method: "DELETE", path: `${API}/dns/zones/${DOMAIN}/records/${wwwCname}` }]);

  // Adopt: the template is taken as applied; no write, nothing of its own to delete later.
  const adopted = new Managed(env, "ZoneTemplate", "seeded-web");
  mark = env.mark();
  expect(await adopted.up({ zone: ZONE, templateId: "web", variables: { ipv4: "192.0.2.1" }, adopt: true })).toBe("create");
  expect(adopted.outputs).toMatchObject({ adopted: true, recordIds: [], created: 0, replaced: 0 });
  expect(await adopted.refresh()).toBe(true);
  expect((await adopted.preview({ zone: ZONE, templateId: "web", variables: { ipv4: "192.0.2.1" }, adopt: true })).step).toBe("same");
  const seeded = await env.client.listRecords(ZONE);
  await adopted.destroy();
  expect(env.mutatingSince(mark)).toEqual([]);
  expect(await env.client.listRecords(ZONE)).toEqual(seeded);
  await expect(new Managed(env, "ZoneTemplate", "nope").up({ zone: ZONE, templateId: "no-such", adopt: true })).rejects.toThrow(/templateId: "no-such" is not a template of the service/);

  await z.destroy();
});

test("template with conflictStrategy replace: state holds only records that exist, so the first refresh shows no change and destroy deletes them", async () => {
  const DOMAIN = "demo-labs.io";
  await env.client.setNameservers(DOMAIN, SERVICE_NS);
  const z = new Managed(env, "DnsZone", "labs-for-replace");
  await z.up({ domain: DOMAIN, waitForDelegation: true, waitTimeoutSeconds: 30 });
  // Made by hand before the template: an apex A the template will replace.
  const handMade = await env.client.createRecord(DOMAIN, { type: "A", name: "@", content: "192.0.2.9", ttl: 3600 });

  const t = new Managed(env, "ZoneTemplate", "labs-web-replace");
  const args = { zone: DOMAIN, templateId: "web", variables: { ipv4: "192.0.2.61" }, conflictStrategy: "replace" };
  const applied = env.mark();
  expect(await t.up(args)).toBe("create");
  expect(env.mutatingSince(applied)).toEqual([{ method: "POST", path: `${API}/dns/zones/${DOMAIN}/templates/web` }]);
  expect(t.outputs).toMatchObject({ created: 2, replaced: 1 });
  const live = await env.client.listRecords(DOMAIN);
  expect(live.some((r) => r.id === handMade.id)).toBe(false);
  const ids = t.outputs.recordIds as string[];
  expect(ids).not.toContain(handMade.id);
  expect(ids.every((id) => live.some((r) => r.id === id))).toBe(true);

  const mark = env.mark();
  const before = t.outputs;
  expect(await t.refresh()).toBe(true);
  expect(t.outputs).toEqual(before);
  await t.destroy();
  expect(env.mutatingSince(mark)).toEqual(ids.map((id) => ({ method: "DELETE", path: `${API}/dns/zones/${DOMAIN}/records/${id}` })));
  expect((await env.client.listRecords(DOMAIN)).filter((r) => r.type !== "NS")).toEqual([]);
  await z.destroy();
});

// The engine destroys a stack's resources that depend on nothing all at once (dev/engine/'s destroyAll,
// as `pulumi destroy --parallel 16` does): a zone whose records name it as a literal (no dependsOn)
// is deleted while its records are. On the file's sandbox and host: the tests before left demo-labs.io
// with no zone.
test("a zone and its records with literal zone names and no dependsOn destroy in parallel cleanly; a record nobody manages still blocks the zone", async () => {
  await expect(env.client.getZone("demo-labs.io")).rejects.toMatchObject({ status: 404 });
  await env.client.setNameservers("demo-labs.io", SERVICE_NS);
  const build = async (): Promise<Managed[]> => {
    const zone = new Managed(env, "DnsZone", "zone");
    expect(await zone.up({ domain: "demo-labs.io", waitForDelegation: true, waitTimeoutSeconds: 30 })).toBe("create");
    const records = ["a", "b", "c", "d", "e", "f", "g", "h"].map((n) => new Managed(env, "DnsRecord", `rec-${n}`));
    await Promise.all(records.map(async (r, i) => expect(await r.up({ zone: "demo-labs.io", type: "A", name: r.name.slice(4), content: `192.0.2.${20 + i}` })).toBe("create")));
    return [zone, ...records];
  };
  /** `pulumi destroy` of the whole stack: its errors. */
  const destroy = async (stack: Managed[]): Promise<string[]> => {
    const errors: string[] = [];
    await destroyAll(
      stack.map((m) => m.state!),
      env.host,
      16,
      (step) => {
        if (step.error) errors.push(`${step.urn}: ${step.error}`);
      },
      () => undefined,
    );
    return errors;
  };

  expect(await destroy(await build())).toEqual([]);
  await expect(env.client.getZone("demo-labs.io")).rejects.toMatchObject({ status: 404 });

  const stack = await build();
  await env.client.createRecord("demo-labs.io", { type: "TXT", name: "hand", content: "made by hand", ttl: 3600 });
  const errors = await destroy(stack);
  expect(errors).toHaveLength(1);
  expect(errors.join("\n")).toMatch(/refusing to delete the zone: it still holds 1 record\(s\) this stack does not manage \(TXT hand\)/);
  expect((await env.client.listRecords("demo-labs.io")).filter((r) => r.name !== "@").map((r) => `${r.type} ${r.name}`)).toEqual(["TXT hand"]);
});

// `pulumi preview` with inputs not known yet (another resource's outputs arrive as UNKNOWN): check and
// diff of ChildHost, PrivacyAddon, Protection, EppCode and ZoneTemplate through the SDK's provider
// host over gRPC. Check must not fail on an unknown, must still fail on a known bad value next to one,
// and diff must say what may happen: replace when the unknown field names the object, update when it
// changes in place. Neither reads nor writes anything on the service.
// On this file's sandbox and host, after the tests above (they leave the add-ons and hosts as seeded).
describe("unknown inputs during preview", () => {
  type Args = Record<string, unknown>;

  /** Known inputs of each kind, and the same with one value (or a nested value) unknown. */
  const KNOWN: Record<string, { kind: Kind; args: Args; unknowns: Record<string, Args> }> = {
    childHost: {
      kind: "ChildHost",
      args: { domain: "demo-labs.io", hostname: "ns1", ipv4: ["192.0.2.53"], ipv6: ["2001:db8::53"] },
      unknowns: {
        domain: { domain: UNKNOWN },
        hostname: { hostname: UNKNOWN },
        ipv4: { ipv4: UNKNOWN },
        "ipv4[1]": { ipv4: ["192.0.2.53", UNKNOWN] },
        ipv6: { ipv6: UNKNOWN },
      },
    },
    privacy: { kind: "PrivacyAddon", args: { domain: "demo-reseller.com", adopt: true }, unknowns: { domain: { domain: UNKNOWN }, adopt: { adopt: UNKNOWN } } },
    protection: { kind: "Protection", args: { domain: "protected-brand.com", adopt: true }, unknowns: { domain: { domain: UNKNOWN }, adopt: { adopt: UNKNOWN } } },
    eppCode: { kind: "EppCode", args: { domain: "demo-shop.net", trigger: 1 }, unknowns: { domain: { domain: UNKNOWN }, trigger: { trigger: UNKNOWN } } },
    template: {
      kind: "ZoneTemplate",
      args: { zone: "demo-reseller.com", templateId: "web", variables: { ipv4: "192.0.2.1" }, conflictStrategy: "skip", adopt: true },
      unknowns: {
        zone: { zone: UNKNOWN },
        templateId: { templateId: UNKNOWN },
        variables: { variables: UNKNOWN },
        "variables.ipv4": { variables: { ipv4: UNKNOWN } },
        conflictStrategy: { conflictStrategy: UNKNOWN },
      },
    },
  };

  test("check passes with any input unknown, alone or all at once, and still fails on a known bad value beside an unknown", async () => {
    const mark = env.mark();
    for (const [name, { kind, args, unknowns }] of Object.entries(KNOWN)) {
      const r = new Managed(env, kind, `check-${name}`);
      expect({ name, failures: (await r.check(args)).failures }).toEqual({ name, failures: [] });
      for (const [field, patch] of Object.entries(unknowns)) {
        const c = await r.check({ ...args, ...patch });
        expect({ name, field, failures: c.failures }).toEqual({ name, field, failures: [] });
        // The unknown reaches diff as sent.
        const key = Object.keys(patch)[0];
        expect(c.inputs[key]).toEqual(patch[key]);
      }
      const allUnknown = Object.fromEntries(Object.keys(args).map((k) => [k, UNKNOWN]));
      expect({ name, failures: (await r.check(allUnknown)).failures }).toEqual({ name, failures: [] });
    }

    // Unknowns do not hide what is known to be wrong.
    const bad: [Kind, Args, string][] = [
      ["ChildHost", { domain: UNKNOWN, hostname: "ns1", ipv4: ["192.0.2.300"] }, "ipv4[0]"],
      ["ChildHost", { domain: "demo-labs.io", hostname: "ns1.elsewhere.test", ipv4: [UNKNOWN] }, "hostname"],
      ["PrivacyAddon", { domain: "not a domain", adopt: UNKNOWN }, "domain"],
      ["Protection", { domain: "demo-labs.io", adopt: "yes" }, "adopt"],
      ["EppCode", { domain: "-bad-.com", trigger: UNKNOWN }, "domain"],
      ["ZoneTemplate", { zone: UNKNOWN, templateId: "web", variables: UNKNOWN, conflictStrategy: "merge" }, "conflictStrategy"],
      ["ZoneTemplate", { zone: "demo-reseller.com", templateId: UNKNOWN, variables: { ipv4: 4 } }, "variables.ipv4"],
    ];
    for (const [kind, args, property] of bad) {
      const c = await new Managed(env, kind, "bad").check(args);
      expect({ kind, properties: c.failures.map((f) => f.property) }).toEqual({ kind, properties: [property] });
    }
    // Check writes nothing (its reads predict up: resources/kit/preflight.ts).
    expect(env.mutatingSince(mark)).toEqual([]);
  });

  test("diff with unknowns: replace when the unknown names the object, update when it changes in place; the resolved values then change nothing", async () => {
    // One of each in state: made (child host, EPP code) or adopted (privacy, protection, template).
    const made: Record<string, Managed> = {};
    for (const [name, { kind, args }] of Object.entries(KNOWN)) {
      made[name] = new Managed(env, kind, `diff-${name}`);
      expect(await made[name].up(args)).toBe("create");
    }

    const expected: Record<string, Record<string, { step: string; replaces: string[] }>> = {
      childHost: {
        // "ns1" means ns1.<domain>: with the domain unknown, the full host name is unknown too.
        domain: { step: "replace", replaces: ["domain", "hostname"] },
        hostname: { step: "replace", replaces: ["hostname"] },
        ipv4: { step: "update", replaces: [] },
        "ipv4[1]": { step: "update", replaces: [] },
        ipv6: { step: "update", replaces: [] },
      },
      privacy: { domain: { step: "replace", replaces: ["domain"] }, adopt: { step: "same", replaces: [] } },
      protection: { domain: { step: "replace", replaces: ["domain"] }, adopt: { step: "same", replaces: [] } },
      eppCode: { domain: { step: "replace", replaces: ["domain"] }, trigger: { step: "replace", replaces: ["trigger"] } },
      template: {
        zone: { step: "replace", replaces: ["zone"] },
        templateId: { step: "replace", replaces: ["templateId"] },
        variables: { step: "replace", replaces: ["variables"] },
        "variables.ipv4": { step: "replace", replaces: ["variables"] },
        conflictStrategy: { step: "update", replaces: [] },
      },
    };

    const mark = env.mark();
    for (const [name, { args, unknowns }] of Object.entries(KNOWN)) {
      const r = made[name];
      expect({ name, step: (await r.preview(args)).step }).toEqual({ name, step: "same" });
      for (const [field, patch] of Object.entries(unknowns)) {
        const p = await r.preview({ ...args, ...patch });
        expect({ name, field, step: p.step, replaces: p.diff!.replaces }).toEqual({ name, field, ...expected[name][field] });
      }
    }
    // A template replace removes the old application's records first; the others create before deleting.
    expect((await made.template.preview({ ...KNOWN.template.args, zone: UNKNOWN })).diff!.deleteBeforeReplace).toBe(true);
    expect((await made.childHost.preview({ ...KNOWN.childHost.args, hostname: UNKNOWN })).diff!.deleteBeforeReplace).toBe(false);
    expect((await made.eppCode.preview({ ...KNOWN.eppCode.args, trigger: UNKNOWN })).diff!.deleteBeforeReplace).toBe(false);
    // Preview writes nothing (its reads predict up: resources/kit/preflight.ts).
    expect(env.mutatingSince(mark)).toEqual([]);

    // The unknowns resolve to the values already applied: up changes nothing.
    for (const [name, { args }] of Object.entries(KNOWN)) expect({ name, step: await made[name].up(args) }).toEqual({ name, step: "same" });
    expect(env.mutatingSince(mark)).toEqual([]);
    await made.childHost.destroy();
  });
});
