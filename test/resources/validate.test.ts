import { UNKNOWN } from "../../resources/kit/check";
import { checkChildHostInputs } from "../../resources/child-host/schema";
import { checkDomainInputs } from "../../resources/domain/schema";
import { checkRecordInputs } from "../../resources/dns-record/schema";
import { checkTemplateInputs } from "../../resources/zone-template/schema";
import { checkZoneInputs } from "../../resources/dns-zone/schema";

const jane = { name: "Jane", email: "jane@example.com", phone: "+441234567890", addressLine1: "1 St", city: "London", country: "GB" };
const domain = (over: Record<string, unknown>) => ({ domain: "example.com", contacts: { registrant: jane }, ...over });
const record = (over: Record<string, unknown>) => ({ zone: "example.com", type: "A", name: "www", content: "192.0.2.1", ttl: 300, ...over });
const reasons = (r: { failures: { reason: string }[] }) => r.failures.map((f) => f.reason);

type Bad = [string, Record<string, unknown>, string];

describe("record failures name field, value and rule", () => {
  const bad: Bad[] = [
    ["ttl low", record({ ttl: 30 }), "ttl: 30 is below the minimum of 60 seconds"],
    ["ttl high", record({ ttl: 86401 }), "ttl: 86401 is above the maximum of 86400 seconds"],
    ["ttl fraction", record({ ttl: 60.5 }), "ttl: 60.5 is not a whole number"],
    ["ttl string", record({ ttl: "300" }), 'ttl: "300" is not a number'],
    ["A", record({ content: "300.1.1.1" }), 'content: "300.1.1.1" is not an IPv4 address'],
    ["AAAA", record({ type: "AAAA", content: "192.0.2.1" }), 'content: "192.0.2.1" is not an IPv6 address'],
    ["CNAME target", record({ type: "CNAME", content: "bad host!" }), "content: \"bad host!\" is not one host name (CNAME, RFC 1035 §3.3.1)"],
    ["CNAME at apex", record({ type: "CNAME", name: "@", content: "x.example.net" }), "name: \"@\" cannot hold a CNAME"],
    ["MX needs priority", record({ type: "MX", name: "@", content: "mail.example.com" }), "priority: is required for MX records"],
    ["priority range", record({ type: "MX", content: "mail.example.com", priority: 70000 }), "priority: 70000 is outside 0 to 65535 (MX preference, RFC 1035 §3.3.9)"],
    ["SRV needs weight", record({ type: "SRV", name: "_sip._tcp", content: "sip.example.com", priority: 1, extra: { port: 5060 } }), "extra.weight: is required for SRV records"],
    ["SRV owner", record({ type: "SRV", name: "sip", content: "10 5 5060 sip.example.com" }), 'name: "sip" is not an SRV owner name'],
    ["SRV port", record({ type: "SRV", name: "_sip._tcp", content: "sip.example.com", priority: 1, extra: { weight: 1, port: 70000 } }), "extra.port: 70000 is outside 0 to 65535 (SRV port, RFC 2782)"],
    ["CAA needs tag", record({ type: "CAA", name: "@", content: "letsencrypt.org", extra: { flag: 0 } }), "extra.tag: is required for CAA records"],
    // Names in content are absolute (dns/README.md): one that can only be relative is refused, the rule shown.
    ["NAPTR relative replacement", record({ type: "NAPTR", content: '100 10 "S" "SIP+D2U" "" _sip._udp' }), 'content: "100 10 \\"S\\" \\"SIP+D2U\\" \\"\\" _sip._udp" has the name _sip._udp, which ends in the label _udp, no top-level domain: names in content are absolute with or without the trailing dot; write the whole name (e.g. _sip._udp.example.com)'],
    ["RP relative mailbox", record({ type: "RP", content: "admin info.example.com" }), 'needs at least 2 labels: a target is a fully qualified name'],
    ["DS at the apex", record({ type: "DS", name: "@", content: "12345 13 2 " + "a".repeat(64) }), 'name: "@" cannot hold a DS record: DS is at the top of the zone'],
    ["CAA flag", record({ type: "CAA", name: "@", content: "x", extra: { flag: 300, tag: "issue" } }), "extra.flag: 300 is outside 0 to 255 (CAA flags, RFC 8659 §4.1)"],
    ["TXT empty", record({ type: "TXT", content: "" }), 'content: "" is empty'],
    ["TLSA shape", record({ type: "TLSA", name: "_443._tcp", content: "3 1 1" }), "is not TLSA content"],
    ["TLSA length", record({ type: "TLSA", name: "_443._tcp", content: "3 1 1 abcd" }), "has 4 hex digits of certificate association data; matching type 1 needs 64 (RFC 6698"],
    ["SSHFP alg", record({ type: "SSHFP", content: "5 2 " + "a".repeat(64) }), "has the SSHFP algorithm 5; assigned values are 1, 2, 3, 4, 6"],
    ["SSHFP len", record({ type: "SSHFP", content: "4 1 abcd" }), "fingerprint type 1 needs 40"],
    ["DS digest type", record({ type: "DS", content: "1 13 5 aa" }), "has the DS digest type 5; assigned values are 1, 2, 3, 4"],
    ["DS hex", record({ type: "DS", content: "1 13 2 " + "z".repeat(64) }), "not hexadecimal"],
    ["HTTPS shape", record({ type: "HTTPS", content: "1" }), "is not HTTPS content"],
    ["SVCB param", record({ type: "SVCB", name: "_x", content: "1 . Bad!Param" }), "has the parameter \"Bad!Param\", whose key is not lower-case letters, digits and hyphens (RFC 9460 §2.1)"],
    ["PTR", record({ type: "PTR", content: "-bad-.example" }), 'content: "-bad-.example" has a label "-bad-" that starts or ends with a hyphen'],
    ["type", record({ type: "A B" }), 'type: "A B" is not a record type'],
    ["zone", record({ zone: "nodot" }), 'zone: "nodot" is not a valid domain name: it needs at least 2 labels'],
    ["name label", record({ name: "a..b" }), "has an empty label"],
    ["absolute outside zone", record({ name: "www.other.org." }), "is an absolute name outside the zone example.com"],
    ["content missing", record({ content: undefined }), "content: is required"],
    ["extra shape", record({ type: "SRV", extra: [1] }), "extra: [1] is not an object"],
    // Refused whole, never cut or decoded (google.com/some/path was stored as google.com, ex%61mple as example).
    ["name with %", record({ name: "ex%61mple" }), 'name: "ex%61mple" holds "%", which no host name can'],
    ["name with ?", record({ name: "www?x" }), 'name: "www?x" holds "?", which no host name can'],
    ["name with #", record({ name: "a#b" }), 'name: "a#b" holds "#", which no host name can'],
    ["name with \\", record({ name: "a\\b" }), 'name: "a\\\\b" holds "\\", which no host name can'],
    ["target with a path", record({ type: "CNAME", content: "google.com/some/path" }), 'content: "google.com/some/path" holds "/", which no host name can'],
    ["target %-encoded", record({ type: "CNAME", content: "ex%61mple.com" }), 'content: "ex%61mple.com" holds "%", which no host name can'],
    ["MX preference twice", record({ type: "MX", name: "@", content: "20 mail.example.com", priority: 10 }), 'content: "20 mail.example.com" carries a preference and priority is also set'],
    ["null MX with a preference", record({ type: "MX", name: "@", content: ".", priority: 10 }), 'priority: 10 must be 0 for a null MX (exchange ".") (RFC 7505 §3)'],
    ["CAA reserved flag bit", record({ type: "CAA", name: "@", content: "ca.example", extra: { flag: 1, tag: "issue" } }), "extra.flag: 1 sets a reserved bit"],
    ["TLSA odd hex", record({ type: "TLSA", name: "_443._tcp", content: "3 1 0 abc" }), "has an odd number of hex digits (3)"],
    ["SVCB port range", record({ type: "HTTPS", name: "@", content: "1 . port=100000" }), "has the port 100000, outside 0 to 65535 (RFC 9460 §7.2)"],
    ["SVCB unknown key", record({ type: "HTTPS", name: "@", content: "1 . foo=bar" }), 'has the parameter key "foo", which is neither a registered SvcParamKey'],
    ["SVCB bad ipv4hint", record({ type: "HTTPS", name: "@", content: "1 . ipv4hint=1.2.3" }), 'holds "1.2.3", which is not an IPv4 address'],
    ["SVCB bad alpn list", record({ type: "HTTPS", name: "@", content: "1 . alpn=h2,,h3" }), "has alpn with an empty item"],
    ["SVCB mandatory absent", record({ type: "HTTPS", name: "@", content: "1 . mandatory=port alpn=h2" }), "has mandatory=port naming port, which the record does not carry (RFC 9460 §8)"],
    ["TXT bad escape", record({ type: "TXT", content: '"a\\300"' }), "above \\255"],
    ["wildcard inside a label", record({ name: "a*.b" }), 'holds "*", which no host name can'],
  ];
  test.each(bad)("%s", (_l, input, want) => {
    const r = checkRecordInputs(input);
    expect(reasons(r).join("\n")).toContain(want);
  });

  test("every mistake of one record in one check: a refused TTL does not hide the name's and the content's (the CLI stops at the first resource that fails)", () => {
    const r = checkRecordInputs(record({ ttl: 30, name: "bad..name", content: "192.0.2.300" }));
    expect(r.failures.map((f) => f.property).sort()).toEqual(["content", "name", "ttl"]);
    expect(reasons(r)).toEqual(
      expect.arrayContaining([
        "ttl: 30 is below the minimum of 60 seconds",
        expect.stringMatching(/^name: "bad\.\.name" has an empty label/),
        expect.stringMatching(/^content: "192\.0\.2\.300" is not an IPv4 address/),
      ]),
    );
    // The record is judged once: with every field good but the record, its failures come once each.
    expect(checkRecordInputs(record({ name: "bad..name" })).failures).toHaveLength(1);
  });

  const good: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["A", record({}), { content: "192.0.2.1", ttl: 300 }],
    ["default ttl and apex", { zone: "Example.com.", type: "a", content: "192.0.2.1" }, { zone: "example.com", type: "A", name: "@", ttl: 3600 }],
    ["MX shorthand", record({ type: "MX", name: "@", content: "10 mail.example.com." }), { priority: 10, content: "mail.example.com" }],
    ["SRV with any protocol label", record({ type: "SRV", name: "_client._smtp", content: "1 1 1 example.com." }), { name: "_client._smtp", priority: 1, extra: { weight: 1, port: 1 } }],
    ["SRV _im._sip", record({ type: "SRV", name: "_im._sip", content: "0 0 0 ." }), { name: "_im._sip", content: "." }],
    ["SRV wildcard owner", record({ type: "SRV", name: "*._tcp", content: "0 0 0 ." }), { name: "*._tcp" }],
    ["TXT escapes decoded", record({ type: "TXT", content: '"foo\\032bar"' }), { content: "foo bar" }],
    ["TXT spaces kept", record({ type: "TXT", content: "  both ends  " }), { content: "  both ends  " }],
    ["CAA RFC 8657", record({ type: "CAA", name: "@", content: '0 issue "letsencrypt.org; validationmethods=dns-01; accounturi=https://acme-v02.api.letsencrypt.org/acme/acct/1"' }), { content: "letsencrypt.org; validationmethods=dns-01; accounturi=https://acme-v02.api.letsencrypt.org/acme/acct/1", extra: { flag: 0, tag: "issue" } }],
    ["CAA IANA tag", record({ type: "CAA", name: "@", content: "+1 555 0100", extra: { flag: 0, tag: "contactphone" } }), { extra: { flag: 0, tag: "contactphone" } }],
    ["TLSA zero-padded", record({ type: "TLSA", name: "_443._tcp", content: "03 01 01 " + "AB".repeat(32) }), { content: "3 1 1 " + "ab".repeat(32) }],
    ["SVCB keys sorted", record({ type: "HTTPS", name: "@", content: "1 . port=443 alpn=h2,h3 ipv6hint=2001:DB8:0::1" }), { content: "1 . alpn=h2,h3 port=443 ipv6hint=2001:db8::1" }],
    ["SRV shorthand", record({ type: "SRV", name: "_sip._tcp", content: "10 5 5060 sip.example.com." }), { priority: 10, extra: { weight: 5, port: 5060 } }],
    ["CAA", record({ type: "CAA", name: "@", content: "letsencrypt.org", extra: { flag: 0, tag: "issue" } }), { content: "letsencrypt.org" }],
    ["TLSA", record({ type: "TLSA", name: "_443._tcp", content: "3 1 1 " + "AB".repeat(32) }), { content: "3 1 1 " + "ab".repeat(32) }],
    ["SSHFP", record({ type: "SSHFP", content: "4 2 " + "a".repeat(64) }), {}],
    ["DS", record({ type: "DS", content: "12345 13 2 " + "A".repeat(64) }), {}],
    ["HTTPS", record({ type: "HTTPS", name: "@", content: "1 . alpn=h2" }), {}],
    ["wildcard", record({ name: "*" }), { name: "*" }],
    ["IDN name", record({ name: "bücher" }), { name: "xn--bcher-kva" }],
    ["NAPTR by its fields", record({ type: "NAPTR", content: '100  10 u "E2U+sip" "!^.*$!sip:x@example.com!" _SIP._udp.Example.com.' }), { content: '100 10 "u" "E2U+sip" "!^.*$!sip:x@example.com!" _sip._udp.example.com' }],
    ["RP both names", record({ type: "RP", content: "Admin.example.com. info.example.com" }), { content: "admin.example.com info.example.com" }],
    ["HINFO spaces inside quotes kept", record({ type: "HINFO", content: '"Intel  486"   "Linux"' }), { content: '"Intel  486" "Linux"' }],
    ["TXT several strings stay several", record({ type: "TXT", content: '"txtvers=1" "rp=x"' }), { content: '"txtvers=1" "rp=x"' }],
    // A quoted string of more than 255 octets is split at 255 (RFC 1035 §3.3), so it is that text.
    ["TXT string over 255 octets", record({ type: "TXT", content: `"${"a".repeat(256)}"` }), { content: "a".repeat(256) }],
    ["TXT split, then a boundary kept", record({ type: "TXT", content: `"${"a".repeat(256)}" "" "b"` }), { content: `"${"a".repeat(255)}" "a" "" "b"` }],
    ["unknown type: quoted spaces kept", record({ type: "LOC", content: ' 51 30 12.748 N  0 7 39.611 W 0.00m "a  b" ' }), { content: '51 30 12.748 N 0 7 39.611 W 0.00m "a  b"' }],
  ];
  test.each(good)("accepts %s", (_l, input, want) => {
    const r = checkRecordInputs(input);
    expect(r.failures).toEqual([]);
    expect(r.inputs).toMatchObject(want);
  });
});

describe("domain", () => {
  const bad: Bad[] = [
    ["name", domain({ domain: "exa mple.com" }), 'domain: "exa mple.com" is not a valid domain name: it contains white space'],
    ["hyphen", domain({ domain: "-x.com" }), "has an invalid label"],
    ["years", domain({ years: 11 }), "years: 11 is above the maximum of 10 years"],
    ["years zero", domain({ years: 0 }), "years: 0 is below the minimum of 1 years"],
    ["ns count", domain({ nameservers: ["ns1.example.net"] }), "has 1 entries; a domain needs 2 to 5 nameservers"],
    ["ns six", domain({ nameservers: ["a", "b", "c", "d", "e", "f"].map((x) => `${x}.ns.net`) }), "has 6 entries"],
    ["ns dup", domain({ nameservers: ["ns1.x.net", "NS1.x.net."] }), "nameservers[1]: \"NS1.x.net.\" is listed twice"],
    ["contacts missing", { domain: "example.com" }, "contacts: is required"],
    ["registrant missing", domain({ contacts: { admin: jane } }), "contacts.registrant: is required"],
    ["email", domain({ contacts: { registrant: { ...jane, email: "jane.example.com" } } }), "contacts.registrant.email: (secret) is not an e-mail address"],
    ["phone", domain({ contacts: { registrant: { ...jane, phone: "0044 1234" } } }), "contacts.registrant.phone: (secret) is not an international phone number"],
    ["country", domain({ contacts: { registrant: { ...jane, country: "GBR" } } }), "contacts.registrant.country: (secret) is not a two-letter country code"],
    ["contact field", domain({ contacts: { registrant: { ...jane, city: "" } } }), "contacts.registrant.city: is required"],
    ["contact type", domain({ contacts: { registrant: jane, owner: jane } }), "contacts.owner: is not a contact type"],
    ["unknown contact field", domain({ contacts: { registrant: { ...jane, street: "1 St" } } }), "contacts.registrant.street: is not a contact field (known: name, email, phone, addressLine1, city, country, organization, addressLine2, state, postalCode)"],
    // Domain's check renames 0.2.0's names (with a warning) before this; given beside the new name, or to the validator alone, it is refused.
    ["0.2.0 contact name", domain({ contacts: { registrant: { ...jane, postal_code: "E1 6AN" } } }), "contacts.registrant.postal_code: is the name 0.2.0 used for postalCode; give postalCode only"],
    ["maxPrice", domain({ maxPrice: "12.345" }), 'maxPrice: "12.345" is not a decimal amount'],
    ["maxPrice negative number", domain({ maxPrice: -12 }), "maxPrice: -12 is not a decimal amount"],
    ["maxPrice float noise", domain({ maxPrice: 0.1 + 0.2 }), "maxPrice: 0.30000000000000004 is not a decimal amount"],
    ["notBefore", domain({ renewal: { notBefore: "2025-02-30" } }), 'renewal.notBefore: "2025-02-30" is not a date YYYY-MM-DD'],
    ["renewal years", domain({ renewal: { years: 20 } }), "renewal.years: 20 is above the maximum"],
    ["renewal key", domain({ renewal: { every: 1 } }), "renewal.every: 1 is not a renewal setting"],
    ["authCode", domain({ authCode: 123 }), "authCode: (secret) is not a string"],
    ["locked", domain({ locked: "yes" }), 'locked: "yes" is not true or false'],
  ];
  test.each(bad)("%s", (_l, input, want) => expect(reasons(checkDomainInputs(input)).join("\n")).toContain(want));

  test("maxPrice as a number is its decimal text: 30 and 12.5 pass as \"30\" and \"12.5\"", () => {
    for (const [given, text] of [[30, "30"], [12.5, "12.5"]] as const) {
      const r = checkDomainInputs(domain({ maxPrice: given }));
      expect(r.failures).toEqual([]);
      expect((r.inputs as { maxPrice?: unknown }).maxPrice).toBe(text);
    }
  });

  test("no secret value appears in any failure", () => {
    const secretContact = { ...jane, email: "SECRET-EMAIL", phone: "SECRET-PHONE", country: "SECRET-COUNTRY" };
    const r = checkDomainInputs(domain({ contacts: { registrant: secretContact }, authCode: "" }));
    expect(r.failures.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(r.failures)).not.toMatch(/SECRET/);
  });

  test("canonical inputs and defaults", () => {
    const r = checkDomainInputs(domain({ domain: "Bücher.DE", nameservers: ["NS1.Example.net.", "ns2.example.net"], contacts: { registrant: { ...jane, phone: "+44 1234 567890" } } }));
    expect(r.failures).toEqual([]);
    expect(r.inputs).toMatchObject({ domain: "xn--bcher-kva.de", years: 1, nameservers: ["ns1.example.net", "ns2.example.net"] });
    expect((r.inputs.contacts as { registrant: { phone: string } }).registrant.phone).toBe("+441234567890");
  });

  test("adopt without contacts is allowed", () => {
    expect(checkDomainInputs({ domain: "example.com", adopt: true }).failures).toEqual([]);
  });
});

describe("child host, zone, template", () => {
  test.each([
    [{ domain: "example.com", hostname: "ns1.other.net", ipv4: ["192.0.2.1"] }, "is not under the domain example.com"],
    [{ domain: "example.com", hostname: "ns1", ipv4: [] }, "ipv4: [] is empty"],
    [{ domain: "example.com", hostname: "ns1", ipv4: ["192.0.2.300"] }, 'ipv4[0]: "192.0.2.300" is not an IPv4 address'],
    [{ domain: "example.com", hostname: "ns1", ipv4: ["192.0.2.1"], ipv6: ["::g"] }, 'ipv6[0]: "::g" is not an IPv6 address'],
    [{ domain: "example.com", hostname: "ns1", ipv4: ["192.0.2.1", "192.0.2.1"] }, "is listed twice"],
  ])("child host %#", (input, want) => expect(reasons(checkChildHostInputs(input)).join("\n")).toContain(want));

  test("child host canonical", () => {
    const r = checkChildHostInputs({ domain: "example.com", hostname: "NS1", ipv4: ["192.0.2.1"], ipv6: ["2001:DB8::0:1"] });
    expect(r.failures).toEqual([]);
    expect(r.inputs).toMatchObject({ hostname: "ns1.example.com", ipv6: ["2001:db8::1"] });
  });

  test("zone", () => {
    expect(reasons(checkZoneInputs({ domain: "x", forceDestroy: 1 })).join("\n")).toMatch(/domain: "x".*\n.*forceDestroy: 1 is not true or false/);
    expect(checkZoneInputs({ domain: "Example.com" }).inputs.domain).toBe("example.com");
  });

  test("template", () => {
    const r = checkTemplateInputs({ zone: "example.com", templateId: "", variables: { a: 1 }, conflictStrategy: "merge" });
    expect(reasons(r)).toEqual([
      'templateId: "" is not a template id (see getTemplates or the reseller portal)',
      "variables.a: 1 is not a string",
      'conflictStrategy: "merge" is not one of skip, replace, cancel',
    ]);
  });
});

describe("unknowns during preview", () => {
  test.each([
    ["record, every field", () => checkRecordInputs({ zone: UNKNOWN, type: UNKNOWN, name: UNKNOWN, content: UNKNOWN, ttl: UNKNOWN, priority: UNKNOWN, extra: UNKNOWN })],
    ["record content only", () => checkRecordInputs(record({ type: "MX", content: UNKNOWN, priority: 10 }))],
    ["domain", () => checkDomainInputs({ domain: UNKNOWN, contacts: UNKNOWN, nameservers: [UNKNOWN, "ns2.x.net"], years: UNKNOWN, maxPrice: UNKNOWN, renewal: UNKNOWN })],
    ["contact field", () => checkDomainInputs(domain({ contacts: { registrant: { ...jane, email: UNKNOWN } } }))],
    ["child host", () => checkChildHostInputs({ domain: UNKNOWN, hostname: UNKNOWN, ipv4: [UNKNOWN] })],
    ["zone", () => checkZoneInputs({ domain: UNKNOWN })],
    ["template", () => checkTemplateInputs({ zone: UNKNOWN, templateId: UNKNOWN, variables: UNKNOWN })],
  ])("%s: no failure, unknown kept", (_l, run) => {
    const r = run();
    expect(r.failures).toEqual([]);
    expect(JSON.stringify(r.inputs)).toContain(UNKNOWN);
  });
});
