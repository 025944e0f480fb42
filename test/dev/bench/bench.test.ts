/**
 * The bench's plumbing: sections run with tiny sizes against real sandboxes and the real provider
 * host (needs `npm run build`: the host loads dist/resources/runtime), and their figures come
 * from what the sandbox logged. Pure parts (window counts, key renames, --only) on fixed inputs.
 */
import { main, mergeMetrics, parseArgs, reportedMetrics, type Measurement } from "../../../dev/bench/bench";
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

describe("keys and options", () => {
  const section = (id: string, metrics: Record<string, number>, fullRunKeys?: Record<string, string>): Measurement => ({
    id,
    name: `section ${id}`,
    fullRunKeys,
    run: async () => metrics,
  });
  const burst = section("read-burst", { rateLimitUtilization: 0.9, rateLimited429: 0 }, { rateLimitUtilization: "readBurstUtilization", rateLimited429: "readBurst429" });
  const apply = section("records", { rateLimitUtilization: 0.95, rateLimited429: 0 });

  test("a full run renames the read burst's keys; --only keeps them; the JSON object is the last line", async () => {
    const full: string[] = [];
    await main(["--json"], (l) => full.push(l), [apply, burst]);
    expect(JSON.parse(full[full.length - 1])).toEqual({ rateLimitUtilization: 0.95, rateLimited429: 0, readBurstUtilization: 0.9, readBurst429: 0 });

    const only: string[] = [];
    await main(["--only", "read-burst", "--json"], (l) => only.push(l), [apply, burst]);
    expect(JSON.parse(only[only.length - 1])).toEqual({ rateLimitUtilization: 0.9, rateLimited429: 0 });
    expect(only.join("\n")).not.toContain("section records");
  });

  test("a key reported by two sections is refused; unknown options and sections are named", () => {
    expect(() => mergeMetrics([{ name: "a", metrics: { x: 1 } }, { name: "b", metrics: { x: 2 } }])).toThrow(/metric x is reported by both "a" and "b"/);
    expect(reportedMetrics(burst, { rateLimited429: 3 }, false)).toEqual({ rateLimited429: 3 });
    expect(() => parseArgs(["--only", "nope"], [apply, burst])).toThrow(/--only needs one of: records, read-burst/);
    expect(() => parseArgs(["--fast"], [apply, burst])).toThrow(/unknown option "--fast"/);
    expect(parseArgs(["--only=records"], [apply, burst])).toEqual({ json: false, only: "records" });
  });
});

describe("sections against the sandbox", () => {
  test("records: N creates counted from the log, one list call per refresh, no mutating call on a second up", async () => {
    const lines: string[] = [];
    const m = await records({ records: 6, limitPerMinute: 6000, parallel: 3 }).run((l) => lines.push(l));
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
  const m = (await previewReads(3).run(() => undefined)) as Record<string, number>;
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
