/**
 * Real zones end to end over real HTTP, through the engine and the SDK's provider host, all in one
 * stack (one sandbox, one program of every generated project, one engine: an `up`, a second `up`
 * and a `refresh` carry them all):
 * - DNSControl's example.org test zone (344 records the service can hold; see the header of
 *   example.org.zone), both ways:
 *   - its records loaded through the API into a live zone (example.net: the same records under
 *     another name, so both ways fit one stack), then `reseller-pulumi import --zone`, then `up`:
 *     every record adopted, no mutating call on that zone, no change; the second `up` and the
 *     refresh are quiet;
 *   - `reseller-pulumi import --zone-file` (a migration from another DNS host) of example.org: the
 *     same `up` creates the zone and every record, the records the service cannot hold are listed,
 *     and the second `up` and the refresh are quiet;
 * - the zone corpus: real zone files nobody here wrote (zones/, each cited in README.md: DNS
 *   servers' test zones from BIND, NSD, Knot and PowerDNS, and operators' published zones), each
 *   migrated by `import --zone-file` in the same program. What is live is then compared with the
 *   file through bind-reader.ts (this test's own reader, not the product's): each record of the
 *   file is live with its data, or listed by the import with its line and a reason; a TTL differs
 *   only where the import noted a change on that line; nothing is live that the file does not hold.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main, type CliIo } from "../../cli/main";
import { Engine } from "../../dev/engine/engine";
import { ResellerClient } from "../../api/client";
import { toRecords } from "../../dns/zonefile";
import type { RecordInput } from "../../api/views";
import type { SandboxHandle } from "../../sandbox/index";
import { generatedProgram } from "../../dev/engine/program-file";
import { fileKey, liveKey, readBind } from "./bind-reader";
import { hostingSandbox } from "./hosting-sandbox";

const ZONE = "example.org";
/** The live zone `import --zone` adopts: the fixture's records, loaded through the API. */
const ADOPTED = "example.net";
const ZONE_FILE = path.join(__dirname, "example.org.zone");
const RPM = "100000";

/** Each file with the zone it describes (its $ORIGIN, or the one its records name). */
const CORPUS = [
  { file: "bind-good1.db", zone: "good1.example" },
  { file: "bind-good-svcb.db", zone: "svcb.example" },
  { file: "nsd-test.zone", zone: "nsd.example" },
  { file: "nsd-bug086_chars.zone", zone: "spf-test.nl" },
  { file: "nsd-bug090_000_txt.zone", zone: "text-test.nl" },
  { file: "knot-easy.zone", zone: "example.com" },
  { file: "powerdns-test.com", zone: "test.com" },
  { file: "powerdns-unit.test", zone: "unit.test" },
  { file: "mlab-measurementlab.org", zone: "measurementlab.org" },
  { file: "argvc-arg.vc.zone", zone: "arg.vc" },
  { file: "argvc-elendia.net.zone", zone: "elendia.net" },
];
type Entry = (typeof CORPUS)[number];

/** A line of the import's report: "  not carried over: [file ]line N: record -- reason". */
const REPORT = /^ {2}(not carried over|changed): (?:(\S+) )?line (\d+): (.*) -- (.+)$/;

interface Migrated {
  entry: Entry;
  project: string;
  skipped: Map<number, string>;
  changed: Map<number, string[]>;
}

let sandbox: SandboxHandle;
let client: ResellerClient;
let dir: string;
let out: string[];
let err: string[];

/** A sandbox whose account holds example.org, example.net and the corpus's zones, active, with the DNS add-on, delegated to the service; example.net with an empty zone. */
async function start(): Promise<void> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "zone-file-"));
  sandbox = await hostingSandbox([ZONE, ADOPTED, ...CORPUS.map((c) => c.zone)], { withZones: [ADOPTED], requestsPerMinute: Number(RPM) });
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
/** The DnsRecord resources the engine keeps of one zone. */
const records = (e: Engine, zone: string) => e.resources().filter((r) => r.type.endsWith(":DnsRecord") && r.outputs.zone === zone);

/** `reseller-pulumi import --zone-file` of one corpus file, its report read back from what it printed. */
async function migrate(entry: Entry, n: number): Promise<Migrated> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { env: {}, out: (l) => out.push(l), err: (l) => err.push(l), cwd: dir };
  const code = await main(["import", "--zone-file", path.join(__dirname, "zones", entry.file), "--zone", entry.zone, "--out", `p${n}`], io);
  expect([entry.file, code, err]).toEqual([entry.file, 0, []]);
  const skipped = new Map<number, string>();
  const changed = new Map<number, string[]>();
  for (const m of out.map((l) => REPORT.exec(l)).filter((x) => x !== null)) {
    expect(m[2]).toBeUndefined(); // no corpus file includes another
    if (m[1] === "changed") changed.set(Number(m[3]), [...(changed.get(Number(m[3])) ?? []), m[5]]);
    else skipped.set(Number(m[3]), m[5]);
  }
  return { entry, project: path.join(dir, `p${n}`), skipped, changed };
}

/** The file against what is live: every difference, as text; empty when the migration holds. */
function compare(m: Migrated, live: Awaited<ReturnType<ResellerClient["listRecords"]>>): { wrong: string[]; carried: number; listed: number } {
  const { zone, file } = m.entry;
  const text = fs.readFileSync(path.join(__dirname, "zones", file), "utf8");
  const left = new Map<string, { ttl: number }[]>();
  for (const r of live.filter((x) => !(x.type === "NS" && x.name === "@"))) {
    const k = liveKey(r, zone);
    left.set(k, [...(left.get(k) ?? []), { ttl: r.ttl }]);
  }
  const wrong: string[] = [];
  let carried = 0;
  for (const f of readBind(text, zone)) {
    const listed = m.skipped.get(f.line);
    const k = fileKey(f);
    const match = left.get(k)?.shift();
    if (listed !== undefined) {
      if (match) wrong.push(`${file} line ${f.line}: listed as not carried over (${listed}) but live`);
      continue;
    }
    if (!match) {
      wrong.push(`${file} line ${f.line}: ${k} is neither live nor listed with a reason`);
      continue;
    }
    carried++;
    if (match.ttl !== f.ttl && !(m.changed.get(f.line) ?? []).some((n) => n.includes("ttl") || n.includes("TTL")))
      wrong.push(`${file} line ${f.line}: ttl ${f.ttl} is live as ${match.ttl} with no note`);
  }
  for (const [k, rest] of left) if (rest.length) wrong.push(`${file}: live ${k} is not in the file`);
  return { wrong, carried, listed: m.skipped.size };
}

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

test("the corpus: at least ten files from at least five public sources, each cited in README.md", () => {
  const readme = fs.readFileSync(path.join(__dirname, "README.md"), "utf8");
  expect(fs.readdirSync(path.join(__dirname, "zones")).sort()).toEqual(CORPUS.map((c) => c.file).sort());
  for (const c of CORPUS) expect(readme).toMatch(new RegExp(`\\| \`zones/${c.file.replace(/\./g, "\\.")}\` \\| [\\w.-]+/[\\w.-]+ \\| \`[^\`]+\` \\| [0-9a-f]{40} \\|`));
  expect(new Set(CORPUS.map((c) => c.file.split("-")[0])).size).toBeGreaterThanOrEqual(5);
  // One stack holds them all: each file's zone is its own, apart from example.org and example.net.
  expect(new Set([ZONE, ADOPTED, ...CORPUS.map((c) => c.zone)]).size).toBe(CORPUS.length + 2);
});

test("one stack: import --zone of a live zone, --zone-file of example.org and of every corpus file, one up: every live record adopted with no write, every record of the files created, the rest listed; live is each file, record for record, less what is listed; a second up and a refresh are quiet", async () => {
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

  // The corpus files, each by import --zone-file (its report read back from what it printed).
  const migrated: Migrated[] = [];
  for (const [i, c] of CORPUS.entries()) migrated.push(await migrate(c, i));

  // One program declaring every project: each generated index.ts compiled beside it, required in turn.
  const files = [adopting, migrating, ...migrated.map((m) => m.project)].map((p) => (generatedProgram(p), path.join(p, "index.js")));
  const program = { file: path.join(dir, "all.js") };
  fs.writeFileSync(program.file, files.map((f) => `require(${JSON.stringify(f)});\n`).join(""));

  const e = engine();
  mark = sandbox.operator.requests().length;
  const first = await e.up(program);
  expect(first.errors).toEqual([]);
  const declared = e.resources().filter((r) => r.type.endsWith(":DnsRecord") || r.type.endsWith(":DnsZone"));
  expect(first.summary).toMatchObject({ create: declared.length, update: 0, replace: 0, delete: 0 });
  // Of them, example.net's and example.org's zone and records: n + 1 each.
  for (const z of [ADOPTED, ZONE]) expect([z, declared.filter((r) => (r.type.endsWith(":DnsZone") ? r.outputs.domain : r.outputs.zone) === z).length]).toEqual([z, n + 1]);
  const writes = mutating(mark);
  // Adopted: no write touches the live zone; every record in state is adopted, and is the live one by id and by value.
  expect(writes.filter((r) => r.path.includes(ADOPTED))).toEqual([]);
  expect(records(e, ADOPTED)).toHaveLength(n);
  expect(records(e, ADOPTED).every((r) => r.outputs.adopted === true)).toBe(true);
  const ids = new Set(live.map((r) => r.id));
  expect(records(e, ADOPTED).filter((r) => ids.has(r.id)).length).toBe(n);
  expect((await liveRecords(ADOPTED)).map(recordKey).sort()).toEqual(live.map(recordKey).sort());
  // Migrated: the zone and every record created by POST, nothing else written.
  expect(writes.filter((r) => r.method === "POST" && r.path.endsWith(`/${ZONE}/records`))).toHaveLength(n);
  expect(writes.filter((r) => r.method !== "POST")).toEqual([]);
  // One zone made per migrated file (example.org and the corpus's), none for the adopted one.
  expect(writes.filter((r) => r.path.endsWith("/dns/zones"))).toHaveLength(1 + CORPUS.length);
  expect(records(e, ZONE)).toHaveLength(n);
  // What the service now holds is the zone file, record for record.
  expect((await liveRecords(ZONE)).map(recordKey).sort()).toEqual(read.records.map(recordKey).sort());

  mark = sandbox.operator.requests().length;
  const second = await e.up(program);
  expect(second.summary).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0, same: declared.length });
  // Every resource's outputs, the DnsRecords' type, name, content, ttl, priority and extra among them.
  const outputs = () => JSON.stringify(e.resources().map((r) => [r.urn, r.outputs]));
  const before = outputs();
  const refreshed = await e.refresh();
  expect(refreshed.errors).toEqual([]);
  expect(outputs()).toEqual(before);
  expect(mutating(mark)).toEqual([]);

  // The corpus: what is live is each file, record for record, less what the import listed.
  const report: string[] = [];
  const wrong: string[] = [];
  for (const m of migrated) {
    const r = compare(m, await client.listRecords(m.entry.zone));
    wrong.push(...r.wrong);
    report.push(`${m.entry.file}: ${r.carried} live, ${r.listed} listed`);
  }
  process.stdout.write(`zone corpus: ${report.join("; ")}\n`);
  expect(wrong).toEqual([]);
}, 300_000);
