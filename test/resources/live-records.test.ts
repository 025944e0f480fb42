/**
 * A zone's live list is canonicalized once per list, whichever groupings read it: preflight's by
 * type and name (shared TTL, adopt) and DnsRecord's adopt by identity (dns-handlers.ts) share one
 * canonical form per list (live-records.ts).
 */
import * as normalize from "../../resources/shared/normalize";
import { identityKey, liveByIdentity, liveByTypeName, liveCanonical, typeNameKey, hasRecordId, withoutRecord, withRecord } from "../../resources/kit/live-records";
import type { DnsRecord } from "../../api/views";

const ZONE = "example.com";
const live = (): DnsRecord[] => [
  { id: "1", type: "a", name: "WWW.example.com.", content: "192.0.2.1", ttl: 300 },
  { id: "2", type: "A", name: "www", content: "192.0.2.2", ttl: 300 },
  { id: "3", type: "MX", name: "@", content: "mx1.example.com", ttl: 3600, priority: 10 },
  { id: "4", type: "SRV", name: "_sip._tcp", content: "sip.example.com.", ttl: 3600, priority: 5, extra: { port: 5060, weight: 10 } },
  { id: "5", type: "A", name: "www", content: "192.0.2.1", ttl: 300 },
];

test("the two groupings of one live list canonicalize each of its records once, together", () => {
  const list = live();
  const canonicalized = jest.spyOn(normalize, "canonicalRecord");
  try {
    const byName = liveByTypeName(list, ZONE);
    const byIdentity = liveByIdentity(list, ZONE);
    expect(liveCanonical(list, ZONE).map((l) => l.live)).toEqual(list);
    // Asked again (the next record of the zone): nothing is canonicalized again.
    expect(liveByTypeName(list, ZONE)).toBe(byName);
    expect(liveByIdentity(list, ZONE)).toBe(byIdentity);
    expect(canonicalized).toHaveBeenCalledTimes(list.length);

    expect([...byName.keys()]).toEqual(["A www", "MX @", "SRV _sip._tcp"]);
    expect(byName.get(typeNameKey({ type: "A", name: "www" }))?.map((l) => l.live.id)).toEqual(["1", "2", "5"]);
    const www1 = byIdentity.get(identityKey({ type: "A", name: "www", content: "192.0.2.1", ttl: 1, priority: null, extra: null }));
    expect(www1?.map((l) => l.live.id)).toEqual(["1", "5"]);
    expect(byIdentity.get(identityKey(liveCanonical(list, ZONE)[3].canonical))?.map((l) => l.canonical)).toEqual([
      { type: "SRV", name: "_sip._tcp", content: "sip.example.com", ttl: 3600, priority: 5, extra: { weight: 10, port: 5060 } },
    ]);

    // Another list (a fresh read) is another list: canonicalized once more.
    const fresh = live();
    liveByIdentity(fresh, ZONE);
    liveByTypeName(fresh, ZONE);
    expect(canonicalized).toHaveBeenCalledTimes(2 * list.length);
  } finally {
    canonicalized.mockRestore();
  }
});

test("a record created or deleted by the host: the new list's forms follow, canonicalizing only the new record", () => {
  const canonicalized = jest.spyOn(normalize, "canonicalRecord");
  try {
    let list = live();
    liveByTypeName(list, ZONE);
    liveByIdentity(list, ZONE);
    const first = list;
    const firstByName = liveByTypeName(first, ZONE);
    const wwwBefore = firstByName.get("A www");
    // As the CLI runs an up: a create, then the next record's check reads the zone's records, 100 times.
    for (let i = 0; i < 100; i++) {
      expect(hasRecordId(list, `n${i}`)).toBe(false);
      list = withRecord(list, { id: `n${i}`, type: "A", name: `host-${i}`, content: "192.0.2.9", ttl: 300 }, ZONE);
      expect(liveByTypeName(list, ZONE).get(`A host-${i}`)?.map((l) => l.live.id)).toEqual([`n${i}`]);
    }
    // One canonicalization per record of the first list, then one per record created: linear, not 100 × the zone.
    expect(canonicalized).toHaveBeenCalledTimes(5 + 100);
    list = withRecord(list, { id: "6", type: "a", name: "www.example.com", content: "192.0.2.3", ttl: 300 }, ZONE);
    expect(liveByTypeName(list, ZONE).get("A www")?.map((l) => l.live.id)).toEqual(["1", "2", "5", "6"]);
    expect(liveByIdentity(list, ZONE).get(identityKey({ type: "A", name: "www", content: "192.0.2.3", ttl: 1, priority: null, extra: null }))?.map((l) => l.live.id)).toEqual(["6"]);
    // A group a reader already holds is not changed under it.
    expect(wwwBefore?.map((l) => l.live.id)).toEqual(["1", "2", "5"]);
    list = withoutRecord(list, "2", ZONE);
    list = withoutRecord(list, "n7", ZONE);
    expect(list.map((r) => r.id)).not.toContain("2");
    expect([hasRecordId(list, "2"), hasRecordId(list, "n7"), hasRecordId(list, "n8"), hasRecordId(first, "n8")]).toEqual([false, false, true, false]);
    expect(liveByTypeName(list, ZONE).get("A www")?.map((l) => l.live.id)).toEqual(["1", "5", "6"]);
    expect(liveByTypeName(list, ZONE).has("A host-7")).toBe(false);
    expect(liveByIdentity(list, ZONE).get(identityKey({ type: "A", name: "www", content: "192.0.2.2", ttl: 1, priority: null, extra: null }))).toBeUndefined();
    expect(canonicalized).toHaveBeenCalledTimes(5 + 101);
    // The forms moved as a fresh read would make them.
    const fresh = list.map((r) => ({ ...r }));
    expect([...liveByTypeName(list, ZONE)].map(([k, g]) => [k, g.map((l) => l.canonical)])).toEqual([...liveByTypeName(fresh, ZONE)].map(([k, g]) => [k, g.map((l) => l.canonical)]));
    // The first list lost its forms to the second: asked again, it is computed afresh, without the later records.
    expect(liveByTypeName(first, ZONE)).not.toBe(firstByName);
    expect(liveByTypeName(first, ZONE).get("A www")?.map((l) => l.live.id)).toEqual(["1", "2", "5"]);
    expect(liveByTypeName(first, ZONE).has("A host-0")).toBe(false);
  } finally {
    canonicalized.mockRestore();
  }
});
