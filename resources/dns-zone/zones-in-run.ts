/**
 * Zones this command creates, so a record of one waits for it. A record naming its zone through
 * `zone.domain` waits by itself (the engine holds its registration until the zone's create answers),
 * and so does one naming it as a literal when the program's DnsZone of that name depends on no other
 * resource (the constructors' implicit dependsOn, ../program/declaration-order.ts). Any other record
 * is created in parallel with its zone: the zone's check declares it, its create settles it; a
 * record's create waits for it, bounded and logged. A zone whose domain this run buys is declared
 * late (its DnsZone waits for the domain): a record of it waits for the declaration first. A wait
 * ends at once when the zone's check or create, or the Domain's, failed: the record fails with that
 * message (`failedInRun`).
 * It also holds what the program's resources say about delegation, from their checks (which run in
 * preview and up alike, whether or not a resource changes): the nameservers each Domain sets and
 * whether each DnsZone waits for its delegation, so no message advises a setting the program has.
 * One registry per account and host process (one `pulumi` command).
 */
import { isZoneActive } from "../../api/vocabulary";
import type { HostContext } from "../kit/context";
import { resourceName } from "../kit/urn";
import { misdelegation, zoneInactiveAgain, zoneInactiveMessage, type Misdelegation } from "./delegation";

/** How long a record waits for a zone created in the same run, beyond the zone's own delegation wait. */
export const ZONE_IN_RUN_WAIT_MS = 2 * 60_000;

interface Declared {
  urn: string;
  /** The longest this zone's create may take here: its delegation wait, if any, plus ZONE_IN_RUN_WAIT_MS. */
  waitMs: number;
  settled: Promise<void>;
  settle: () => void;
  /** Set when the zone's create ended: its status, or why it failed. */
  outcome?: { status: string; delegatedTo?: string[]; serviceNameservers?: string[] } | { failed: string };
}

export class ZonesInRun {
  private readonly zones = new Map<string, Declared>();
  /**
   * Domains this command registers or transfers: their zone's DnsZone registers only once the
   * domain exists (it names it through domain.domain), after records naming the zone as a literal
   * were sent; such a record waits for the zone to be declared too.
   */
  private readonly expected = new Map<string, { waitMs: number; declared: Promise<void>; resolve: () => void; urn: string; failed?: string }>();

  /** A Domain of this command is being bought (its check said so): a zone of that name may follow, within `waitMs`. */
  expect(zone: string, urn: string, waitMs: number): void {
    if (this.expected.has(zone) || this.zones.has(zone)) return;
    let resolve!: () => void;
    const declared = new Promise<void>((r) => (resolve = r));
    this.expected.set(zone, { waitMs: waitMs + ZONE_IN_RUN_WAIT_MS, declared, resolve, urn });
  }

  /** Whether a Domain of this command buys (registers or transfers) `domain`, as its check said. */
  bought(domain: string): boolean {
    const e = this.expected.get(domain);
    return e !== undefined && e.failed === undefined;
  }

  /**
   * The Domain that was to buy `domain` failed (its check, or its create before buying): what waits
   * for its zone fails at once with its message, and no zone of the name is expected any more.
   */
  abandon(domain: string, why: string): void {
    const e = this.expected.get(domain);
    if (!e) return;
    e.failed = why;
    e.resolve();
  }

  /**
   * The refusal of `what` (a record of `zone`) when the DnsZone creating the zone in this command, or
   * the Domain buying its name, failed (check or create): that resource's message. Undefined otherwise.
   */
  failedInRun(zone: string, what: string): string | undefined {
    const d = this.zones.get(zone);
    if (d?.outcome && "failed" in d.outcome) return `${what}: not created: zone ${zone} failed in this run (DnsZone "${resourceName(d.urn)}"): ${d.outcome.failed}`;
    const e = this.expected.get(zone);
    if (!d && e?.failed !== undefined) return `${what}: not created: ${zone} was not bought in this run (Domain "${resourceName(e.urn)}" failed): ${e.failed}`;
    return undefined;
  }

  /** A DnsZone's check failed: records of the zone that wait for it fail at once with its message. */
  failedAtCheck(zone: string, urn: string, why: string): void {
    this.declare(zone, urn, 0);
    this.settle(zone, { failed: why });
  }
  /** Zones whose inactivity was already told in full in this command (once, then short). */
  private readonly told = new Set<string>();
  /** The nameservers each Domain of this program sets, by domain (its check). */
  private readonly nameserversOf = new Map<string, string[]>();
  /** Each DnsZone's waitForDelegation, by zone (its check). */
  private readonly waitsOf = new Map<string, boolean>();

  /** A Domain of the program sets these nameservers (undefined: it leaves them to the service's default). */
  planNameservers(domain: string, nameservers: string[] | undefined): void {
    if (nameservers?.length) this.nameserversOf.set(domain, nameservers);
    else this.nameserversOf.delete(domain);
  }

  /** The nameservers this program's Domain sets for `domain`, if it declares one that sets them. */
  plannedNameservers(domain: string): string[] | undefined {
    return this.nameserversOf.get(domain);
  }

  /** A DnsZone of the program says whether it waits for its delegation. */
  noteWait(zone: string, waits: boolean): void {
    this.waitsOf.set(zone, waits);
  }

  /** The DnsZone's waitForDelegation, when a DnsZone of this command declared the zone. */
  waits(zone: string): boolean | undefined {
    return this.waitsOf.get(zone);
  }

  /** How the zone is misdelegated given the program's Domain (if any), the live delegation and the service's nameservers. */
  misdelegation(zone: string, live: readonly string[] | undefined, service: readonly string[] | undefined): Misdelegation | undefined {
    return misdelegation(this.plannedNameservers(zone), live, service);
  }

  /** A DnsZone checked with no state: the engine is about to create it. */
  declare(zone: string, urn: string, delegationWaitSeconds: number): void {
    const d = this.zones.get(zone);
    if (d && d.urn === urn && !d.outcome) return;
    let settle!: () => void;
    const settled = new Promise<void>((r) => (settle = r));
    this.zones.set(zone, { urn, waitMs: delegationWaitSeconds * 1000 + ZONE_IN_RUN_WAIT_MS, settled, settle });
    this.expected.get(zone)?.resolve();
  }

  /** The zone's create ended (any way): records waiting for it go on. */
  settle(zone: string, outcome: NonNullable<Declared["outcome"]>): void {
    const d = this.zones.get(zone);
    if (!d) return;
    d.outcome = outcome;
    d.settle();
  }

  /**
   * The message for an inactive zone (its DnsZone at preview, its records): whole the first time in
   * this command, short after. `m` as far as known; the program's Domain, when it sets the zone's
   * nameservers, is said to be the cause.
   */
  /** Whether the zone's inactivity was told in full in this command already. */
  wasTold(zone: string): boolean {
    return this.told.has(zone);
  }

  inactive(zone: string, m: Partial<Misdelegation> | undefined): string {
    if (this.told.has(zone)) return zoneInactiveAgain(zone);
    this.told.add(zone);
    const planned = this.plannedNameservers(zone);
    // The program's Domain is named the cause only when the service's nameservers are known to differ from its.
    const known = planned && !m?.byProgram && m?.serviceNameservers?.length ? (misdelegation(planned, undefined, m.serviceNameservers) ?? m) : m;
    return zoneInactiveMessage(zone, known, this.waits(zone));
  }


  /**
   * Before a record's create: waits for the zone when this command is creating it, then refuses when
   * that create failed or left the zone inactive. Returns at once for any other zone.
   */
  async ready(ctx: HostContext, zone: string, what: string): Promise<void> {
    const e = this.expected.get(zone);
    if (!this.zones.has(zone) && e && e.failed === undefined) {
      const seconds = Math.round(e.waitMs / 1000);
      ctx.log.info(`${what}: waiting for ${zone}, which this run registers, and its zone (at most ${seconds} s)`);
      await Promise.race([e.declared, ctx.clock.sleep(e.waitMs)]);
    }
    // Never a wait for what cannot come: the Domain that was to buy the name failed in this run.
    const failed = this.failedInRun(zone, what);
    if (failed) throw new Error(failed);
    const d = this.zones.get(zone);
    if (!d) return;
    if (!d.outcome) {
      const seconds = Math.round(d.waitMs / 1000);
      ctx.log.info(`${what}: waiting for zone ${zone}, which DnsZone "${resourceName(d.urn)}" is creating in this run (at most ${seconds} s)`);
      const timedOut = Symbol("timeout");
      const r = await Promise.race([d.settled, ctx.clock.sleep(d.waitMs).then(() => timedOut)]);
      if (r === timedOut) throw new Error(`${what}: zone ${zone} was still being created by DnsZone "${resourceName(d.urn)}" after ${seconds} s; nothing was created. Run again.`);
    }
    const o = d.outcome!;
    if ("failed" in o) throw new Error(this.failedInRun(zone, what));
    if (!isZoneActive(o)) throw new Error(this.inactive(zone, { delegatedTo: o.delegatedTo, serviceNameservers: o.serviceNameservers }));
  }
}

const registries = new WeakMap<HostContext, ZonesInRun>();

/** The account's registry in this host process. */
export function zonesInRun(ctx: HostContext): ZonesInRun {
  let r = registries.get(ctx);
  if (!r) registries.set(ctx, (r = new ZonesInRun()));
  return r;
}
