/**
 * The first program a user writes (test/audit/preview-predicts-up.test.ts): a domain registered with
 * the service's nameservers, its zone, five records, some naming the zone through zone.domain and
 * some as a literal (unless `literalRecords` is false), with no waitForDelegation.
 */
import { programArgs } from "../../../dev/engine/program-args";
import * as reseller from "../../../resources";

function firstProgram(): void {
  const { domain, nameservers, contact, literalRecords = true } = programArgs<firstProgram.Args>();
  const shop = new reseller.Domain("shop", { domain, contacts: { registrant: contact }, nameservers, maxPrice: "25.00" });
  const zone = new reseller.DnsZone("shop-zone", { domain: shop.domain });
  new reseller.DnsRecord("www", { zone: zone.domain, type: "A", name: "www", content: "192.0.2.10" });
  new reseller.DnsRecord("spf", { zone: zone.domain, type: "TXT", name: "@", content: "v=spf1 mx -all" });
  if (!literalRecords) return;
  new reseller.DnsRecord("apex", { zone: domain, type: "A", name: "@", content: "192.0.2.10" });
  new reseller.DnsRecord("mx", { zone: domain, type: "MX", name: "@", content: "10 mail.example.net" });
  new reseller.DnsRecord("blog", { zone: domain, type: "CNAME", name: "blog", content: `www.${domain}` });
}

declare namespace firstProgram {
  interface Args {
    domain: string;
    nameservers: string[];
    contact: reseller.ContactArgs;
    /** Whether the records naming the zone as a literal are declared (default true). */
    literalRecords?: boolean;
  }
}

export = firstProgram;
