/** The program the state-v0 fixture was written by (test/resources/old-state.test.ts). */
import * as reseller from "../../../resources";

function stateV0Program(): void {
  new reseller.DnsZone("labs-zone", { domain: "demo-labs.io" });
  new reseller.DnsRecord("www", { zone: "demo-reseller.com", type: "A", name: "fixture-www", content: "192.0.2.10", ttl: 300 });
  new reseller.DnsRecord("mail", { zone: "demo-reseller.com", type: "MX", name: "fixture-mail", content: "mail.demo-reseller.com", priority: 10, ttl: 3600 });
  new reseller.ChildHost("ns9", { domain: "demo-labs.io", hostname: "ns9", ipv4: ["192.0.2.99"], ipv6: [] });
}

export = stateV0Program;
