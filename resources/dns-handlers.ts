/** DnsZone, DnsRecord and ZoneTemplate. */
import { systemClock, type Clock } from "../provider/clock";
import { every, waitUntil } from "../provider/wait";
import { waitForDelegation as waitForZoneDelegation } from "../provider/waits";
import type { DnsRecord, DnsZone, DnsZoneWithRecords, RecordInput, ConflictStrategy } from "../provider/views";
import { errorCode, hasCode, isNotFound, isOutcomeUnknown, type ResellerApi } from "./api";
import { isServiceManagedRecord } from "../provider/contract";
import {
  claim,
  claimedByOther,
  client,
  defined,
  info,
  invalidateZone,
  limits,
  movedAway,
  objectKey,
  primeZoneRecords,
  recordDeleteActivity,
  registerTtl,
  release,
  resourceName,
  trackRecordDelete,
  unregisterTtl,
  warn,
  zoneRecords,
} from "./context";
import { listedZone, zoneRecord } from "./read-cache";
import { diffRecord, diffTemplate, diffZone } from "./diff";
import { GONE, type Handler, type Props } from "./handler";
import { canonicalRecord, fqdn, sameJson, type CanonicalRecord } from "./normalize";
import { checkRecordInputs, checkTemplateInputs, checkZoneInputs, containsUnknown } from "./validate";

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

async function getZoneOrUndefined(api: ResellerApi, domain: string): Promise<DnsZoneWithRecords | undefined> {
  try {
    const z = await api.getZone(domain);
    primeZoneRecords(domain, z.records ?? []);
    return z;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

function zoneOutputs(inputs: Props, z: DnsZone, adopted: boolean): Props {
  return defined({
    ...inputs,
    domain: z.domain,
    nameservers: z.nameservers,
    status: z.status,
    delegated: z.delegated,
    adopted,
  });
}

/** The delegation wait (provider/waits.ts): bounded, logged, on a clock. */
async function waitForDelegation(api: ResellerApi, domain: string, seconds: number): Promise<void> {
  await waitForZoneDelegation(api, domain, seconds, { clock: systemClock, log: { info, warn } });
}

export const zoneHandler: Handler = {
  check: (_olds, news) => checkZoneInputs(news),

  diff(id, olds, news) {
    const d = diffZone(olds, news);
    // The zone stays this resource's unless it is replaced: a delete by another URN leaves it.
    if (!d.replaces.length) claim(objectKey.zone(id), news.resourceUrn ?? olds.resourceUrn);
    return d;
  },

  async create(inputs) {
    const api = client();
    const domain = inputs.domain as string;
    const urn = inputs.resourceUrn;
    const key = objectKey.zone(domain);
    const other = claimedByOther(key, urn);
    if (other) throw new Error(`${domain}: the DNS zone is already managed by "${resourceName(other)}" in this stack; declare one DnsZone per zone`);
    if (inputs.adopt) {
      const z = await getZoneOrUndefined(api, domain);
      if (z) {
        claim(key, urn);
        info(`${domain}: zone adopted (${z.records_count} records); nothing changed`);
        return { id: domain, outs: zoneOutputs(inputs, z, true) };
      }
      info(`${domain}: adopt: there is no DNS zone for ${domain} yet; creating it`);
    }
    let takenOver = false;
    try {
      await api.createZone(domain);
    } catch (e) {
      // No answer: the zone may have been made; the read below decides.
      if (isOutcomeUnknown(e) && (await getZoneOrUndefined(api, domain))) warn(`${domain}: no answer to the zone create, but the zone exists; taking it`);
      else if (hasCode(e, "zone_exists")) {
        // Taken, never overwritten: nothing in it changes, and deleting it later still refuses while
        // it holds records this stack does not manage. This is what a DnsZone renamed or moved
        // without aliases meets (the old URN's delete then leaves the zone to this one).
        warn(`${domain}: the DNS zone exists already (a DnsZone renamed or moved without aliases, or created outside this stack); taking it over unchanged. If another stack manages it, remove it from this program.`);
        takenOver = true;
      } else throw e;
    }
    claim(key, urn);
    if (inputs.waitForDelegation) await waitForDelegation(api, domain, (inputs.waitTimeoutSeconds as number | undefined) ?? DEFAULT_DELEGATION_WAIT_SECONDS);
    const z = (await getZoneOrUndefined(api, domain))!;
    return { id: domain, outs: zoneOutputs(inputs, z, takenOver) };
  },

  async read(id, props) {
    // From GET /dns/zones where its entries carry the zone view (one call for every zone), else alone.
    const z = (await listedZone(id)) ?? (await getZoneOrUndefined(client(), id));
    return z ? { id, props: zoneOutputs(props, z, (props.adopted as boolean | undefined) ?? false) } : GONE;
  },

  async update(id, olds, news) {
    const api = client();
    if (news.waitForDelegation && !olds.delegated)
      await waitForDelegation(api, id, (news.waitTimeoutSeconds as number | undefined) ?? DEFAULT_DELEGATION_WAIT_SECONDS);
    const z = await getZoneOrUndefined(api, id);
    if (!z) throw new Error(`${id}: the DNS zone no longer exists on the service; run pulumi refresh to drop it from state, then up to create it again`);
    return { outs: zoneOutputs(news, z, (olds.adopted as boolean | undefined) ?? false) };
  },

  async delete(id, props) {
    const api = client();
    if (movedAway(objectKey.zone(id), props.resourceUrn, `DNS zone ${id}`)) return;
    const others = await userRecordsOnceSettled(api, id, !!props.forceDestroy);
    if (others === undefined) return;
    if (others.length && !props.forceDestroy) {
      const list = others.slice(0, 5).map((r) => `${r.type} ${r.name}`).join(", ");
      throw new Error(
        `${id}: refusing to delete the zone: it still holds ${others.length} record(s) this stack does not manage (${list}${others.length > 5 ? ", ..." : ""}). Deleting a zone deletes all its records. Remove them, or set forceDestroy: true on the DnsZone.`,
      );
    }
    await api.deleteZone(id);
    invalidateZone(id);
    release(objectKey.zone(id), props.resourceUrn);
    info(`${id}: zone deleted${others.length ? ` with ${others.length} unmanaged record(s) (forceDestroy)` : ""}`);
  },
};

/**
 * The zone's records that are the user's (not the service's own NS/SOA), once this command's own
 * record deletes in the zone have settled (see ZONE_DELETE_QUIET_MS); undefined when the zone is gone.
 * With forceDestroy nothing is waited for: the zone goes with whatever it holds.
 */
async function userRecordsOnceSettled(api: ResellerApi, zone: string, force: boolean, clock: Clock = systemClock): Promise<DnsRecord[] | undefined> {
  const userRecords = async (): Promise<DnsRecord[] | undefined> => {
    invalidateZone(zone);
    const z = await getZoneOrUndefined(api, zone);
    return z ? (z.records ?? []).filter((r) => !isServiceManagedRecord(zone, r)) : undefined;
  };
  const start = clock.now();
  let others = await userRecords();
  if (!others?.length || force) return others;
  let readAfter = recordDeleteActivity(zone).last;
  // Reads the zone again only when record deletes ended since the last read; settled once none is in flight and it is quiet.
  const r = await waitUntil({
    subject: zone,
    awaited: "this run's record deletes in the zone before deleting it",
    probe: async () => {
      const a = recordDeleteActivity(zone);
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
    log: { info },
  });
  return r.value.others;
}

/** The record in canonical form, as outputs carry it. */
function recordOutputs(inputs: Props, zone: string, live: DnsRecord, adopted: boolean): Props {
  const c = canonicalRecord(live, zone);
  return defined({ ...inputs, zone, ...c, recordId: live.id, fqdn: fqdn(c.name, zone), adopted });
}

function toRequest(c: CanonicalRecord): RecordInput {
  return defined({ type: c.type, name: c.name, content: c.content, ttl: c.ttl, priority: c.priority, extra: c.extra as RecordInput["extra"] });
}

/** Inputs come canonical from check() and outputs from read(): taken as they are, not canonicalized again. */
const canonicalOf = (p: Props, _zone: string): CanonicalRecord => ({
  type: p.type as string,
  name: p.name as string,
  content: p.content as string,
  ttl: p.ttl as number,
  priority: (p.priority as number | null | undefined) ?? null,
  extra: (p.extra as CanonicalRecord["extra"] | undefined) ?? null,
});

/** A clear message for the shared-TTL refusal, naming the TTL the siblings have. */
async function ttlConflictMessage(zone: string, c: CanonicalRecord): Promise<string> {
  let sibling = "";
  try {
    invalidateZone(zone);
    const same = (await zoneRecords(zone)).map((r) => canonicalRecord(r, zone)).filter((r) => r.type === c.type && r.name === c.name);
    if (same.length) sibling = ` (they have ttl ${same[0].ttl})`;
  } catch {
    /* the message stays useful without it */
  }
  return `${c.type} ${fqdn(c.name, zone)}: ttl_conflict: the service refused ttl ${c.ttl} because other ${c.type} records of this name have another TTL${sibling}. All records of one name and type share one TTL: give every one of them the same ttl.`;
}

/** Whole-record identity: type, name, content, priority and every extra field, all canonical (TTL is shared per name and type). */
export function sameRecord(a: CanonicalRecord, b: CanonicalRecord): boolean {
  return a.type === b.type && a.name === b.name && a.content === b.content && (a.priority ?? null) === (b.priority ?? null) && sameJson(a.extra ?? null, b.extra ?? null);
}

/** The live record identical to `want` that no other URN of this run holds; else who holds the identical one. */
function findIdentical(live: DnsRecord[], zone: string, want: CanonicalRecord, urn: unknown): { match?: DnsRecord; claimedBy?: string } {
  let claimedBy: string | undefined;
  for (const r of live) {
    if (!sameRecord(canonicalRecord(r, zone), want)) continue;
    const other = claimedByOther(objectKey.record(zone, r.id), urn);
    if (!other) return { match: r };
    claimedBy ??= other;
  }
  return { claimedBy };
}

/** An adopted record whose TTL differs from the program's gets the program's (one update, now, not at the next up). */
async function withTtl(api: ResellerApi, zone: string, live: DnsRecord, want: CanonicalRecord): Promise<DnsRecord> {
  if (live.ttl === want.ttl) return live;
  try {
    const updated = await api.updateRecord(zone, live.id, { ttl: want.ttl });
    return { ...live, ...updated, id: live.id };
  } finally {
    invalidateZone(zone);
  }
}

/**
 * The refusal of a record that would share its name with a CNAME (RFC 1034 §3.6.2, RFC 2181 §10.1),
 * naming the input that is wrong: `type` when the new record is the CNAME, `name` otherwise.
 */
function cnameClash(live: DnsRecord[], zone: string, want: CanonicalRecord): string | undefined {
  const same = live.map((r) => canonicalRecord(r, zone)).filter((r) => r.name === want.name);
  const where = fqdn(want.name, zone);
  if (want.type === "CNAME" && same.length) {
    const held = [...new Set(same.map((r) => r.type))].join(", ");
    return `type: "CNAME" for ${where} is refused: a CNAME cannot share its name with other records (RFC 1034 §3.6.2) and ${where} also holds ${held} records not part of this change. Remove those records, or choose another type or name.`;
  }
  if (want.type !== "CNAME" && same.some((r) => r.type === "CNAME"))
    return `name: ${JSON.stringify(want.name)} is refused for a ${want.type} record: ${where} holds a CNAME, which cannot share its name with other records (RFC 1034 §3.6.2). Remove the CNAME, or choose another name.`;
  return undefined;
}

export const recordHandler: Handler = {
  check(_olds, news) {
    const result = checkRecordInputs(news, limits());
    const i = result.inputs;
    if (result.failures.length === 0 && typeof i.resourceUrn === "string" && !containsUnknown([i.zone, i.name, i.type, i.ttl])) {
      const clash = registerTtl(i.resourceUrn, i.zone as string, i.name as string, i.type as string, i.ttl as number);
      if (clash)
        result.failures.push({
          property: "ttl",
          reason: `ttl: ${i.ttl} differs from ttl ${clash.ttl} of "${resourceName(clash.urn)}", another ${i.type} record named ${i.name} in ${i.zone}: records of one name and type share one TTL, so give "${resourceName(i.resourceUrn)}" and "${resourceName(clash.urn)}" the same ttl`,
        });
    }
    return result;
  },

  diff(id, olds, news) {
    const d = diffRecord(olds, news);
    if (!d.replaces.length) claim(objectKey.record(olds.zone as string, id), news.resourceUrn ?? olds.resourceUrn);
    return d;
  },

  async create(inputs) {
    const api = client();
    const zone = inputs.zone as string;
    const urn = inputs.resourceUrn;
    const want = canonicalOf(inputs, zone);
    const what = `${want.type} ${fqdn(want.name, zone)}`;
    if (inputs.adopt) {
      invalidateZone(zone);
      const { match, claimedBy } = findIdentical(await zoneRecords(zone), zone, want, urn);
      if (match) {
        claim(objectKey.record(zone, match.id), urn);
        const taken = await withTtl(api, zone, match, want);
        info(`${what}: adopted (record ${match.id})`);
        return { id: match.id, outs: recordOutputs(inputs, zone, taken, true) };
      }
      info(`${what}: adopt: no unmanaged record with this content${claimedBy ? ` (the identical one is managed by "${resourceName(claimedBy)}")` : ""}; creating it`);
    }
    let created: DnsRecord;
    try {
      created = await api.createRecord(zone, toRequest(want));
    } catch (e) {
      // No answer: the create may have been applied. Refused as invalid: the record may exist already,
      // made by an earlier create whose answer was lost, or held by this resource's old URN (renamed or
      // moved without aliases), and the service refuses an identical record. Either way the identical
      // record (type, name, content, priority, extra) that no other resource of this run holds is ours.
      if (isOutcomeUnknown(e) || hasCode(e, "validation_error")) {
        invalidateZone(zone);
        const live = await zoneRecords(zone);
        const { match, claimedBy } = findIdentical(live, zone, want, urn);
        if (match) {
          claim(objectKey.record(zone, match.id), urn);
          if (!isOutcomeUnknown(e)) warn(`${what}: the record exists already (an earlier create whose answer was lost, or this record renamed or moved without aliases); taking it`);
          return { id: match.id, outs: recordOutputs(inputs, zone, match, false) };
        }
        if (claimedBy) throw new Error(`${what}: an identical record exists and is managed by "${resourceName(claimedBy)}" in this stack; one record, one DnsRecord: remove one of them`);
        if (isOutcomeUnknown(e))
          throw new Error(`${what}: no answer to the create and no such record is in the zone yet; the create may still be applied. Run again: a record that appears is taken as this one.`);
        const clash = cnameClash(live, zone, want);
        if (clash) throw new Error(clash);
      }
      if (hasCode(e, "ttl_conflict")) throw new Error(await ttlConflictMessage(zone, want));
      if (hasCode(e, "zone_not_active")) throw new Error(`${zone}: the zone is not active yet (not delegated), so records cannot be created; delegate the domain to the zone's nameservers (DnsZone waitForDelegation: true waits for it)`);
      throw e;
    } finally {
      invalidateZone(zone);
    }
    claim(objectKey.record(zone, created.id), urn);
    return { id: created.id, outs: recordOutputs(inputs, zone, created, false) };
  },

  async read(id, props) {
    const zone = props.zone as string;
    let live: DnsRecord | undefined;
    try {
      // One list call (per page) serves the reads of every record of the zone (read-cache.ts).
      live = await zoneRecord(zone, id);
    } catch (e) {
      if (isNotFound(e)) return GONE;
      throw e;
    }
    return live ? { id, props: recordOutputs(props, zone, live, (props.adopted as boolean | undefined) ?? false) } : GONE;
  },

  async update(id, olds, news) {
    const api = client();
    const zone = news.zone as string;
    const want = canonicalOf(news, zone);
    const had = canonicalOf(olds, zone);
    const patch: Partial<RecordInput> = {};
    if (want.content !== had.content) patch.content = want.content;
    if (want.ttl !== had.ttl) patch.ttl = want.ttl;
    if (want.priority !== had.priority) patch.priority = want.priority;
    if (!sameJson(want.extra, had.extra)) patch.extra = want.extra as RecordInput["extra"];
    if (Object.keys(patch).length === 0) return { outs: { ...olds, ...news } };
    let updated: DnsRecord;
    try {
      updated = await api.updateRecord(zone, id, patch);
    } finally {
      invalidateZone(zone);
    }
    if (patch.ttl !== undefined) info(`${want.type} ${fqdn(want.name, zone)}: ttl ${patch.ttl} applies to every ${want.type} record of this name (shared TTL)`);
    const merged: DnsRecord = { ...updated, id: updated?.id ?? id, type: updated?.type ?? want.type, name: updated?.name ?? want.name, content: updated?.content ?? want.content, ttl: updated?.ttl ?? want.ttl };
    return { outs: recordOutputs(news, zone, merged, (olds.adopted as boolean | undefined) ?? false) };
  },

  async delete(id, props) {
    const zone = props.zone as string;
    const key = objectKey.record(zone, id);
    if (movedAway(key, props.resourceUrn, `${props.type as string} ${fqdn(props.name as string, zone)} (record ${id})`)) {
      if (typeof props.resourceUrn === "string") unregisterTtl(props.resourceUrn);
      return;
    }
    await trackRecordDelete(zone, async () => {
      try {
        await client().deleteRecord(zone, id);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      } finally {
        invalidateZone(zone);
        if (typeof props.resourceUrn === "string") unregisterTtl(props.resourceUrn);
      }
    });
    release(key, props.resourceUrn);
  },
};

function templateOutputs(inputs: Props, extra: Props): Props {
  return defined({ ...inputs, ...extra });
}

export const templateHandler: Handler = {
  check: (_olds, news) => checkTemplateInputs(news),
  diff(_id, olds, news) {
    const d = diffTemplate(olds, news);
    if (!d.replaces.length) for (const r of (olds.recordIds as string[]) ?? []) claim(objectKey.record(olds.zone as string, r), news.resourceUrn ?? olds.resourceUrn);
    return d;
  },

  async create(inputs) {
    const api = client();
    const zone = inputs.zone as string;
    const templateId = inputs.templateId as string;
    const id = `${zone}/${templateId}`;
    if (inputs.adopt) {
      const templates = await api.listTemplates();
      if (!templates.some((t) => t.id === templateId)) throw new Error(`adopt: there is no template ${templateId}`);
      if (!(await getZoneOrUndefined(api, zone))) throw new Error(`adopt: there is no DNS zone for ${zone}`);
      return { id, outs: templateOutputs(inputs, { recordIds: [], created: 0, replaced: 0, skipped: [], adopted: true }) };
    }
    try {
      const res = await api.applyTemplate(zone, templateId, {
        variables: (inputs.variables as Record<string, string>) ?? {},
        conflict_strategy: (inputs.conflictStrategy as ConflictStrategy) ?? "cancel",
      });
      let ids = [...res.created, ...res.replaced].map((r) => r.id);
      if (res.replaced.length) {
        // `replaced` may name the records the apply deleted (the sandbox's reading; the spec is silent):
        // keep only ids that exist, or the first refresh would show recordIds shrinking.
        invalidateZone(zone);
        const present = new Set((await zoneRecords(zone)).map((r) => r.id));
        ids = ids.filter((i) => present.has(i));
      }
      for (const r of ids) claim(objectKey.record(zone, r), inputs.resourceUrn);
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
      if (errorCode(e) === "template_conflict")
        throw new Error(
          `${zone}: template ${templateId} meets existing records and conflictStrategy is cancel; nothing was changed. Use conflictStrategy "skip" or "replace". If this ZoneTemplate was renamed or moved under a component, those are its own records: add the old name with the aliases resource option instead (see README, "Moving resources"). (${(e as Error).message})`,
        );
      throw e;
    } finally {
      invalidateZone(zone);
    }
  },

  async read(id, props) {
    const zone = props.zone as string;
    let records: DnsRecord[];
    try {
      records = await zoneRecords(zone);
    } catch (e) {
      if (isNotFound(e)) return GONE;
      throw e;
    }
    const present = new Set(records.map((r) => r.id));
    return { id, props: { ...props, recordIds: ((props.recordIds as string[]) ?? []).filter((r) => present.has(r)) } };
  },

  async update(_id, olds, news) {
    return { outs: templateOutputs(news, { recordIds: olds.recordIds, created: olds.created, replaced: olds.replaced, skipped: olds.skipped, adopted: olds.adopted }) };
  },

  async delete(_id, props) {
    const zone = props.zone as string;
    const api = client();
    await trackRecordDelete(zone, async () => {
      for (const recordId of (props.recordIds as string[]) ?? []) {
        const key = objectKey.record(zone, recordId);
        if (movedAway(key, props.resourceUrn, `record ${recordId} of template ${props.templateId as string}`)) continue;
        try {
          await api.deleteRecord(zone, recordId);
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
        release(key, props.resourceUrn);
      }
      invalidateZone(zone);
    });
  },
};
