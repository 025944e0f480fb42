/**
 * What an up of a DnsZoneRecords does, computed without side effects: the declared records against
 * the records the resource holds (state) or the live zone, as record-by-record steps, each record
 * keyed by its identity (shared/record-key.ts).
 */
import { groupBy } from "../kit/live-records";
import type { ZoneRecord } from "../shared/record-key";

/** What state keeps of a record the resource holds: the service's id and the TTL it has. */
export interface Held {
  id: string;
  ttl: number;
}

/** A live record, canonical, with its id. */
export interface LiveRecord {
  id: string;
  key: string;
  record: ZoneRecord;
}

export type Step =
  | { op: "create"; key: string; record: ZoneRecord }
  /** The same identity, another TTL. */
  | { op: "ttl"; key: string; id: string; record: ZoneRecord; from: number }
  /** A record of the same name and type whose value changes: one PUT, so the name never goes dark. */
  | { op: "change"; key: string; id: string; record: ZoneRecord; fromKey: string }
  | { op: "delete"; key: string; id: string; unmanaged: boolean };

export interface Plan {
  steps: Step[];
  /** Live records the resource already holds as declared (nothing to do). */
  kept: LiveRecord[];
  /** Live user records neither declared here nor held, left alone (authoritative off, or declared by a DnsRecord). */
  unmanaged: LiveRecord[];
}

/** How an authoritative apply treats a live record nobody in this resource declares. */
export interface Ownership {
  /** The record is a DnsRecord's of this stack (declared or held by it): never touched. */
  elsewhere(r: LiveRecord): boolean;
}

const setOf = (r: ZoneRecord): string => `${r.name} ${r.type}`;

/**
 * The steps from `live` (the zone as listed, service records left out) to `declared`. A live record
 * is this resource's when `held` names its id or key; undeclared ones it holds are deleted unless `elsewhere`'s (moved into a DnsRecord), other
 * undeclared ones are deleted only when `authoritative` and not `elsewhere`'s. A delete and a create
 * in one name and type become a change (in order of the keys).
 */
export function planAgainstLive(
  declared: Readonly<Record<string, ZoneRecord>>,
  held: Readonly<Record<string, Held>>,
  live: readonly LiveRecord[],
  authoritative: boolean,
  owners: Ownership,
): Plan {
  const heldIds = new Set(Object.values(held).map((h) => h.id));
  const steps: Step[] = [];
  const kept: LiveRecord[] = [];
  const unmanaged: LiveRecord[] = [];
  const seen = new Set<string>();
  const deletes: LiveRecord[] = [];
  for (const l of live) {
    const want = declared[l.key];
    if (want && !seen.has(l.key) && !owners.elsewhere(l)) {
      seen.add(l.key);
      if (want.ttl !== l.record.ttl) steps.push({ op: "ttl", key: l.key, id: l.id, record: want, from: l.record.ttl });
      else kept.push(l);
      continue;
    }
    // A record held at the last up that a DnsRecord of this command declares or took (moved out of
    // this list into its own resource) is that one's now: left in place, never deleted.
    const ours = !owners.elsewhere(l) && (heldIds.has(l.id) || held[l.key] !== undefined);
    if (ours || (authoritative && !owners.elsewhere(l))) deletes.push(l);
    else unmanaged.push(l);
  }
  const creates = Object.entries(declared)
    .filter(([k]) => !seen.has(k))
    .map(([key, record]) => ({ key, record }));
  return { steps: [...steps, ...pair(deletes, creates, (l) => !heldIds.has(l.id) && held[l.key] === undefined)], kept, unmanaged };
}

/**
 * The steps from what state holds to `declared`, offline (diff and preview without a read): the
 * records state holds stand for the live zone.
 */
export function planAgainstState(declared: Readonly<Record<string, ZoneRecord>>, held: Readonly<Record<string, Held>>): Step[] {
  const steps: Step[] = [];
  const creates: { key: string; record: ZoneRecord }[] = [];
  for (const [key, record] of Object.entries(declared)) {
    const h = held[key];
    if (!h) creates.push({ key, record });
    else if (h.ttl !== record.ttl) steps.push({ op: "ttl", key, id: h.id, record, from: h.ttl });
  }
  const deletes = Object.entries(held)
    .filter(([k]) => declared[k] === undefined)
    .map(([key, h]) => ({ id: h.id, key, record: recordOfKey(key, h.ttl) }));
  return [...steps, ...pair(deletes, creates, () => false)];
}

/** A record read back from its key: name, type, and the rdata as content (a held record's, to pair it; a plain declared record's whole). */
function recordOfKey(key: string, ttl: number): ZoneRecord {
  const [name, type] = key.split(" ", 2);
  return { type, name, content: key.slice(name.length + type.length + 2), ttl };
}

/**
 * The declared records as check returns them (inputs, state): the TTL under each key, and in
 * `fields`, as JSON `[content, priority, extra]`, the rest of the records whose key does not hold
 * them as is (an MX's priority, a name's trailing dot, a TXT's quotes). Records as objects cost
 * the SDK's protobuf encoding about 0.07 ms each every time inputs cross between engine, host and
 * program (a preview of 10,000 records crossed four times: over a second of CPU); a number or a
 * string costs a tenth of that.
 */
export interface PackedRecords {
  records: Record<string, number>;
  fields?: Record<string, string>;
}

export function packRecords(declared: Readonly<Record<string, ZoneRecord>>): PackedRecords {
  const records: Record<string, number> = {};
  const fields: Record<string, string> = {};
  let other = false;
  for (const [key, r] of Object.entries(declared)) {
    records[key] = r.ttl;
    if ((r.priority ?? null) === null && (r.extra ?? null) === null && key === `${r.name} ${r.type} ${r.content}`) continue;
    fields[key] = JSON.stringify([r.content, r.priority ?? null, r.extra ?? null]);
    other = true;
  }
  return other ? { records, fields } : { records };
}

/** The declared records back from their packed form. */
export function unpackRecords(p: PackedRecords): Record<string, ZoneRecord> {
  const out: Record<string, ZoneRecord> = {};
  for (const [key, ttl] of Object.entries(p.records)) {
    const r = recordOfKey(key, ttl);
    const f = p.fields?.[key];
    if (f !== undefined) {
      const [content, priority, extra] = JSON.parse(f) as [string, number | null, ZoneRecord["extra"] | null];
      r.content = content;
      if (priority !== null) r.priority = priority;
      if (extra !== null) r.extra = extra;
    }
    out[key] = r;
  }
  return out;
}

/**
 * What state's outputs keep of the records held, in the same cheap shapes as the inputs: `records`
 * the TTL under each key (what the inputs declare, once applied), `ids` the service's id.
 */
export interface HeldOutputs {
  records: Record<string, number>;
  ids: Record<string, string>;
}

export function packHeld(held: Readonly<Record<string, Held>>): HeldOutputs {
  const records: Record<string, number> = {};
  const ids: Record<string, string> = {};
  for (const [key, h] of Object.entries(held)) {
    records[key] = h.ttl;
    ids[key] = h.id;
  }
  return { records, ids };
}

export function unpackHeld(o: Partial<HeldOutputs>): Record<string, Held> {
  const out: Record<string, Held> = {};
  for (const [key, v] of Object.entries(o.records ?? {})) {
    // State written before records were packed holds { id, ttl } under each key.
    const old = v as unknown as Held | number;
    out[key] = typeof old === "number" ? { id: o.ids?.[key] ?? "", ttl: old } : { id: old.id, ttl: old.ttl };
  }
  return out;
}

/**
 * The TTL of each record the inputs of the last up declared, by key: packed (a TTL under each key),
 * or as inputs were written before the packing (the record under each key).
 */
export function declaredTtls(records: unknown): Record<string, number> {
  if (typeof records !== "object" || records === null || Array.isArray(records)) return {};
  const out: Record<string, number> = {};
  for (const [key, v] of Object.entries(records as Record<string, unknown>)) {
    const ttl = typeof v === "number" ? v : typeof v === "object" && v !== null ? (v as { ttl?: unknown }).ttl : undefined;
    if (typeof ttl === "number") out[key] = ttl;
  }
  return out;
}

/** Whether `v` is records as check packs them (a TTL under each key). */
export function isPackedRecords(v: unknown): v is Record<string, number> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  for (const x in v) return typeof (v as Record<string, unknown>)[x] === "number";
  return true;
}

/** Deletes and creates of one name and type paired into changes; the rest stay deletes and creates. */
function pair(deletes: readonly LiveRecord[], creates: readonly { key: string; record: ZoneRecord }[], unmanaged: (l: LiveRecord) => boolean): Step[] {
  const bySet = groupBy(deletes, (d) => setOf(d.record));
  const out: Step[] = [];
  const creating: Step[] = [];
  for (const c of creates) {
    const from = bySet.get(setOf(c.record))?.shift();
    if (from) out.push({ op: "change", key: c.key, id: from.id, record: c.record, fromKey: from.key });
    else creating.push({ op: "create", key: c.key, record: c.record });
  }
  const deleting: Step[] = [];
  for (const list of bySet.values()) for (const d of list) deleting.push({ op: "delete", key: d.key, id: d.id, unmanaged: unmanaged(d) });
  // Deletes first (a name freed for a CNAME, a zone kept under its size), then changes, then creates.
  return [...deleting, ...out, ...creating];
}

/** Counts of a plan's steps. */
export function counts(steps: readonly Step[]): { create: number; change: number; delete: number } {
  let create = 0;
  let change = 0;
  let del = 0;
  for (const s of steps) {
    if (s.op === "create") create++;
    else if (s.op === "delete") del++;
    else change++;
  }
  return { create, change, delete: del };
}

/** One line per step, as preview and up print them. */
export function stepLine(s: Step): string {
  switch (s.op) {
    case "create":
      return `+ ${s.key} (ttl ${s.record.ttl})`;
    case "ttl":
      return `~ ${s.key} (ttl ${s.from} => ${s.record.ttl})`;
    case "change":
      return `~ ${s.fromKey} => ${s.key} (ttl ${s.record.ttl})`;
    case "delete":
      return `- ${s.key}${s.unmanaged ? " (not declared: authoritative)" : ""}`;
  }
}
