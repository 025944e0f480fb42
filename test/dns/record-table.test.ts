/**
 * The record table's rules between records (dns/rules.ts, index.ts), which check,
 * diff, adoption, import and the sandbox call: identity, exclusivity, the messages that name types
 * (generated from the entries), and the two types added by the walk in CONTRIBUTING.md (URI's
 * target rules, SMIMEA as TLSA). Corpus cases for both are in test/dns-corpus/miekg-dns.json.
 */
import { canonicalize, exclusivityClash, RECORD_TYPES, recordIdentity, sameRecord, standsAlone, zoneLine } from "../../dns";
import { toRecords } from "../../dns/zonefile";

const content = (type: string, c: string, name = "_x._tcp"): string | string[] => {
  const r = canonicalize({ type, name, content: c }, "example.com");
  return r.record ? r.record.content : r.problems.map((p) => `${p.field}: ${p.rule}`);
};

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

describe("URI (RFC 7553)", () => {
  it("reads priority, weight and a quoted target, canonical with the target quoted", () => {
    expect(content("URI", '10 1 "https://www.example.com/path"')).toBe('10 1 "https://www.example.com/path"');
    expect(content("URI", "010 01 ftp://ftp.example.com/public")).toBe('10 1 "ftp://ftp.example.com/public"');
  });

  it("takes a target longer than 255 octets: it is not a character-string (§4.5)", () => {
    const long = `https://example.com/${"a".repeat(300)}`;
    expect(content("URI", `1 1 "${long}"`)).toBe(`1 1 "${long}"`);
  });

  it("refuses an empty target, a target without a scheme, white space in it, and a wrong field count, naming the rule", () => {
    expect(content("URI", '10 1 ""')).toEqual([expect.stringContaining("RFC 7553 §4.5")]);
    expect(content("URI", '10 1 "www.example.com"')).toEqual([expect.stringContaining("starts with its scheme")]);
    expect(content("URI", '10 1 "https://a b"')).toEqual([expect.stringContaining("white space")]);
    expect(content("URI", '10 "https://a"')).toEqual([expect.stringContaining("priority weight")]);
    expect(content("URI", '70000 1 "https://a"')).toEqual([expect.stringContaining("outside 0 to 65535")]);
  });

  it("reads from a zone file end to end (relative owner, long target)", () => {
    const target = `https://www.example.com/${"b".repeat(280)}`;
    const read = toRecords(`$ORIGIN example.com.\n$TTL 300\n_http._tcp IN URI 10 1 "${target}"\n`, "example.com");
    expect(read.records).toEqual([expect.objectContaining({ type: "URI", name: "_http._tcp", content: `10 1 "${target}"`, ttl: 300 })]);
  });
});

describe("SMIMEA (RFC 8162): TLSA's fields and rules", () => {
  it("is canonical as TLSA is (numbers without leading zeros, hex lower case, spaces dropped)", () => {
    expect(content("SMIMEA", "03 0 1 CDCF0FC66B182928C5217DDD42C826983F5A4B94160EE6C1C9BE62D38199F710", "x._smimecert")).toBe(
      "3 0 1 cdcf0fc66b182928c5217ddd42c826983f5a4b94160ee6c1c9be62d38199f710",
    );
  });

  it("refuses what TLSA refuses: a usage outside the registry, a digest of the wrong length", () => {
    expect(content("SMIMEA", "4 0 1 cdcf", "x._smimecert")).toEqual([expect.stringContaining("certificate usage 4")]);
    expect(content("SMIMEA", "3 0 1 abcd", "x._smimecert")).toEqual([expect.stringContaining("matching type 1 needs 64")]);
  });
});

describe("a type or key named like an object's built-in member (read from a zone or an answer)", () => {
  const members = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"];
  it.each(members)("%s is an unknown type, passed through and printed as written", (type) => {
    expect(exclusivityClash(type, [{ type: "TXT" }])).toBeUndefined();
    expect(zoneLine({ type, name: "@", content: "as written", ttl: 300, priority: null, extra: null }, "example.com")).toBe(`example.com.\t300\tIN\t${type}\tas written`);
  });

  it("constructor (the one such name a key's syntax lets through) is not a registered SvcParamKey of an SVCB record", () => {
    expect(content("SVCB", "1 svc.example.com. constructor=1", "@")).toEqual([expect.stringContaining('has the parameter key "constructor", which is neither a registered SvcParamKey')]);
  });
});
