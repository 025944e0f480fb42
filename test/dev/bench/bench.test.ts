/**
 * The bench's plumbing: sections run with tiny sizes against real sandboxes and the real provider
 * host (needs `npm run build`: the host loads dist/resources/runtime), and their figures come
 * from what the sandbox logged. Pure parts (window counts, metric names, --only) on fixed inputs.
 */
import { checkMetricNames, main, mergeMetrics, parseArgs, SECTIONS, undeclaredMetrics, type Measurement } from "../../../dev/bench/bench";
import { polls } from "../../../dev/bench/polls";
import { applyFigures, records } from "../../../dev/bench/records";
import { maxInWindow } from "../../support/request-log";
import type { RequestLogEntry } from "../../../sandbox/server";

const entry = (atMs: number, status = 201): RequestLogEntry => ({
  at: new Date(atMs).toISOString(),
  method: "POST",
  path: "/api/v1/dns/zones/demo-reseller.com/records",
  status,
  mutating: true,
  idempotency_key: null,
  replayed: false,
  credential: "key_0123456789ab",
  error: null,
  fault: null,
});

describe("figures from a request log", () => {
  // A token bucket of burst 10 at 600/min: 10 requests at once, then one every 100 ms.
  const t0 = Date.parse("2030-01-01T00:00:00.000Z");
  const paced = [...Array.from({ length: 10 }, () => t0), ...Array.from({ length: 190 }, (_, i) => t0 + (i + 1) * 100)];

  test("whole-apply rate, the span rate the burst lifts above 1, busiest second, 429s", () => {
    const log = paced.map((t, i) => entry(t, i === 5 ? 429 : 201));
    const f = applyFigures(log, { startedAtMs: t0 - 2000, ms: 21_000 }, 600);
    expect(f.applyRequests).toBe(200);
    expect(f.applyFirstRequestAfterSeconds).toBe(2);
    expect(f.rateLimitUtilization).toBe(Number(((200 / 21) * 60 / 600).toFixed(3)));
    expect(f.applyRequestSpanUtilization).toBe(Number(((199 / 19) * 60 / 600).toFixed(3)));
    expect(f.applyRequestSpanUtilization).toBeGreaterThan(1);
    expect(f.applySecondHalfUtilization).toBe(1);
    expect(f.applyMaxRequestsInOneSecond).toBe(19);
    expect(f.rateLimited429).toBe(1);
  });

  test("maxInWindow counts the densest window", () => {
    expect(maxInWindow([], 1000)).toBe(0);
    expect(maxInWindow([0, 999, 1000, 1500, 1999, 5000], 1000)).toBe(3);
  });
});

describe("metric names and options", () => {
  const section = (id: string, metrics: Record<string, number>, declared: string[] = Object.keys(metrics)): Measurement => ({
    id,
    name: `section ${id}`,
    metrics: declared,
    run: async () => metrics,
  });
  const burst = section("read-burst", { readBurstUtilization: 0.9, readBurst429: 0 });
  const apply = section("records", { rateLimitUtilization: 0.95, rateLimited429: 0 });

  test("the bench's own sections, each a stub reporting every name it declares: every section printed, every name once, one JSON object last", async () => {
    // A stub reports one name under each prefix a section declares (`linear*`), and each plain name.
    const stubs = SECTIONS.map((s): Measurement => ({ ...s, run: async () => Object.fromEntries(s.metrics.map((m) => [m.endsWith("*") ? `${m.slice(0, -1)}Stub` : m, 1])) }));
    const lines: string[] = [];
    await main(["--json"], (l) => lines.push(l), stubs);
    for (const s of SECTIONS) expect(lines).toContain(`running: ${s.name}`);
    const all = SECTIONS.flatMap((s) => s.metrics);
    expect(Object.keys(JSON.parse(lines[lines.length - 1])).sort()).toEqual(all.map((m) => (m.endsWith("*") ? `${m.slice(0, -1)}Stub` : m)).sort());
    expect(lines.filter((l) => l.startsWith("{"))).toHaveLength(1);
    // The same names, alone: the list as it stands declares none twice.
    expect(() => checkMetricNames(SECTIONS)).not.toThrow();
  });

  test("a name two sections declare, or one under another's prefix, is refused before any section runs", async () => {
    let ran = 0;
    const counted = (s: Measurement): Measurement => ({ ...s, run: async () => (ran++, s.run(() => undefined)) });
    const twice = section("cli-baseline", { records: 300 });
    await expect(main(["--json"], () => undefined, [counted(apply), counted(section("apply", { records: 200 })), counted(twice)])).rejects.toThrow(
      /metric records of "section cli-baseline" clashes with records of "section apply"/,
    );
    expect(ran).toBe(0);
    expect(() => checkMetricNames([section("linear", {}, ["linear*"]), section("other", {}, ["linearCliVersion"])])).toThrow(/metric linearCliVersion of "section other" clashes with linear\* of "section linear"/);
    expect(() => checkMetricNames([section("a", {}, ["shared*"]), section("b", {}, ["sharedCli*"])])).toThrow(/sharedCli\* of "section b" clashes with shared\*/);
    expect(() => checkMetricNames([section("a", {}, ["sharedRequests"]), section("b", {}, ["sharedCli*"])])).not.toThrow();
  });

  test("a section reporting a name it does not declare fails; a declared name left out is allowed; --only keeps the names", async () => {
    const liar = section("liar", { declared: 1, extra: 2 }, ["declared", "skipped"]);
    await expect(main([], () => undefined, [liar])).rejects.toThrow(/"section liar" reported extra, which it does not declare/);
    expect(undeclaredMetrics(section("linear", {}, ["linear*"]), { linearUpSecondsAt10: 1, zoneRecordsGrowth: 2 })).toEqual(["zoneRecordsGrowth"]);

    const only: string[] = [];
    await main(["--only", "read-burst", "--json"], (l) => only.push(l), [apply, burst]);
    expect(JSON.parse(only[only.length - 1])).toEqual({ readBurstUtilization: 0.9, readBurst429: 0 });
    expect(only.join("\n")).not.toContain("section records");
  });

  test("a key reported by two sections is refused; unknown options and sections are named", () => {
    expect(() => mergeMetrics([{ name: "a", metrics: { x: 1 } }, { name: "b", metrics: { x: 2 } }])).toThrow(/metric x is reported by both "a" and "b"/);
    expect(() => parseArgs(["--only", "nope"], [apply, burst])).toThrow(/--only needs one of: records, read-burst/);
    expect(() => parseArgs(["--fast"], [apply, burst])).toThrow(/unknown option "--fast"/);
    expect(parseArgs(["--only=records"], [apply, burst])).toEqual({ json: false, only: "records" });
  });
});

describe("sections against the sandbox", () => {
  test("records: N creates counted from the log, one list call per refresh, no mutating call on a second up", async () => {
    const lines: string[] = [];
    const section = records({ records: 6, limitPerMinute: 6000, parallel: 3 });
    const m = await section.run((l) => lines.push(l));
    expect(undeclaredMetrics(section, m)).toEqual([]);
    expect(m).toMatchObject({
      records: 6,
      rateLimited429: 0,
      refreshCallsPer6Records: 1,
      refreshChanged: 0,
      noopUpMutatingCalls: 0,
      noopUpRequests: 0,
    });
    // The 6 creates, and check's predicting reads (balance, zone list, zone). A record's write drops
    // only the zones' records as check found them, not the list or the zone (preflight.ts
    // dropPreviewReads): before, each create landing between checks made the next read both again.
    expect(m.applyRequests).toBeGreaterThanOrEqual(6);
    expect(m.applyRequests).toBeLessThanOrEqual(6 + 5);
    // Both figures are printed rounded (applySeconds to 0.01 s), so the recomputed value may differ in its last digit.
    expect(m.rateLimitUtilization).toBeCloseTo((((m.applyRequests as number) / (m.applySeconds as number)) * 60) / 6000, 2);
    expect(lines).toContain("refresh: 1 request(s) for 6 records");
  });

  test("polls: the Domain create's own wait on the sandbox's virtual clock, processing for 10 and for 1 simulated minutes", async () => {
    const ten = await polls().run(() => undefined);
    expect(undeclaredMetrics(polls(), ten)).toEqual([]);
    expect(ten).toMatchObject({
      pollsPerRegistration: 12,
      pollsActiveAtSeconds: 607,
      pollTimesSeconds: "0,1,3,7,15,31,63,127,247,367,487,607",
      // The start line, then one every 30 s until the domain was seen active at 607 s.
      pollsProgressLines: 21,
      // The default bound (120 s): polls at 0, 1, 3, 7, 15, 31, 63 and the deadline.
      pollsWithinDefaultWait: 8,
    });
    const one = await polls({ processingSeconds: 60, waitSeconds: 900 }).run(() => undefined);
    expect(one).toMatchObject({ pollsPerRegistration: 7, pollsActiveAtSeconds: 63 });
  });
});

test("previewReads: a preview writes nothing and reads at most once per object, for the demo and an imported estate", async () => {
  const { previewReads } = require("../../../dev/bench/preview-reads") as typeof import("../../../dev/bench/preview-reads");
  const section = previewReads(3);
  const m = (await section.run(() => undefined)) as Record<string, number>;
  expect(undeclaredMetrics(section, m)).toEqual([]);
  expect(m.previewDemoWrites).toBe(0);
  expect(m.previewDemoUnsafe).toBe(0);
  expect(m.previewDemoReads).toBeGreaterThan(0);
  expect(m.previewDemoReads).toBeLessThanOrEqual(m.previewDemoObjects);
  expect(m.previewDemoMostReadsOfOnePath).toBe(1);
  expect(m.previewEstateObjects).toBe(3 * 7);
  expect(m.previewEstateWrites).toBe(0);
  expect(m.previewEstateUnsafe).toBe(0);
  expect(m.previewEstateReads).toBeLessThanOrEqual(m.previewEstateObjects);
  expect(m.previewEstateMostReadsOfOnePath).toBe(1);
  // As an import writes it, every resource adopts: nothing to create.
  expect(m.previewEstateCreates).toBe(0);
  // After the up, nothing is created: the account's one read is all a preview needs.
  expect(m.previewEstateAfterUpWrites).toBe(0);
  expect(m.previewEstateAfterUpReads).toBeLessThanOrEqual(1);
}, 600_000);
