/**
 * The record table's rules between records (provider/records/rules.ts, index.ts), which check,
 * diff, adoption, import and the sandbox call: identity, exclusivity, the messages that name types
 * (generated from the entries).
 */
import { canonicalize, exclusivityClash, RECORD_TYPES, recordIdentity, sameRecord, standsAlone } from "../../provider/records";
import { toRecords } from "../../provider/records/zonefile";

describe("identity", () => {
  const srv = { type: "SRV", name: "_sip._tcp", content: "sip.example.com", priority: 10 };
  it("is type, name, content, priority and every extra field, whatever the order of extra's keys", () => {
    expect(sameRecord({ ...srv, extra: { weight: 5, port: 5060 } }, { ...srv, extra: { port: 5060, weight: 5 } })).toBe(true);
    expect(sameRecord({ ...srv, extra: { weight: 5, port: 5060 } }, { ...srv, extra: { weight: 5, port: 5061 } })).toBe(false);
    expect(sameRecord({ ...srv, extra: null }, { ...srv, priority: 20, extra: null })).toBe(false);
    expect(recordIdentity({ type: "A", name: "@", content: "192.0.2.1", extra: {} })).toBe(recordIdentity({ type: "A", name: "@", content: "192.0.2.1", priority: null, extra: null }));
  });

  it("folds identical records of a zone file into one, extra in either order", () => {
    const read = toRecords("$ORIGIN example.com.\n$TTL 300\n_sip._tcp IN SRV 10 5 5060 sip.example.com.\n_sip._tcp IN SRV 10 5 5060 SIP.example.com.\n", "example.com");
    expect(read.records).toHaveLength(1);
    expect(read.skipped.map((s) => s.reason)).toEqual([expect.stringContaining("RFC 2181 §5")]);
  });
});

describe("exclusivity", () => {
  it("a CNAME stands alone: it clashes with anything at its name, and anything clashes with it", () => {
    expect(standsAlone("cname")).toBe(true);
    expect(standsAlone("A")).toBe(false);
    expect(exclusivityClash("CNAME", [{ type: "TXT" }])).toEqual({ clash: [{ type: "TXT" }], rule: expect.stringContaining("RFC 1034 §3.6.2") });
    expect(exclusivityClash("A", [{ type: "CNAME" }, { type: "TXT" }])?.clash).toEqual([{ type: "CNAME" }]);
    expect(exclusivityClash("A", [{ type: "TXT" }, { type: "A" }])).toBeUndefined();
    expect(exclusivityClash("CNAME", [])).toBeUndefined();
  });
});

describe("messages that name types come from the table", () => {
  it("the types that carry a priority and extra are those whose entries say so", () => {
    const r = canonicalize({ type: "A", name: "x", content: "192.0.2.1", priority: 1, extra: { a: 1 } }, "example.com");
    const withPriority = Object.values(RECORD_TYPES).filter((e) => e.priority).map((e) => e.type);
    const withExtra = Object.values(RECORD_TYPES).filter((e) => e.extra.length > 0).map((e) => e.type);
    expect(withPriority).toEqual(["MX", "SRV"]);
    expect(withExtra).toEqual(["SRV", "CAA"]);
    expect(r.problems.map((p) => p.rule)).toEqual([
      "is not a field of A records (only MX and SRV carry a priority)",
      "is not a field of A records (only SRV {weight, port} and CAA {flag, tag} carry extra)",
    ]);
  });
});
