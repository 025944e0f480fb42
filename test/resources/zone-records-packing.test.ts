/**
 * DnsZoneRecords' inputs and outputs keep records in cheap shapes (a TTL under each key, ids and
 * the fields a key does not hold as is beside it): the records read back from them are exactly
 * what check judged, for every kind of record, and a second check reuses them.
 */
import * as validate from "../../resources/dns-record/schema";
import { checkRecordInputs } from "../../resources/dns-record/schema";
import { DEFAULT_LIMITS } from "../../resources/kit/check";
import { checkZoneRecordsInputs } from "../../resources/zone-records/schema";
import { packHeld, unpackHeld, unpackRecords } from "../../resources/zone-records/plan";
import { recordKey } from "../../resources/shared/record-key";

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

/** The declared records with every extra's keys in the other order. */
const reversedExtra = declared.map((r) => (r.extra ? { ...r, extra: Object.fromEntries(Object.entries(r.extra).reverse()) } : r));

test("a record is one record whatever the order of its extra's keys (the table's identity); the keys state holds are as before", async () => {
  const c = await checkZoneRecordsInputs({ zone: ZONE, records: declared }, DEFAULT_LIMITS);
  if (!c.ok) throw new Error(JSON.stringify(c.failures));
  // The keys of existing states: records without extra, and with extra in the canonical order.
  expect(Object.keys(c.inputs.records).sort()).toEqual(
    ["www A 192.0.2.10", "v6 AAAA 2001:db8::1", "docs CNAME www.example.com.", "@ MX 10 mx1.example.com.", '@ TXT "v=spf1 include:\\"x\\" -all"', "_sip._tcp SRV 5 10 5060 sip.example.com.", '@ CAA 0 issue "letsencrypt.org"'].sort(),
  );
  // Given with extra's keys in the other order: the same records, keys and fields.
  expect(await checkZoneRecordsInputs({ zone: ZONE, records: reversedExtra }, DEFAULT_LIMITS)).toEqual(c);
  // The same SRV given twice, extra's keys in two orders: one record, declared twice.
  const srv = declared[5];
  const twice = await checkZoneRecordsInputs({ zone: ZONE, records: [srv, { ...srv, extra: { port: 5060, weight: 10 } }] }, DEFAULT_LIMITS);
  expect(twice.ok).toBe(false);
  expect(twice.failures.map((f) => f.reason)).toEqual(['records[1]: "_sip._tcp SRV 5 10 5060 sip.example.com." is declared twice (also records[0]); a record is one entry']);
});

test("the next check takes a record given with extra's keys in another order from the last check's inputs, not judging it again", async () => {
  const c = await checkZoneRecordsInputs({ zone: ZONE, records: declared }, DEFAULT_LIMITS);
  if (!c.ok) throw new Error(JSON.stringify(c.failures));
  // The records in canonical form (a record given so is taken from the last check), extra's keys reversed.
  const given = Object.values(unpackRecords(c.inputs)).map((r) => (r.extra ? { ...r, extra: Object.fromEntries(Object.entries(r.extra).reverse()) } : r));
  expect(given.filter((r) => r.extra).map((r) => Object.keys(r.extra ?? {}))).toEqual([
    ["port", "weight"],
    ["tag", "flag"],
  ]);
  const judged = jest.spyOn(validate, "checkRecordInputs");
  try {
    const again = await checkZoneRecordsInputs({ zone: ZONE, records: given }, DEFAULT_LIMITS, c.inputs as unknown as Record<string, unknown>);
    expect(again).toEqual(c);
    expect(judged).not.toHaveBeenCalled();
    // A record not among the last check's is judged (the spy sees calls).
    await checkZoneRecordsInputs({ zone: ZONE, records: [...given, { type: "A", name: "new", content: "192.0.2.11" }] }, DEFAULT_LIMITS, c.inputs as unknown as Record<string, unknown>);
    expect(judged).toHaveBeenCalledTimes(1);
    // A known record whose extra is not an object is judged, and refused, as ever.
    for (const extra of ["", 5, []]) {
      const bad = await checkZoneRecordsInputs({ zone: ZONE, records: [{ ...given[0], extra }] }, DEFAULT_LIMITS, c.inputs as unknown as Record<string, unknown>);
      expect(bad.ok).toBe(false);
      expect(bad.failures.map((f) => f.property)).toEqual(["records[0].extra"]);
    }
  } finally {
    judged.mockRestore();
  }
});

test("check accepts its own result (the engine checks the inputs of an import file so), and a program's records: {} stays refused", async () => {
  const first = await checkZoneRecordsInputs({ zone: ZONE, records: declared, resourceUrn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/reseller:DnsZoneRecords::r" }, DEFAULT_LIMITS);
  if (!first.ok) throw new Error(JSON.stringify(first.failures));
  const held = first.inputs as unknown as Record<string, unknown>;
  expect(held.fields).toBeDefined(); // the MX, SRV, CAA and TXT records carry fields
  expect(await checkZoneRecordsInputs(held, DEFAULT_LIMITS, held)).toEqual(first);
  expect(await checkZoneRecordsInputs(held, DEFAULT_LIMITS)).toEqual(first);
  const empty = await checkZoneRecordsInputs({ zone: ZONE, records: {} }, DEFAULT_LIMITS);
  expect(empty.ok ? "accepted" : empty.failures.map((f) => f.reason)).toEqual(["records: {} is not a list of records ({type, name, content, ttl?, priority?, extra?})"]);
});
