/**
 * A real zone (DNSControl's example.org test zone, 344 records the service can hold; see the
 * header of example.org.zone) end to end over real HTTP, through the engine and the SDK's provider
 * host, both ways in one stack (one sandbox, one program of both generated projects, one engine):
 * - its records loaded through the API into a live zone (example.net: the same records under
 *   another name, so both ways fit one stack), then `reseller-pulumi import --zone`, then `up`:
 *   every record adopted, no mutating call on that zone, no change; a second `up` and a refresh
 *   are quiet;
 * - `reseller-pulumi import --zone-file` (a migration from another DNS host) of example.org: the
 *   same `up` creates the zone and every record, the records the service cannot hold are listed,
 *   and the same second `up` and refresh are quiet.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main, type CliIo } from "../../cli/main";
import { Engine } from "../../engine/engine";
import { ResellerClient } from "../../provider/client";
import { toRecords } from "../../provider/records/zonefile";
import type { RecordInput } from "../../provider/views";
import type { SandboxHandle } from "../../sandbox/index";
import { generatedProgram } from "../../bench/program-file";
import { hostingSandbox } from "./hosting-sandbox";

const ZONE = "example.org";
/** The live zone `import --zone` adopts: the fixture's records, loaded through the API. */
const ADOPTED = "example.net";
const ZONE_FILE = path.join(__dirname, "example.org.zone");
const RPM = "100000";

let sandbox: SandboxHandle;
let client: ResellerClient;
let dir: string;
let out: string[];
let err: string[];

/** A sandbox whose account holds example.org and example.net, active, with the DNS add-on, delegated to the service; example.net with an empty zone. */
async function start(): Promise<void> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "zone-file-"));
  sandbox = await hostingSandbox([ZONE, ADOPTED], { withZones: [ADOPTED], requestsPerMinute: Number(RPM) });
  client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: Number(RPM) });
  out = [];
  err = [];
}

afterEach(async () => {
  await client?.close();
  await sandbox?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const io = (): CliIo => ({
  env: { RESELLER_BASE_URL: sandbox.url, RESELLER_API_KEY: sandbox.credentials.key, RESELLER_API_SECRET: sandbox.credentials.secret },
  out: (l) => out.push(l),
  err: (l) => err.push(l),
  cwd: dir,
});

const engine = (): Engine =>
  new Engine({
    // No state file: written whole after every step, it costs O(n²) for a zone of 344 records.
    stack: "dev",
    project: "zone",
    config: { "reseller:baseUrl": sandbox.url, "reseller:apiKey": sandbox.credentials.key, "reseller:apiSecret": sandbox.credentials.secret, "reseller:requestsPerMinute": RPM },
    secretConfigKeys: ["reseller:apiSecret"],
    // Like `pulumi up --parallel 8`; one at a time, 344 records take minutes on a shared machine.
    parallel: 8,
    log: () => undefined,
  });

const mutating = (from: number) => sandbox.operator.requests().slice(from).filter((r) => r.mutating);
const recordKey = (r: { type: string; name: string; content: string; priority?: number | null; extra?: unknown; ttl: number }) =>
  JSON.stringify([r.type, r.name, r.content, r.priority ?? null, r.extra ? Object.entries(r.extra).sort() : null, r.ttl]);
/** A zone's records as the service lists them, without the apex NS set the service keeps itself. */
const liveRecords = async (zone: string) => (await client.listRecords(zone)).filter((r) => !(r.type === "NS" && r.name === "@"));
/** The DnsRecord resources the engine keeps, of one zone or of both. */
const records = (e: Engine, zone?: string) => e.resources().filter((r) => r.type.endsWith(":DnsRecord") && (!zone || r.outputs.zone === zone));
/** The DnsRecord outputs the engine keeps, by URN. */
const recordOutputs = (e: Engine) =>
  Object.fromEntries(
    records(e)
      .map((r) => [r.urn, JSON.stringify(["type", "name", "content", "ttl", "priority", "extra"].map((k) => r.outputs[k] ?? null))]),
  );

const read = toRecords(fs.readFileSync(ZONE_FILE, "utf8"), ZONE);

test("the fixture: at least 300 records the service can hold; what it cannot hold is named with the reason", () => {
  expect(read.records.length).toBeGreaterThanOrEqual(300);
  expect(read.skipped.map((s) => s.reason)).toEqual([
    "not held: the service writes the zone's SOA itself",
    ...Array(4).fill("not held: the service manages the zone apex NS records"),
  ]);
  const types = new Set(read.records.map((r) => r.type));
  for (const t of ["A", "AAAA", "CNAME", "MX", "TXT", "SRV", "CAA", "TLSA", "SSHFP", "PTR", "NS"]) expect(types).toContain(t);
  // The parts the issue names: any SRV protocol label, multi-string TXT, RFC 8657 CAA, zero-padded TLSA.
  expect(read.records.find((r) => r.type === "SRV" && r.name === "_client._smtp")).toMatchObject({ content: ZONE, priority: 1, extra: { weight: 1, port: 1 } });
  expect(read.records.find((r) => r.type === "CAA" && r.content.includes("accounturi="))?.content).toBe("letsencrypt.org; accounturi=https://acme-v01.api.letsencrypt.org/acme/reg/1234567");
  expect(read.records.find((r) => r.name === "_ourcaca4-tlsa")?.content).toBe("2 0 1 ea99063a0a3bda9727032cf82da238698b90ba729300703d3956943635f96488");
  // Several strings stay several (RFC 1035 §3.3.14): not joined into one text.
  expect(read.records.find((r) => r.name === "dns-moreinfo")?.content).toBe('"Fred Bloggs, TZ=America/New_York" "Chat-Service-X: @handle1" "Chat-Service-Y: federated-handle@example.org"');
});

test("import --zone of a live zone and --zone-file of the file, one up: every live record adopted with no write, every record of the file created, the rest listed; a second up and a refresh are quiet", async () => {
  await start();
  for (const r of read.records) await client.createRecord(ADOPTED, { type: r.type, name: r.name, content: r.content, ttl: r.ttl, priority: r.priority ?? undefined, extra: r.extra ?? undefined } as RecordInput);
  const live = await liveRecords(ADOPTED);
  expect(live).toHaveLength(read.records.length);
  const n = read.records.length;

  // import --zone: reads the live zone, writes nothing.
  let mark = sandbox.operator.requests().length;
  expect(await main(["import", "--zone", ADOPTED, "--out", "zone", "--requests-per-minute", RPM], io())).toBe(0);
  expect(err).toEqual([]);
  expect(mutating(mark)).toEqual([]);
  const adopting = path.join(dir, "zone");
  expect((fs.readFileSync(path.join(adopting, "index.ts"), "utf8").match(/new reseller\.DnsRecord\(/g) ?? []).length).toBe(n);

  // import --zone-file: offline, the file is read, the service is not asked.
  out = [];
  mark = sandbox.operator.requests().length;
  expect(await main(["import", "--zone-file", ZONE_FILE, "--zone", ZONE, "--out", "migrate"], io())).toBe(0);
  expect(err).toEqual([]);
  expect(sandbox.operator.requests().length).toBe(mark);
  expect(out[0]).toBe(`Read ${n + 5} record(s) from ${ZONE_FILE}: ${n} to create in ${ZONE}, 5 not carried over, into migrate/index.ts`);
  expect(out.filter((l) => l.startsWith("  not carried over: line "))).toHaveLength(5);
  const migrating = path.join(dir, "migrate");
  const source = fs.readFileSync(path.join(migrating, "index.ts"), "utf8");
  expect(source).toContain("// Not carried over (5):");
  expect(source).not.toContain("adopt: true");
  expect((source.match(/new reseller\.DnsRecord\(/g) ?? []).length).toBe(n);
  expect(fs.readFileSync(path.join(migrating, "README.md"), "utf8")).toContain("## Not carried over (5)");

  // One program declaring both projects, as zone-corpus.test.ts runs its batches.
  const files = [adopting, migrating].map((p) => (generatedProgram(p), path.join(p, "index.js")));
  const program = { file: path.join(dir, "both.js") };
  fs.writeFileSync(program.file, files.map((f) => `require(${JSON.stringify(f)});\n`).join(""));

  const e = engine();
  mark = sandbox.operator.requests().length;
  const first = await e.up(program);
  expect(first.errors).toEqual([]);
  expect(first.summary).toMatchObject({ create: 2 * (n + 1), update: 0, replace: 0, delete: 0 });
  const writes = mutating(mark);
  // Adopted: no write touches the live zone; every record in state is adopted, and is the live one by id and by value.
  expect(writes.filter((r) => r.path.includes(ADOPTED))).toEqual([]);
  expect(records(e, ADOPTED)).toHaveLength(n);
  expect(records(e, ADOPTED).every((r) => r.outputs.adopted === true)).toBe(true);
  const ids = new Set(live.map((r) => r.id));
  expect(records(e, ADOPTED).filter((r) => ids.has(r.id)).length).toBe(n);
  expect((await liveRecords(ADOPTED)).map(recordKey).sort()).toEqual(live.map(recordKey).sort());
  // Migrated: the zone and every record created by POST, nothing else written.
  expect(writes.filter((r) => r.method === "POST" && r.path.endsWith("/records"))).toHaveLength(n);
  expect(writes.filter((r) => r.method === "POST" && r.path.endsWith("/records")).every((r) => r.path.includes(ZONE))).toBe(true);
  expect(writes.filter((r) => r.method !== "POST")).toEqual([]);
  expect(records(e, ZONE)).toHaveLength(n);
  // What the service now holds is the zone file, record for record.
  expect((await liveRecords(ZONE)).map(recordKey).sort()).toEqual(read.records.map(recordKey).sort());

  mark = sandbox.operator.requests().length;
  const second = await e.up(program);
  expect(second.summary).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0, same: 2 * (n + 1) });
  const before = recordOutputs(e);
  const refreshed = await e.refresh();
  expect(refreshed.errors).toEqual([]);
  expect(recordOutputs(e)).toEqual(before);
  expect(mutating(mark)).toEqual([]);
}, 300_000);
