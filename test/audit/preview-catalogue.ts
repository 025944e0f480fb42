/**
 * Mistakes users make, each as a program (resources with literal arguments, declared in order) with
 * the stack config it runs under. test/audit/preview-predicts-up.test.ts previews and then ups each
 * through dev/engine/'s step rules and a provider host per command against a fresh sandbox: what fails
 * `up` must fail (or, where said, warn) at `preview` with the same message. `message` is a phrase of it.
 */
import type { Kind } from "../../resources/kinds";
import { CONTACT } from "./bad-input-catalogue";

export interface Mistake {
  title: string;
  resources: { kind: Kind; title: string; args: Record<string, unknown> }[];
  /** Stack config over the sandbox's good settings; `null` removes a key. */
  config?: Record<string, string | null>;
  /** The sandbox's account balance for this case. */
  balance?: string;
  /** A phrase of the one message preview and up give. */
  message: RegExp;
  /**
   * "warns": preview shows it as a warning and up fails with it. Check warns rather than refuses
   * where it would judge by which resource declared an object first, a memory of the provider
   * process that outlives one command when a host serves several (the tests' do; the CLI starts one
   * per command), so a refusal could be wrong there.
   */
  preview: "fails" | "warns";
  /**
   * Needs a run apart from the mistakes refused at check: its own config or balance (a run of its
   * own), or an up that must create things (these share one run: each declares names no other
   * touches). The others fail at check in preview and up alike, so they share one program (titles
   * are unique across them).
   */
  alone?: true;
  /**
   * A mistake of the settings (its own config): the requests its refusing check sends, the account's
   * one signed read when only the service can tell, none when the settings alone are wrong.
   */
  requests?: number;
}

/** The stack config a mistake runs under: the sandbox's good settings (a limit tests never reach), then the mistake's own (`null` removes a key). */
export function mistakeConfig(sandbox: { url: string; credentials: { key: string; secret: string } }, m: Pick<Mistake, "config">): Record<string, string> {
  const merged: Record<string, string | null> = {
    "reseller:apiKey": sandbox.credentials.key,
    "reseller:apiSecret": sandbox.credentials.secret,
    "reseller:baseUrl": sandbox.url,
    "reseller:requestsPerMinute": "100000",
    ...m.config,
  };
  return Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== null));
}

const SERVICE_NS = ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"];
const newDomain = (domain: string, extra: Record<string, unknown> = {}) => ({ domain, contacts: { registrant: CONTACT }, nameservers: SERVICE_NS, maxPrice: "50.00", ...extra });
const record = (title: string, args: Record<string, unknown>) => ({ kind: "DnsRecord" as const, title, args: { zone: "demo-reseller.com", ttl: 3600, ...args } });
const zone = (title: string, domain: string) => ({ kind: "DnsZone" as const, title, args: { domain } });

export const MISTAKES: Mistake[] = [
  {
    title: "missing API key",
    alone: true,
    config: { "reseller:apiKey": null },
    resources: [zone("z", "demo-labs.io")],
    message: /reseller: missing configuration: reseller:apiKey \(or RESELLER_API_KEY\)\. Set it with `pulumi config set reseller:apiKey <API key>`, or the environment variable in parentheses$/,
    preview: "fails",
    requests: 0,
  },
  {
    title: "wrong API secret",
    alone: true,
    config: { "reseller:apiSecret": "a-wrong-secret" },
    resources: [zone("z", "demo-labs.io")],
    message: /401 unauthorized.*Check the API key and secret \(reseller:apiKey \/ reseller:apiSecret\)/,
    preview: "fails",
    requests: 1,
  },
  {
    title: "base URL without a scheme",
    alone: true,
    config: { "reseller:baseUrl": "reseller.example" },
    resources: [zone("z", "demo-labs.io")],
    message: /reseller:baseUrl: "reseller\.example" is not an http\(s\) URL/,
    preview: "fails",
    requests: 0,
  },
  {
    title: "price above maxPrice",
    resources: [{ kind: "Domain", title: "dear", args: newDomain("catalogue-dear.io", { maxPrice: "10.00" }) }],
    message: /catalogue-dear\.io: register for 1 year\(s\) costs 39\.00 USD, above maxPrice 10\.00; nothing was charged/,
    preview: "fails",
  },
  {
    title: "balance too low for the stack's purchases",
    alone: true,
    balance: "20.00",
    resources: [
      { kind: "Domain", title: "first", args: newDomain("catalogue-first.com") },
      { kind: "Domain", title: "second", args: newDomain("catalogue-second.com") },
    ],
    message: /the purchases this stack would make total 24\.00 USD, above the account balance of 20\.00 USD/,
    preview: "fails",
  },
  {
    title: "a domain already taken",
    resources: [{ kind: "Domain", title: "taken", args: newDomain("taken-brand.com") }],
    message: /taken-brand\.com: is not available to register/,
    preview: "fails",
  },
  {
    title: "a transfer of a name registered nowhere",
    resources: [{ kind: "Domain", title: "transfer", args: newDomain("catalogue-free.com", { authCode: "ABC-123-XYZ" }) }],
    message: /catalogue-free\.com: is not registered anywhere, so it cannot be transferred in/,
    preview: "fails",
  },
  {
    title: "records in a zone that cannot become active",
    resources: [zone("shop", "demo-shop.net"), record("www", { zone: "demo-shop.net", type: "A", name: "www", content: "192.0.2.7" })],
    message: /demo-shop\.net: the zone is not active and cannot become active: demo-shop\.net is delegated to ns1\.sandbox-registrar\.test/,
    preview: "fails",
  },
  {
    title: "a zone its own Domain's nameservers rule out, waiting for the delegation",
    resources: [
      { kind: "Domain", title: "ruled", args: newDomain("catalogue-ruled.com", { nameservers: ["ns1.elsewhere-dns.test", "ns2.elsewhere-dns.test"] }) },
      { kind: "DnsZone", title: "ruled-zone", args: { domain: "catalogue-ruled.com", waitForDelegation: true } },
      { kind: "DnsRecord", title: "ruled-www", args: { zone: "catalogue-ruled.com", type: "A", name: "www", content: "192.0.2.9", ttl: 3600 } },
    ],
    message: /catalogue-ruled\.com: the zone can never become active: this program's Domain sets the nameservers of catalogue-ruled\.com to ns1\.elsewhere-dns\.test, ns2\.elsewhere-dns\.test, not to the service's.*Set the Domain's nameservers to the service's: ns1\.dns\.sandbox\.test, ns2\.dns\.sandbox\.test/,
    preview: "fails",
  },
  {
    title: "a record type misspelt",
    resources: [record("typo", { type: "CNAM", name: "shop", content: "shops.example.net" })],
    message: /type: "CNAM" is not a record type; did you mean CNAME\?/,
    preview: "fails",
  },
  {
    title: "a CNAME at the apex",
    resources: [record("apex", { type: "CNAME", name: "@", content: "elsewhere.example" })],
    message: /name: "@" cannot hold a CNAME: the zone apex has SOA and NS records.*Declare A and AAAA records with the target's addresses at @ instead; a CNAME fits below the apex/,
    preview: "fails",
  },
  {
    title: "an MX without priority",
    resources: [record("mx", { type: "MX", name: "@", content: "mx9.demo-reseller.com" })],
    message: /priority: is required for MX records: the preference, 0 to 65535 \(RFC 1035 §3\.3\.9\); set priority \(e\.g\. 10\)/,
    preview: "fails",
  },
  {
    title: "a record name outside its zone",
    resources: [record("outside", { type: "A", name: "www.other-zone.example.", content: "192.0.2.8" })],
    message: /name: "www\.other-zone\.example\." is an absolute name outside the zone demo-reseller\.com: give it relative to the zone/,
    preview: "fails",
  },
  {
    title: "a TTL that conflicts with live records of the name",
    resources: [record("mx3", { type: "MX", name: "@", content: "30 mx3.demo-reseller.com", ttl: 300 })],
    message: /MX demo-reseller\.com: ttl_conflict: the service refused ttl 300 because other MX records of this name have another TTL \(they have ttl 3600\)/,
    preview: "fails",
  },
  {
    title: "a TTL that conflicts with another record of the program",
    resources: [
      record("txt-a", { type: "TXT", name: "shared", content: "a", ttl: 300 }),
      record("txt-b", { type: "TXT", name: "shared", content: "b", ttl: 600 }),
    ],
    // The second declared is flagged (the records of one RRset go in declaration order); the message names both in one order.
    message: /ttl: 300 and 600 differ between the TXT records named shared in demo-reseller\.com: "txt-a" has ttl 300, "txt-b" has ttl 600; records of one name and type share one TTL/,
    preview: "fails",
  },
  {
    title: "a CNAME beside another record of the program",
    resources: [
      record("alias-docs", { type: "CNAME", name: "handbook", content: "app.demo-reseller.com." }),
      record("handbook-txt", { type: "TXT", name: "handbook", content: "v=1" }),
    ],
    // Whichever the CLI checks second is flagged, with the same words.
    message: /name: "handbook": "alias-docs" declares a CNAME record and "handbook-txt" declares a TXT record at handbook\.demo-reseller\.com, and a CNAME cannot share its name with other records/,
    preview: "fails",
  },
  {
    title: "one record declared by two resources",
    alone: true,
    resources: [
      record("twin-a", { type: "TXT", name: "twin", content: "same" }),
      record("twin-b", { type: "TXT", name: "twin", content: "same" }),
    ],
    // Both are named, in one order (the records of one RRset go in declaration order).
    message: /TXT twin\.demo-reseller\.com: an identical record is declared by both "twin-a" and "twin-b" in this stack; one record, one DnsRecord/,
    // Warned at check (see `preview`); up refuses the second create with the warning's message.
    preview: "warns",
  },
  {
    title: "a zone declared twice",
    alone: true,
    resources: [zone("labs-a", "demo-labs.io"), zone("labs-b", "demo-labs.io")],
    // Both are named, in one order, whichever the CLI checks first (it fixes no order).
    message: /demo-labs\.io: the DNS zone is declared by both "labs-a" and "labs-b" in this stack; declare one DnsZone per zone/,
    // Warned at check (see `preview`); up refuses the second create with the warning's message, even
    // when both creates run at once: one zone, one owner.
    preview: "warns",
  },
  {
    title: "a zone for a domain the account does not hold",
    resources: [zone("nowhere", "catalogue-nowhere.com")],
    message: /catalogue-nowhere\.com: is not a domain of this reseller account, and no Domain of this program registers or transfers it, so the service cannot host its DNS zone.*Use a domain the account holds, or add to this program a Domain that buys it/,
    preview: "fails",
  },
  {
    title: "a record in a zone of a domain the account does not hold",
    resources: [record("nowhere-www", { zone: "catalogue-nowhere.net", type: "A", name: "www", content: "192.0.2.10" })],
    message: /catalogue-nowhere\.net: is not a domain of this reseller account, and no Domain of this program registers or transfers it/,
    preview: "fails",
  },
  {
    title: "a zone and a record of a domain this program buys, by literal names",
    resources: [
      { kind: "DnsRecord", title: "bought-www", args: { zone: "catalogue-bought.com", type: "A", name: "www", content: "192.0.2.11", ttl: 3600 } },
      { kind: "DnsZone", title: "bought-zone", args: { domain: "catalogue-bought.com" } },
      { kind: "Domain", title: "bought", args: newDomain("catalogue-bought.com", { maxPrice: "10.00" }) },
    ],
    // Declared record first: the zone and the record wait for the Domain, whose check refuses the price; never "not a domain of this account".
    message: /catalogue-bought\.com: register for 1 year\(s\) costs 12\.00 USD, above maxPrice 10\.00; nothing was charged/,
    preview: "fails",
  },
  {
    title: "a zone for a domain without the DNS add-on",
    resources: [zone("noaddon", "no-dns-addon.org")],
    message: /no-dns-addon\.org: lacks the DNS Management add-on \(dns_management\)/,
    preview: "fails",
  },
  {
    title: "adopting a domain that is not in the account",
    resources: [{ kind: "Domain", title: "ghost", args: { domain: "catalogue-ghost.com", adopt: true } }],
    message: /adopt: catalogue-ghost\.com is not in this reseller account, and adopt never buys/,
    preview: "fails",
  },
  {
    title: "adopting WHOIS privacy that is off",
    resources: [{ kind: "PrivacyAddon", title: "privacy", args: { domain: "demo-shop.net", adopt: true } }],
    message: /adopt: WHOIS Privacy is not on for demo-shop\.net, and adopt never buys/,
    preview: "fails",
  },
  {
    title: "an EPP code while Domain Protection is on",
    resources: [{ kind: "EppCode", title: "epp", args: { domain: "protected-brand.com" } }],
    message: /protected-brand\.com: the EPP code cannot be requested while Domain Protection is on/,
    preview: "fails",
  },
  {
    title: "a template's variable missing",
    resources: [{ kind: "ZoneTemplate", title: "web", args: { zone: "demo-reseller.com", templateId: "web", variables: {} } }],
    message: /variables\.ipv4: missing; template web needs "ipv4".*: add "ipv4" to variables/,
    preview: "fails",
  },
];
