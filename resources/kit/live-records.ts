/**
 * A zone's live records in canonical form, computed once per list and shared by every reader of it:
 * the reads of one command hand out one list per zone (read-cache.ts), so preflight's shared-TTL and
 * adopt checks (by type and name), the adopt of DnsRecord (by identity) and DnsZoneRecords' plan
 * (its zone's list) canonicalize each live record once per process, not once per grouping nor once
 * per record declared.
 */
import type { DnsRecord } from "../../api/views";
import { canonicalRecord, type CanonicalRecord } from "../shared/normalize";

/** A live record as listed, with its canonical form. */
export interface LiveCanonical {
  live: DnsRecord;
  canonical: CanonicalRecord;
}

interface Forms {
  zone: string;
  all: readonly LiveCanonical[];
  byTypeName?: Map<string, LiveCanonical[]>;
  byIdentity?: Map<string, LiveCanonical[]>;
}

const forms = new WeakMap<readonly DnsRecord[], Forms>();

/** The list's canonical forms, in list order (a list is one zone's; asked with another zone, computed afresh). */
function formsOf(live: readonly DnsRecord[], zone: string): Forms {
  let f = forms.get(live);
  if (!f || f.zone !== zone) {
    f = { zone, all: live.map((r) => ({ live: r, canonical: canonicalRecord(r, zone) })) };
    forms.set(live, f);
  }
  return f;
}

/** The items by `key`, each group in the items' order: the one grouping loop (here and zone-records/plan.ts's pairing). */
export function groupBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T[]> {
  const index = new Map<string, T[]>();
  for (const e of items) {
    const k = key(e);
    const same = index.get(k);
    if (same) same.push(e);
    else index.set(k, [e]);
  }
  return index;
}

/** The zone's live records with their canonical forms, in list order. */
export const liveCanonical = (live: readonly DnsRecord[], zone: string): readonly LiveCanonical[] => formsOf(live, zone).all;

/** The key of liveByTypeName: `<type> <name>`, canonical. */
export const typeNameKey = (c: Pick<CanonicalRecord, "type" | "name">): string => `${c.type} ${c.name}`;

/**
 * The key of liveByIdentity: what the table's identity (dns `recordIdentity`) compares
 * but `extra`, as one string; records under one key are then told apart by `sameRecord`.
 */
export const identityKey = (r: CanonicalRecord): string => JSON.stringify([r.type, r.name, r.content, r.priority ?? null]);

/** The zone's live records by type and name (typeNameKey), in list order. */
export function liveByTypeName(live: readonly DnsRecord[], zone: string): Map<string, LiveCanonical[]> {
  const f = formsOf(live, zone);
  return (f.byTypeName ??= groupBy(f.all, (e) => typeNameKey(e.canonical)));
}

/** The zone's live records by identityKey, in list order. */
export function liveByIdentity(live: readonly DnsRecord[], zone: string): Map<string, LiveCanonical[]> {
  const f = formsOf(live, zone);
  return (f.byIdentity ??= groupBy(f.all, (e) => identityKey(e.canonical)));
}

/** `index` with `e` added under `key`: the group is a new array, so a reader holding the old one sees no change. */
function withEntry(index: Map<string, LiveCanonical[]>, key: string, e: LiveCanonical): Map<string, LiveCanonical[]> {
  index.set(key, [...(index.get(key) ?? []), e]);
  return index;
}

/** `index` without the entries of record `id` under `key`. */
function withoutEntry(index: Map<string, LiveCanonical[]>, key: string, id: string): Map<string, LiveCanonical[]> {
  const kept = (index.get(key) ?? []).filter((x) => x.live.id !== id);
  if (kept.length) index.set(key, kept);
  else index.delete(key);
  return index;
}

/**
 * The forms of `list` moved to `next`, which is `list` with `added` or without the records of id
 * `removed`: the new record alone is canonicalized, the groupings already built follow. `list` loses
 * its forms (computed afresh if asked again); the maps move to `next` and change, but each group in
 * them is a new array, and readers (../dns-record/preview.ts and handler.ts) take a group from a map
 * and keep no map across an await, so none sees a list change under it. Without this, the
 * next reader of `next` canonicalized the whole zone: the CLI checks each record just after the
 * create before it (./preview-reads.ts patches the list at each create), an up of N records
 * canonicalized N²/2 of them.
 */
function moveForms(list: readonly DnsRecord[], next: readonly DnsRecord[], zone: string, change: { added: DnsRecord } | { removed: string }): void {
  const f = forms.get(list);
  if (!f || f.zone !== zone) return;
  forms.delete(list);
  if ("added" in change) {
    const e: LiveCanonical = { live: change.added, canonical: canonicalRecord(change.added, zone) };
    forms.set(next, {
      zone,
      all: [...f.all, e],
      byTypeName: f.byTypeName && withEntry(f.byTypeName, typeNameKey(e.canonical), e),
      byIdentity: f.byIdentity && withEntry(f.byIdentity, identityKey(e.canonical), e),
    });
    return;
  }
  const id = change.removed;
  const gone = f.all.filter((x) => x.live.id === id);
  let { byTypeName, byIdentity } = f;
  for (const g of gone) {
    byTypeName = byTypeName && withoutEntry(byTypeName, typeNameKey(g.canonical), id);
    byIdentity = byIdentity && withoutEntry(byIdentity, identityKey(g.canonical), id);
  }
  forms.set(next, { zone, all: f.all.filter((x) => x.live.id !== id), byTypeName, byIdentity });
}

/** The ids of a list, made when first asked and moved with the forms (a scan per create was N²/2 too). */
const idSets = new WeakMap<readonly DnsRecord[], Set<string>>();

/** Whether the list holds a record of id `id`. */
export function hasRecordId(list: readonly DnsRecord[], id: string): boolean {
  let ids = idSets.get(list);
  if (!ids) idSets.set(list, (ids = new Set(list.map((r) => r.id))));
  return ids.has(id);
}

function moveIds(list: readonly DnsRecord[], next: readonly DnsRecord[], change: (ids: Set<string>) => void): void {
  const ids = idSets.get(list);
  if (!ids) return;
  idSets.delete(list);
  change(ids);
  idSets.set(next, ids);
}

/** A new list: `list` with `record` at its end (`list` is left as it is); the forms and ids follow (moveForms). */
export function withRecord(list: readonly DnsRecord[], record: DnsRecord, zone: string): DnsRecord[] {
  const next = [...list, record];
  moveForms(list, next, zone, { added: record });
  moveIds(list, next, (ids) => ids.add(record.id));
  return next;
}

/** A new list: `list` without the records of id `id`; the forms and ids follow (moveForms). */
export function withoutRecord(list: readonly DnsRecord[], id: string, zone: string): DnsRecord[] {
  const next = list.filter((r) => r.id !== id);
  moveForms(list, next, zone, { removed: id });
  moveIds(list, next, (ids) => ids.delete(id));
  return next;
}
