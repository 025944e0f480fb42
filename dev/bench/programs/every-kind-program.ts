/** The provider-bytes bench's program: one resource of each of the eight types, all created for real. */
import { programArgs } from "../../engine/program-args";
import * as reseller from "../../../resources";
import { BENCH_REGISTRANT } from "../../../test/support/registrant";

function everyKindProgram(): void {
  const args = programArgs<everyKindProgram.Args>();
  const domain = new reseller.Domain("site", {
    domain: args.domain,
    contacts: { registrant: BENCH_REGISTRANT },
    nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"],
    maxPrice: "25.00",
  });
  const zone = new reseller.DnsZone("zone", { domain: domain.domain, waitForDelegation: true, waitTimeoutSeconds: 30 });
  new reseller.DnsRecord("api", { zone: zone.domain, type: "A", name: "api", content: "192.0.2.80", ttl: 600 });
  new reseller.ZoneTemplate("web", { zone: zone.domain, templateId: "web", variables: { ipv4: "192.0.2.44" } });
  new reseller.ChildHost("ns1", { domain: domain.domain, hostname: `ns1.${args.domain}`, ipv4: ["192.0.2.53"] });
  new reseller.PrivacyAddon("privacy", { domain: domain.domain });
  new reseller.EppCode("code", { domain: domain.domain, trigger: 1 });
  new reseller.Protection("protection", { domain: args.protectedDomain });
}

/** The arguments the caller passes (`{ file, args }`). */
declare namespace everyKindProgram {
  interface Args {
    domain: string;
    /** A seeded domain for Protection: on `domain` it would refuse the EPP code request. */
    protectedDomain: string;
  }
}

// The CLI's runner (@pulumi/pulumi/cmd/run) calls `module.exports` when it is a function; it would
// not call a CommonJS `exports.default`.
export = everyKindProgram;
