/**
 * The record corpus: cases taken from public DNS tools' own tests (*.json here, each citing its
 * repository, commit, path and line), run through the SDK's provider host over gRPC and the sandbox
 * over HTTP, one host and one sandbox for all of them but a CNAME that shares its name with another
 * case: the host judges every record it is given as one program's, where a CNAME must stand alone
 * at its name, so such a case is checked and created in a lane (a host and a sandbox) of its own.
 *
 * - every valid case passes `check`, the sandbox takes it as written, it is created, and a second
 *   check + diff and a refresh (read) show no change;
 * - every invalid case is refused at `check` naming field, value and rule, before any API call;
 * - `check` and the sandbox agree on every case;
 * - where the source gives a canonical text, it is the same record as the input (same canonical
 *   content); where a case states the canonical form, check produces it.
 * Verdicts come from the sources (or from an RFC, with a `why` where we differ from the source).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { hasErrorCode, isResellerApiError } from "../../api/errors";
import { relativeName, zoneLine, type CanonicalRecord } from "../../dns";
import { toRecords } from "../../dns/zonefile";
import type { RecordInput } from "../../api/views";
import { startSandbox } from "../../sandbox/index";
import { Managed, startEnv, type Env } from "../resources/lifecycle/harness";

interface Case {
  id: string;
  source: { repo: string; commit: string; path: string; line: number; test?: string };
  zone: string;
  record: Record<string, unknown> & { type: string; content: string };
  verdict: "valid" | "invalid";
  field?: string;
  sourceVerdict?: string;
  why?: string;
  canonical?: Record<string, unknown>;
  sourceCanonical?: Record<string, unknown> & { content: string };
}

const FILES = ["miekg-dns.json", "octodns.json", "powerdns-zones.json"];
const cases: Case[] = FILES.flatMap((f) => (JSON.parse(fs.readFileSync(path.join(__dirname, f), "utf8")) as { cases: Case[] }).cases);
const zones = [...new Set(cases.map((c) => c.zone))];

/** The lanes (a host and a sandbox each) and each case's lane. */
const envs: Env[] = [];
const laneOf = new Map<string, number>();
const envOf = (c: Case): Env => envs[laneOf.get(c.id)!];
type Checked = Awaited<ReturnType<Managed["check"]>>;
/** Each case's first check, and of its source's canonical text, made once (and timed) in beforeAll. */
const first = new Map<string, Checked>();
const ofSource = new Map<string, Checked>();
let requestsDuringChecks = -1;
let checkMs = 0;

/** Runs `f` over items, `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, f: (t: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await f(items[i], i);
      }
    }),
  );
  return out;
}

const args = (c: Case, record: Record<string, unknown> = c.record) => ({ zone: c.zone, ...record });
const valueAt = (o: Record<string, unknown>, field: string): unknown => field.split(".").reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), o);
const shown = (v: unknown) => JSON.stringify(v).slice(0, 40);
/** JSON with object keys sorted, so {a,b} and {b,a} compare equal. */
const stable = (v: unknown): string => JSON.stringify(v, (_k, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));

/**
 * Cases in rounds that can stand in one zone together: the zone keeps a CNAME alone at its name and
 * refuses an identical record twice, which says nothing about the cases themselves. Cases check
 * refuses never reach a zone (unless the sandbox wrongly takes one, then it is deleted at once).
 */
function rounds(list: Case[]): Case[][] {
  const out: { at: Map<string, string[]>; cases: Case[] }[] = [];
  for (const c of list) {
    const r = first.get(c.id)!;
    if (r.failures.length) {
      (out[0] ??= { at: new Map(), cases: [] }).cases.push(c);
      continue;
    }
    const owner = `${c.zone} ${r.inputs.name as string}`;
    const type = r.inputs.type as string;
    const record = stable([type, r.inputs.content, r.inputs.priority ?? null, r.inputs.extra ?? null]);
    const fits = (x: { at: Map<string, string[]> }) => {
      const here = x.at.get(owner) ?? [];
      return !here.includes(record) && !(here.length && (type === "CNAME" || here.some((h) => h.startsWith('["CNAME"'))));
    };
    let round = out.find(fits);
    if (!round) out.push((round = { at: new Map(), cases: [] }));
    round.at.set(owner, [...(round.at.get(owner) ?? []), record]);
    round.cases.push(c);
  }
  return out.map((x) => x.cases);
}

/**
 * Lanes for the cases, so that no lane holds a CNAME and another case at the same name: cases are
 * independent records, not one zone, but the host judges what one program declares together.
 */
function lanes(list: Case[]): number {
  const at = new Map<string, { lane: number; cname: boolean }[]>();
  let count = 1;
  for (const c of list) {
    // The name as written, made relative by hand: relativeName refuses the invalid cases' names.
    const name = String(c.record.name ?? "@").toLowerCase().replace(/\.$/, "");
    const zone = c.zone.toLowerCase();
    const owner = `${zone} ${name === zone || name === "" ? "@" : name.endsWith(`.${zone}`) ? name.slice(0, -zone.length - 1) : name}`;
    const cname = String(c.record.type).toUpperCase() === "CNAME";
    const here = at.get(owner) ?? [];
    let lane = 0;
    while (here.some((h) => h.lane === lane && (cname || h.cname))) lane++;
    count = Math.max(count, lane + 1);
    here.push({ lane, cname });
    at.set(owner, here);
    laneOf.set(c.id, lane);
  }
  return count;
}

beforeAll(async () => {
  // The sandbox starts from a state (in memory) holding one active, empty zone per corpus zone.
  const seed = await startSandbox({ port: 0, seed: false });
  const state = seed.operator.state();
  await seed.close();
  for (const z of zones) state.zones[z] = { domain: z, status: "active", records: [] };
  // A DS is only at a delegation point (RFC 4035 §2.4): each DS case's name is delegated first.
  for (const c of cases.filter((x) => x.record.type === "DS")) {
    const name = relativeName(String(c.record.name ?? "@"), c.zone);
    if (name !== "@") state.zones[c.zone].records.push({ id: `rec_ns_${c.id}`, type: "NS", name, content: "ns.delegated-host.net", ttl: 3600, priority: null, extra: null });
  }
  const count = lanes(cases);
  for (let i = 0; i < count; i++) envs.push(await startEnv({ seed: false, state: structuredClone(state) }));
  const marks = envs.map((e) => e.mark());
  const t0 = Date.now();
  await pool(cases, 16, async (c) => {
    first.set(c.id, await new Managed(envOf(c), "DnsRecord", c.id).check(args(c)));
    if (c.sourceCanonical) ofSource.set(c.id, await new Managed(envOf(c), "DnsRecord", `source-${c.id}`).check(args(c, c.sourceCanonical)));
  });
  checkMs = Date.now() - t0;
  // Check reads the service to predict up (resources/kit/preflight.ts); it never writes.
  requestsDuringChecks = envs.reduce((n, e, i) => n + e.mutatingSince(marks[i]).length, 0);
}, 120_000);
afterAll(async () => {
  for (const e of envs) await e.close();
});

test("the corpus holds at least 300 cases, each citing its source; every difference from a source says why", () => {
  expect(cases.length).toBeGreaterThanOrEqual(300);
  expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  for (const c of cases) {
    expect(c.source.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
    expect(c.source.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(c.source.line).toBeGreaterThan(0);
    expect(["valid", "invalid"]).toContain(c.verdict);
    if (c.sourceVerdict !== undefined && c.sourceVerdict !== c.verdict) expect(c.why).toMatch(/\w.{30,}/);
  }
  const summary = { valid: cases.filter((c) => c.verdict === "valid").length, invalid: cases.filter((c) => c.verdict === "invalid").length };
  expect(summary.valid).toBeGreaterThan(100);
  expect(summary.invalid).toBeGreaterThan(50);
});

test("check: valid cases pass, invalid ones are refused naming field, value and rule, and nothing is written", () => {
  expect(requestsDuringChecks).toBe(0);
  process.stdout.write(`dns-corpus: ${cases.length} cases checked through the provider host in ${checkMs} ms\n`);
  const wrong: string[] = [];
  for (const c of cases) {
    const r = first.get(c.id)!;
    const refused = r.failures.length > 0;
    if (c.verdict === "valid" && refused) wrong.push(`${c.id}: refused: ${r.failures.map((f) => f.reason).join("; ")}`);
    if (c.verdict === "invalid") {
      if (!refused) wrong.push(`${c.id}: not refused (${JSON.stringify(r.inputs.content)})`);
      for (const f of r.failures) {
        const prop = f.property as string;
        if (!(f.reason as string).startsWith(`${prop}: `)) wrong.push(`${c.id}: reason does not name its field ${prop}: ${f.reason}`);
        const v = valueAt(c.record, prop);
        if (v !== undefined && v !== null && !(f.reason as string).includes(shown(v).slice(1, 30))) wrong.push(`${c.id}: reason does not show the value ${shown(v)}: ${f.reason}`);
        if ((f.reason as string).length < prop.length + 12) wrong.push(`${c.id}: reason gives no rule: ${f.reason}`);
      }
      if (c.field && !r.failures.some((f) => f.property === c.field)) wrong.push(`${c.id}: expected a failure on ${c.field}, got ${r.failures.map((f) => f.reason).join("; ")}`);
    }
    if (c.verdict === "valid" && !refused && c.canonical)
      for (const [k, v] of Object.entries(c.canonical)) if (stable(r.inputs[k]) !== stable(v)) wrong.push(`${c.id}: ${k} is ${stable(r.inputs[k])}, the case says ${stable(v)}`);
  }
  expect(wrong).toEqual([]);
});

test("the source's own canonical text is the same record as its input", () => {
  const withCanonical = cases.filter((c) => c.verdict === "valid" && c.sourceCanonical);
  expect(withCanonical.length).toBeGreaterThan(40);
  const key = (x: Checked) => stable([x.inputs.type, x.inputs.content, x.inputs.priority ?? null, x.inputs.extra ?? null]);
  const wrong: string[] = [];
  for (const c of withCanonical) {
    const a = first.get(c.id)!;
    const b = ofSource.get(c.id)!;
    if (b.failures.length || key(a) !== key(b)) wrong.push(`${c.id}: ${key(a)} vs source canonical ${b.failures.length ? b.failures.map((f) => f.reason).join("; ") : key(b)}`);
  }
  expect(wrong).toEqual([]);
});

test("every valid case prints as a zone-file line that reads back as the same record", () => {
  const wrong: string[] = [];
  for (const c of cases.filter((x) => x.verdict === "valid")) {
    const r = first.get(c.id)!.inputs as unknown as CanonicalRecord;
    const line = zoneLine(r, c.zone);
    // A DS reads back only at a delegation point (RFC 4035 §2.4): its name is delegated first.
    const delegation = r.type === "DS" ? `${line.split("\t")[0]} 3600 IN NS ns.delegated-host.net.\n` : "";
    const back = toRecords(`${delegation}${line}\n`, c.zone);
    const same = (x: CanonicalRecord) => stable([x.type, x.name, x.content, x.priority ?? null, x.extra ?? null, x.ttl]);
    const read = back.records.filter((x) => x.type === r.type);
    if (read.length !== 1 || same(read[0]) !== same(r)) wrong.push(`${c.id}: ${line} read back as ${JSON.stringify(back)}`);
  }
  expect(wrong).toEqual([]);
});

test("the sandbox agrees with check on every case, given the record as written", async () => {
  const wrong: string[] = [];
  for (const round of rounds(cases)) {
    await pool(round, 24, async (c) => {
      const r = first.get(c.id)!;
      try {
        const made = await envOf(c).client.createRecord(c.zone, c.record as unknown as RecordInput);
        await envOf(c).client.deleteRecord(c.zone, made.id);
        if (r.failures.length) wrong.push(`${c.id}: check refused (${r.failures.map((f) => f.reason).join("; ")}) but the sandbox took it`);
        else if (made.content !== r.inputs.content || made.name !== r.inputs.name) wrong.push(`${c.id}: the sandbox stored ${JSON.stringify([made.name, made.content])}, check ${JSON.stringify([r.inputs.name, r.inputs.content])}`);
      } catch (e) {
        if (!isResellerApiError(e) || !hasErrorCode(e, "validation_error")) throw e;
        if (!r.failures.length) wrong.push(`${c.id}: check took it but the sandbox refused: ${e.message}`);
        else if (!r.failures.some((f) => f.property === e.field)) wrong.push(`${c.id}: the sandbox refused ${e.field}, check ${r.failures.map((f) => f.property).join(", ")}`);
      }
    });
  }
  expect(wrong).toEqual([]);
});

test("every valid case is created; a second check + diff and a refresh show no change; then deleted", async () => {
  const valid = cases.filter((c) => c.verdict === "valid");
  const wrong: string[] = [];
  let created = 0;
  for (const round of rounds(valid)) {
    // An up of each: the engine checks, then creates from the checked inputs.
    const made = await pool(round, 24, async (c) => {
      const m = new Managed(envOf(c), "DnsRecord", c.id);
      const step = await m.up(args(c));
      if (step !== "create") wrong.push(`${c.id}: the first up would ${step}`);
      created++;
      return { m, c };
    });
    // Nothing below may write: marked once for the round, as cases of a round run at once.
    const marks = envs.map((e) => e.mark());
    await pool(made, 24, async ({ m, c }) => {
      const again = await m.preview(args(c));
      if (again.step !== "same") wrong.push(`${c.id}: a second up would ${again.step}: ${JSON.stringify(again.diff)}`);
      const before = m.outputs;
      if (!(await m.refresh())) wrong.push(`${c.id}: refresh lost the record`);
      else
        for (const k of ["type", "name", "content", "ttl", "priority", "extra"])
          if (stable(m.outputs[k] ?? null) !== stable(before[k] ?? null)) wrong.push(`${c.id}: refresh changed ${k}: ${stable(before[k])} -> ${stable(m.outputs[k])}`);
    });
    const writes = envs.flatMap((e, i) => e.mutatingSince(marks[i]));
    if (writes.length) wrong.push(`a second up or refresh wrote: ${JSON.stringify(writes.slice(0, 3))}`);
    await pool(made, 24, async ({ m }) => m.destroy());
  }
  expect(created).toBe(valid.length);
  expect(wrong).toEqual([]);
}, 120_000);
