/**
 * DnsZone's prediction at preview (called by ../kit/preflight.ts, in preview and up alike): a zone
 * declared twice is warned about; one it creates is adopted, taken over, or created (refused without
 * the domain's DNS add-on). Its delegation, also read by the records of the zone and by the Domain: a
 * zone the program rules out fails once, on the first resource that shows it, before anything is
 * bought; a zone that waits for a delegation it can get is told so, without advice to set the wait.
 */
import { VALUES } from "../../api/contract";
import { isGoneStage, isZoneActive } from "../../api/vocabulary";
import type { DomainInfo } from "../../api/views";
import type { HostContext } from "../kit/context";
import type { Props } from "../kit/handler";
import { creating, named, PreflightState, type Preflight } from "../kit/preflight";
import { domainNotHeld, zoneDeclaredTwice } from "../kit/preview-messages";
import { resourceName } from "../kit/urn";
import { zonesInRun } from "./zones-in-run";
import { FUTILE_WAIT, zoneInactiveMessage, type Misdelegation } from "./delegation";
import { delegationWaitSeconds } from "./schema";
import type { ZoneInputs } from "./state";

/** What the zone predictions of one command keep: who declares which zone, the zones that wait, each zone's delegation. */
export class ZonePredictions {
  /** The DnsZone that declares each zone, by zone. */
  readonly owners = new Map<string, string>();
  /** Zones declared with waitForDelegation that the program does not rule out: up waits for them, so their records are not refused. */
  readonly zonesWaiting = new Set<string>();
  private readonly delegation = new Map<string, Promise<Misdelegation | undefined>>();

  constructor(
    private readonly p: Preflight,
    private readonly ctx: HostContext,
  ) {}

  dropViews(): void {
    this.delegation.clear();
  }

  /**
   * Whether `zone` can become active, from the state before this run and what the program declares:
   * its live status, the nameservers its domain has (or that the program's Domain asks for), and the
   * service's nameservers. Undefined when it is active, can become so, or cannot be told.
   */
  misdelegated(zone: string): Promise<Misdelegation | undefined> {
    // Kept per zone and per the nameservers the program's Domain sets, as known when asked: the CLI
    // checks resources in the order their registrations arrive, so a record or zone may ask before
    // the Domain's check has said them, and that answer must not stand once it has.
    const key = `${zone} ${zonesInRun(this.ctx).plannedNameservers(zone)?.join(",") ?? ""}`;
    let p = this.delegation.get(key);
    if (!p) {
      p = (async () => {
        const live = await this.p.reads.zone(zone);
        if (live && isZoneActive(live)) return undefined;
        const run = zonesInRun(this.ctx);
        const delegatedTo = run.plannedNameservers(zone) ? undefined : (await this.p.reads.domain(zone))?.nameservers;
        const service = live?.nameservers.length ? live.nameservers : await this.p.reads.serviceNameservers();
        return run.misdelegation(zone, delegatedTo, service);
      })();
      this.delegation.set(key, p);
    }
    return p;
  }
}


const ZONES = new PreflightState((p, ctx) => new ZonePredictions(p, ctx));

/** The zone predictions of `p`'s command. */
export const zonePredictions = (p: Preflight): ZonePredictions => p.stateOf(ZONES);

export async function previewZone(p: Preflight, ctx: HostContext, olds: Props, inputs: Props): Promise<void> {
  const i = inputs as unknown as ZoneInputs;
  const urn = i.resourceUrn ?? "";
  const { owners } = zonePredictions(p);
  const other = owners.get(i.domain);
  // Warned, not refused: a host process that outlives one command (tests) would remember URNs of earlier ones.
  if (other !== undefined && other !== urn) ctx.log.warn(`${named("DnsZone", urn)}: ${zoneDeclaredTwice(i.domain, resourceName(other), resourceName(urn))}`);
  owners.set(i.domain, urn);
  if (!creating(olds)) return;
  try {
    await zoneToCreate(p, ctx, i, urn);
  } catch (e) {
    // Records of the zone waiting for its create fail at once with this message (./zones-in-run.ts).
    zonesInRun(ctx).failedAtCheck(i.domain, urn, e instanceof Error ? e.message : String(e));
    throw e;
  }
}

async function zoneToCreate(p: Preflight, ctx: HostContext, i: ZoneInputs, urn: string): Promise<void> {
  const who = named("DnsZone", i.resourceUrn);
  const live = await p.reads.zone(i.domain);
  if (live) {
    if (i.adopt) ctx.log.info(`${who}: adopts the zone ${i.domain} (${live.records_count} records, ${live.status}); nothing changed`);
    else ctx.log.warn(`${who}: the DNS zone ${i.domain} exists already; up takes it over unchanged. If another stack manages it, remove it from this program.`);
  } else {
    const d = await requireHeld(p, ctx, i.domain);
    zonesInRun(ctx).declare(i.domain, urn, i.waitForDelegation ? delegationWaitSeconds(i) : 0);
    if (d) requireDnsAddon(i.domain, d);
    ctx.log.info(`${who}: ${i.adopt ? "adopt finds no zone; " : ""}creates the zone ${i.domain}`);
  }
  await previewZoneDelegation(p, ctx, i.domain, who, { enabled: !!i.waitForDelegation, seconds: delegationWaitSeconds(i) });
}

/**
 * A zone the service does not host yet can be made only for a domain of the account (spec: POST
 * /dns/zones answers 404 for another), or one this program's Domain buys, whose check came first
 * (the program orders a literal name so: ../program/declaration-order.ts). Returns the account's
 * domain, when it holds it; refuses otherwise, naming the domain and the fix, the same words for the
 * zone and for a record of it.
 */
async function requireHeld(p: Preflight, ctx: HostContext, domain: string): Promise<DomainInfo | undefined> {
  if (zonesInRun(ctx).bought(domain)) return undefined;
  const d = await p.reads.domain(domain);
  if (d && !isGoneStage(d.stage)) return d;
  throw new Error(domainNotHeld(domain));
}

/** A record (DnsRecord, or DnsZoneRecords) created in a zone that neither the service nor this program's DnsZone makes: refused when the account cannot host it. */
export async function previewRecordZoneHeld(p: Preflight, ctx: HostContext, zone: string): Promise<void> {
  if (zonePredictions(p).owners.has(zone) || zonesInRun(ctx).failedInRun(zone, "") || (await p.reads.zone(zone))) return;
  await requireHeld(p, ctx, zone);
}

function requireDnsAddon(name: string, d: DomainInfo): void {
  if (Array.isArray(d.addons) && !d.addons.includes(VALUES.dnsAddon))
    throw new Error(`${name}: lacks the DNS Management add-on (${VALUES.dnsAddon}), which DNS hosting needs; add it in the reseller portal, then run again. Nothing was created.`);
}

/**
 * A DnsZone created in this run. Fails when it would wait for a delegation the program's own Domain
 * rules out (its records then refer to this error); a zone ruled out otherwise is warned about, as a
 * zone may be made before its domain points here: its first record fails with the fix, later ones
 * refer to that error. (A record checked before its zone has failed already.)
 */
export async function previewZoneDelegation(p: Preflight, ctx: HostContext, zone: string, who: string, wait: { enabled: boolean; seconds: number }): Promise<void> {
  const view = zonePredictions(p);
  const run = zonesInRun(ctx);
  const m = await view.misdelegated(zone);
  if (!m || (!m.byProgram && wait.enabled)) {
    if (wait.enabled) view.zonesWaiting.add(zone);
    if (m) ctx.log.info(`${who}: ${zone} is delegated to ${m.delegatedTo.join(", ")}, not to the service's nameservers (${m.serviceNameservers.join(", ")}); up waits up to ${wait.seconds} s for the change (waitForDelegation), then creates the zone's records`);
    return;
  }
  if (m.byProgram && wait.enabled) throw new Error(`${run.inactive(zone, m)} ${FUTILE_WAIT}`);
  ctx.log.warn(`${who}: ${zoneInactiveMessage(zone, m, wait.enabled)}`);
}

/**
 * A record (DnsRecord, or DnsZoneRecords' records) created in `zone`: refused with the zone's own
 * message when its DnsZone (or the Domain buying its name) failed in this command, and when the zone
 * is ruled out.
 */
export async function previewRecordZone(p: Preflight, ctx: HostContext, zone: string, what: string): Promise<void> {
  const failed = zonesInRun(ctx).failedInRun(zone, what);
  if (failed) throw new Error(failed);
  const view = zonePredictions(p);
  if (view.zonesWaiting.has(zone)) return;
  const m = await view.misdelegated(zone);
  if (m) throw new Error(zonesInRun(ctx).inactive(zone, m));
}

/**
 * A Domain of the program whose nameservers rule out a DnsZone of the same program that waits for its
 * delegation, the zone checked first. The real CLI checks resources in the order their registrations
 * arrive, which it does not fix: a zone named by a literal can be checked before its Domain, when the
 * program's nameservers are not known yet. Then the Domain fails, once, with the zone's message and
 * its fix, so preview fails before anything is bought either way.
 */
export async function previewDomainRulesOutZone(ctx: HostContext, domain: string, serviceNameservers: () => Promise<string[] | undefined>): Promise<void> {
  const run = zonesInRun(ctx);
  if (run.waits(domain) !== true || run.wasTold(domain) || !run.plannedNameservers(domain)) return;
  const m = run.misdelegation(domain, undefined, await serviceNameservers());
  if (m?.byProgram) throw new Error(run.inactive(domain, m));
}
