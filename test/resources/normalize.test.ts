import {
  canonicalHost,
  canonicalIPv6,
  canonicalNameservers,
  canonicalRecord,
  canonicalChildHost,
  effectiveContacts,
  fqdn,
  relativeName,
  type RecordLike,
} from "../../resources/shared/normalize";

const Z = "example.com";

describe("names", () => {
  test.each([
    ["Example.COM.", "example.com"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["  www.Example.com ", "www.example.com"],
    ["_dmarc.Example.com", "_dmarc.example.com"],
    ["*.example.com", "*.example.com"],
  ])("canonicalHost(%j) = %j", (input, want) => expect(canonicalHost(input)).toBe(want));

  test.each([
    ["@", "@"],
    ["", "@"],
    ["example.com", "@"],
    ["EXAMPLE.com.", "@"],
    ["www", "www"],
    ["WWW.example.com.", "www"],
    ["www.example.com", "www"],
    ["a.b.example.com", "a.b"],
    ["_sip._tcp", "_sip._tcp"],
    ["*", "*"],
  ])("relativeName(%j) = %j", (input, want) => expect(relativeName(input, Z)).toBe(want));

  test("fqdn", () => {
    expect(fqdn("@", Z)).toBe("example.com");
    expect(fqdn("www", Z)).toBe("www.example.com");
  });

  test.each([
    ["ns1", "ns1.example.com"],
    ["NS1.example.com.", "ns1.example.com"],
  ])("canonicalChildHost(%j) = %j", (i, w) => expect(canonicalChildHost(i, Z)).toBe(w));

  test("nameservers compare as sorted canonical sets", () => {
    expect(canonicalNameservers(["NS2.x.net.", "ns1.x.net"])).toEqual(["ns1.x.net", "ns2.x.net"]);
  });
});

describe("content", () => {
  test.each([
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
    ["2001:db8::1", "2001:db8::1"],
    ["0:0:0:0:0:0:0:1", "::1"],
    ["not-an-ip", "not-an-ip"],
  ])("canonicalIPv6(%j) = %j", (i, w) => expect(canonicalIPv6(i)).toBe(w));

  test.each([
    ['"v=spf1 -all"', "v=spf1 -all"],
    // Several strings stay several strings (RFC 1035 §3.3.14): DNS-SD reads each as one key (RFC 6763 §6).
    ['"abc" "def"', '"abc" "def"'],
    ['"txtvers=1"   "rp=x"', '"txtvers=1" "rp=x"'],
    // One string, or exactly the 255-octet split of one text, is that text.
    ['"Intel  486"', "Intel  486"],
    [`"${"a".repeat(255)}" "bc"`, `${"a".repeat(255)}bc`],
    [`${"a".repeat(255)}bc`, `${"a".repeat(255)}bc`],
    ['"a" ""', '"a" ""'],
    ['""', '""'],
    // Text that starts with a quote is written quoted, so it is not read as strings.
    ['"\\"quoted\\""', '"\\"quoted\\""'],
    ['"say \\"hi\\""', 'say "hi"'],
    ["v=spf1 mx -all", "v=spf1 mx -all"],
    ['"foo\\032bar"', "foo bar"],
    ["  spaces kept  ", "  spaces kept  "],
  ])("TXT content %j is %j", (i, w) => expect(canonicalRecord({ type: "TXT", name: "@", content: i }, Z).content).toBe(w));

  test.each([
    ["google.com/some/path", "google.com/some/path"],
    ["ex%61mple.com", "ex%61mple.com"],
  ])("canonicalHost(%j) keeps what no host name holds, for validation to name (%j)", (i, w) => expect(canonicalHost(i)).toBe(w));
});

type Row = [string, RecordLike, Partial<ReturnType<typeof canonicalRecord>>];
const rows: Row[] = [
  ["A trimmed", { type: "a", name: "WWW", content: " 192.0.2.1 " }, { type: "A", name: "www", content: "192.0.2.1", ttl: 3600, priority: null, extra: null }],
  ["AAAA compressed", { type: "AAAA", name: "@", content: "2001:0db8:0000::0001" }, { content: "2001:db8::1" }],
  ["CNAME trailing dot", { type: "CNAME", name: "www", content: "Example.com." }, { content: "example.com" }],
  ["CNAME @ target", { type: "CNAME", name: "www", content: "@" }, { content: "example.com" }],
  ["MX split", { type: "MX", name: "@", content: "10 mail.example.com." }, { content: "mail.example.com", priority: 10 }],
  ["MX structured", { type: "MX", name: "@", content: "mail.example.com", priority: 5 }, { content: "mail.example.com", priority: 5 }],
  ["MX null target", { type: "MX", name: "@", content: ".", priority: 0 }, { content: "." }],
  ["SRV split", { type: "SRV", name: "_sip._tcp", content: "10 5 5060 sip.example.com." }, { priority: 10, extra: { weight: 5, port: 5060 }, content: "sip.example.com" }],
  ["SRV structured", { type: "SRV", name: "_sip._tcp.example.com.", content: "sip.example.com", priority: 1, extra: { weight: 2, port: 3 } }, { name: "_sip._tcp", extra: { weight: 2, port: 3 } }],
  ["CAA split", { type: "CAA", name: "@", content: '0 issue "letsencrypt.org"' }, { content: "letsencrypt.org", extra: { flag: 0, tag: "issue" } }],
  ["CAA structured quoted", { type: "CAA", name: "@", content: '"letsencrypt.org"', extra: { flag: 0, tag: "ISSUE" } }, { content: "letsencrypt.org", extra: { flag: 0, tag: "issue" } }],
  ["TXT strings kept", { type: "TXT", name: "@", content: '"v=DKIM1; " "p=abc"' }, { content: '"v=DKIM1; " "p=abc"' }],
  ["TXT priority dropped (a record the table refuses keeps its fields, trimmed)", { type: "TXT", name: "@", content: "x", priority: 3 }, { priority: null }],
  ["TLSA hex", { type: "TLSA", name: "_443._tcp", content: `03 1 0 ${"ABCDEF"}` }, { content: "3 1 0 abcdef" }],
  ["SSHFP spaces", { type: "SSHFP", name: "@", content: `4  2   ${"AB".repeat(16)} ${"CD".repeat(16)}` }, { content: `4 2 ${"ab".repeat(16)}${"cd".repeat(16)}` }],
  ["DS", { type: "DS", name: "sub", content: `012345 13 2 ${"AA".repeat(32)}` }, { content: `12345 13 2 ${"aa".repeat(32)}` }],
  ["HTTPS", { type: "HTTPS", name: "@", content: "1  .  alpn=h2,h3" }, { content: "1 . alpn=h2,h3" }],
  ["SVCB target", { type: "SVCB", name: "_x", content: "1 Svc.Example.com. port=\"8443\"" }, { content: "1 svc.example.com port=8443" }],
  ["PTR", { type: "PTR", name: "1", content: "Host.Example.com." }, { content: "host.example.com" }],
  ["other type passed through", { type: "LOC", name: "@", content: "  52 22 23.000 N 4 53 32.000 E -2.00m " }, { type: "LOC", content: "52 22 23.000 N 4 53 32.000 E -2.00m" }],
  ["ttl kept", { type: "A", name: "@", content: "192.0.2.1", ttl: 60 }, { ttl: 60 }],
];

describe("canonicalRecord", () => {
  test.each(rows)("%s", (_label, input, want) => expect(canonicalRecord(input, Z)).toMatchObject(want));

  test("is idempotent (canonical of canonical is itself)", () => {
    for (const [, input] of rows) {
      const once = canonicalRecord(input, Z);
      expect(canonicalRecord(once, Z)).toEqual(once);
    }
  });

  test("service forms of the same record are equal to the program's", () => {
    const program = canonicalRecord({ type: "MX", name: "@", content: "mail.example.com.", priority: 10, ttl: 300 }, Z);
    const service = canonicalRecord({ type: "MX", name: "example.com", content: "MAIL.example.com", priority: 10, ttl: 300, extra: null }, Z);
    expect(service).toEqual(program);
  });
});

describe("contacts", () => {
  const jane = { name: " Jane ", email: "jane@Example.COM", phone: "+44 20 7123-4567", addressLine1: "1 St", city: "London", country: "gb" };
  test("omitted admin/tech/billing are the registrant; fields canonical", () => {
    const e = effectiveContacts({ registrant: jane });
    expect(e.admin).toEqual(e.registrant);
    expect(e.registrant).toMatchObject({ name: "Jane", email: "jane@example.com", phone: "+442071234567", country: "GB", organization: null });
  });
  test("four copies equal one registrant", () => {
    expect(effectiveContacts({ registrant: jane, admin: jane, tech: jane, billing: jane })).toEqual(effectiveContacts({ registrant: jane }));
  });
});
