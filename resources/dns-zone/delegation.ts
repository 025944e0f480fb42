/**
 * When a zone can never become active, and what to tell the user: DnsZone's own policy, read by its
 * preview (preflight), its create and update (no wait for a delegation the program rules out), and by
 * the records of the zone (their check and create), so preview and up say the same thing.
 *
 * A zone is active once its domain delegates to the service's nameservers (spec, States: "zone is
 * pending and the domain uses the service nameservers"). It cannot become so in this run when:
 * - this program's own Domain sets other nameservers (`byProgram`): no wait can end, and the next up
 *   would set them again; or
 * - the live delegation points elsewhere and nothing waits for it to change (no waitForDelegation).
 * Messages never advise a setting the program has: `waits` is what the DnsZone says, when known.
 * The message of a zone the program rules out is the same whichever resource tells it first (the
 * real CLI checks them in no fixed order); only the DnsZone's own error adds that its wait is futile.
 */
import { canonicalHost } from "../shared/normalize";

/** Where a zone's domain points instead of the service's nameservers, and who says so. */
export interface Misdelegation {
  delegatedTo: readonly string[];
  serviceNameservers: readonly string[];
  /** The nameservers are the ones this program's Domain sets (not only what the registry says now). */
  byProgram: boolean;
}

const comparable = (ns: readonly string[]): string => JSON.stringify([...new Set(ns.map(canonicalHost))].sort());

/**
 * The misdelegation of a zone whose domain is (or will be, by this program's Domain: `planned`) at
 * `delegatedTo`, the service's nameservers being `service`; undefined when they agree or either is unknown.
 */
export function misdelegation(planned: readonly string[] | undefined, live: readonly string[] | undefined, service: readonly string[] | undefined): Misdelegation | undefined {
  const delegatedTo = planned ?? live;
  if (!delegatedTo?.length || !service?.length || comparable(delegatedTo) === comparable(service)) return undefined;
  return { delegatedTo, serviceNameservers: service, byProgram: planned !== undefined };
}

/** Whether up cannot make the zone active: the program rules it out, or nothing waits for the delegation to change. */
export const ruledOut = (m: Misdelegation, waits: boolean | undefined): boolean => m.byProgram || !waits;

/**
 * The zone cannot become active, and the fix. `waits`: the DnsZone's waitForDelegation when known
 * (true: its wait ended or would never end; false: not set; undefined: a zone this command does not declare).
 */
export function zoneInactiveMessage(zone: string, m: Partial<Misdelegation> | undefined, waits: boolean | undefined): string {
  const service = m?.serviceNameservers?.length ? m.serviceNameservers.join(", ") : undefined;
  const fix = `Set the Domain's nameservers to the service's${service ? `: ${service}` : ""}`;
  if (m?.byProgram)
    return `${zone}: the zone can never become active: this program's Domain sets the nameservers of ${zone} to ${m.delegatedTo!.join(", ")}, not to the service's, so records cannot be created in it. ${fix} (nameservers on the Domain)`;
  const where = m?.delegatedTo?.length ? `${zone} is delegated to ${m.delegatedTo.join(", ")}` : `${zone} is not delegated to the service`;
  const to = service ? ` (${service})` : "";
  const head = `${zone}: the zone is not active and cannot become active: ${where}, not to the zone's nameservers${to}, so records cannot be created in it. ${fix} (or change the delegation at the domain's registrar)`;
  if (waits === false) return `${head}, or set waitForDelegation: true on the DnsZone to wait for the change`;
  if (waits === true) return `${head}; the DnsZone's wait for the delegation (waitForDelegation) ended before it changed, so run up again once it has`;
  return `${head}, then run up again`;
}

/** What a DnsZone that waits for a delegation its program rules out adds to the zone's message. */
export const FUTILE_WAIT = "The DnsZone's wait for the delegation (waitForDelegation) would never end.";

/** The same zone, for its later refusals in one command: the whole message is given once. */
export const zoneInactiveAgain = (zone: string): string => `${zone}: the zone cannot become active (not delegated to the service; the fix is in the first error about ${zone})`;
