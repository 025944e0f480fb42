/** The chaos campaign's program: declares a snapshot of the desired state (dev/chaos/model.ts). */
import type { Output } from "@pulumi/pulumi";
import { programArgs } from "../engine/program-args";
import * as reseller from "../../resources";
import { DNS_SERVICE_NAMESERVERS, FOREIGN_AUTH_CODE } from "../../sandbox/state";
import { renewalPolicy, type Snapshot } from "./model";
import { BENCH_REGISTRANT } from "../../test/support/registrant";

function chaosProgram(): void {
  const s = programArgs<Snapshot>();
  const zoneOf = new Map<string, Output<string>>();
  for (const d of s.domains) {
    const dom = new reseller.Domain(d.res, {
      domain: d.domain,
      years: 1,
      contacts: { registrant: BENCH_REGISTRANT },
      maxPrice: "100.00",
      ...(d.zone ? { nameservers: DNS_SERVICE_NAMESERVERS } : {}),
      ...(d.transfer ? { authCode: FOREIGN_AUTH_CODE } : {}),
      ...(d.renewals > 0 ? { renewal: renewalPolicy(d.renewals) } : {}),
    });
    if (d.privacy) new reseller.PrivacyAddon(`${d.res}-privacy`, { domain: dom.domain });
    if (d.protection) new reseller.Protection(`${d.res}-protection`, { domain: dom.domain });
    if (d.zone) zoneOf.set(d.domain, new reseller.DnsZone(`${d.res}-zone`, { domain: dom.domain, waitForDelegation: true }).domain);
  }
  for (const r of s.records) {
    new reseller.DnsRecord(r.res, { zone: zoneOf.get(r.zone) ?? r.zone, type: r.type, name: r.name, content: r.content, ttl: r.ttl });
  }
}

// The CLI's runner (@pulumi/pulumi/cmd/run) calls `module.exports` when it is a function; it would
// not call a CommonJS `exports.default`.
export = chaosProgram;
