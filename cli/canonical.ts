/**
 * Puts an estate into the canonical form of resources/shared/normalize (the package's one normalizer),
 * so the generated inputs are exactly what the resources' check() would store and the first
 * `pulumi up` shows no diff, not even a cosmetic one.
 */
import {
  canonicalChildHost,
  canonicalHost,
  canonicalIps,
  canonicalNameservers,
  canonicalRecord,
} from "../resources/shared/normalize";
import { canonicalFields } from "../dns";
import type { Estate, EstateDomain, EstateRecord, EstateZone } from "./estate";

export function canonicalEstateRecord(zone: string, r: EstateRecord): EstateRecord {
  const c = canonicalRecord(canonicalFields(r), zone);
  return { ...c, extra: c.extra && Object.keys(c.extra).length ? { ...c.extra } : null };
}

function canonicalZone(z: EstateZone): EstateZone {
  const domain = canonicalHost(z.domain);
  return { domain, records: z.records.map((r) => canonicalEstateRecord(domain, r)) };
}

function canonicalDomain(d: EstateDomain): EstateDomain {
  const domain = canonicalHost(d.domain);
  return {
    ...d,
    domain,
    nameservers: canonicalNameservers(d.nameservers),
    hosts: d.hosts.map((h) => ({
      hostname: canonicalChildHost(h.hostname, domain),
      ipv4: canonicalIps(h.ipv4, 4),
      ipv6: canonicalIps(h.ipv6, 6),
    })),
  };
}

export function canonicalEstate(e: Estate): Estate {
  return { domains: e.domains.map(canonicalDomain), zones: e.zones.map(canonicalZone) };
}
