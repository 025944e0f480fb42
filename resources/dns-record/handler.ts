/** DnsZone, DnsRecord and ZoneTemplate. */
import { canonicalFields, sameRecord as tableSameRecord, standsAlone } from "../../dns";
import { DS_PLACEMENT } from "../../dns/t_hex";
import type { DnsRecord, RecordInput } from "../../api/views";
import { isNotFound, isOutcomeUnknown, isRefusedAsInvalid, isTtlConflict, isZoneActive, isZoneNotActive } from "../../api/vocabulary";
import type { HostContext } from "../kit/context";
import { objectKey } from "../kit/ownership";
import { resourceName } from "../kit/urn";
import { diffRecord } from "./diff";
import { GONE, type Handler, importedAs } from "../kit/handler";
import { declarations } from "../kit/declared-records";
import { recordKey } from "../shared/record-key";
import { recordDeclaredTwice, recordOwnedTwice, ttlConflict } from "../kit/preview-messages";
import { zonesInRun } from "../dns-zone/zones-in-run";
import { identityKey, liveByIdentity, liveCanonical } from "../kit/live-records";
import { canonicalRecord, defined, fqdn, sameJson, type CanonicalRecord } from "../shared/normalize";
import { checkRecordInputs } from "./schema";
import { containsUnknown, failed } from "../kit/check";
import { pendingCreateHint } from "../kit/pending-create";
import { type RecordInputs, RecordOutputs } from "./state";
import { previewRecord } from "./preview";
import { one, recordNames } from "../kit/disguised-inputs";

/**
 * A record's create. A zone that is not active gets one delegation check first (its domain may
 * delegate to it since the zone was made: the zone then becomes active), and the create is sent again once.
 */
async function createInZone(ctx: HostContext, zone: string, want: CanonicalRecord): Promise<DnsRecord> {
  const api = ctx.api();
  try {
    return await api.createRecord(zone, want);
  } catch (e) {
    if (!isZoneNotActive(e) || !isZoneActive(await api.checkZone(zone))) throw e;
    return api.createRecord(zone, want);
  }
}

/** The record in canonical form, as outputs carry it. */
function recordOutputs(inputs: RecordInputs, zone: string, live: DnsRecord, adopted: boolean): RecordOutputs {
  const c = canonicalRecord(live, zone);
  return defined({ ...inputs, zone, ...c, recordId: live.id, fqdn: fqdn(c.name, zone), adopted });
}

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
  nameInputs: (news) => [...one(news, "zone"), ...recordNames(news, "")],
  // "<zone>/<record id>": the service's id of the record (getRecords lists them); state keeps the record id.
  importId: importedAs(["zone", "recordId"]),

  preview: previewRecord,
  recordWrites: {
    zone: (props) => (typeof props.zone === "string" ? props.zone : undefined),
    // A record made by this create (not adopted) is the service's answer, in canonical form.
    created: (o) => (o.adopted !== false || o.recordId === undefined ? undefined : { id: o.recordId, ...canonicalFields(o) }),
  },
  // Its canonical fields keep their inputs' names (the engine keeps those secret); the full name is made of two.
  secretDerived: { name: ["fqdn"], zone: ["fqdn"] },

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
      return failed(news, [{ property: "content", reason: `content: ${recordOwnedTwice(owner.key, i.zone, resourceName(i.resourceUrn), resourceName(owner.urn))}` }]);
    const clash = ctx.ttls.register(i.resourceUrn, i.zone, i.name, i.type, i.ttl);
    // Which of two records is checked second depends on the order the program's registrations arrive
    // in, which the real CLI does not fix: the message names the pair in one order and no value of one
    // of them alone, so it is the same words whichever is flagged, at preview and at up.
    const sorted = <T extends { urn: string }>(xs: T[]) => xs.map((x) => ({ ...x, name: resourceName(x.urn) })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (clash) {
      const pair = sorted([{ urn: i.resourceUrn, ttl: i.ttl }, clash]);
      return failed(news, [
        {
          property: "ttl",
          reason: `ttl: ${[i.ttl, clash.ttl].sort((a, b) => a - b).join(" and ")} differ between the ${i.type} records named ${i.name} in ${i.zone}: ${pair.map((r) => `"${r.name}" has ttl ${r.ttl}`).join(", ")}; records of one name and type share one TTL, so give them the same ttl`,
        },
      ]);
    }
    // A CNAME stands alone at its name (RFC 1034 §3.6.2): another record of the program at that name is refused, whichever came first.
    const others = ctx.ttls.atName(i.resourceUrn, i.zone, i.name).filter((o) => o.type !== i.type && (standsAlone(i.type) || standsAlone(o.type)));
    if (others.length) {
      const both = sorted([{ urn: i.resourceUrn, type: i.type }, others[0]]);
      const where = fqdn(i.name, i.zone);
      return failed(news, [
        {
          property: "name",
          reason: `name: ${JSON.stringify(i.name)}: ${both.map((r) => `"${r.name}" declares a ${r.type} record`).join(" and ")} at ${where}, and a CNAME cannot share its name with other records (RFC 1034 §3.6.2, RFC 2181 §10.1). Give one of them another name, or replace the CNAME with the records it points to (A/AAAA)`,
        },
      ]);
    }
    return result;
  },

  diff(ctx, id, olds, news) {
    const d = diffRecord(olds, news);
    if (!d.replaces.length) ctx.owners.claim(objectKey.record(olds.zone, id), news.resourceUrn ?? olds.resourceUrn);
    return d;
  },

  async create(ctx, inputs) {
    const { zone, resourceUrn: urn } = inputs;
    const want = canonicalFields(inputs);
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
          if (!isOutcomeUnknown(e))
            ctx.log.warn(
              `${what}: the record exists already (an earlier create whose answer was lost, or this record renamed or moved without aliases); taking it, not creating another. ${pendingCreateHint(match.id, "the service's record id")}`,
            );
          return { id: match.id, outs: recordOutputs(inputs, zone, match, false) };
        }
        if (claimedBy) throw new Error(recordDeclaredTwice(what, resourceName(claimedBy), resourceName(urn ?? "")));
        if (isOutcomeUnknown(e))
          throw new Error(`${what}: no answer to the create and no such record is in the zone yet; the create may still be applied. Run again: a record that appears is taken as this one.`);
        const clash = cnameClash(live, zone, want);
        if (clash) throw new Error(clash);
      }
      if (isTtlConflict(e)) throw new Error(await ttlConflictMessage(ctx, zone, want));
      // The zone's nameservers (one read, on this failure only) tell whether the program's own Domain is the cause.
      if (isZoneNotActive(e)) throw new Error(zonesInRun(ctx).inactive(zone, { serviceNameservers: (await ctx.api().getZone(zone).catch(() => undefined))?.nameservers }));
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
      // One list call (per page) serves the reads of every record of the zone (../host/read-cache.ts).
      live = await ctx.reads.zoneRecord(zone, id);
    } catch (e) {
      if (isNotFound(e)) return GONE;
      throw e;
    }
    return live ? { id, props: recordOutputs(props, zone, live, props.adopted ?? false) } : GONE;
  },

  async update(ctx, id, olds, news) {
    const zone = news.zone;
    const want = canonicalFields(news);
    const had = canonicalFields(olds);
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
