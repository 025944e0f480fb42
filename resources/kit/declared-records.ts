/**
 * Who declares which record in this command: DnsZoneRecords and DnsRecord both register the
 * identities (shared/record-key.ts) their checks accept, per zone. The provider host sees the check
 * of every resource of the stack, so a record declared by both kinds is refused at the second check
 * (one record, one owner), and an authoritative DnsZoneRecords never deletes a record a DnsRecord
 * declares. Lives as long as the host process: one `pulumi` command.
 */
import type { HostContext } from "./context";

export class Declarations {
  /** zone → key → URN. */
  private readonly byZone = new Map<string, Map<string, string>>();
  /** URN → what it declared, so a check again (or another kind's) starts from nothing. */
  private readonly ofUrn = new Map<string, { zone: string; keys: string[] }>();

  /** Declares `keys` of `zone` for `urn` (replacing what it declared before); returns the keys another URN holds, with it. */
  declare(urn: string, zone: string, keys: readonly string[]): { key: string; urn: string }[] {
    this.forget(urn);
    let z = this.byZone.get(zone);
    if (!z) this.byZone.set(zone, (z = new Map()));
    const clashes: { key: string; urn: string }[] = [];
    const mine: string[] = [];
    for (const key of keys) {
      const other = z.get(key);
      if (other !== undefined && other !== urn) clashes.push({ key, urn: other });
      else {
        z.set(key, urn);
        mine.push(key);
      }
    }
    this.ofUrn.set(urn, { zone, keys: mine });
    return clashes;
  }

  /** The URN other than `urn` that declares `key` in `zone`, if any. */
  declaredByOther(zone: string, key: string, urn: string | undefined): string | undefined {
    const other = this.byZone.get(zone)?.get(key);
    return other !== undefined && other !== urn ? other : undefined;
  }

  forget(urn: string): void {
    const had = this.ofUrn.get(urn);
    if (!had) return;
    const z = this.byZone.get(had.zone);
    for (const k of had.keys) if (z?.get(k) === urn) z.delete(k);
    this.ofUrn.delete(urn);
  }
}

const perContext = new WeakMap<HostContext, Declarations>();

/** The declarations of the account this context serves. */
export function declarations(ctx: HostContext): Declarations {
  let d = perContext.get(ctx);
  if (!d) perContext.set(ctx, (d = new Declarations()));
  return d;
}
