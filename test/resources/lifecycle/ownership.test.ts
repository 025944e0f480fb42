/**
 * One live object, one owner, through the SDK's provider host over gRPC against the sandbox. A rename
 * (or reparent) without aliases is, to the engine, a create of the new URN and, at the end of the
 * same command (the same host process), a delete of the old URN: reproduced here step by step for
 * every kind. Also: whole-record matching for adopt and take-over, a zone deleted in parallel with
 * its records (the host's calls share what deletes are in flight), type changes on one name,
 * adopt on free and paid objects.
 */
import { startProviderHost, UNKNOWN } from "../../../dev/engine/host";
import { contact, Managed, ROOT, startEnv, type Env } from "./harness";
import type { Kind } from "../../../resources/kinds";
import { until } from "../../support/until";

// Each test drives a resource through several steps (up, rename, preview, refresh, up), each one
// or more calls through the SDK's provider host against the sandbox: 62 s for the whole suite at load 3.5 on 2 cores, up to 47 s for one
// test at load 13, past the 60 s default at load 10 on SDK 3.139. A bound for load, not for speed.
jest.setTimeout(180_000);

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => env?.close());

/** A new `pulumi` command: a new provider-host process, so nothing claimed by an earlier command. */
async function nextCommand(): Promise<void> {
  await env.host.close();
  env.host = await startProviderHost({ cwd: ROOT, env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined } });
  await env.host.configure(env.config);
}
// A new host (a new command) only where a proof needs one: the renames' creates in a command after
// the old URNs' creates (`renameWithoutAlias`) and the settling refresh, preview and up after them
// (`expectSettled`, no read cached by the renames' command). Other tests run on the host the previous
// test left: each works on its own names and objects, and none proves what one command forgets.

const ZONE = "demo-reseller.com";
const money = () => env.sandbox.operator.ledger().filter((e) => Number(e.amount) > 0);

/** A resource under another URN: renamed, or moved under a component (the parent type joins the URN). */
function moved(kind: Kind, name: string, parentType?: string): Managed {
  return new Managed(env, kind, name, parentType);
}

/**
 * Rename without aliases, as the engine runs it: `up` creates the new URN, then deletes the old URN
 * in the same command: a new one unless `newCommand` is false (another rename of the same command).
 * Returns the new resource.
 */
async function renameWithoutAlias(old: Managed, args: Record<string, unknown>, next: Managed, newCommand = true): Promise<Managed> {
  if (newCommand) await nextCommand();
  expect(await next.up(args)).toBe("create");
  await old.destroy();
  return next;
}

/** This command's host log, once it shows `wanted` (stdout and gRPC answers may arrive in either order). */
async function hostLog(wanted: RegExp): Promise<string> {
  const all = () => env.host.logs().join("\n");
  await until(`the host to log ${wanted}`, () => wanted.test(all()));
  return all();
}

/** In the current command: refresh, then preview and up show no change and change nothing, for each resource. */
async function settled(resources: [Managed, Record<string, unknown>][]): Promise<void> {
  const mark = env.mark();
  for (const [r, args] of resources) {
    expect([r.name, await r.refresh()]).toEqual([r.name, true]);
    expect([r.name, (await r.preview(args)).step]).toEqual([r.name, "same"]);
    expect([r.name, await r.up(args)]).toEqual([r.name, "same"]);
  }
  expect(env.mutatingSince(mark)).toEqual([]);
}

/** The next command settles them (see `settled`). */
async function expectSettled(resources: [Managed, Record<string, unknown>][]): Promise<void> {
  await nextCommand();
  await settled(resources);
}

describe("rename or reparent without aliases: the old URN's delete leaves the object the new URN took", () => {
  // One stack of every kind, through a sequence of commands as a user runs them: each command's
  // renames or moves (a create of the new URN, then the old URN's delete), then a command that
  // settles (refresh, preview, up: no change). A command's host never sees another command's steps.
  // In the same commands, one record changes type on one name each command (A to CNAME, CNAME to
  // TXT, TXT to AAAA), settled in the command after each change.
  test("DnsRecord (renamed, then moved under a component), DnsZone and its records, ChildHost, PrivacyAddon, Protection, Domain: each object stays, nothing is bought again, state matches, no further change; type changes on one name each succeed, the diff deleting first exactly where a CNAME is involved", async () => {
    const shift = new Managed(env, "DnsRecord", "shape-shifter");
    const base = { zone: ZONE, name: "shift", ttl: 300 };
    const shapes: [Record<string, unknown>, boolean][] = [
      [{ type: "A", content: "192.0.2.31" }, false],
      [{ type: "CNAME", content: "target.example.net." }, true],
      [{ type: "TXT", content: "now text" }, true],
      [{ type: "AAAA", content: "2001:db8::31" }, false],
    ];
    const shape = (i: number) => ({ ...base, ...shapes[i][0] });
    /** Changes the record's type to shape `i`: a replace that deletes first exactly where a CNAME is involved. */
    const reshape = async (i: number) => {
      const p = await shift.preview(shape(i));
      expect([shapes[i][0].type, p.step, p.diff!.deleteBeforeReplace]).toEqual([shapes[i][0].type, "replace", shapes[i][1]]);
      expect(await shift.up(shape(i))).toBe("replace");
      const live = (await env.client.listRecords(ZONE)).filter((x) => x.name === "shift");
      expect(live.map((x) => x.type)).toEqual([shapes[i][0].type]);
    };
    const SHOP = "demo-shop.net";
    const LABS = "demo-labs.io";
    await env.client.setNameservers(SHOP, ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"]);
    const recordArgs = { zone: ZONE, type: "TXT", name: "moved", content: "keep me", ttl: 300 };
    const zoneArgs = { domain: SHOP, waitForDelegation: true, waitTimeoutSeconds: 30 };
    const hostArgs = { domain: LABS, hostname: "ns7", ipv4: ["192.0.2.57"], ipv6: [] };
    const addonArgs = { domain: LABS };
    const domainArgs = { domain: "renamed-once.com", contacts: { registrant: contact } };

    // The first command creates them all.
    const a = new Managed(env, "DnsRecord", "txt-a");
    const z = new Managed(env, "DnsZone", "shop-zone");
    const rec = new Managed(env, "DnsRecord", "shop-www");
    const h = new Managed(env, "ChildHost", "ns7");
    const p = new Managed(env, "PrivacyAddon", "labs-privacy");
    const g = new Managed(env, "Protection", "labs-protection");
    const d = new Managed(env, "Domain", "site-domain");
    expect(await a.up(recordArgs)).toBe("create");
    const id = a.state!.id;
    expect(await z.up(zoneArgs)).toBe("create");
    expect(await rec.up({ zone: SHOP, type: "A", name: "www", content: "192.0.2.7" })).toBe("create");
    expect(await h.up(hostArgs)).toBe("create");
    expect(await p.up(addonArgs)).toBe("create");
    expect(await g.up(addonArgs)).toBe("create");
    expect(await d.up(domainArgs)).toBe("create");
    const paid = money().length;
    expect(await shift.up(shape(0))).toBe("create");
    await reshape(1);

    // The next command renames or moves each.
    const b = await renameWithoutAlias(a, recordArgs, new Managed(env, "DnsRecord", "txt-b"));
    const z2 = await renameWithoutAlias(z, zoneArgs, moved("DnsZone", "shop-zone", "my:index:Site"), false);
    const h2 = await renameWithoutAlias(h, hostArgs, new Managed(env, "ChildHost", "ns7-renamed"), false);
    const p2 = await renameWithoutAlias(p, addonArgs, moved("PrivacyAddon", "labs-privacy", "my:index:Site"), false);
    const g2 = await renameWithoutAlias(g, addonArgs, new Managed(env, "Protection", "labs-protection-2"), false);
    const d2 = await renameWithoutAlias(d, domainArgs, moved("Domain", "site-domain", "my:index:Site"), false);
    expect(b.state!.id).toBe(id);
    expect((await env.client.listRecords(ZONE)).filter((r) => r.name === "moved")).toMatchObject([{ id, content: "keep me" }]);
    expect(await hostLog(/left in place: "txt-b"/)).toMatch(/left in place: "txt-b" manages it now \(renamed or moved without aliases\); only "txt-a" left the stack/);
    expect(await env.client.getZone(SHOP)).toMatchObject({ domain: SHOP });
    expect((await env.client.listRecords(SHOP)).some((r) => r.id === rec.state!.id)).toBe(true);
    expect((await env.client.listHosts(LABS)).map((x) => x.hostname)).toContain("ns7.demo-labs.io");
    expect((await env.client.getPrivacy(LABS)).status).not.toBe("disabled");
    expect((await env.client.getProtection(LABS)).enabled).toBe(true);
    expect(money()).toHaveLength(paid);
    expect(d2.outputs).toMatchObject({ domain: "renamed-once.com", stage: "active" });
    const logs = await hostLog(/renamed-once.com: left in place/);
    expect(logs).toMatch(/renamed-once.com: left in place: "site-domain" manages it now/);
    expect(logs).not.toMatch(/renamed-once.com: a domain cannot be deleted/);
    // The type changed in the command before is settled in this one; then it changes again.
    await settled([[shift, shape(1)]]);
    await reshape(2);

    // The command after it finds nothing to change.
    await expectSettled([
      [b, recordArgs],
      [z2, zoneArgs],
      [h2, hostArgs],
      [p2, addonArgs],
      [g2, addonArgs],
      [d2, domainArgs],
      [shift, shape(2)],
    ]);
    await reshape(3);

    // The record moved under a component in another command, then settled in the next.
    const c = await renameWithoutAlias(b, recordArgs, moved("DnsRecord", "txt-b", "my:index:Site"));
    expect(c.state!.id).toBe(id);
    expect((await env.client.listRecords(ZONE)).filter((r) => r.name === "moved").map((r) => r.id)).toEqual([id]);
    await settled([[shift, shape(3)]]);
    // A rename together with the type change is create-first (another name: nothing to clash with).
    expect((await shift.preview({ ...base, name: "shift2", type: "CNAME", content: "t.example.net." })).diff!.deleteBeforeReplace).toBe(false);
    // Unknown type during preview: no promise either way.
    expect((await shift.preview({ ...base, type: UNKNOWN, content: "x" })).diff!.deleteBeforeReplace).toBe(false);
    await shift.destroy();
    await expectSettled([[c, recordArgs]]);
    expect(money()).toHaveLength(paid);

    await c.destroy();
    expect((await env.client.listRecords(ZONE)).some((r) => r.id === id)).toBe(false);
    await rec.destroy();
    await z2.destroy();
    await expect(env.client.getZone(SHOP)).rejects.toMatchObject({ status: 404 });
    await h2.destroy();
    expect((await env.client.listHosts(LABS)).map((x) => x.hostname)).not.toContain("ns7.demo-labs.io");
  });

  test("EppCode: the check before the create warns that a new code is requested and names aliases", async () => {
    const e = new Managed(env, "EppCode", "shop-code");
    const from = env.host.logs().length;
    const p = await e.preview({ domain: "demo-shop.net" });
    expect(p.step).toBe("create");
    const logs = () => env.host.logs().slice(from).join("\n");
    await until("the host to warn of a new transfer code", () => /will request a new transfer code/.test(logs()));
    expect(logs()).toMatch(/EppCode "shop-code" will request a new transfer code, which replaces the current one and e-mails the registrant\. If this resource was renamed or moved under a component, add its old name with the aliases resource option instead/);
    expect(env.sandbox.operator.requests().slice(-1)[0]?.path ?? "").not.toMatch(/auth-code|epp/);
  });

  test("ZoneTemplate: the new URN's apply is refused naming aliases; the old application's records are untouched", async () => {
    const DOMAIN = "demo-labs.io";
    await env.client.setNameservers(DOMAIN, ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"]);
    const z = new Managed(env, "DnsZone", "labs-zone");
    await z.up({ domain: DOMAIN, waitForDelegation: true, waitTimeoutSeconds: 30 });
    const args = { zone: DOMAIN, templateId: "web", variables: { ipv4: "192.0.2.44" } };
    const t = new Managed(env, "ZoneTemplate", "labs-web");
    expect(await t.up(args)).toBe("create");
    const ids = t.outputs.recordIds as string[];
    // The engine stops at the failed create: the old URN is not deleted in that run.
    await expect(new Managed(env, "ZoneTemplate", "labs-web-2").up(args)).rejects.toThrow(/renamed or moved under a component, those are its own records: add the old name with the aliases resource option/);
    const live = new Set((await env.client.listRecords(DOMAIN)).map((r) => r.id));
    expect(ids.every((i) => live.has(i))).toBe(true);
    await t.destroy();
    await z.destroy();
  });
});

describe("taking over a live record matches the whole record", () => {
  test("CAA issue and issuewild for one CA, and SRV records differing only in port, each adopt their own", async () => {
    const DOMAIN = ZONE;
    const issuewild = await env.client.createRecord(DOMAIN, { type: "CAA", name: "@", content: "letsencrypt.org", ttl: 3600, extra: { flag: 0, tag: "issuewild" } });
    const srv2 = await env.client.createRecord(DOMAIN, { type: "SRV", name: "_sip._tcp", content: "sip.demo-reseller.com", ttl: 3600, priority: 10, extra: { weight: 5, port: 5061 } });
    const cases: [string, Record<string, unknown>, string][] = [
      ["caa-wild", { type: "CAA", name: "@", content: "letsencrypt.org", extra: { flag: 0, tag: "issuewild" } }, issuewild.id],
      ["caa-issue", { type: "CAA", name: "@", content: '0 issue "letsencrypt.org"' }, "rec_10"],
      ["srv-5061", { type: "SRV", name: "_sip._tcp", content: "sip.demo-reseller.com.", priority: 10, extra: { weight: 5, port: 5061 } }, srv2.id],
      ["srv-5060", { type: "SRV", name: "_sip._tcp", content: "sip.demo-reseller.com.", priority: 10, extra: { weight: 5, port: 5060 } }, "rec_9"],
    ];
    const mark = env.mark();
    for (const [name, args, id] of cases) {
      const r = new Managed(env, "DnsRecord", name);
      const full = { zone: DOMAIN, ttl: 3600, adopt: true, ...args };
      expect(await r.up(full)).toBe("create");
      expect([name, r.state!.id, r.outputs.adopted]).toEqual([name, id, true]);
      expect(await r.up(full)).toBe("same");
    }
    expect(env.mutatingSince(mark)).toEqual([]);
  });

  test("a record another resource of this run holds is never taken: the second identical DnsRecord is refused by name", async () => {
    const args = { zone: ZONE, type: "TXT", name: "twice", content: "one owner", ttl: 300 };
    const first = new Managed(env, "DnsRecord", "twice-1");
    expect(await first.up(args)).toBe("create");
    await expect(new Managed(env, "DnsRecord", "twice-2").up(args)).rejects.toThrow(/an identical record is declared by both "twice-1" and "twice-2" in this stack/);
    await expect(new Managed(env, "DnsRecord", "twice-3").up({ ...args, adopt: true })).rejects.toThrow(/declared by both "twice-1" and "twice-3"/);
    expect((await env.client.listRecords(ZONE)).filter((r) => r.name === "twice")).toHaveLength(1);
    await first.destroy();
  });

  test("adopt on a free object takes it over if present, else creates it", async () => {
    const r = new Managed(env, "DnsRecord", "adopt-or-create");
    const args = { zone: ZONE, type: "A", name: "fresh-adopt", content: "192.0.2.90", ttl: 300, adopt: true };
    expect(await r.up(args)).toBe("create");
    expect(r.outputs.adopted).toBe(false);
    expect((await env.client.listRecords(ZONE)).filter((x) => x.name === "fresh-adopt")).toMatchObject([{ id: r.state!.id, content: "192.0.2.90" }]);
    // Renamed later: the generated adopt: true still works (nothing to adopt under the new name: created).
    const r2 = new Managed(env, "DnsRecord", "adopt-renamed");
    expect(await r2.up({ ...args, name: "fresh-adopt-2" })).toBe("create");
    await r.destroy();
    await r2.destroy();

    const h = new Managed(env, "ChildHost", "adopt-host");
    expect(await h.up({ domain: "demo-labs.io", hostname: "ns9", ipv4: ["192.0.2.59"], ipv6: [], adopt: true })).toBe("create");
    expect(h.outputs.adopted).toBe(false);
    await h.destroy();
  });

  test("adopt on a paid object never buys, and says so before any money moves", async () => {
    const before = env.sandbox.operator.ledger().length;
    const reqs = env.mark();
    await expect(new Managed(env, "Domain", "adopt-absent").up({ domain: "never-bought.com", adopt: true })).rejects.toThrow(/adopt: never-bought.com is not in this reseller account, and adopt never buys; nothing was charged/);
    await expect(new Managed(env, "PrivacyAddon", "adopt-privacy").up({ domain: "demo-shop.net", adopt: true })).rejects.toThrow(/adopt never buys; nothing was charged/);
    await expect(new Managed(env, "Protection", "adopt-protection").up({ domain: "demo-shop.net", adopt: true })).rejects.toThrow(/adopt never buys; nothing was charged/);
    expect(env.sandbox.operator.ledger()).toHaveLength(before);
    expect(env.mutatingSince(reqs)).toEqual([]);
  });
});

// The zone delete's guard on virtual time (the quiet span, the refusal of a record nobody manages
// after this command's own deletes, the delegation NS below the apex counted as the user's, forceDestroy)
// is in test/resources/waits-on-clock.test.ts; lifecycle/dns.test.ts keeps a refusal through the host.
describe("zone delete", () => {
  test("deleted in parallel with its own records, through one provider host, it waits for them", async () => {
    const DOMAIN = "demo-labs.io";
    await env.client.setNameservers(DOMAIN, ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"]);
    const z = new Managed(env, "DnsZone", "par-zone");
    await z.up({ domain: DOMAIN, waitForDelegation: true, waitTimeoutSeconds: 30 });
    const records = await Promise.all(
      ["a", "b", "c", "d", "e", "f"].map(async (n, i) => {
        const r = new Managed(env, "DnsRecord", `par-${n}`);
        await r.up({ zone: DOMAIN, type: "A", name: n, content: `192.0.2.${100 + i}` });
        return r;
      }),
    );
    // The zone's delete is sent first, the records' right after, as a parallel engine may.
    const from = env.host.logs().length;
    const zoneGone = z.destroy();
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all([zoneGone, ...records.map((r) => r.destroy())]);
    await expect(env.client.getZone(DOMAIN)).rejects.toMatchObject({ status: 404 });
    expect(env.host.logs().slice(from).join("\n")).not.toMatch(/refusing/);
  });
});

// The type changes on one name (A to CNAME, CNAME to TXT, TXT to AAAA) run in the renames' commands:
// see the first test.
describe("type change on one name", () => {
  test("a CNAME refused beside another record names the input that is wrong", async () => {
    const other = await env.client.createRecord(ZONE, { type: "TXT", name: "crowded", content: "already here", ttl: 3600 });
    const r = new Managed(env, "DnsRecord", "crowded-a");
    expect(await r.up({ zone: ZONE, name: "crowded", type: "A", content: "192.0.2.32", ttl: 300 })).toBe("create");
    await expect(r.up({ zone: ZONE, name: "crowded", type: "CNAME", content: "t.example.net.", ttl: 300 })).rejects.toThrow(
      /type: "CNAME" for crowded.demo-reseller.com is refused: a CNAME cannot share its name with other records \(RFC 1034 §3.6.2\) and crowded.demo-reseller.com also holds TXT records/,
    );
    const n = new Managed(env, "DnsRecord", "beside-cname");
    await expect(n.up({ zone: ZONE, name: "www", type: "TXT", content: "x", ttl: 300 })).rejects.toThrow(/name: "www" is refused for a TXT record: www.demo-reseller.com holds a CNAME/);
    await env.client.deleteRecord(ZONE, other.id);
  });
});
