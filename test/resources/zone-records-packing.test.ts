/**
 * DnsZoneRecords' inputs and outputs keep records in cheap shapes (a TTL under each key, ids and
 * the fields a key does not hold as is beside it): the records read back from them are exactly
 * what check judged, for every kind of record, and a second check reuses them.
 */
import { checkRecordInputs, DEFAULT_LIMITS } from "../../resources/validate";
import { checkZoneRecordsInputs } from "../../resources/zone-records/check";
import { packHeld, recordKey, unpackHeld, unpackRecords } from "../../resources/zone-records/plan";

const ZONE = "example.com";
const declared = [
  { type: "A", name: "www", content: "192.0.2.10", ttl: 300 },
  { type: "AAAA", name: "v6", content: "2001:DB8:0:0::1" },
  { type: "CNAME", name: "docs", content: "www.example.com" },
  { type: "MX", name: "@", content: "mx1.example.com", priority: 10 },
  { type: "TXT", name: "@", content: 'v=spf1 include:"x" -all' },
  { type: "SRV", name: "_sip._tcp", content: "sip.example.com", priority: 5, extra: { weight: 10, port: 5060 } },
  { type: "CAA", name: "@", content: "letsencrypt.org", extra: { flag: 0, tag: "issue" } },
];

/** What DnsRecord's check makes of each record, keyed as DnsZoneRecords keys it. */
function canonical(): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const r of declared) {
    const c = checkRecordInputs({ ...r, zone: ZONE }, DEFAULT_LIMITS);
    if (!c.ok) throw new Error(JSON.stringify(c.failures));
    const { type, name, content, ttl, priority, extra } = c.inputs;
    const rec = { type, name, content, ttl, ...(priority == null ? {} : { priority }), ...(extra == null ? {} : { extra }) };
    out[recordKey(rec)] = rec;
  }
  return out;
}

test("check's packed records read back as DnsRecord's canonical records; only records whose key differs from their content carry fields", async () => {
  const c = await checkZoneRecordsInputs({ zone: ZONE, records: declared }, DEFAULT_LIMITS);
  if (!c.ok) throw new Error(JSON.stringify(c.failures));
  const want = canonical();
  expect(c.inputs.records).toEqual(Object.fromEntries(Object.entries(want).map(([k, r]) => [k, r.ttl])));
  expect(unpackRecords(c.inputs)).toEqual(want);
  expect(Object.keys(c.inputs.fields ?? {}).sort()).not.toContain("www A 192.0.2.10");
  expect(Object.keys(c.inputs.fields ?? {})).toContain("@ MX 10 mx1.example.com.");
  // The next check takes every record from the last one's inputs and returns the same.
  const again = await checkZoneRecordsInputs({ zone: ZONE, records: declared }, DEFAULT_LIMITS, c.inputs as unknown as Record<string, unknown>);
  expect(again).toEqual(c);
  // A zone of A records alone carries no fields.
  const plain = await checkZoneRecordsInputs({ zone: ZONE, records: [declared[0]] }, DEFAULT_LIMITS);
  expect(plain.ok && plain.inputs.fields).toBeUndefined();
});

test("held records go to outputs as TTL and id by key, and back", () => {
  const held = { "www A 192.0.2.10": { id: "rec_1", ttl: 300 }, "@ MX 10 mx1.example.com.": { id: "rec_2", ttl: 3600 } };
  const out = packHeld(held);
  expect(out).toEqual({ records: { "www A 192.0.2.10": 300, "@ MX 10 mx1.example.com.": 3600 }, ids: { "www A 192.0.2.10": "rec_1", "@ MX 10 mx1.example.com.": "rec_2" } });
  expect(unpackHeld(out)).toEqual(held);
  // A state written before the packing kept { id, ttl } under each key: still read.
  expect(unpackHeld({ records: held as unknown as Record<string, number> })).toEqual(held);
});
