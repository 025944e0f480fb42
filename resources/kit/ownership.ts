/** Ownership: one live object, one owner per command (see README, "Moving resources"). */
import type { Log } from "./log";
import { resourceName } from "./urn";

/** Keys of live objects, one namespace per kind of object (a template's records and DnsRecords share "record"). */
export const objectKey = {
  record: (zone: string, id: string): string => `record ${zone} ${id}`,
  zone: (domain: string): string => `zone ${domain}`,
  host: (domain: string, hostname: string): string => `host ${domain} ${hostname}`,
  privacy: (domain: string): string => `privacy ${domain}`,
  protection: (domain: string): string => `protection ${domain}`,
  eppCode: (domain: string): string => `epp ${domain}`,
  domain: (domain: string): string => `domain ${domain}`,
};

/**
 * Live object → the URN that claimed it in this provider-host process, i.e. in this `pulumi` command.
 * Creates, adopts and take-overs claim what they made or took; diffs claim the object a resource
 * already holds. A rename or reparent without `aliases` is, to the engine, a create of the new URN
 * and then a delete of the old one: the old URN's delete finds the object claimed and leaves it.
 */
export class Ownership {
  private readonly owners = new Map<string, string>();

  constructor(private readonly log: Log) {}

  /** The URN that claimed `key`, when it is not `urn` (an absent URN, from an old state, counts as another). */
  claimedByOther(key: string, urn: string | undefined): string | undefined {
    const o = this.owners.get(key);
    return o !== undefined && o !== urn ? o : undefined;
  }

  /** Claims `key` for `urn`; returns the other URN that holds it instead (nothing claimed then). */
  claim(key: string, urn: string | undefined): string | undefined {
    const other = this.claimedByOther(key, urn);
    if (other) return other;
    if (urn !== undefined) this.owners.set(key, urn);
    return undefined;
  }

  /** Drops a claim after the object was deleted by its owner. */
  release(key: string, urn: string | undefined): void {
    if (this.owners.get(key) === urn) this.owners.delete(key);
  }

  /** Refuses a create of an object another resource of this run already holds. */
  refuseIfClaimed(key: string, urn: string | undefined, what: string, kind: string): void {
    const other = this.claimedByOther(key, urn);
    if (other) throw new Error(`${what} is already managed by "${resourceName(other)}" in this stack; declare one ${kind} for it`);
  }

  /**
   * For delete: whether the object moved to another URN in this command, logged when it did. The
   * object is then left in place: only the old URN leaves the stack.
   */
  movedAway(key: string, urn: string | undefined, what: string): boolean {
    const other = this.claimedByOther(key, urn);
    if (!other) return false;
    this.log.info(
      `${what}: left in place: "${resourceName(other)}" manages it now (renamed or moved without aliases); only ${urn !== undefined ? `"${resourceName(urn)}"` : "the old resource"} left the stack`,
    );
    return true;
  }
}
