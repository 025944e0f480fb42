/** test/resources/lifecycle/get.test.ts's program: reads an existing domain and zone with `get`. */
import * as reseller from "../../../../resources";

function getProgram() {
  const domain = reseller.Domain.get("existing", "demo-reseller.com");
  const zone = reseller.DnsZone.get("existing-zone", "demo-reseller.com");
  const record = reseller.DnsRecord.get("existing-www", "rec_5", { zone: "demo-reseller.com" });
  return {
    stage: domain.stage,
    nameservers: zone.nameservers,
    www: record.content,
    kinds: [reseller.Domain.isInstance(domain), reseller.DnsZone.isInstance(domain), reseller.DnsZone.isInstance(zone), reseller.Domain.isInstance({})],
  };
}

// The CLI's runner (@pulumi/pulumi/cmd/run) calls `module.exports` when it is a function.
export = getProgram;
