/**
 * test/resources/lifecycle/program.test.ts's program: a domain, its zone, two records and an EPP code;
 * and, with `get`, the seeded domain, zone and record read into the stack as external resources.
 */
import { programArgs } from "../../../../dev/engine/program-args";
import * as reseller from "../../../../resources";

function wholeProgram() {
  const { domain: name, registrant } = programArgs<wholeProgram.Args>();
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
  const existing = reseller.Domain.get("existing", "demo-reseller.com");
  const existingZone = reseller.DnsZone.get("existing-zone", "demo-reseller.com");
  const existingWww = reseller.DnsRecord.get("existing-www", "rec_5", { zone: "demo-reseller.com" });
  return {
    stage: domain.stage,
    nameservers: zone.nameservers,
    code: code.authCode,
    existing: {
      stage: existing.stage,
      nameservers: existingZone.nameservers,
      www: existingWww.content,
      kinds: [reseller.Domain.isInstance(existing), reseller.DnsZone.isInstance(existing), reseller.DnsZone.isInstance(existingZone), reseller.Domain.isInstance({})],
    },
  };
}

/** The arguments the caller passes (`{ file, args }`). */
declare namespace wholeProgram {
  interface Args {
    domain: string;
    registrant: reseller.ContactArgs;
  }
}

// The CLI's runner (@pulumi/pulumi/cmd/run) calls `module.exports` when it is a function; it would
// not call a CommonJS `exports.default`.
export = wholeProgram;
