/**
 * Messages that check (at preview and at up) and the apply steps both give, written once so a
 * mistake caught at preview reads exactly as the up it predicts.
 */

export const adoptDomainMissing = (domain: string): string =>
  `adopt: ${domain} is not in this reseller account, and adopt never buys; nothing was charged. Remove adopt to register it`;

export const eppWhileProtected = (domain: string): string =>
  `${domain}: the EPP code cannot be requested while Domain Protection is on. Remove protection in the reseller portal (the API cannot), then run again.`;

export const zoneDeclaredTwice = (domain: string, other: string): string =>
  `${domain}: the DNS zone is already managed by "${other}" in this stack; declare one DnsZone per zone`;

export const balanceTooLow = (total: string, balance: string, currency: string): string =>
  `the purchases this stack would make total ${total} ${currency}, above the account balance of ${balance} ${currency}; nothing was charged. Add credit in the reseller portal, or buy less in one run.`;

export const recordDeclaredTwice = (what: string, other: string): string =>
  `${what}: an identical record exists and is managed by "${other}" in this stack; one record, one DnsRecord: remove one of them`;

/** A record whose TTL differs from its live siblings' (same name and type); `siblingTtl` when known. */
export const ttlConflict = (what: string, type: string, ttl: number, siblingTtl: number | undefined): string =>
  `${what}: ttl_conflict: the service refused ttl ${ttl} because other ${type} records of this name have another TTL${siblingTtl !== undefined ? ` (they have ttl ${siblingTtl})` : ""}. All records of one name and type share one TTL: give every one of them the same ttl.`;
