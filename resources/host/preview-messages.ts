/**
 * Messages that check (at preview and at up) and the apply steps both give, written once so a
 * mistake caught at preview reads exactly as the up it predicts.
 */

/** A zone whose domain is delegated elsewhere: records cannot be created in it, and the fix. */
export function zoneInactiveMessage(zone: string, delegatedTo: readonly string[] | undefined, serviceNameservers: readonly string[] | undefined): string {
  const where = delegatedTo?.length ? `${zone} is delegated to ${delegatedTo.join(", ")}` : `${zone} is not delegated to the service`;
  const to = serviceNameservers?.length ? ` (${serviceNameservers.join(", ")})` : "";
  return `${zone}: the zone is not active and cannot become active: ${where}, not to the zone's nameservers${to}, so records cannot be created in it. Set the Domain's nameservers to the zone's (or change the delegation at the domain's registrar), or set waitForDelegation: true on the DnsZone to wait for the change`;
}

/** The same zone, for its second and later records in one command: the whole message is given once. */
export const zoneInactiveAgain = (zone: string): string =>
  `${zone}: the zone cannot become active (not delegated to the service; the fix is in the first error about ${zone})`;

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
