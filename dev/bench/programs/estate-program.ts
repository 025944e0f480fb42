/** The estate bench's program: adopts `domains` domains, each with its zone and records (dev/bench/estate.ts). */
import { programArgs } from "../../engine/program-args";
import * as reseller from "../../../resources";
import { ESTATE_CONTACT, ESTATE_RECORDS, estateDomain } from "../../../test/support/estate";

function estateProgram(): void {
  const { domains, withContacts } = programArgs<estateProgram.Args>();
  for (let i = 0; i < domains; i++) {
    const d = estateDomain(i);
    new reseller.Domain(d, { domain: d, adopt: true, ...(withContacts ? { contacts: { registrant: ESTATE_CONTACT } } : {}) });
    new reseller.DnsZone(`${d}-zone`, { domain: d, adopt: true });
    for (let k = 0; k < ESTATE_RECORDS; k++) new reseller.DnsRecord(`${d}-host${k}`, { zone: d, type: "A", name: `host${k}`, content: `198.51.100.${k + 1}`, ttl: 300, adopt: true });
  }
}

declare namespace estateProgram {
  interface Args {
    domains: number;
    withContacts: boolean;
  }
}

export = estateProgram;
