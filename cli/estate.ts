/**
 * The "estate": a plain snapshot of what an account runs, read through the API client.
 * Code generation (./codegen) works from this value alone, so it is pure and testable.
 *
 * Only GET requests are made, and contacts are never read: nothing personal or secret
 * enters the estate, so nothing of the kind can reach the generated program.
 */
import type { DnsRecord, DnsZone, DomainInfo, DomainListEntry, Host } from "../api/views";
import { isPrivacyOn, isProtectionOn, isServiceManagedRecord } from "../api/vocabulary";

export interface EstateRecord {
  type: string;
  name: string;
  content: string;
  ttl: number;
  priority?: number | null;
  extra?: Record<string, unknown> | null;
}

export interface EstateZone {
  domain: string;
  records: EstateRecord[];
}

export interface EstateHost {
  hostname: string;
  ipv4: string[];
  ipv6: string[];
}

export interface EstateDomain {
  domain: string;
  stage: string;
  nameservers: string[];
  locked: boolean | null;
  privacy: boolean;
  protection: boolean;
  hosts: EstateHost[];
}

export interface Estate {
  domains: EstateDomain[];
  zones: EstateZone[];
}

export type ImportScope = { kind: "zone"; domain: string } | { kind: "domain"; domain: string } | { kind: "all" };

/**
 * What the importer needs of the API client (api/client's ResellerClient has these).
 * Declared here, on the response views, so the importer depends on the views and not on one client class.
 */
export interface EstateReader {
  listDomains(): Promise<DomainListEntry[]>;
  getDomain(domain: string): Promise<DomainInfo>;
  listHosts(domain: string): Promise<Host[]>;
  listZones(): Promise<DnsZone[]>;
  listRecords(domain: string, filter?: { type?: string }): Promise<DnsRecord[]>;
}

export function toEstateRecord(r: DnsRecord): EstateRecord {
  const extra = r.extra ? Object.fromEntries(Object.entries(r.extra).filter(([, v]) => v !== undefined && v !== null)) : null;
  return {
    type: r.type.toUpperCase(),
    name: r.name,
    content: r.content,
    ttl: r.ttl,
    priority: r.priority ?? null,
    extra: extra && Object.keys(extra).length ? extra : null,
  };
}

async function readZone(client: EstateReader, domain: string): Promise<EstateZone> {
  const records = await client.listRecords(domain, {});
  return {
    domain,
    records: records.filter((r) => !isServiceManagedRecord(domain, r)).map(toEstateRecord),
  };
}

async function readDomain(client: EstateReader, domain: string): Promise<EstateDomain> {
  const info = await client.getDomain(domain);
  const hosts = await client.listHosts(domain);
  return {
    domain: info.domain,
    stage: info.stage,
    nameservers: [...(info.nameservers ?? [])],
    locked: info.locked ?? null,
    privacy: info.privacy ? isPrivacyOn(info.privacy) : false,
    protection: info.protection ? isProtectionOn(info.protection) : false,
    hosts: hosts.map((h) => ({ hostname: h.hostname, ipv4: [...h.ipv4], ipv6: [...(h.ipv6 ?? [])] })),
  };
}

/** Read the part of the account named by `scope`. Only GET requests are made. */
export async function readEstate(client: EstateReader, scope: ImportScope): Promise<Estate> {
  if (scope.kind === "zone") return { domains: [], zones: [await readZone(client, scope.domain)] };

  const zoneNames = new Set((await client.listZones()).map((z) => z.domain.toLowerCase()));
  if (scope.kind === "domain") {
    const domain = await readDomain(client, scope.domain);
    const zones = zoneNames.has(scope.domain) ? [await readZone(client, scope.domain)] : [];
    return { domains: [domain], zones };
  }

  const domains: EstateDomain[] = [];
  for (const entry of await client.listDomains()) domains.push(await readDomain(client, entry.domain));
  const zones: EstateZone[] = [];
  for (const name of [...zoneNames].sort()) zones.push(await readZone(client, name));
  return { domains, zones };
}
