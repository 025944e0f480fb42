/**
 * The zone-records section at a tiny size against a real sandbox and the real provider host (needs
 * `npm run build`): every figure is produced; a no-op up sends nothing and a refresh one list.
 */
import { zoneRecords, zoneRecordsSizes } from "../../../dev/bench/zone-records";

jest.setTimeout(300_000);

test("sizes: 1,000; 1,000, 3,000 and 10,000 with BENCH_LARGE=1; any list with BENCH_ZONE_RECORDS_SIZES", () => {
  expect(zoneRecordsSizes({})).toEqual([1000]);
  expect(zoneRecordsSizes({ BENCH_LARGE: "1" })).toEqual([1000, 3000, 10_000]);
  expect(zoneRecordsSizes({ BENCH_ZONE_RECORDS_SIZES: "5,50" })).toEqual([5, 50]);
  expect(() => zoneRecordsSizes({ BENCH_ZONE_RECORDS_SIZES: "5,x" })).toThrow(/is not a list of record counts/);
});

test("zone-records: first request, CPU per record, requests, state and the creates' floor", async () => {
  // One size, one record: the side-by-side figures at 1 come from the full measurement at 1, which
  // runs the same up and preview the pair would (four engine runs fewer than a size of 3 with the
  // one-record pair apart); the side-by-side figures are still computed and reported.
  const m = await zoneRecords({ sizes: [1], floor: { records: 30, limitPerMinute: 6000, shortWindowSeconds: 0.2 }, reuseFullForSideBySide: true, cli: false }).run(() => undefined);
  expect(m.zoneRecordsNoopRequestsAt1).toBe(0);
  expect(m.zoneRecordsRefreshRequestsAt1).toBe(m.zoneRecordsRefreshPagesAt1);
  expect(m.zoneRecordsRefreshPagesAt1).toBe(1);
  for (const k of ["zoneRecordsMsPerRecordAt1", "zoneRecordsUpMsPerRecordAt1", "zoneRecordsPreviewCpuSecondsAt1", "zoneRecordsStateBytesPerRecordAt1", "zoneRecordsFirstRequestSecondsAt1", "zoneRecordsPreviewCpuSecondsSideBySideAt1", "zoneRecordsPreviewProgramCpuSecondsAt1", "zoneRecordsPreviewHostCpuSecondsAt1"])
    expect(m[k]).toBeGreaterThan(0);
  // The pair is the full measurement: its first request and preview are the same figures, so the later start is 0.
  expect(m.zoneRecordsFirstRequestLaterSeconds).toBe(0);
  expect(m.zoneRecordsGrowth).toBe(1);
  expect(m.zoneRecordsFloor429s).toBe(0);
  expect(m.zoneRecordsFloorSecondsAt30).toBeGreaterThan(0);
  // A window of 0.2 s (sandbox and client) admits 20 requests, fewer than the up sends: the service refuses none.
  expect(m.zoneRecordsShortWindowFloor429s).toBe(0);
  expect(m.zoneRecordsShortWindowFloorSecondsAt30).toBeGreaterThan(0);
});
