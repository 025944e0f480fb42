/**
 * Real zone files nobody here wrote (zones/, each cited in README.md: DNS servers' test zones from
 * BIND, NSD, Knot and PowerDNS, and operators' published zones) migrated end to end:
 * `reseller-pulumi import --zone-file` for each, then one engine run carrying every zone of a batch
 * through `up`, a second `up` and `refresh`, over real HTTP to the sandbox. What is live is then
 * compared with the file through bind-reader.ts (this test's own reader, not the product's): each
 * record of the file is live with its data, or listed by the import with its line and a reason; a
 * TTL differs only where the import noted a change on that line; nothing is live that the file
 * does not hold.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main, type CliIo } from "../../cli/main";
import { Engine } from "../../engine/engine";
import { ResellerClient } from "../../provider/client";
import type { SandboxHandle } from "../../sandbox/index";
import { generatedProgram } from "../../bench/program-file";
import { fileKey, liveKey, readBind } from "./bind-reader";
import { hostingSandbox } from "./hosting-sandbox";

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
const RPM = 100000;

/** Batches of files with distinct zones: one sandbox and one engine run each. */
function batches(): Entry[][] {
  const out: Entry[][] = [];
  for (const c of CORPUS) {
    const b = out.find((x) => !x.some((y) => y.zone === c.zone));
    if (b) b.push(c);
    else out.push([c]);
  }
  return out;
}

/** A line of the import's report: "  not carried over: [file ]line N: record -- reason". */
const REPORT = /^ {2}(not carried over|changed): (?:(\S+) )?line (\d+): (.*) -- (.+)$/;

interface Migrated {
  entry: Entry;
  project: string;
  skipped: Map<number, string>;
  changed: Map<number, string[]>;
}

let dir: string;
let sandbox: SandboxHandle | undefined;
let client: ResellerClient | undefined;

afterEach(async () => {
  await client?.close();
  await sandbox?.close();
  client = undefined;
  sandbox = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(zones: string[]): Promise<void> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "zone-corpus-"));
  sandbox = await hostingSandbox(zones, { requestsPerMinute: RPM });
  client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: RPM });
}

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

/** One program declaring every migrated zone: each generated index.ts, required in turn. */
function combined(projects: string[]): { file: string } {
  // generatedProgram compiles each project's index.ts into index.js beside it, with its node_modules.
  const files = projects.map((p) => (generatedProgram(p), path.join(p, "index.js")));
  const file = path.join(dir, "all.js");
  fs.writeFileSync(file, files.map((f) => `require(${JSON.stringify(f)});\n`).join(""));
  return { file };
}

const engine = (): Engine =>
  new Engine({
    stack: "dev",
    project: "corpus",
    config: { "reseller:baseUrl": sandbox!.url, "reseller:apiKey": sandbox!.credentials.key, "reseller:apiSecret": sandbox!.credentials.secret, "reseller:requestsPerMinute": String(RPM) },
    secretConfigKeys: ["reseller:apiSecret"],
    parallel: 8,
    log: () => undefined,
  });

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

test("the corpus: at least ten files from at least five public sources, each cited in README.md", () => {
  const readme = fs.readFileSync(path.join(__dirname, "README.md"), "utf8");
  expect(fs.readdirSync(path.join(__dirname, "zones")).sort()).toEqual(CORPUS.map((c) => c.file).sort());
  for (const c of CORPUS) expect(readme).toMatch(new RegExp(`\\| \`zones/${c.file.replace(/\./g, "\\.")}\` \\| [\\w.-]+/[\\w.-]+ \\| \`[^\`]+\` \\| [0-9a-f]{40} \\|`));
  expect(new Set(CORPUS.map((c) => c.file.split("-")[0])).size).toBeGreaterThanOrEqual(5);
});

test.each(batches().map((b, i) => [i + 1, b.map((c) => c.file).join(", "), b] as const))(
  "batch %i (%s): import, up, a second up and refresh; live is the file, record for record, less what is listed",
  async (_n, _files, batch) => {
    await start(batch.map((c) => c.zone));
    const migrated: Migrated[] = [];
    for (const [i, c] of batch.entries()) migrated.push(await migrate(c, i));
    const program = combined(migrated.map((m) => m.project));
    const e = engine();

    const first = await e.up(program);
    expect(first.errors).toEqual([]);
    const declared = e.resources().filter((r) => r.type.endsWith(":DnsRecord") || r.type.endsWith(":DnsZone")).length;
    expect(first.summary).toMatchObject({ create: declared, update: 0, replace: 0, delete: 0 });

    const mark = sandbox!.operator.requests().length;
    const second = await e.up(program);
    expect(second.summary).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0, same: declared });
    const outputs = () => JSON.stringify(e.resources().map((r) => [r.urn, r.outputs]));
    const before = outputs();
    const refreshed = await e.refresh();
    expect(refreshed.errors).toEqual([]);
    expect(outputs()).toEqual(before);
    expect(sandbox!.operator.requests().slice(mark).filter((r) => r.mutating)).toEqual([]);

    const report: string[] = [];
    const wrong: string[] = [];
    for (const m of migrated) {
      const r = compare(m, await client!.listRecords(m.entry.zone));
      wrong.push(...r.wrong);
      report.push(`${m.entry.file}: ${r.carried} live, ${r.listed} listed`);
    }
    process.stdout.write(`zone corpus: ${report.join("; ")}\n`);
    expect(wrong).toEqual([]);
  },
  300_000,
);
