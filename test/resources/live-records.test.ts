/**
 * A zone's live list is canonicalized once per list, whichever groupings read it: preflight's by
 * type and name (shared TTL, adopt) and DnsRecord's adopt by identity (dns-handlers.ts) share one
 * canonical form per list (live-records.ts).
 */
import * as normalize from "../../resources/shared/normalize";
import { identityKey, liveByIdentity, liveByTypeName, liveCanonical, typeNameKey } from "../../resources/host/live-records";
import type { DnsRecord } from "../../provider/views";

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
