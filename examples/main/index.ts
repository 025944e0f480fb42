/**
 * Register a domain and host its DNS: the main example, run by `pulumi up` from the repository
 * root (see Pulumi.yaml) and by `npm run demo` against the embedded sandbox.
 *
 * Config (stack): reseller:apiKey, reseller:apiSecret (secret), reseller:baseUrl, and optionally
 *   example:domain          the name to register (default demo-shop.com)
 *   example:maxPrice        refuse to buy above this price (default 25.00)
 *   example:dnsNameservers  the service's DNS nameservers to delegate to (default: the sandbox's)
 */
import * as pulumi from "@pulumi/pulumi";
import * as reseller from "reseller-pulumi";

const config = new pulumi.Config("example");
const domainName = config.get("domain") ?? "demo-shop.com";
// The zone's nameservers are known before the zone exists (the service uses fixed ones), so the
// domain can point at them from its first registration and the zone check finds it delegated.
const dnsNameservers = config.getObject<string[]>("dnsNameservers") ?? ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"];

// Contact details are personal data: keep them in secret config in real use
// (`pulumi config set --secret --path example:contact.email ...`). These are placeholders.
const contact = config.getSecretObject<reseller.ContactArgs>("contact") ?? pulumi.secret({
  name: "Jane Operator",
  organization: "Demo Shop Ltd",
  email: "hostmaster@demo-shop.example",
  phone: "+441234567890",
  addressLine1: "1 Example Street",
  city: "London",
  state: "Greater London",
  postalCode: "EC1A 1AA",
  country: "GB",
});

const domain = new reseller.Domain("demo-shop", {
  domain: domainName,
  years: 1,
  contacts: { registrant: contact },
  nameservers: dnsNameservers,
  locked: true,
  maxPrice: config.get("maxPrice") ?? "25.00",
  // Renew for a year whenever fewer than 30 days remain; the renewal is expiry-aware and
  // keyed on the current expiry, so re-running never pays twice.
  renewal: { minDaysRemaining: 30, years: 1 },
});

const zone = new reseller.DnsZone("demo-shop-zone", {
  domain: domain.domain,
  waitForDelegation: true,
});

const record = (name: string, args: Omit<reseller.DnsRecordArgs, "zone">) =>
  new reseller.DnsRecord(name, { zone: zone.domain, ...args }, { dependsOn: [zone] });

record("apex-a", { type: "A", name: "@", content: "192.0.2.10", ttl: 300 });
record("apex-aaaa", { type: "AAAA", name: "@", content: "2001:db8::10", ttl: 300 });
record("www", { type: "CNAME", name: "www", content: `${domainName}.`, ttl: 3600 });
record("mx", { type: "MX", name: "@", content: `mail.${domainName}.`, priority: 10, ttl: 3600 });
record("spf", { type: "TXT", name: "@", content: "v=spf1 mx -all", ttl: 3600 });
record("caa", { type: "CAA", name: "@", content: "letsencrypt.org", extra: { flag: 0, tag: "issue" }, ttl: 3600 });
record("sip", { type: "SRV", name: "_sip._tcp", content: `sip.${domainName}.`, priority: 10, extra: { weight: 5, port: 5060 }, ttl: 3600 });

new reseller.ChildHost("ns1", {
  domain: domain.domain,
  hostname: `ns1.${domainName}`,
  ipv4: ["192.0.2.53"],
  ipv6: ["2001:db8::53"],
});

const privacy = new reseller.PrivacyAddon("privacy", { domain: domain.domain });

export const stage = domain.stage;
export const expiryDate = domain.expiryDate;
export const delegateTo = zone.nameservers;
export const delegated = zone.delegated;
export const privacyStatus = privacy.status;
