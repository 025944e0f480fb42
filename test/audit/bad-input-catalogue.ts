/**
 * The bad-input catalogue: invalid inputs for every resource and read-only function, each with what
 * its rejection must say. `field` is the input path the message names, `shown` the offending value as
 * the message prints it (JSON for plain values, "(secret)" for contact details and auth codes, null
 * where there is no value to print: a missing input, or a key that is itself the mistake), and
 * `rule` a phrase of the rule broken. `secrets` are plain-text values that must NOT be in the message.
 */
import type { Kind } from "../../resources/kinds";

export type FunctionName = "getAvailability" | "checkDomain" | "getPricing" | "getTlds" | "getBalance" | "getTier";

interface Expectation {
  /** Short unique title; also the resource name in the program. */
  title: string;
  field: string;
  shown: string | null;
  rule: string;
  secrets?: string[];
}

export interface ResourceCase extends Expectation {
  kind: Kind;
  args: Record<string, unknown>;
  /** Valid resources declared before the bad one in the same program (e.g. a sibling record). */
  before?: { kind: Kind; title: string; args: Record<string, unknown> }[];
}

export interface FunctionCase extends Expectation {
  fn: FunctionName;
  args?: unknown;
  /** Stack config overrides (reseller:*) for this call. */
  config?: Record<string, string>;
}

/** Contact details are secrets: these strings must never be echoed. */
export const CONTACT = {
  name: "Ottilie Catalogue",
  email: "ottilie.catalogue@private-mail.test",
  phone: "+49 30 1234 5678",
  addressLine1: "7 Hidden Way",
  city: "Berlin",
  postalCode: "10115",
  country: "DE",
};
const CONTACT_SECRETS = [CONTACT.name, CONTACT.email, CONTACT.addressLine1];

const D = "catalogue-ok.com";
const HEX64 = "a".repeat(64);
const HEX40 = "b".repeat(40);

/** Valid inputs of each kind: the catalogue's entries change one thing in them. */
export const VALID: Record<Kind, Record<string, unknown>> = {
  Domain: { domain: D, years: 1, contacts: { registrant: CONTACT }, nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"], maxPrice: "15.00" },
  DnsZone: { domain: D },
  DnsRecord: { zone: D, type: "A", name: "www", content: "192.0.2.10", ttl: 3600 },
  ChildHost: { domain: D, hostname: "ns1", ipv4: ["192.0.2.53"] },
  PrivacyAddon: { domain: D },
  Protection: { domain: D },
  EppCode: { domain: D, trigger: "one" },
  ZoneTemplate: { zone: D, templateId: "google-workspace", variables: { verification: "abc" }, conflictStrategy: "skip" },
  DnsZoneRecords: { zone: D, records: [{ type: "A", name: "zone-records", content: "192.0.2.10", ttl: 3600 }] },
};

const domain = (title: string, args: Record<string, unknown>, field: string, shown: string | null, rule: string, secrets?: string[]): ResourceCase => ({
  kind: "Domain",
  title,
  args: { ...VALID.Domain, ...args },
  field,
  shown,
  rule,
  secrets,
});
const withContact = (c: Record<string, unknown>) => ({ contacts: { registrant: { ...CONTACT, ...c } } });

const rec = (title: string, args: Record<string, unknown>, field: string, shown: string | null, rule: string): ResourceCase => ({
  kind: "DnsRecord",
  title,
  args: { zone: D, name: "www", ttl: 3600, ...args },
  field,
  shown,
  rule,
});

const kindCase = (kind: Kind) => (title: string, args: Record<string, unknown>, field: string, shown: string | null, rule: string): ResourceCase => ({
  kind,
  title,
  args: { ...VALID[kind], ...args },
  field,
  shown,
  rule,
});
const zone = kindCase("DnsZone");
const host = kindCase("ChildHost");
const privacy = kindCase("PrivacyAddon");
const protection = kindCase("Protection");
const epp = kindCase("EppCode");
const template = kindCase("ZoneTemplate");
const zoneRecords = kindCase("DnsZoneRecords");
const zr = (VALID.DnsZoneRecords.records as Record<string, unknown>[])[0];

const longLabel = "a".repeat(64);
const longRef = "r".repeat(256);
const longTxt = "t".repeat(4097);

export const RESOURCE_CASES: ResourceCase[] = [
  // Domain: the name
  domain("domain-empty-label", { domain: "bad..name.com" }, "domain", '"bad..name.com"', "is not a valid domain name: it has an empty label"),
  domain("domain-one-label", { domain: "localhost" }, "domain", '"localhost"', "needs at least 2 labels"),
  domain("domain-leading-hyphen", { domain: "-bad.com" }, "domain", '"-bad.com"', 'has an invalid label "-bad"'),
  domain("domain-white-space", { domain: "exa mple.com" }, "domain", '"exa mple.com"', "contains white space"),
  domain("domain-long-label", { domain: `${longLabel}.com` }, "domain", `"${longLabel}.com"`, "has a label longer than 63 characters"),
  domain("domain-bad-tld", { domain: "example.c0m" }, "domain", '"example.c0m"', 'has an invalid top-level label "c0m"'),
  domain("domain-not-string", { domain: 42 }, "domain", "42", "is not a string"),
  // Domain: term, nameservers, flags, money, renewal
  domain("years-zero", { years: 0 }, "years", "0", "is below the minimum of 1 years"),
  domain("years-eleven", { years: 11 }, "years", "11", "is above the maximum of 10 years"),
  domain("years-fraction", { years: 1.5 }, "years", "1.5", "is not a whole number"),
  domain("years-string", { years: "2" }, "years", '"2"', "is not a number"),
  domain("ns-one", { nameservers: ["ns1.dns.sandbox.test"] }, "nameservers", '["ns1.dns.sandbox.test"]', "has 1 entries; a domain needs 2 to"),
  domain("ns-twice", { nameservers: ["ns1.dns.sandbox.test", "NS1.dns.sandbox.test."] }, "nameservers[1]", '"NS1.dns.sandbox.test."', "is listed twice"),
  domain("ns-bad-host", { nameservers: ["ns1.dns.sandbox.test", "ns_2!.dns.sandbox.test"] }, "nameservers[1]", '"ns_2!.dns.sandbox.test"', "is not a valid host name"),
  domain("ns-not-list", { nameservers: "ns1.dns.sandbox.test" }, "nameservers", '"ns1.dns.sandbox.test"', "is not a list of host names"),
  domain("locked-string", { locked: "yes" }, "locked", '"yes"', "is not true or false"),
  domain("adopt-number", { adopt: 1 }, "adopt", "1", "is not true or false"),
  domain("max-price-negative", { maxPrice: -5 }, "maxPrice", "-5", "is not a decimal amount: a number, or digits"),
  domain("max-price-float-noise", { maxPrice: 0.1 + 0.2 }, "maxPrice", "0.30000000000000004", "is not a decimal amount: a number, or digits"),
  domain("max-price-precision", { maxPrice: "12.345" }, "maxPrice", '"12.345"', "is not a decimal amount: a number, or digits"),
  domain("renewal-min-days", { renewal: { minDaysRemaining: -1 } }, "renewal.minDaysRemaining", "-1", "is below the minimum of 0 days"),
  domain("renewal-not-before", { renewal: { notBefore: "2025-02-30" } }, "renewal.notBefore", '"2025-02-30"', "is not a date YYYY-MM-DD"),
  domain("renewal-years", { renewal: { years: 20 } }, "renewal.years", "20", "is above the maximum of 10 years"),
  domain("renewal-unknown-key", { renewal: { every: 1 } }, "renewal.every", "1", "is not a renewal setting"),
  domain("renewal-not-object", { renewal: "yearly" }, "renewal", '"yearly"', "is not an object"),
  domain("wait-timeout", { waitTimeoutSeconds: 4000 }, "waitTimeoutSeconds", "4000", "is above the maximum of 3600 seconds"),
  domain("client-ref-long", { clientReference: longRef }, "clientReference", `"${"r".repeat(60)}`, "is longer than 255 characters"),
  domain("client-ref-blank", { clientReference: "   " }, "clientReference", '"   "', "is empty"),
  // Domain: secrets (contact details, auth code) are named by field and rule, never shown
  domain("auth-code-number", { authCode: 987654321 }, "authCode", "(secret)", "is not a string", ["987654321"]),
  domain("auth-code-blank", { authCode: "  " }, "authCode", "(secret)", "is empty"),
  domain("contact-email", withContact({ email: "ottilie.at.private-mail.test" }), "contacts.registrant.email", "(secret)", "is not an e-mail address", ["ottilie.at.private-mail.test", ...CONTACT_SECRETS]),
  domain("contact-email-host", withContact({ email: "ottilie@localhost" }), "contacts.registrant.email", "(secret)", "is not an e-mail address", ["ottilie@localhost", ...CONTACT_SECRETS]),
  domain("contact-phone", withContact({ phone: "030 1234 5678" }), "contacts.registrant.phone", "(secret)", "is not an international phone number", ["030 1234 5678", ...CONTACT_SECRETS]),
  domain("contact-country", withContact({ country: "DEU" }), "contacts.registrant.country", "(secret)", "is not a two-letter country code", ["DEU", ...CONTACT_SECRETS]),
  domain("contact-postal-type", withContact({ postalCode: 4711 }), "contacts.registrant.postalCode", "(secret)", "is not a string", ["4711", ...CONTACT_SECRETS]),
  domain("contacts-not-object", { contacts: CONTACT.email }, "contacts", "(secret)", "is not an object keyed by registrant, admin, tech, billing", CONTACT_SECRETS),
  domain("contact-not-object", { contacts: { registrant: CONTACT, admin: CONTACT.phone } }, "contacts.admin", "(secret)", "is not a contact object", [CONTACT.phone, ...CONTACT_SECRETS]),
  domain("contact-blank-city", withContact({ city: "  " }), "contacts.registrant.city", null, "is required (a non-empty string)", CONTACT_SECRETS),
  domain("contact-unknown-field", withContact({ fax: "+49 30 999999" }), "contacts.registrant.fax", null, "is not a contact field", ["+49 30 999999", ...CONTACT_SECRETS]),
  domain("contact-unknown-type", { contacts: { registrant: CONTACT, owner: CONTACT } }, "contacts.owner", null, "is not a contact type", CONTACT_SECRETS),
  domain("contacts-no-registrant", { contacts: { admin: CONTACT } }, "contacts.registrant", null, "is required", CONTACT_SECRETS),
  domain("contacts-missing", { contacts: undefined }, "contacts", null, "is required"),

  // DnsZone
  zone("zone-empty-label", { domain: "zone..bad.com" }, "domain", '"zone..bad.com"', "has an empty label"),
  zone("zone-empty", { domain: "" }, "domain", '""', "is empty"),
  zone("zone-wait-flag", { waitForDelegation: "true" }, "waitForDelegation", '"true"', "is not true or false"),
  zone("zone-force-destroy", { forceDestroy: 1 }, "forceDestroy", "1", "is not true or false"),
  zone("zone-wait-negative", { waitTimeoutSeconds: -1 }, "waitTimeoutSeconds", "-1", "is below the minimum of 0 seconds"),
  zone("zone-wait-fraction", { waitTimeoutSeconds: 2.5 }, "waitTimeoutSeconds", "2.5", "is not a whole number"),

  // DnsRecord: content by type
  rec("a-octet", { type: "A", content: "256.1.1.1" }, "content", '"256.1.1.1"', "is not an IPv4 address"),
  rec("a-ipv6", { type: "A", content: "2001:db8::1" }, "content", '"2001:db8::1"', "is not an IPv4 address"),
  rec("aaaa-ipv4", { type: "AAAA", content: "192.0.2.1" }, "content", '"192.0.2.1"', "is not an IPv6 address"),
  rec("aaaa-bad-hex", { type: "AAAA", content: "2001:db8::g" }, "content", '"2001:db8::g"', "is not an IPv6 address"),
  rec("cname-apex", { type: "CNAME", name: "@", content: "target.example.net" }, "name", '"@"', "cannot hold a CNAME"),
  rec("cname-target", { type: "CNAME", content: "bad..target.net." }, "content", '"bad..target.net."', "has an empty label"),
  rec("mx-no-priority", { type: "MX", name: "@", content: "mail.example.net." }, "priority", null, "is required for MX records"),
  rec("mx-priority-high", { type: "MX", name: "@", content: "mail.example.net.", priority: 70000 }, "priority", "70000", "is outside 0 to 65535 (MX preference, RFC 1035 §3.3.9)"),
  rec("mx-target", { type: "MX", name: "@", content: "10 mail!.example.net." }, "content", '"10 mail!.example.net."', 'holds "!", which no host name can'),
  rec("txt-empty", { type: "TXT", content: "" }, "content", '""', "is empty"),
  rec("txt-long", { type: "TXT", content: longTxt }, "content", `"${"t".repeat(60)}`, "is longer than 4000 octets"),
  rec("srv-owner", { type: "SRV", name: "sip", content: "sip.example.net.", priority: 10, extra: { weight: 5, port: 5060 } }, "name", '"sip"', "is not an SRV owner name"),
  rec("srv-no-port", { type: "SRV", name: "_sip._tcp", content: "sip.example.net.", priority: 10, extra: { weight: 5 } }, "extra.port", null, "is required for SRV records"),
  rec("srv-port-high", { type: "SRV", name: "_sip._tcp", content: "sip.example.net.", priority: 10, extra: { weight: 5, port: 70000 } }, "extra.port", "70000", "is outside 0 to 65535 (SRV port, RFC 2782)"),
  rec("srv-weight-negative", { type: "SRV", name: "_sip._tcp", content: "sip.example.net.", priority: 10, extra: { weight: -1, port: 5060 } }, "extra.weight", "-1", "is outside 0 to 65535 (SRV weight, RFC 2782)"),
  rec("srv-target", { type: "SRV", name: "_sip._tcp", content: "sip server.example.net.", priority: 10, extra: { weight: 5, port: 5060 } }, "content", '"sip server.example.net."', "is not an SRV target host name"),
  rec("caa-flag", { type: "CAA", name: "@", content: "letsencrypt.org", extra: { flag: 300, tag: "issue" } }, "extra.flag", "300", "is outside 0 to 255 (CAA flags, RFC 8659 §4.1)"),
  rec("caa-tag", { type: "CAA", name: "@", content: "letsencrypt.org", extra: { flag: 0, tag: "is-sue" } }, "extra.tag", '"is-sue"', "is not a CAA tag"),
  rec("caa-empty", { type: "CAA", name: "@", content: " ", extra: { flag: 0, tag: "issue" } }, "content", '" "', "is empty"),
  rec("ptr-target", { type: "PTR", name: "10", content: "host name.example.net." }, "content", '"host name.example.net."', "is not one host name (PTR, RFC 1035 §3.3.12)"),
  rec("tlsa-usage", { type: "TLSA", name: "_443._tcp", content: `4 1 1 ${HEX64}` }, "content", `"4 1 1 ${HEX64.slice(0, 30)}`, "has the TLSA certificate usage 4; assigned values are 0, 1, 2, 3, 255 (RFC 6698"),
  rec("tlsa-not-hex", { type: "TLSA", name: "_443._tcp", content: "3 1 1 xyz" }, "content", '"3 1 1 xyz"', "is not hexadecimal"),
  rec("tlsa-length", { type: "TLSA", name: "_443._tcp", content: "3 1 1 abcd" }, "content", '"3 1 1 abcd"', "has 4 hex digits of certificate association data; matching type 1 needs 64"),
  rec("sshfp-algorithm", { type: "SSHFP", content: `5 2 ${HEX64}` }, "content", `"5 2 ${HEX64.slice(0, 30)}`, "has the SSHFP algorithm 5; assigned values are 1, 2, 3, 4, 6"),
  rec("sshfp-length", { type: "SSHFP", content: `4 1 ${HEX64}` }, "content", `"4 1 ${HEX64.slice(0, 30)}`, "has 64 hex digits of fingerprint; fingerprint type 1 needs 40"),
  rec("ds-key-tag", { type: "DS", name: "sub", content: `70000 13 2 ${HEX64}` }, "content", `"70000 13 2 ${HEX64.slice(0, 30)}`, "has the DS key tag 70000, outside 0 to 65535 (RFC 4034 §5"),
  rec("ds-digest-type", { type: "DS", name: "sub", content: `12345 13 5 ${HEX40}` }, "content", `"12345 13 5 ${HEX40.slice(0, 30)}`, "has the DS digest type 5; assigned values are 1, 2, 3, 4"),
  rec("https-short", { type: "HTTPS", name: "@", content: "1" }, "content", '"1"', "is not HTTPS content"),
  rec("https-param", { type: "HTTPS", name: "@", content: "1 . @alpn" }, "content", '"1 . @alpn"', 'has the parameter "@alpn", whose key is not lower-case letters, digits and hyphens (RFC 9460 §2.1)'),
  rec("svcb-priority", { type: "SVCB", name: "_svc", content: "70000 svc.example.net." }, "content", '"70000 svc.example.net."', "has the SVCB SvcPriority 70000, outside 0 to 65535 (RFC 9460 §2.4.1)"),
  rec("svcb-target", { type: "SVCB", name: "_svc", content: "1 bad..target.net." }, "content", '"1 bad..target.net."', '— "bad..target.net." has an empty label'),
  rec("ns-apex", { type: "NS", name: "@", content: "ns9.other-dns.net." }, "name", '"@"', "cannot hold an NS record: the service manages the zone apex NS records"),
  rec("ns-target", { type: "NS", name: "sub", content: "ns 9.other-dns.net." }, "content", '"ns 9.other-dns.net."', "is not one host name (NS, RFC 1035 §3.3.11)"),
  rec("mx-single-label", { type: "MX", name: "@", content: "mail", priority: 10 }, "content", '"mail"', "needs at least 2 labels"),
  rec("cname-root", { type: "CNAME", content: "." }, "content", '"."', 'is "." (the root), which this record type cannot point to'),
  rec("cname-ip", { type: "CNAME", content: "192.0.2.1" }, "content", '"192.0.2.1"', "its top-level label is all digits (an IP address?)"),
  rec("caa-iodef", { type: "CAA", name: "@", content: "security.example.net", extra: { flag: 0, tag: "iodef" } }, "content", '"security.example.net"', "is not an iodef URL: mailto:address, http: or https: (RFC 8659 §4.4)"),
  rec("caa-issuer", { type: "CAA", name: "@", content: "lets encrypt!", extra: { flag: 0, tag: "issue" } }, "content", '"lets encrypt!"', 'has the issuer "lets encrypt!", which is not a domain name'),
  rec("tlsa-selector", { type: "TLSA", name: "_443._tcp", content: `3 2 1 ${HEX64}` }, "content", `"3 2 1 ${HEX64.slice(0, 30)}`, "has the TLSA selector 2; assigned values are 0, 1, 255"),
  rec("sshfp-not-hex", { type: "SSHFP", content: `4 2 ${"z".repeat(64)}` }, "content", `"4 2 ${"z".repeat(30)}`, "has data that is not hexadecimal (RFC 4255 §3"),
  rec("ds-algorithm-zero", { type: "DS", name: "sub", content: `12345 0 2 ${HEX64}` }, "content", `"12345 0 2 ${HEX64.slice(0, 30)}`, "has the DS algorithm 0, outside 1 to 255 (RFC 4034 §5"),
  rec("https-alias-params", { type: "HTTPS", name: "@", content: "0 svc.example.net. alpn=h2" }, "content", '"0 svc.example.net. alpn=h2"', "has HTTPS priority 0 (AliasMode), which takes no parameters (RFC 9460 §2.4.2)"),
  rec("content-too-long", { type: "LOC", content: "n".repeat(4097) }, "content", `"${"n".repeat(60)}`, "is longer than 4096 characters"),
  // DnsRecord: TTL, priority, extra, type, name, zone
  rec("ttl-low", { type: "A", content: "192.0.2.1", ttl: 30 }, "ttl", "30", "is below the minimum of 60 seconds"),
  rec("ttl-high", { type: "A", content: "192.0.2.1", ttl: 100000 }, "ttl", "100000", "is above the maximum of 86400 seconds"),
  rec("ttl-fraction", { type: "A", content: "192.0.2.1", ttl: 300.5 }, "ttl", "300.5", "is not a whole number"),
  rec("ttl-string", { type: "A", content: "192.0.2.1", ttl: "3600" }, "ttl", '"3600"', "is not a number"),
  {
    ...rec("ttl-shared", { type: "A", name: "shared", content: "192.0.2.2", ttl: 600 }, "ttl", "300 and 600", "differ between the A records named shared in " + D + ': "ttl-shared" has ttl 600, "ttl-shared-sibling" has ttl 300'),
    before: [{ kind: "DnsRecord", title: "ttl-shared-sibling", args: { zone: D, type: "A", name: "shared", content: "192.0.2.1", ttl: 300 } }],
  },
  rec("priority-negative", { type: "MX", name: "@", content: "mail.example.net.", priority: -1 }, "priority", "-1", "is outside 0 to 65535 (MX preference, RFC 1035 §3.3.9)"),
  rec("extra-not-object", { type: "SRV", name: "_sip._tcp", content: "sip.example.net.", priority: 1, extra: "weight=1" }, "extra", '"weight=1"', "is not an object"),
  rec("type-space", { type: "A B", content: "192.0.2.1" }, "type", '"A B"', "is not a record type"),
  rec("type-empty", { type: "", content: "192.0.2.1" }, "type", '""', "is not a record type"),
  rec("name-empty-label", { type: "A", name: "www..x", content: "192.0.2.1" }, "name", '"www..x"', "has an empty label (two dots in a row, or a leading dot) (RFC 1035 §2.3.1)"),
  rec("name-outside-zone", { type: "A", name: "www.other-zone.com.", content: "192.0.2.1" }, "name", '"www.other-zone.com."', "is an absolute name outside the zone catalogue-ok.com"),
  rec("name-wildcard-inner", { type: "A", name: "www.*", content: "192.0.2.1" }, "name", '"www.*"', 'has "*" below its leftmost label: that is not a wildcard but a literal asterisk (RFC 4592 §2.1.1)'),
  rec("name-long", { type: "A", name: `${"n".repeat(63)}.${"n".repeat(63)}.${"n".repeat(63)}.${"n".repeat(50)}`, content: "192.0.2.1" }, "name", `"${"n".repeat(60)}`, "makes a name longer than 253 characters"),
  rec("name-number", { type: "A", name: 7, content: "192.0.2.1" }, "name", "7", "is not a string"),
  rec("content-number", { type: "A", content: 42 }, "content", "42", "is not a string"),
  rec("content-missing", { type: "A" }, "content", null, "is required"),
  rec("zone-invalid", { zone: "not_a_zone", type: "A", content: "192.0.2.1" }, "zone", '"not_a_zone"', "is not a valid domain name"),

  // ChildHost
  host("host-outside", { hostname: "ns1.other-domain.com" }, "hostname", '"ns1.other-domain.com"', "is not under the domain catalogue-ok.com"),
  host("host-bad-label", { hostname: "ns_1" }, "hostname", '"ns_1"', "is not a valid host name"),
  host("host-number", { hostname: 5 }, "hostname", "5", "is not a string"),
  host("host-no-ipv4", { ipv4: [] }, "ipv4", "[]", "needs at least one IPv4 address"),
  host("host-ipv4-bad", { ipv4: ["300.1.1.1"] }, "ipv4[0]", '"300.1.1.1"', "is not an IPv4 address"),
  host("host-ipv4-twice", { ipv4: ["192.0.2.1", "192.0.2.1"] }, "ipv4[1]", '"192.0.2.1"', "is listed twice"),
  host("host-ipv4-not-list", { ipv4: "192.0.2.1" }, "ipv4", '"192.0.2.1"', "is not a list of IPv4 addresses"),
  host("host-ipv6-bad", { ipv6: ["2001:db8::zz"] }, "ipv6[0]", '"2001:db8::zz"', "is not an IPv6 address"),
  host("host-domain", { domain: "x" }, "domain", '"x"', "needs at least 2 labels"),

  // PrivacyAddon, Protection, EppCode
  privacy("privacy-one-label", { domain: "nodot" }, "domain", '"nodot"', "needs at least 2 labels"),
  privacy("privacy-underscore", { domain: "a_b.com" }, "domain", '"a_b.com"', 'has an invalid label "a_b"'),
  privacy("privacy-adopt", { adopt: "no" }, "adopt", '"no"', "is not true or false"),
  privacy("privacy-max-price-negative", { maxPrice: -5 }, "maxPrice", "-5", "is not a decimal amount: a number, or digits"),
  protection("protection-max-price-currency", { maxPrice: "15.00 usd" }, "maxPrice", '"15.00 usd"', "is not a decimal amount: a number, or digits"),
  protection("protection-hyphen", { domain: "-x.com" }, "domain", '"-x.com"', 'has an invalid label "-x"'),
  protection("protection-tld", { domain: "example.123" }, "domain", '"example.123"', 'has an invalid top-level label "123"'),
  protection("protection-missing", { domain: undefined }, "domain", null, "is required"),
  epp("epp-one-label", { domain: "foo" }, "domain", '"foo"', "needs at least 2 labels"),
  epp("epp-list", { domain: ["a.com"] }, "domain", '["a.com"]', "is not a string"),

  // ZoneTemplate
  template("template-zone", { zone: "bad..zone.com" }, "zone", '"bad..zone.com"', "has an empty label"),
  template("template-id-empty", { templateId: "" }, "templateId", '""', "is not a template id"),
  template("template-id-number", { templateId: 7 }, "templateId", "7", "is not a template id"),
  template("template-variables", { variables: "mx=mail" }, "variables", '"mx=mail"', "is not an object of name to string"),
  template("template-variable-type", { variables: { mx_priority: 5 } }, "variables.mx_priority", "5", "is not a string"),
  // DnsZoneRecords: each record judged as a DnsRecord, named by its place
  zoneRecords("zone-records-content", { records: [zr, { type: "A", name: "api", content: "192.0.2.300" }] }, "records[1].content", '"192.0.2.300"', "(record A api)"),
  zoneRecords("zone-records-ttl", { records: [{ ...zr, ttl: 30 }] }, "records[0].ttl", "30", "is below the minimum of 60 seconds"),
  zoneRecords("zone-records-twice", { records: [zr, zr] }, "records[1]", '"zone-records A 192.0.2.10"', "is declared twice (also records[0])"),
  zoneRecords("zone-records-set-ttl", { records: [zr, { ...zr, content: "192.0.2.11", ttl: 600 }] }, "records[1].ttl", "600", "differs from ttl 3600 of records[0]"),
  zoneRecords("zone-records-share", { safety: { maxChangeShare: 2 } }, "safety.maxChangeShare", "2", "is not a share above 0 and at most 1"),
  zoneRecords("zone-records-list", { records: "zone-records A 192.0.2.10" }, "records", '"zone-records A 192.0.2.10"', "is not a list of records"),
  template("template-strategy", { conflictStrategy: "overwrite" }, "conflictStrategy", '"overwrite"', "is not one of skip, replace, cancel"),
];

const fn = (fnName: FunctionName, title: string, args: unknown, field: string, shown: string | null, rule: string, config?: Record<string, string>): FunctionCase => ({
  fn: fnName,
  title,
  args,
  field,
  shown,
  rule,
  config,
});

/** 45 names: the client would send three batches of 20; the bad one is last. */
const batch = [...Array.from({ length: 44 }, (_, i) => `batch-${i}.com`), "batch..44.com"];

export const FUNCTION_CASES: FunctionCase[] = [
  fn("getAvailability", "avail-empty-label", { domains: ["good.com", "bad..name"] }, "domains[1]", '"bad..name"', "has an empty label"),
  fn("getAvailability", "avail-white-space", { domains: ["exa mple.com"] }, "domains[0]", '"exa mple.com"', "contains white space"),
  fn("getAvailability", "avail-batch-last", { domains: batch }, "domains[44]", '"batch..44.com"', "has an empty label"),
  fn("getAvailability", "avail-not-list", { domains: "a.com" }, "domains", '"a.com"', "is not a list of domain names"),
  fn("getAvailability", "avail-name-number", { domains: [42] }, "domains[0]", "42", "is not a string"),
  fn("getAvailability", "avail-years-zero", { domains: ["good.com"], years: 0 }, "years", "0", "is below the minimum of 1 years"),
  fn("getAvailability", "avail-years-high", { domains: ["good.com"], years: 11 }, "years", "11", "is above the maximum of 10 years"),
  fn("getAvailability", "avail-years-fraction", { domains: ["good.com"], years: 2.5 }, "years", "2.5", "is not a whole number"),
  fn("checkDomain", "check-one-label", { domain: "localhost" }, "domain", '"localhost"', "needs at least 2 labels"),
  fn("checkDomain", "check-empty", { domain: "" }, "domain", '""', "is empty"),
  fn("checkDomain", "check-number", { domain: 7 }, "domain", "7", "is not a string"),
  fn("getPricing", "pricing-domain", { action: "register", domain: "bad..name.com" }, "domain", '"bad..name.com"', "has an empty label"),
  fn("getPricing", "pricing-action", { action: "buy", domain: "good.com" }, "action", '"buy"', "is not one of register, renew, transfer, restore"),
  fn("getPricing", "pricing-years-zero", { action: "register", domain: "good.com", years: 0 }, "years", "0", "is below the minimum of 1 years"),
  fn("getPricing", "pricing-years-high", { action: "renew", domain: "good.com", years: 11 }, "years", "11", "is above the maximum of 10 years"),
  fn("getPricing", "pricing-batch-second", [{ action: "register", domain: "good.com" }, { action: "register", domain: "nodot" }], "[1].domain", '"nodot"', "needs at least 2 labels"),
  fn("getTlds", "tlds-rate", undefined, "reseller:requestsPerMinute", '"fast"', "is not a positive number", { "reseller:requestsPerMinute": "fast" }),
  fn("getBalance", "balance-rate-zero", undefined, "reseller:requestsPerMinute", '"0"', "is not a positive number", { "reseller:requestsPerMinute": "0" }),
  fn("getTier", "tier-rate-negative", undefined, "reseller:requestsPerMinute", '"-5"', "is not a positive number", { "reseller:requestsPerMinute": "-5" }),
  fn("getBalance", "balance-base-url-scheme", undefined, "reseller:baseUrl", '"ftp://127.0.0.1:1/api"', "is not an http(s) URL", { "reseller:baseUrl": "ftp://127.0.0.1:1/api" }),
  {
    ...fn("getBalance", "balance-base-url-userinfo", undefined, "reseller:baseUrl", '"ftp://(secret)@127.0.0.1:1/api"', "is not an http(s) URL", { "reseller:baseUrl": "ftp://admin:hunter2-pass@127.0.0.1:1/api" }),
    secrets: ["hunter2-pass"],
  },
  fn("getTier", "tier-base-url", undefined, "reseller:baseUrl", '"not a url"', "is not an http(s) URL", { "reseller:baseUrl": "not a url" }),
  fn("getTier", "tier-contract-json", undefined, "reseller:contract", '"{not json"', "is not valid JSON", { "reseller:contract": "{not json" }),
  fn("getTlds", "tlds-timeout", undefined, "reseller:timeoutSeconds", '"soon"', "is not a positive number", { "reseller:timeoutSeconds": "soon" }),
];
