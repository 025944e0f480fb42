/** test/resources/lifecycle/program.test.ts's program: a domain, its zone, two records and an EPP code. */
import { programArgs } from "../../../../engine";
import * as reseller from "../../../../resources";

export interface WholeProgramArgs {
  domain: string;
  registrant: reseller.ContactArgs;
}

export default function wholeProgram() {
  const { domain: name, registrant } = programArgs<WholeProgramArgs>();
  const domain = new reseller.Domain("site", {
    domain: name,
    contacts: { registrant },
    nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"],
    locked: true,
    maxPrice: "15.00",
  });
  const zone = new reseller.DnsZone("zone", { domain: domain.domain, waitForDelegation: true, waitTimeoutSeconds: 30 });
  new reseller.DnsRecord("www", { zone: zone.domain, type: "CNAME", name: "www", content: "@", ttl: 600 });
  new reseller.DnsRecord("mx", { zone: zone.domain, type: "MX", name: "@", content: `10 mail.${name}.` });
  const code = new reseller.EppCode("code", { domain: domain.domain, trigger: "one" });
  return { stage: domain.stage, nameservers: zone.nameservers, code: code.authCode };
}
