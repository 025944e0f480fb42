/**
 * DnsZoneRecords: a zone's records as one resource. Check judges every record (check.ts) and, when
 * the declaration changed, reads the zone once to list what an up would delete or leave unmanaged
 * and to hold it to the safety threshold (safety.ts). Diff is offline (plan.ts against state). Create
 * and update read the zone once, then apply the difference record by record at the client's pace;
 * whatever fails on the way, state keeps what was applied (a partial failure) and the next up,
 * reading the zone again, finishes the rest: a declared record found live is taken, never made twice.
 */
import type { DnsRecord, RecordInput } from "../../api/views";
import { isNotFound, isServiceManagedRecord } from "../../api/vocabulary";
import { GONE, type Handler, importedAs } from "../kit/handler";
import type { HostContext } from "../kit/context";
import { objectKey } from "../kit/ownership";
import { PartialFailure } from "../kit/partial-failure";
import { resourceName } from "../kit/urn";
import { canonicalHost, defined, sameJson } from "../shared/normalize";
import { containsUnknown, failed, isUnknown } from "../kit/check";
import type { DiffResult } from "../kit/diff";
import { checkZoneRecordsInputs, recordsOf } from "./schema";
import type { ZoneRecordsInputs, ZoneRecordsOutputs } from "./state";
import { declarations } from "../kit/declared-records";
import { liveCanonical } from "../kit/live-records";
import { declaredTtls, packHeld, planAgainstLive, planAgainstState, stepLine, counts, unpackHeld, unpackRecords, type Held, type LiveRecord, type Plan, type Step } from "./plan";
import { recordKey, type ZoneRecord } from "../shared/record-key";
import { thresholdRefusal } from "./safety";
import { previewZoneRecords } from "./preview";
import { one, recordNames } from "../kit/disguised-inputs";
import { recordOwnedTwice } from "../kit/preview-messages";

/** Requests of one apply in flight at once: the client paces them (its rate limiter), this only hides each answer's latency. */
export const APPLY_CONCURRENCY = 4;

const who = (urn: string | undefined): string => (urn ? resourceName(urn) : "DnsZoneRecords");

/** The zone's user records (the service's own SOA and apex NS left out), canonical and keyed. */
function liveRecords(zone: string, live: readonly DnsRecord[]): LiveRecord[] {
  const out: LiveRecord[] = [];
  for (const { live: r, canonical: c } of liveCanonical(live, zone)) {
    if (isServiceManagedRecord(zone, r)) continue;
    const record: ZoneRecord = { type: c.type, name: c.name, content: c.content, ttl: c.ttl };
    if (c.priority != null) record.priority = c.priority;
    if (c.extra != null) record.extra = c.extra;
    out.push({ id: r.id, key: recordKey(record), record });
  }
  return out;
}

/** Whether a live record is a DnsRecord's of this stack (declared in this command, held by one, or seen so at the last up). */
function elsewhereOf(ctx: HostContext, zone: string, urn: string | undefined, remembered: readonly string[] = []) {
  const before = new Set(remembered);
  const decl = declarations(ctx);
  return {
    elsewhere: (l: LiveRecord): boolean =>
      before.has(l.key) || decl.declaredByOther(zone, l.key, urn) !== undefined || ctx.owners.claimedByOther(objectKey.record(zone, l.id), urn) !== undefined,
  };
}

async function readZone(ctx: HostContext, zone: string): Promise<LiveRecord[]> {
  ctx.reads.invalidateZone(zone);
  return liveRecords(zone, await ctx.reads.zoneRecords(zone));
}

/** Steps a plan's message lists one by one; the diff (`pulumi preview --diff`) has every record. */
export const PLAN_LINES = 50;

/**
 * The plan as one log message: its counts, then a line per step up to PLAN_LINES. One message, not
 * one per record: the CLI redraws a resource's messages at each new one, and 10,000 of them (a zone
 * made whole) cost it a quarter of an hour of CPU after the plugin had finished.
 */
function planMessage(resource: string, zone: string, steps: readonly Step[], unchanged: number): string {
  const c = counts(steps);
  const lines = [`${resource} (${zone}): ${c.create} to create, ${c.change} to change, ${c.delete} to delete, ${unchanged} unchanged`, ...steps.slice(0, PLAN_LINES).map((s) => `${resource}: ${stepLine(s)}`)];
  if (steps.length > PLAN_LINES) lines.push(`${resource}: and ${steps.length - PLAN_LINES} more (the diff, pulumi preview --diff, lists each record)`);
  return lines.join("\n");
}

/** What an update sends for a change: the fields that differ. */
function patchOf(from: ZoneRecord | undefined, to: ZoneRecord): Partial<RecordInput> {
  const p: Partial<RecordInput> = {};
  if (!from || from.content !== to.content) p.content = to.content;
  if (!from || from.ttl !== to.ttl) p.ttl = to.ttl;
  if ((from?.priority ?? null) !== (to.priority ?? null)) p.priority = to.priority ?? undefined;
  if (!sameJson(from?.extra ?? null, to.extra ?? null)) p.extra = to.extra ?? undefined;
  return defined(p);
}

function outputsOf(inputs: ZoneRecordsInputs, records: Record<string, Held>, plan: Pick<Plan, "unmanaged">, isElsewhere: (l: LiveRecord) => boolean): ZoneRecordsOutputs {
  const { records: _declared, fields: _fields, ...settings } = inputs;
  const unmanaged: string[] = [];
  const elsewhere: string[] = [];
  for (const l of plan.unmanaged) (isElsewhere(l) ? elsewhere : unmanaged).push(l.key);
  return defined({ ...settings, ...packHeld(records), unmanaged: unmanaged.sort(), elsewhere: elsewhere.sort() });
}

/** Runs `work` on each item, at most `n` at once; stops taking new items after the first failure, which it rethrows once the others ended. */
async function each<T>(items: readonly T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { e: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++];
      try {
        await work(item);
      } catch (e) {
        failure ??= { e };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  if (failure) throw failure.e;
}

/**
 * Reads the zone, plans, holds the plan to the threshold, and applies it: deletes, then changes, then
 * creates. State (the returned outputs, or the partial failure's properties) holds exactly what is
 * live and this resource's when it ends.
 */
async function apply(ctx: HostContext, inputs: ZoneRecordsInputs, held: Record<string, Held>, remembered: readonly string[]): Promise<ZoneRecordsOutputs> {
  const { zone, resourceUrn: urn } = inputs;
  const api = ctx.api();
  const live = await readZone(ctx, zone);
  const owners = elsewhereOf(ctx, zone, urn, remembered);
  const plan = planAgainstLive(unpackRecords(inputs), held, live, inputs.authoritative, owners);
  const refusal = inputs.allowLargeChanges ? undefined : thresholdRefusal(plan.steps, live.length, inputs.safety, { zone, resource: who(urn) });
  if (refusal) throw new Error(refusal);

  const now: Record<string, Held> = {};
  for (const l of plan.kept) {
    now[l.key] = { id: l.id, ttl: l.record.ttl };
    ctx.owners.claim(objectKey.record(zone, l.id), urn);
  }
  // Records state held that are still live and not yet settled by a step: kept until their step ends.
  const liveByKey = new Map(live.map((l) => [l.key, l]));
  for (const s of plan.steps) {
    if (s.op === "ttl") now[s.key] = { id: s.id, ttl: s.from };
    else if (s.op === "change") now[s.fromKey] = { id: s.id, ttl: liveByKey.get(s.fromKey)?.record.ttl ?? s.record.ttl };
    else if (s.op === "delete" && !s.unmanaged) now[s.key] = { id: s.id, ttl: liveByKey.get(s.key)?.record.ttl ?? 0 };
  }

  const c = counts(plan.steps);
  if (plan.steps.length) ctx.log.info(planMessage(who(urn), zone, plan.steps, plan.kept.length));
  const run = async (s: Step): Promise<void> => {
    switch (s.op) {
      case "delete":
        try {
          await api.deleteRecord(zone, s.id);
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
        delete now[s.key];
        ctx.owners.release(objectKey.record(zone, s.id), urn);
        return;
      case "ttl": {
        await api.updateRecord(zone, s.id, { ttl: s.record.ttl });
        now[s.key] = { id: s.id, ttl: s.record.ttl };
        ctx.owners.claim(objectKey.record(zone, s.id), urn);
        return;
      }
      case "change": {
        const updated = await api.updateRecord(zone, s.id, patchOf(liveByKey.get(s.fromKey)?.record, s.record));
        delete now[s.fromKey];
        now[s.key] = { id: updated?.id ?? s.id, ttl: s.record.ttl };
        ctx.owners.claim(objectKey.record(zone, s.id), urn);
        return;
      }
      case "create": {
        const created = await api.createRecord(zone, s.record);
        now[s.key] = { id: created.id, ttl: s.record.ttl };
        ctx.owners.claim(objectKey.record(zone, created.id), urn);
        return;
      }
    }
  };
  // A DS is only accepted at a delegation point (RFC 4035 §2.4): its name's NS records go first.
  const isDs = (s: Step): boolean => s.op === "create" && s.record.type === "DS";
  const phases: ((s: Step) => boolean)[] = [
    (s) => s.op === "delete",
    (s) => s.op === "ttl" || s.op === "change",
    (s) => s.op === "create" && !isDs(s),
    isDs,
  ];
  try {
    await ctx.recordDeletes.track(zone, async () => {
      for (const inPhase of phases)
        await each(
          plan.steps.filter(inPhase),
          APPLY_CONCURRENCY,
          run,
        );
    });
  } catch (e) {
    const done = Object.keys(now).length;
    const message = `${zone}: the apply stopped after ${done} of ${Object.keys(inputs.records).length} declared records were in place (${e instanceof Error ? e.message : String(e)}). State keeps what was applied; run up again to finish (a record already live is taken, not made again).`;
    throw new PartialFailure(message, zone, outputsOf(inputs, now, plan, owners.elsewhere));
  } finally {
    ctx.reads.invalidateZone(zone);
  }
  if (plan.steps.length) ctx.log.info(`${who(urn)} (${zone}): applied ${c.create} creates, ${c.change} changes, ${c.delete} deletes; ${Object.keys(now).length} records held`);
  return outputsOf(inputs, now, plan, owners.elsewhere);
}

/** A promise that never rejects (one nobody may await), and its outcome back. */
const settled = <T>(p: Promise<T>): Promise<{ value: T } | { error: unknown }> => p.then((value) => ({ value }), (error: unknown) => ({ error }));
function unsettled<T>(o: { value: T } | { error: unknown }): T {
  if ("error" in o) throw o.error;
  return o.value;
}

/** Whether the declaration (records, authoritative) differs from the one in state's inputs. */
function declarationChanged(olds: Record<string, unknown>, news: ZoneRecordsInputs): boolean {
  return olds.zone !== news.zone || olds.authoritative !== news.authoritative || !sameJson(olds.records ?? null, news.records) || !sameJson(olds.fields ?? null, news.fields ?? null);
}

export const zoneRecordsHandler: Handler<ZoneRecordsInputs, ZoneRecordsOutputs> = {
  nameInputs: (news) => {
    const list = recordsOf(news);
    return [...one(news, "zone"), ...(Array.isArray(list) ? list.flatMap((r, i) => recordNames(r, `records[${i}].`)) : [])];
  },
  importId: importedAs(["zone"]),

  preview: previewZoneRecords,
  // The records' contents are in the keys of both: secret when the declared records are. (`unmanaged`
  // and `elsewhere` hold records of others, a DnsRecord's secret content among them: always secret,
  // program/register.ts SECRET_OUTPUTS_BY_KIND.)
  secretDerived: { records: ["fields", "ids"] },

  async check(ctx, olds, news) {
    // A new resource is planned against the live zone whatever it declares: its list is asked for
    // while the records are judged (thousands take a while), not after.
    const early = !olds.records && typeof news.zone === "string" && !isUnknown(news.zone) ? settled(readZone(ctx, canonicalHost(news.zone))) : undefined;
    const result = await checkZoneRecordsInputs(news, ctx.limits(), olds);
    if (!result.ok) return result;
    const i = result.inputs;
    if (Array.isArray(i.records) || containsUnknown(i) || i.resourceUrn === undefined) return result;
    const clashes = declarations(ctx).declare(i.resourceUrn, i.zone, Object.keys(i.records));
    if (clashes.length)
      return failed(
        news,
        clashes.map((c) => ({
          property: "records",
          reason: `records: ${recordOwnedTwice(c.key, i.zone, resourceName(c.urn), resourceName(i.resourceUrn!))}`,
        })),
      );
    // A declaration unchanged since the last up needs no read: a no-op up sends no request.
    if (!declarationChanged(olds, i)) return result;
    let live: LiveRecord[];
    try {
      live = early && i.zone === canonicalHost(news.zone as string) ? unsettled(await early) : await readZone(ctx, i.zone);
    } catch (e) {
      // A zone this run creates (or one not active yet) cannot be listed: the apply reports what it finds.
      ctx.log.info(`${who(i.resourceUrn)} (${i.zone}): the zone could not be read to plan (${e instanceof Error ? e.message : String(e)})`);
      return result;
    }
    const owners = elsewhereOf(ctx, i.zone, i.resourceUrn);
    // State's inputs name the records declared at the last up; their ids are in the outputs, which check is not given.
    const held = Object.fromEntries(Object.entries(declaredTtls(olds.records)).map(([k, ttl]) => [k, { id: "", ttl }]));
    const plan = planAgainstLive(unpackRecords(i), held, live, i.authoritative, owners);
    const refusal = i.allowLargeChanges ? undefined : thresholdRefusal(plan.steps, live.length, i.safety, { zone: i.zone, resource: who(i.resourceUrn) });
    if (refusal) return failed(news, [{ property: "records", reason: `records: ${refusal}` }]);
    const removals = plan.steps.filter((s) => s.op === "delete" && s.unmanaged);
    if (removals.length) ctx.log.info(`${who(i.resourceUrn)} (${i.zone}): authoritative: ${removals.length} record(s) the stack does not declare will be deleted:\n${removals.map(stepLine).join("\n")}`);
    const unmanaged = plan.unmanaged.filter((l) => !owners.elsewhere(l));
    if (unmanaged.length)
      ctx.log.info(`${who(i.resourceUrn)} (${i.zone}): ${unmanaged.length} record(s) in the zone are not declared and left alone (authoritative is off):\n${unmanaged.map((l) => `  ${l.key}`).join("\n")}`);
    return result;
  },

  diff(ctx, _id, olds, news): DiffResult {
    if (Array.isArray(news.records) || containsUnknown(news)) return { changes: true, replaces: containsUnknown(news.zone) ? ["zone"] : [], stables: [], deleteBeforeReplace: false, diffs: ["records"] };
    const held = unpackHeld(olds);
    if (olds.zone !== news.zone) return { changes: true, replaces: ["zone"], stables: [], deleteBeforeReplace: false, diffs: ["zone"] };
    for (const h of Object.values(held)) ctx.owners.claim(objectKey.record(news.zone, h.id), news.resourceUrn ?? olds.resourceUrn);
    const steps = planAgainstState(unpackRecords(news), held);
    const removeUnmanaged = news.authoritative && (olds.unmanaged?.length ?? 0) > 0;
    const diffs = steps.map((s) => `records["${s.key}"]`);
    if (news.authoritative !== olds.authoritative) diffs.push("authoritative");
    if (removeUnmanaged) diffs.push(...(olds.unmanaged ?? []).map((k) => `records["${k}"]`));
    if (steps.length) ctx.log.info(planMessage(who(news.resourceUrn), news.zone, steps, Object.keys(held).length - counts(steps).delete - counts(steps).change));
    return { changes: diffs.length > 0, replaces: [], stables: ["zone"], deleteBeforeReplace: false, diffs };
  },

  async create(ctx, inputs) {
    return { id: inputs.zone, outs: await apply(ctx, inputs, {}, []) };
  },

  async read(ctx, id, props) {
    const zone = props.zone;
    let live: LiveRecord[];
    try {
      live = await readZone(ctx, zone);
    } catch (e) {
      if (isNotFound(e)) return GONE;
      throw e;
    }
    const remembered = new Set(props.elsewhere ?? []);
    const byId = new Map(live.map((l) => [l.id, l]));
    const byKey = new Map(live.map((l) => [l.key, l]));
    const records: Record<string, Held> = {};
    const taken = new Set<string>();
    // A held record changed by hand (same id) shows under its new key; one recreated by hand (same identity, new id) under its key.
    for (const [key, h] of Object.entries(unpackHeld(props))) {
      const l = byId.get(h.id) ?? byKey.get(key);
      if (!l || taken.has(l.id)) continue;
      taken.add(l.id);
      records[l.key] = { id: l.id, ttl: l.record.ttl };
    }
    const unmanaged: string[] = [];
    const elsewhere: string[] = [];
    for (const l of live) {
      if (taken.has(l.id)) continue;
      if (remembered.has(l.key)) elsewhere.push(l.key);
      // Authoritative: a record added by hand is this resource's to delete; the next up shows and does it.
      else if (props.authoritative) records[l.key] = { id: l.id, ttl: l.record.ttl };
      else unmanaged.push(l.key);
    }
    return { id, props: defined({ ...props, ...packHeld(records), unmanaged: unmanaged.sort(), elsewhere: elsewhere.sort() }) };
  },

  async update(ctx, _id, olds, news) {
    return { outs: await apply(ctx, news, unpackHeld(olds), olds.elsewhere ?? []) };
  },

  async delete(ctx, _id, props) {
    const zone = props.zone;
    const api = ctx.api();
    const held = Object.entries(unpackHeld(props));
    await ctx.recordDeletes.track(zone, () =>
      each(held, APPLY_CONCURRENCY, async ([key, h]) => {
        const k = objectKey.record(zone, h.id);
        if (ctx.owners.movedAway(k, props.resourceUrn, `${key} (record ${h.id})`)) return;
        try {
          await api.deleteRecord(zone, h.id);
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
        ctx.owners.release(k, props.resourceUrn);
      }).finally(() => ctx.reads.invalidateZone(zone)),
    );
    if (props.resourceUrn) declarations(ctx).forget(props.resourceUrn);
  },
};
