/**
 * DnsZoneRecords through dev/engine/'s step rules, the SDK's provider host over gRPC and the sandbox over
 * HTTP: check's messages, one diff entry per record, applies that keep what they did when a 5xx, a
 * storm of 429s or a killed host stops them (and the next up finishing with no duplicate and no
 * loss), authoritative deletes beside DnsRecords, the safety threshold, and refresh's drift.
 */
import { isProviderHostError, startProviderHost } from "../../../dev/engine/host";
import type { Fault } from "../../../sandbox/server";
import { Managed, ROOT, startEnv, type Env } from "./harness";

jest.setTimeout(180_000);

const ZONE = "demo-reseller.com";
/** The seeded zone's records besides the service's SOA/NS: 12 (sandbox/state.ts). */
const SEEDED = 12;

// One sandbox and host for the file: the tests that apply records to the seeded zone destroy what they
// made, leaving the seeded zone as it was for the next (the authoritative test counts the seeded
// records); the tests that delete seeded records come after them.
let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => env?.close());

/** Destroys the zone's records, leaving the seeded zone as it was. */
async function destroyed(z: Managed) {
  await z.destroy();
  expect(await liveHosts()).toEqual([]);
  expect(await live()).toHaveLength(SEEDED);
}

const a = (i: number, ttl = 300) => ({ type: "A", name: `h${i}`, content: `192.0.2.${i}`, ttl });
const many = (n: number, ttl = 300) => Array.from({ length: n }, (_, i) => a(i, ttl));
const live = async () => (await env.client.listRecords(ZONE)).filter((r) => r.type !== "NS" && r.type !== "SOA");
const liveHosts = async () => (await live()).filter((r) => /^h\d+$/.test(r.name)).map((r) => `${r.name} ${r.content}`).sort();
const expected = (records: { name: string; content: string }[]) => records.map((r) => `${r.name} ${r.content}`).sort();
const creates = (from: number) => env.sandbox.operator.requests().slice(from).filter((r) => r.method === "POST" && /\/records$/.test(r.path) && r.status === 201).length;

async function failedUp(z: Managed, args: Record<string, unknown>) {
  let failure: unknown;
  try {
    await z.up(args);
  } catch (e) {
    failure = e;
  }
  if (!isProviderHostError(failure)) throw failure ?? new Error("the up did not fail");
  return failure;
}

const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 20));
};

/** The next up runs Update and leaves the zone exactly as declared, every record created once since `mark`. */
async function finishes(z: Managed, records: { name: string; content: string }[], mark: number) {
  expect(await z.up({ zone: ZONE, records })).toBe("update");
  expect(await liveHosts()).toEqual(expected(records));
  expect(Object.keys(z.outputs.records as object)).toHaveLength(records.length);
  expect(creates(mark)).toBe(records.length);
}

const CREATES = { method: "POST", path: "/records" };

/** An up with creates slowed down, stopped by `fault` on creates once `after` more went through; its failure. */
async function stoppedUp(z: Managed, args: Record<string, unknown>, after: number, fault: Fault) {
  const from = creates(0);
  env.sandbox.operator.injectFault({ kind: "delay", ms: 30, count: 1000, match: CREATES });
  const up = failedUp(z, args);
  await until(() => creates(0) >= from + after);
  env.sandbox.operator.injectFault(fault);
  const failure = await up;
  env.sandbox.operator.clearFaults();
  return failure;
}

test("check judges every record with DnsRecord's messages, naming the record; diff has one entry per record; a no-op up sends no request", async () => {
  const z = new Managed(env, "DnsZoneRecords", "zone");
  const bad = await z.check({ zone: ZONE, records: [a(1), { type: "MX", name: "@", content: "mail.example.com" }, { ...a(2), ttl: 30 }] });
  expect(bad.failures.map((f) => f.reason)).toEqual([
    expect.stringMatching(/^records\[1\]\.priority: is required.*\(record MX @\)$/),
    "records[2].ttl: 30 is below the minimum of 60 seconds (record A h2)",
  ]);

  const records = many(20);
  expect(await z.up({ zone: ZONE, records })).toBe("create");
  expect(await liveHosts()).toEqual(expected(records));
  expect(Object.keys(z.outputs.records as object)).toHaveLength(20);
  expect((z.outputs.records as Record<string, number>)["h3 A 192.0.2.3"]).toBe(300);
  expect((z.outputs.ids as Record<string, string>)["h3 A 192.0.2.3"]).toMatch(/\S/);
  expect(z.outputs.unmanaged).toHaveLength(SEEDED);

  // One record changed, one added, one removed, among 20: three entries, each naming its record.
  const next = [...records.slice(0, 19).map((r) => (r.name === "h3" ? { ...r, content: "198.51.100.3" } : r)), a(40)];
  const p = await z.preview({ zone: ZONE, records: next });
  expect(p.step).toBe("update");
  expect(p.diff!.changes).toBe(true);
  expect(Object.keys(p.inputs.records as object)).toContain("h3 A 198.51.100.3");
  const mark = env.mark();
  expect(await z.up({ zone: ZONE, records: next })).toBe("update");
  expect(env.mutatingSince(mark).map((r) => r.method).sort()).toEqual(["DELETE", "POST", "PUT"]);
  expect(await liveHosts()).toEqual(expected(next));
  const lines = env.host.logs().join("\n");
  expect(lines).toContain("zone (demo-reseller.com): 1 to create, 1 to change, 1 to delete");
  expect(lines).toContain("~ h3 A 192.0.2.3 => h3 A 198.51.100.3 (ttl 300)");
  expect(lines).toContain("- h19 A 192.0.2.19");
  expect(lines).toContain("+ h40 A 192.0.2.40 (ttl 300)");

  const quiet = env.mark();
  expect(await z.up({ zone: ZONE, records: next })).toBe("same");
  expect(env.sandbox.operator.requests().slice(quiet)).toEqual([]);
  await destroyed(z);
});

test("a 5xx storm stops the apply: state keeps what was applied (partial failure) and the next up finishes, no duplicate, no loss", async () => {
  const z = new Managed(env, "DnsZoneRecords", "zone");
  const records = many(30);
  const mark = env.mark();
  const failure = await stoppedUp(z, { zone: ZONE, records }, 8, { kind: "error", status: 503, count: 1000, match: CREATES });
  expect(failure.message).toMatch(/the apply stopped after \d+ of 30 declared records were in place/);
  const held = Object.keys(z.state!.outputs.records as object);
  expect(held.length).toBeGreaterThanOrEqual(8);
  expect(held.length).toBeLessThan(30);
  expect(z.state!.initErrors!.length).toBe(1);
  // What state holds is exactly what is live.
  expect(held.map((k) => k.split(" ")[0]).sort()).toEqual((await liveHosts()).map((h) => h.split(" ")[0]).sort());

  await finishes(z, records, mark);
  await destroyed(z);
});

test("a storm of 429s, then a killed host: each next up finishes from what is live, nothing made twice", async () => {
  const z = new Managed(env, "DnsZoneRecords", "zone");
  const records = many(24);
  const mark = env.mark();
  // More 429s than the client waits through (maxRateLimitRetries 50), with no pause asked.
  const failure = await stoppedUp(z, { zone: ZONE, records }, 5, { kind: "rate-limit", count: 1000, retryAfterSeconds: 0, match: CREATES });
  expect(failure.reasons?.join(" ")).toMatch(/State keeps what was applied/);
  const afterStorm = Object.keys(z.state!.outputs.records as object).length;
  expect(afterStorm).toBeGreaterThanOrEqual(5);

  // The next up is killed with its host (a crash, a cancelled CI job): state cannot keep its progress.
  env.sandbox.operator.injectFault({ kind: "delay", ms: 30, count: 1000, match: CREATES });
  const killed = creates(mark);
  const crashed = z.up({ zone: ZONE, records }).catch((e: unknown) => e);
  await until(() => creates(mark) >= killed + 5);
  await env.host.kill();
  expect(await crashed).toBeInstanceOf(Error);
  env.sandbox.operator.clearFaults();
  expect(Object.keys(z.state!.outputs.records as object)).toHaveLength(afterStorm);
  expect((await liveHosts()).length).toBeGreaterThan(afterStorm);

  env.host = await startProviderHost({ cwd: ROOT });
  await env.host.configure(env.config);
  await finishes(z, records, mark);
  await destroyed(z);
});

test("authoritative: off lists and leaves unmanaged records; on deletes them, never SOA/NS nor what a DnsRecord declares; a record declared twice is refused", async () => {
  const rec = new Managed(env, "DnsRecord", "mail");
  expect(await rec.up({ zone: ZONE, type: "A", name: "mail", content: "192.0.2.25", ttl: 3600, adopt: true })).toBe("create");
  const z = new Managed(env, "DnsZoneRecords", "zone");
  const records = [a(1), { type: "MX", name: "@", content: "mx1.demo-reseller.com", priority: 10, ttl: 3600 }];
  const mark = env.mark();
  expect(await z.up({ zone: ZONE, records })).toBe("create");
  expect(env.mutatingSince(mark).map((r) => r.method)).toEqual(["POST"]);
  expect(env.host.logs().join("\n")).toMatch(/10 record\(s\) in the zone are not declared and left alone \(authoritative is off\):\n {2}@ A 192\.0\.2\.10/);
  expect((z.outputs.unmanaged as string[]).length).toBe(10);
  expect(z.outputs.elsewhere).toEqual(["mail A 192.0.2.25"]);

  // Both kinds declaring one record: refused at check, naming both resources (the same words whichever is checked second).
  const twice = await z.check({ zone: ZONE, records: [...records, { type: "A", name: "mail", content: "192.0.2.25", ttl: 3600 }] });
  expect(twice.failures.map((f) => f.reason)).toEqual([expect.stringContaining('records: mail A 192.0.2.25 in demo-reseller.com is declared by both DnsRecord "mail" and DnsZoneRecords "zone": one record, one owner')]);

  // Ten records of twelve deleted: over the threshold unless allowed.
  const on = { zone: ZONE, records, authoritative: true };
  const refused = await z.check(on);
  expect(refused.failures[0].reason).toMatch(/would change 0 and delete 10 of the zone's 13 records \(76\.9 %\), more than the safety threshold of 30 %.*set allowLargeChanges: true on "zone"/);
  const untouched = env.mark();
  await expect(z.up(on)).rejects.toThrow(/safety threshold/);
  expect(env.mutatingSince(untouched)).toEqual([]);

  expect(await z.up({ ...on, allowLargeChanges: true })).toBe("update");
  const left = (await env.client.listRecords(ZONE)).map((r) => `${r.name} ${r.type} ${r.content}`).sort();
  expect(left).toEqual(["h1 A 192.0.2.1", "@ MX mx1.demo-reseller.com", "@ NS ns1.dns.sandbox.test", "@ NS ns2.dns.sandbox.test", "mail A 192.0.2.25"].sort());
  expect(z.outputs.unmanaged).toEqual([]);
});

test("refresh shows a record changed and one added by hand as changes naming them; the next up restores the declaration", async () => {
  const z = new Managed(env, "DnsZoneRecords", "zone");
  const records = many(4);
  expect(await z.up({ zone: ZONE, records, authoritative: true, allowLargeChanges: true })).toBe("create");
  const h2 = (await live()).find((r) => r.name === "h2")!;
  await env.client.updateRecord(ZONE, h2.id, { content: "203.0.113.2" });
  await env.client.createRecord(ZONE, { type: "TXT", name: "hand", content: "added by hand", ttl: 300 });

  expect(await z.refresh()).toBe(true);
  const held = Object.keys(z.outputs.records as object);
  expect(held).toContain("h2 A 203.0.113.2");
  expect(held).toContain('hand TXT "added by hand"');
  expect(held).not.toContain("h2 A 192.0.2.2");
  const p = await z.preview({ zone: ZONE, records, authoritative: true });
  expect(p.step).toBe("update");
  expect(p.diff!.changes).toBe(true);

  expect(await z.up({ zone: ZONE, records, authoritative: true })).toBe("update");
  expect(await liveHosts()).toEqual(expected(records));
  expect((await live()).some((r) => r.name === "hand")).toBe(false);
  expect((await live()).find((r) => r.name === "h2")!.id).toBe(h2.id);
  expect(await z.refresh()).toBe(true);
  expect(await z.up({ zone: ZONE, records, authoritative: true })).toBe("same");
});

test("a DS and the NS records that delegate its name, declared together, are created NS first (RFC 4035 §2.4)", async () => {
  const z = new Managed(env, "DnsZoneRecords", "zone");
  const ds = { type: "DS", name: "lab", content: `12345 13 2 ${"ab".repeat(32)}`, ttl: 3600 };
  const ns = [1, 2].map((i) => ({ type: "NS", name: "lab", content: `ns${i}.lab-hosting.example`, ttl: 3600 }));
  // The DS listed first: the order of the declaration must not decide the order of the creates.
  expect(await z.up({ zone: ZONE, records: [ds, ...ns] })).toBe("create");
  const lab = (await env.client.listRecords(ZONE)).filter((r) => r.name === "lab").map((r) => r.type).sort();
  expect(lab).toEqual(["DS", "NS", "NS"]);
});
