/**
 * The zone-records section at a tiny size against a real sandbox and the real provider host (needs
 * `npm run build`): every figure is produced; a no-op up sends nothing and a refresh one list.
 */
import { zoneRecords, zoneRecordsSizes } from "../../bench/zone-records";

jest.setTimeout(300_000);

test("sizes: 1,000, 3,000 and 10,000 unless BENCH_ZONE_RECORDS_SIZES picks others", () => {
  expect(zoneRecordsSizes({})).toEqual([1000, 3000, 10_000]);
  expect(zoneRecordsSizes({ BENCH_ZONE_RECORDS_SIZES: "5,50" })).toEqual([5, 50]);
  expect(() => zoneRecordsSizes({ BENCH_ZONE_RECORDS_SIZES: "5,x" })).toThrow(/is not a list of record counts/);
});

test("zone-records: first request, CPU per record, requests, state and the creates' floor", async () => {
  // The side-by-side figures at 3 come from the full measurement at 3 (two engine runs fewer); the
  // one-record pair is still measured apart, so the side-by-side path runs.
  const m = await zoneRecords({ sizes: [3], floor: { records: 30, limitPerMinute: 6000, shortWindowSeconds: 0.2 }, reuseLargestForSideBySide: true }).run(() => undefined);
  expect(m.zoneRecordsNoopRequestsAt3).toBe(0);
  expect(m.zoneRecordsRefreshRequestsAt3).toBe(m.zoneRecordsRefreshPagesAt3);
  expect(m.zoneRecordsRefreshPagesAt3).toBe(1);
  for (const k of ["zoneRecordsMsPerRecordAt3", "zoneRecordsPreviewCpuSecondsAt3", "zoneRecordsStateBytesPerRecordAt3", "zoneRecordsFirstRequestSecondsAt1", "zoneRecordsFirstRequestSecondsAt3", "zoneRecordsPreviewCpuSecondsSideBySideAt1", "zoneRecordsPreviewCpuSecondsSideBySideAt3"])
    expect(m[k]).toBeGreaterThan(0);
  expect(m.zoneRecordsGrowth).toBe(1);
  expect(m.zoneRecordsFloor429s).toBe(0);
  expect(m.zoneRecordsFloorSecondsAt30).toBeGreaterThan(0);
  // A window of 0.2 s (sandbox and client) admits 20 requests, fewer than the up sends: the service refuses none.
  expect(m.zoneRecordsShortWindowFloor429s).toBe(0);
  expect(m.zoneRecordsShortWindowFloorSecondsAt30).toBeGreaterThan(0);
});
