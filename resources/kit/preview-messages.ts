/**
 * Messages that check (at preview and at up) and the apply steps both give, written once so a
 * mistake caught at preview reads exactly as the up it predicts.
 */

export const adoptDomainMissing = (domain: string): string =>
  `adopt: ${domain} is not in this reseller account, and adopt never buys; nothing was charged. Remove adopt to register it`;

export const eppWhileProtected = (domain: string): string =>
  `${domain}: the EPP code cannot be requested while Domain Protection is on. Remove protection in the reseller portal (the API cannot), then run again.`;

/** The two resources in one order, whichever was checked first (the real CLI fixes none). */
const pair = (a: string, b: string): string => [a, b].sort().map((n) => `"${n}"`).join(" and ");

export const zoneDeclaredTwice = (domain: string, one: string, other: string): string =>
  `${domain}: the DNS zone is declared by both ${pair(one, other)} in this stack; declare one DnsZone per zone: remove one of them`;

/** One record declared by a DnsRecord and a DnsZoneRecords: the same words after the flagged field, whichever is checked second. */
export const recordOwnedTwice = (key: string, zone: string, dnsRecord: string, zoneRecords: string): string =>
  `${key} in ${zone} is declared by both DnsRecord "${dnsRecord}" and DnsZoneRecords "${zoneRecords}": one record, one owner; remove it from one of them`;

/** A zone or record of a domain the account does not hold and this program does not buy: the same words for both. */
export const domainNotHeld = (domain: string): string =>
  `${domain}: is not a domain of this reseller account, and no Domain of this program registers or transfers it, so the service cannot host its DNS zone (up would be refused with 404 not_found); nothing was created. Use a domain the account holds, or add to this program a Domain that buys it (new reseller.Domain(..., { domain: "${domain}", ... })): its zone and records then wait for it. A Domain the program declares after an \`await\` is not waited for by what was declared before it: name it through its output (domain.domain) or give dependsOn`;

export const balanceTooLow = (total: string, balance: string, currency: string): string =>
  `the purchases this stack would make total ${total} ${currency}, above the account balance of ${balance} ${currency}; nothing was charged. Add credit in the reseller portal, or buy less in one run.`;

export const recordDeclaredTwice = (what: string, one: string, other: string): string =>
  `${what}: an identical record is declared by both ${pair(one, other)} in this stack; one record, one DnsRecord: remove one of them`;

/** A record whose TTL differs from its live siblings' (same name and type); `siblingTtl` when known. */
export const ttlConflict = (what: string, type: string, ttl: number, siblingTtl: number | undefined): string =>
  `${what}: ttl_conflict: the service refused ttl ${ttl} because other ${type} records of this name have another TTL${siblingTtl !== undefined ? ` (they have ttl ${siblingTtl})` : ""}. All records of one name and type share one TTL: give every one of them the same ttl.`;
