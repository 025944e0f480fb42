/** DnsZone's handler (host side): create, read, update and delete against the service. */
import { every, waitUntil } from "../../api/wait";
import { waitForDelegation as waitForZoneDelegation } from "../../api/waits";
import type { DnsRecord, DnsZone, DnsZoneWithRecords } from "../../api/views";
import { isNotFound, isOutcomeUnknown, isServiceManagedRecord, isZoneActive, isZoneExists } from "../../api/vocabulary";
import type { HostContext } from "../kit/context";
import { objectKey } from "../kit/ownership";
import { resourceName } from "../kit/urn";
import { diffZone } from "./diff";
import { GONE, type Handler, importedAs } from "../kit/handler";
import { zoneDeclaredTwice } from "../kit/preview-messages";
import { containsUnknown } from "../kit/check";
import { zoneInactiveMessage } from "./delegation";
import { zonesInRun } from "./zones-in-run";
import { defined } from "../shared/normalize";
import { checkZoneInputs, delegationWaitSeconds } from "./schema";
import { type ZoneInputs, ZoneOutputs } from "./state";
import { previewZone } from "./preview";
import { domainOnly } from "../kit/disguised-inputs";

/**
 * A zone delete that finds records left waits while this command is still deleting records of that
 * zone (the engine deletes a zone and its records in parallel when nothing orders them), and
 * refuses once no record delete of the zone has started or ended for ZONE_DELETE_QUIET_MS, or after
 * ZONE_DELETE_MAX_WAIT_MS in all. The quiet span also covers record deletes not yet dispatched.
 */
export const ZONE_DELETE_QUIET_MS = 2000;
export const ZONE_DELETE_MAX_WAIT_MS = 120_000;
const ZONE_DELETE_POLL_MS = 200;

export async function getZoneOrUndefined(ctx: HostContext, domain: string): Promise<DnsZoneWithRecords | undefined> {
  try {
    const z = await ctx.api().getZone(domain);
    ctx.reads.primeZoneRecords(domain, z.records ?? []);
    return z;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

function zoneOutputs(inputs: ZoneInputs, z: DnsZone, adopted: boolean): ZoneOutputs {
  return defined({
    ...inputs,
    domain: z.domain,
    nameservers: z.nameservers,
    status: z.status,
    delegated: z.delegated,
    adopted,
  });
}

/**
 * The delegation wait (api/waits.ts): bounded, logged, on the host's clock; never for a
 * delegation this program's own Domain rules out (its nameservers are not the service's, `service`
 * when known, else read with one zone check): that is said, and the zone stays pending.
 */
async function waitForDelegation(ctx: HostContext, domain: string, seconds: number, service?: readonly string[]): Promise<void> {
  const run = zonesInRun(ctx);
  if (run.plannedNameservers(domain)) {
    const now = service?.length ? undefined : await ctx.api().checkZone(domain);
    const m = now && isZoneActive(now) ? undefined : run.misdelegation(domain, undefined, service?.length ? service : now?.nameservers);
    if (m?.byProgram) {
      ctx.log.warn(`${domain}: not waiting for the delegation: ${zoneInactiveMessage(domain, m, true)}`);
      return;
    }
    if (now && isZoneActive(now)) return;
  }
  await waitForZoneDelegation(ctx.api(), domain, seconds, { clock: ctx.clock, log: ctx.log });
}

export const zoneHandler: Handler<ZoneInputs, ZoneOutputs> = {
  nameInputs: domainOnly,
  importId: importedAs(["domain"]),

  preview: previewZone,

  check(ctx, _olds, news) {
    const result = checkZoneInputs(news);
    // Whether it waits, so no message about the zone advises a wait that is set (dns-zone/delegation.ts).
    if (result.ok && !containsUnknown([result.inputs.domain, result.inputs.waitForDelegation])) zonesInRun(ctx).noteWait(result.inputs.domain, !!result.inputs.waitForDelegation);
    return result;
  },

  diff(ctx, id, olds, news) {
    const d = diffZone(olds, news);
    // The zone stays this resource's unless it is replaced: a delete by another URN leaves it.
    if (!d.replaces.length) ctx.owners.claim(objectKey.zone(id), news.resourceUrn ?? olds.resourceUrn);
    return d;
  },

  async create(ctx, inputs) {
    const { domain, resourceUrn: urn } = inputs;
    const key = objectKey.zone(domain);
    // Claimed before the first request, so of two DnsZones of one zone whose creates run at once the
    // second is refused (with the message preview warned with) rather than meeting zone_exists and
    // taking the first's zone over: one zone, one owner. The refused one leaves the zone's records
    // to the first's create; a create that fails releases the claim.
    const other = ctx.owners.claim(key, urn);
    if (other) throw new Error(zoneDeclaredTwice(domain, resourceName(other), resourceName(urn ?? "")));
    const run = zonesInRun(ctx);
    try {
      const z = await createZone(ctx, inputs);
      run.settle(domain, { status: z.outs.status, serviceNameservers: z.outs.nameservers });
      return z;
    } catch (e) {
      ctx.owners.release(key, urn);
      run.settle(domain, { failed: e instanceof Error ? e.message : String(e) });
      throw e;
    }
  },

  async read(ctx, id, props) {
    // From GET /dns/zones where its entries carry the zone view (one call for every zone), else alone.
    const z = (await ctx.reads.listedZone(id)) ?? (await getZoneOrUndefined(ctx, id));
    return z ? { id, props: zoneOutputs(props, z, props.adopted ?? false) } : GONE;
  },

  async update(ctx, id, olds, news) {
    if (news.waitForDelegation && !olds.delegated) await waitForDelegation(ctx, id, delegationWaitSeconds(news), olds.nameservers);
    const z = await getZoneOrUndefined(ctx, id);
    if (!z) throw new Error(`${id}: the DNS zone no longer exists on the service; run pulumi refresh to drop it from state, then up to create it again`);
    return { outs: zoneOutputs(news, z, olds.adopted ?? false) };
  },

  async delete(ctx, id, props) {
    const api = ctx.api();
    if (ctx.owners.movedAway(objectKey.zone(id), props.resourceUrn, `DNS zone ${id}`)) return;
    const others = await userRecordsOnceSettled(ctx, id, !!props.forceDestroy);
    if (others === undefined) return;
    if (others.length && !props.forceDestroy) {
      const list = others.slice(0, 5).map((r) => `${r.type} ${r.name}`).join(", ");
      throw new Error(
        `${id}: refusing to delete the zone: it still holds ${others.length} record(s) this stack does not manage (${list}${others.length > 5 ? ", ..." : ""}). Deleting a zone deletes all its records. Remove them, or set forceDestroy: true on the DnsZone.`,
      );
    }
    await api.deleteZone(id);
    ctx.reads.invalidateZone(id);
    ctx.owners.release(objectKey.zone(id), props.resourceUrn);
    ctx.log.info(`${id}: zone deleted${others.length ? ` with ${others.length} unmanaged record(s) (forceDestroy)` : ""}`);
  },
};

/** A zone's create (claimed by its resource already): adopted, created or taken over, then made active when its domain already delegates to it. */
async function createZone(ctx: HostContext, inputs: ZoneInputs): Promise<{ id: string; outs: ZoneOutputs }> {
  const api = ctx.api();
  const { domain } = inputs;
  if (inputs.adopt) {
    const z = await getZoneOrUndefined(ctx, domain);
    if (z) {
      ctx.log.info(`${domain}: zone adopted (${z.records_count} records); nothing changed`);
      return { id: domain, outs: zoneOutputs(inputs, z, true) };
    }
    ctx.log.info(`${domain}: adopt: there is no DNS zone for ${domain} yet; creating it`);
  }
  let takenOver = false;
  try {
    await api.createZone(domain);
  } catch (e) {
    // No answer: the zone may have been made; the read below decides.
    if (isOutcomeUnknown(e) && (await getZoneOrUndefined(ctx, domain))) ctx.log.warn(`${domain}: no answer to the zone create, but the zone exists; taking it`);
    else if (isZoneExists(e)) {
      // Taken, never overwritten: nothing in it changes, and deleting it later still refuses while
      // it holds records this stack does not manage. This is what a DnsZone renamed or moved
      // without aliases meets (the old URN's delete then leaves the zone to this one).
      ctx.log.warn(`${domain}: the DNS zone exists already (a DnsZone renamed or moved without aliases, or created outside this stack); taking it over unchanged. If another stack manages it, remove it from this program.`);
      takenOver = true;
    } else throw e;
  }
  if (inputs.waitForDelegation) await waitForDelegation(ctx, domain, delegationWaitSeconds(inputs));
  else {
    // One delegation check, no wait: a domain that already points at the service's nameservers
    // makes the zone active now (spec: POST zone check), so the records of this run can be created.
    const checked = await api.checkZone(domain);
    if (!isZoneActive(checked)) ctx.log.info(`${domain}: the zone is ${checked.status}: the domain does not delegate to ${checked.nameservers.join(", ")} yet; records can be created once it does (waitForDelegation: true waits for it)`);
    return { id: domain, outs: zoneOutputs(inputs, checked, takenOver) };
  }
  const z = await getZoneOrUndefined(ctx, domain);
  if (!z) throw new Error(`${domain}: the DNS zone was created but cannot be read back; run pulumi refresh, then up again`);
  return { id: domain, outs: zoneOutputs(inputs, z, takenOver) };
}

/**
 * The zone's records that are the user's (not the service's own NS/SOA), once this command's own
 * record deletes in the zone have settled (see ZONE_DELETE_QUIET_MS); undefined when the zone is gone.
 * With forceDestroy nothing is waited for: the zone goes with whatever it holds.
 */
async function userRecordsOnceSettled(ctx: HostContext, zone: string, force: boolean): Promise<DnsRecord[] | undefined> {
  const { clock } = ctx;
  const userRecords = async (): Promise<DnsRecord[] | undefined> => {
    ctx.reads.invalidateZone(zone);
    const z = await getZoneOrUndefined(ctx, zone);
    return z ? (z.records ?? []).filter((r) => !isServiceManagedRecord(zone, r)) : undefined;
  };
  const start = clock.now();
  let others = await userRecords();
  if (!others?.length || force) return others;
  let readAfter = ctx.recordDeletes.activity(zone).last;
  // Reads the zone again only when record deletes ended since the last read; settled once none is in flight and it is quiet.
  const r = await waitUntil({
    subject: zone,
    awaited: "this run's record deletes in the zone before deleting it",
    probe: async () => {
      const a = ctx.recordDeletes.activity(zone);
      if (a.inFlight === 0 && a.last !== readAfter) {
        others = await userRecords();
        readAfter = a.last;
      }
      return { others, inFlight: a.inFlight, quiet: a.inFlight === 0 && a.last === readAfter && clock.now() - Math.max(start, a.last) >= ZONE_DELETE_QUIET_MS };
    },
    done: (v) => !v.others?.length || v.quiet,
    describe: (v) => `${v.others?.length ?? 0} record(s) left`,
    announce: (v) => v.inFlight > 0,
    timeoutMs: ZONE_DELETE_MAX_WAIT_MS,
    schedule: every(ZONE_DELETE_POLL_MS),
    clock,
    log: ctx.log,
  });
  return r.value.others;
}
