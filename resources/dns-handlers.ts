/** DnsZone, DnsRecord and ZoneTemplate. */
import { sameRecord as tableSameRecord, standsAlone } from "../provider/records";
import { DS_PLACEMENT } from "../provider/records/t_hex";
import { every, waitUntil } from "../provider/wait";
import { waitForDelegation as waitForZoneDelegation } from "../provider/waits";
import type { DnsRecord, DnsZone, DnsZoneWithRecords, RecordInput } from "../provider/views";
import { isNotFound, isOutcomeUnknown, isRefusedAsInvalid, isServiceManagedRecord, isTemplateConflict, isTtlConflict, isZoneActive, isZoneExists, isZoneNotActive } from "../provider/vocabulary";
import type { HostContext } from "./host/context";
import { objectKey } from "./host/ownership";
import { resourceName } from "./host/urn";
import { diffRecord, diffTemplate, diffZone } from "./host/diff";
import { GONE, type Handler } from "./host/handler";
import { templateFailures } from "./template-check";
import { declarations } from "./zone-records/declared";
import { recordKey } from "./zone-records/plan";
import { recordDeclaredTwice, ttlConflict, zoneDeclaredTwice } from "./host/preview-messages";
import { zonesInRun } from "./host/zones-in-run";
import { identityKey, liveByIdentity, liveCanonical } from "./host/live-records";
import { canonicalRecord, defined, fqdn, sameJson, type CanonicalRecord } from "./shared/normalize";
import { checkRecordInputs, checkTemplateInputs, checkZoneInputs, containsUnknown, failed, type RecordInputs, type TemplateInputs, type ZoneInputs } from "./host/check";

/** A DnsZone in state: its inputs and the zone as the service reports it. */
export type ZoneOutputs = ZoneInputs & { nameservers: string[]; status: string; delegated: boolean; adopted: boolean };

/** A DnsRecord in state: the record in canonical form as the service holds it, its id and full name. */
export type RecordOutputs = RecordInputs & CanonicalRecord & { recordId: string; fqdn: string; adopted: boolean };

/** A ZoneTemplate in state: what the application made. */
export type TemplateOutputs = TemplateInputs & { recordIds: string[]; created: number; replaced: number; skipped: string[]; adopted: boolean };

export const DEFAULT_DELEGATION_WAIT_SECONDS = 300;

/**
 * A zone delete that finds records left waits while this command is still deleting records of that
 * zone (the engine deletes a zone and its records in parallel when nothing orders them), and
 * refuses once no record delete of the zone has started or ended for ZONE_DELETE_QUIET_MS, or after
 * ZONE_DELETE_MAX_WAIT_MS in all. The quiet span also covers record deletes not yet dispatched.
 */
export const ZONE_DELETE_QUIET_MS = 2000;
export const ZONE_DELETE_MAX_WAIT_MS = 120_000;
const ZONE_DELETE_POLL_MS = 200;

async function getZoneOrUndefined(ctx: HostContext, domain: string): Promise<DnsZoneWithRecords | undefined> {
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

/** The delegation wait (provider/waits.ts): bounded, logged, on the host's clock. */
async function waitForDelegation(ctx: HostContext, domain: string, seconds: number): Promise<void> {
  await waitForZoneDelegation(ctx.api(), domain, seconds, { clock: ctx.clock, log: ctx.log });
}

export const zoneHandler: Handler<ZoneInputs, ZoneOutputs> = {
  check: (_ctx, _olds, news) => checkZoneInputs(news),

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
    if (other) throw new Error(zoneDeclaredTwice(domain, resourceName(other)));
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
    if (news.waitForDelegation && !olds.delegated) await waitForDelegation(ctx, id, news.waitTimeoutSeconds ?? DEFAULT_DELEGATION_WAIT_SECONDS);
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
  if (inputs.waitForDelegation) await waitForDelegation(ctx, domain, inputs.waitTimeoutSeconds ?? DEFAULT_DELEGATION_WAIT_SECONDS);
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

/**
 * A record's create. A zone that is not active gets one delegation check first (its domain may
 * delegate to it since the zone was made: the zone then becomes active), and the create is sent again once.
 */
async function createInZone(ctx: HostContext, zone: string, want: CanonicalRecord): Promise<DnsRecord> {
  const api = ctx.api();
  try {
    return await api.createRecord(zone, toRequest(want));
  } catch (e) {
    if (!isZoneNotActive(e) || !isZoneActive(await api.checkZone(zone))) throw e;
    return api.createRecord(zone, toRequest(want));
  }
}

/** The record in canonical form, as outputs carry it. */
function recordOutputs(inputs: RecordInputs, zone: string, live: DnsRecord, adopted: boolean): RecordOutputs {
  const c = canonicalRecord(live, zone);
  return defined({ ...inputs, zone, ...c, recordId: live.id, fqdn: fqdn(c.name, zone), adopted });
}

function toRequest(c: CanonicalRecord): RecordInput {
  return defined({ type: c.type, name: c.name, content: c.content, ttl: c.ttl, priority: c.priority, extra: c.extra });
}

/** Inputs come canonical from check() and outputs from read(): taken as they are, not canonicalized again. */
const canonicalOf = (p: RecordInputs): CanonicalRecord => ({ type: p.type, name: p.name, content: p.content, ttl: p.ttl, priority: p.priority ?? null, extra: p.extra ?? null });

/** A clear message for the shared-TTL refusal, naming the TTL the siblings have (the one check predicts: preview-messages.ts). */
async function ttlConflictMessage(ctx: HostContext, zone: string, c: CanonicalRecord): Promise<string> {
  let sibling: number | undefined;
  try {
    ctx.reads.invalidateZone(zone);
    const same = liveCanonical(await ctx.reads.zoneRecords(zone), zone).map((l) => l.canonical).filter((r) => r.type === c.type && r.name === c.name);
    if (same.length) sibling = same[0].ttl;
  } catch {
    /* the message stays useful without it */
  }
  return ttlConflict(`${c.type} ${fqdn(c.name, zone)}`, c.type, c.ttl, sibling);
}

/** Whole-record identity: type, name, content, priority and every extra field, all canonical (TTL is shared per name and type). */
export const sameRecord = (a: CanonicalRecord, b: CanonicalRecord): boolean => tableSameRecord(a, b);

/** The live record identical to `want` that no other URN of this run holds; else who holds the identical one. */
function findIdentical(ctx: HostContext, live: DnsRecord[], zone: string, want: CanonicalRecord, urn: string | undefined): { match?: DnsRecord; claimedBy?: string } {
  let claimedBy: string | undefined;
  for (const { live: r, canonical } of liveByIdentity(live, zone).get(identityKey(want)) ?? []) {
    if (!sameRecord(canonical, want)) continue;
    const other = ctx.owners.claimedByOther(objectKey.record(zone, r.id), urn);
    if (!other) return { match: r };
    claimedBy ??= other;
  }
  return { claimedBy };
}

/** An adopted record whose TTL differs from the program's gets the program's (one update, now, not at the next up). */
async function withTtl(ctx: HostContext, zone: string, live: DnsRecord, want: CanonicalRecord): Promise<DnsRecord> {
  if (live.ttl === want.ttl) return live;
  try {
    const updated = await ctx.api().updateRecord(zone, live.id, { ttl: want.ttl });
    return { ...live, ...updated, id: live.id };
  } finally {
    ctx.reads.invalidateZone(zone);
  }
}

/**
 * The refusal of a record that would share its name with a CNAME (RFC 1034 §3.6.2, RFC 2181 §10.1),
 * naming the input that is wrong: `type` when the new record is the CNAME, `name` otherwise.
 */
function cnameClash(live: DnsRecord[], zone: string, want: CanonicalRecord): string | undefined {
  const same = liveCanonical(live, zone).map((l) => l.canonical).filter((r) => r.name === want.name);
  const where = fqdn(want.name, zone);
  if (standsAlone(want.type) && same.length) {
    const held = [...new Set(same.map((r) => r.type))].join(", ");
    return `type: "CNAME" for ${where} is refused: a CNAME cannot share its name with other records (RFC 1034 §3.6.2) and ${where} also holds ${held} records not part of this change. Remove those records, or choose another type or name.`;
  }
  if (!standsAlone(want.type) && same.some((r) => standsAlone(r.type)))
    return `name: ${JSON.stringify(want.name)} is refused for a ${want.type} record: ${where} holds a CNAME, which cannot share its name with other records (RFC 1034 §3.6.2). Remove the CNAME, or choose another name.`;
  return undefined;
}

/**
 * RFC 4035 §2.4: a DS sits only at a delegation point. check refuses the apex; whether a name below
 * it is delegated is the live zone's to say, read afresh (its NS records may have been made earlier
 * in this run), so a DS is never written where no NS records are, whatever the service allows.
 */
async function requireDelegation(ctx: HostContext, zone: string, want: CanonicalRecord): Promise<void> {
  ctx.reads.invalidateZone(zone);
  const live = liveCanonical(await ctx.reads.zoneRecords(zone), zone).map((l) => l.canonical);
  if (!live.some((r) => r.type === "NS" && r.name === want.name)) throw new Error(`name: ${JSON.stringify(want.name)} ${DS_PLACEMENT.notDelegation(fqdn(want.name, zone))}; declare its NS records first, with dependsOn`);
}

export const recordHandler: Handler<RecordInputs, RecordOutputs> = {
  check(ctx, _olds, news) {
    const result = checkRecordInputs(news, ctx.limits());
    if (!result.ok) return result;
    const i = result.inputs;
    if (i.resourceUrn === undefined || containsUnknown([i.zone, i.name, i.type, i.ttl])) return result;
    // One record, one owner across kinds (declared.ts); two DnsRecords of one identical record stay
    // allowed, as the import writes them for a zone holding exact duplicates (cli/README.md).
    const owner = declarations(ctx)
      .declare(i.resourceUrn, i.zone, [recordKey(i)])
      .find((o) => o.urn.includes(":DnsZoneRecords::"));
    if (owner)
      return failed(news, [{ property: "content", reason: `content: ${owner.key} is also declared by "${resourceName(owner.urn)}" (a DnsZoneRecords) in ${i.zone}: one record, one owner; remove it from one of them` }]);
    const clash = ctx.ttls.register(i.resourceUrn, i.zone, i.name, i.type, i.ttl);
    if (!clash) return result;
    return failed(news, [
      {
        property: "ttl",
        reason: `ttl: ${i.ttl} differs from ttl ${clash.ttl} of "${resourceName(clash.urn)}", another ${i.type} record named ${i.name} in ${i.zone}: records of one name and type share one TTL, so give "${resourceName(i.resourceUrn)}" and "${resourceName(clash.urn)}" the same ttl`,
      },
    ]);
  },

  diff(ctx, id, olds, news) {
    const d = diffRecord(olds, news);
    if (!d.replaces.length) ctx.owners.claim(objectKey.record(olds.zone, id), news.resourceUrn ?? olds.resourceUrn);
    return d;
  },

  async create(ctx, inputs) {
    const { zone, resourceUrn: urn } = inputs;
    const want = canonicalOf(inputs);
    const what = `${want.type} ${fqdn(want.name, zone)}`;
    if (inputs.adopt) {
      // One list of the zone serves every adoption of this command, not one list per record. A record
      // made out of band after that list arrived is not in it: the create below then meets the
      // service's refusal of an identical record and takes the record, as after a lost answer.
      const { match, claimedBy } = findIdentical(ctx, await ctx.reads.zoneRecordsFor(zone, urn), zone, want, urn);
      if (match) {
        ctx.owners.claim(objectKey.record(zone, match.id), urn);
        const taken = await withTtl(ctx, zone, match, want);
        ctx.log.info(`${what}: adopted (record ${match.id})`);
        return { id: match.id, outs: recordOutputs(inputs, zone, taken, true) };
      }
      ctx.log.info(`${what}: adopt: no unmanaged record with this content${claimedBy ? ` (the identical one is managed by "${resourceName(claimedBy)}")` : ""}; creating it`);
    }
    if (want.type === "DS") await requireDelegation(ctx, zone, want);
    await zonesInRun(ctx).ready(ctx, zone, what);
    let created: DnsRecord;
    try {
      created = await createInZone(ctx, zone, want);
    } catch (e) {
      // No answer: the create may have been applied. Refused as invalid: the record may exist already,
      // made by an earlier create whose answer was lost, or held by this resource's old URN (renamed or
      // moved without aliases), and the service refuses an identical record. Either way the identical
      // record (type, name, content, priority, extra) that no other resource of this run holds is ours.
      if (isOutcomeUnknown(e) || isRefusedAsInvalid(e)) {
        ctx.reads.invalidateZone(zone);
        const live = await ctx.reads.zoneRecords(zone);
        const { match, claimedBy } = findIdentical(ctx, live, zone, want, urn);
        if (match) {
          ctx.owners.claim(objectKey.record(zone, match.id), urn);
          if (!isOutcomeUnknown(e)) ctx.log.warn(`${what}: the record exists already (an earlier create whose answer was lost, or this record renamed or moved without aliases); taking it`);
          return { id: match.id, outs: recordOutputs(inputs, zone, match, false) };
        }
        if (claimedBy) throw new Error(recordDeclaredTwice(what, resourceName(claimedBy)));
        if (isOutcomeUnknown(e))
          throw new Error(`${what}: no answer to the create and no such record is in the zone yet; the create may still be applied. Run again: a record that appears is taken as this one.`);
        const clash = cnameClash(live, zone, want);
        if (clash) throw new Error(clash);
      }
      if (isTtlConflict(e)) throw new Error(await ttlConflictMessage(ctx, zone, want));
      if (isZoneNotActive(e)) throw new Error(zonesInRun(ctx).inactive(zone, undefined, undefined));
      throw e;
    } finally {
      ctx.reads.invalidateZone(zone);
    }
    ctx.owners.claim(objectKey.record(zone, created.id), urn);
    return { id: created.id, outs: recordOutputs(inputs, zone, created, false) };
  },

  async read(ctx, id, props) {
    const zone = props.zone;
    let live: DnsRecord | undefined;
    try {
      // One list call (per page) serves the reads of every record of the zone (read-cache.ts).
      live = await ctx.reads.zoneRecord(zone, id);
    } catch (e) {
      if (isNotFound(e)) return GONE;
      throw e;
    }
    return live ? { id, props: recordOutputs(props, zone, live, props.adopted ?? false) } : GONE;
  },

  async update(ctx, id, olds, news) {
    const zone = news.zone;
    const want = canonicalOf(news);
    const had = canonicalOf(olds);
    const patch: Partial<RecordInput> = {};
    if (want.content !== had.content) patch.content = want.content;
    if (want.ttl !== had.ttl) patch.ttl = want.ttl;
    if (want.priority !== had.priority) patch.priority = want.priority;
    if (!sameJson(want.extra, had.extra)) patch.extra = want.extra;
    if (Object.keys(patch).length === 0) return { outs: { ...olds, ...news } };
    let updated: DnsRecord;
    try {
      updated = await ctx.api().updateRecord(zone, id, patch);
    } finally {
      ctx.reads.invalidateZone(zone);
    }
    if (patch.ttl !== undefined) ctx.log.info(`${want.type} ${fqdn(want.name, zone)}: ttl ${patch.ttl} applies to every ${want.type} record of this name (shared TTL)`);
    const merged: DnsRecord = { ...updated, id: updated?.id ?? id, type: updated?.type ?? want.type, name: updated?.name ?? want.name, content: updated?.content ?? want.content, ttl: updated?.ttl ?? want.ttl };
    return { outs: recordOutputs(news, zone, merged, olds.adopted ?? false) };
  },

  async delete(ctx, id, props) {
    const zone = props.zone;
    const key = objectKey.record(zone, id);
    if (ctx.owners.movedAway(key, props.resourceUrn, `${props.type} ${fqdn(props.name, zone)} (record ${id})`)) {
      ctx.ttls.unregister(props.resourceUrn);
      return;
    }
    await ctx.recordDeletes.track(zone, async () => {
      try {
        await ctx.api().deleteRecord(zone, id);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      } finally {
        ctx.reads.invalidateZone(zone);
        ctx.ttls.unregister(props.resourceUrn);
      }
    });
    ctx.owners.release(key, props.resourceUrn);
  },
};

function templateOutputs(inputs: TemplateInputs, made: Pick<TemplateOutputs, "recordIds" | "created" | "replaced" | "skipped" | "adopted">): TemplateOutputs {
  return defined({ ...inputs, ...made });
}

export const templateHandler: Handler<TemplateInputs, TemplateOutputs> = {
  async check(ctx, _olds, news) {
    const result = checkTemplateInputs(news);
    if (!result.ok) return result;
    // A template id or variable the service does not have fails at preview, not at apply.
    const unknownToService = await templateFailures(result.inputs, () => ctx.reads.templates());
    return unknownToService.length ? failed(news, unknownToService) : result;
  },

  diff(ctx, _id, olds, news) {
    const d = diffTemplate(olds, news);
    if (!d.replaces.length) for (const r of olds.recordIds ?? []) ctx.owners.claim(objectKey.record(olds.zone, r), news.resourceUrn ?? olds.resourceUrn);
    return d;
  },

  async create(ctx, inputs) {
    const api = ctx.api();
    const { zone, templateId } = inputs;
    const id = `${zone}/${templateId}`;
    if (inputs.adopt) {
      const templates = await api.listTemplates();
      if (!templates.some((t) => t.id === templateId)) throw new Error(`adopt: there is no template ${templateId}`);
      if (!(await getZoneOrUndefined(ctx, zone))) throw new Error(`adopt: there is no DNS zone for ${zone}`);
      return { id, outs: templateOutputs(inputs, { recordIds: [], created: 0, replaced: 0, skipped: [], adopted: true }) };
    }
    try {
      const res = await api.applyTemplate(zone, templateId, { variables: inputs.variables, conflict_strategy: inputs.conflictStrategy });
      let ids = [...res.created, ...res.replaced].map((r) => r.id);
      if (res.replaced.length) {
        // `replaced` may name the records the apply deleted (the sandbox's reading; the spec is silent):
        // keep only ids that exist, or the first refresh would show recordIds shrinking.
        ctx.reads.invalidateZone(zone);
        const present = new Set((await ctx.reads.zoneRecords(zone)).map((r) => r.id));
        ids = ids.filter((i) => present.has(i));
      }
      for (const r of ids) ctx.owners.claim(objectKey.record(zone, r), inputs.resourceUrn);
      return {
        id,
        outs: templateOutputs(inputs, {
          recordIds: ids,
          created: res.created.length,
          replaced: res.replaced.length,
          skipped: res.skipped.map((s) => `${s.type} ${s.name}`),
          adopted: false,
        }),
      };
    } catch (e) {
      if (isTemplateConflict(e))
        throw new Error(
          `${zone}: template ${templateId} meets existing records and conflictStrategy is cancel; nothing was changed. Use conflictStrategy "skip" or "replace". If this ZoneTemplate was renamed or moved under a component, those are its own records: add the old name with the aliases resource option instead (see README, "Moving resources"). (${e instanceof Error ? e.message : String(e)})`,
        );
      throw e;
    } finally {
      ctx.reads.invalidateZone(zone);
    }
  },

  async read(ctx, id, props) {
    let records: DnsRecord[];
    try {
      records = await ctx.reads.zoneRecords(props.zone);
    } catch (e) {
      if (isNotFound(e)) return GONE;
      throw e;
    }
    const present = new Set(records.map((r) => r.id));
    return { id, props: { ...props, recordIds: (props.recordIds ?? []).filter((r) => present.has(r)) } };
  },

  async update(_ctx, _id, olds, news) {
    return { outs: templateOutputs(news, { recordIds: olds.recordIds, created: olds.created, replaced: olds.replaced, skipped: olds.skipped, adopted: olds.adopted }) };
  },

  async delete(ctx, _id, props) {
    const zone = props.zone;
    const api = ctx.api();
    await ctx.recordDeletes.track(zone, async () => {
      for (const recordId of props.recordIds ?? []) {
        const key = objectKey.record(zone, recordId);
        if (ctx.owners.movedAway(key, props.resourceUrn, `record ${recordId} of template ${props.templateId}`)) continue;
        try {
          await api.deleteRecord(zone, recordId);
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
        ctx.owners.release(key, props.resourceUrn);
      }
      ctx.reads.invalidateZone(zone);
    });
  },
};
