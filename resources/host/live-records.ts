/**
 * A zone's live records in canonical form, computed once per list and shared by every reader of it:
 * the reads of one command hand out one list per zone (read-cache.ts), so preflight's shared-TTL and
 * adopt checks (by type and name), the adopt of DnsRecord (by identity) and DnsZoneRecords' plan
 * (its zone's list) canonicalize each live record once per process, not once per grouping nor once
 * per record declared.
 */
import type { DnsRecord } from "../../provider/views";
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
 * The key of liveByIdentity: what the table's identity (provider/records `recordIdentity`) compares
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
