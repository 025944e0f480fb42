/**
 * The linear-cost section at a tiny size: both kinds go through up, no-op up, refresh and destroy
 * (ours's up by the yielding program, its no-op up by the synchronous one), and an imported zone's
 * program through its first up, against a real sandbox and the real
 * provider host (needs `npm run build`: the preload and the programs run from dist/), and every
 * process's CPU file is found. No figure is judged here but the imported up's request count.
 */
import { linear, linearSizes, linearSkip } from "../../../dev/bench/linear";

test("sizes: 100 and 300; 1,000, 3,000 and 10,000 with BENCH_LARGE=1; any list with BENCH_LINEAR_SIZES", () => {
  expect(linearSizes({})).toEqual([100, 300]);
  expect(linearSizes({ BENCH_LARGE: "1" })).toEqual([1000, 3000, 10_000]);
  expect(linearSizes({ BENCH_LINEAR_SIZES: "1000,10000", BENCH_LARGE: "1" })).toEqual([1000, 10_000]);
  expect(() => linearSizes({ BENCH_LINEAR_SIZES: "1000,ten" })).toThrow(/BENCH_LINEAR_SIZES: "1000,ten" is not a list of record counts/);
});

test("BENCH_LINEAR_SKIP leaves out the bare kind, the yielding up or the imported up; nothing by default", () => {
  expect(linearSkip({})).toEqual([]);
  expect(linearSkip({ BENCH_LINEAR_SKIP: "bare,yielding,imported" })).toEqual(["bare", "yielding", "imported"]);
  expect(() => linearSkip({ BENCH_LINEAR_SKIP: "bare,cli" })).toThrow(/BENCH_LINEAR_SKIP: "cli" is not one of bare, yielding, imported/);
});

test("linear: CPU per record of the program and the host, ours and bare, for every operation", async () => {
  const lines: string[] = [];
  // The ours up is the yielding program's (one engine run fewer); the no-op up after it runs the
  // synchronous program, which must declare the same 3 records for the section's summary check to pass.
  const m = await linear({ sizes: [3], parallel: 4, yieldEvery: 2, yieldingOursUp: true }).run((l) => lines.push(l));
  for (const kind of ["Ours", "Bare"]) {
    for (const figure of ["ProgramUp", "ProgramNoop", "HostUp", "HostNoop", "HostRefresh", "HostDestroy"]) {
      expect(m[`linear${kind}${figure}MsPerRecordAt3`]).toBeGreaterThan(0);
    }
    // Refresh and destroy run no program.
    expect(m).not.toHaveProperty(`linear${kind}ProgramRefreshMsPerRecordAt3`);
    expect(m[`linear${kind}FirstRequestSecondsAt3`]).toBeGreaterThan(0);
    expect(m[`linear${kind}UpSecondsAt3`]).toBeGreaterThanOrEqual(m[`linear${kind}FirstRequestSecondsAt3`] as number);
  }
  // The yielding program (a turn of the event loop after every 2 records) created all 3, in the ours up.
  expect(m.linearOursYieldingFirstRequestSecondsAt3).toBeGreaterThan(0);
  expect(m.linearOursYieldingUpSecondsAt3).toBeGreaterThan(0);
  expect(m.linearOursYieldingFirstRequestSecondsAt3).toBe(m.linearOursFirstRequestSecondsAt3);
  expect(m.linearOursYieldingUpSecondsAt3).toBe(m.linearOursUpSecondsAt3);
  // The imported program's first up: the adoptions share the zone's one read.
  // Besides, check's predictions (resources/kit/preflight.ts): the credential read, the zone list and the zone.
  expect(m.linearImportedUpRequestsAt3).toBe(4);
  expect(m.linearImportedFirstRequestSecondsAt3).toBeGreaterThan(0);
  expect(m.linearImportedProgramUpMsPerRecordAt3).toBeGreaterThan(0);
  expect(m.linearImportedHostUpMsPerRecordAt3).toBeGreaterThan(0);
  // One size: every growth is 1 by definition; ours over bare is a ratio of the two totals.
  expect(m.linearOursGrowth).toBe(1);
  expect(m.linearOursOverBareAt3).toBeCloseTo((m.linearOursMsPerRecordAt3 as number) / (m.linearBareMsPerRecordAt3 as number), 1);
  expect(lines.map((l) => l.replace(/[\d.]+ s/g, "# s"))).toEqual([
    "ours 3: # s CPU (program and host), # s wall",
    "bare 3: # s CPU (program and host), # s wall",
    "ours 3, yielding every 2: up in # s wall",
    "imported 3: up in # s wall, 4 requests",
  ]);
}, 300_000);
