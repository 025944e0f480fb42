/**
 * What an up of a DnsZoneRecords does, computed without side effects: the declared records against
 * the records the resource holds (state) or the live zone, as record-by-record steps. The key of a
 * record is its identity as one readable line, `<name> <type> <zone-file rdata>` (e.g.
 * `@ MX 10 mx1.example.com.`): type, name, content, priority and extra, never the TTL, which is
 * shared by the name and type and is the record's one changeable value besides its identity.
 */
import { recordType, type CanonicalRecord } from "../../provider/records";

/** A declared record: DnsRecord's canonical shape (priority and extra only where the type has them). */
export type ZoneRecord = Omit<CanonicalRecord, "priority" | "extra"> & { priority?: number | null; extra?: CanonicalRecord["extra"] };

/** What state keeps of a record the resource holds: the service's id and the TTL it has. */
export interface Held {
  id: string;
  ttl: number;
}

/** The identity of a record as one line: `<name> <type> <rdata>`. */
export function recordKey(r: ZoneRecord): string {
  return `${r.name} ${r.type} ${recordType(r.type).print({ content: r.content, priority: r.priority ?? null, extra: r.extra ?? null })}`;
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
 * is this resource's when `held` names its id or key; undeclared ones it holds are deleted, other
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
    const ours = heldIds.has(l.id) || (held[l.key] !== undefined && !owners.elsewhere(l));
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

/** A held record's name and type, read back from its key (the rest is not needed to pair it). */
function recordOfKey(key: string, ttl: number): ZoneRecord {
  const [name, type] = key.split(" ");
  return { name, type, content: key.slice(name.length + type.length + 2), ttl };
}

/** Deletes and creates of one name and type paired into changes; the rest stay deletes and creates. */
function pair(deletes: readonly LiveRecord[], creates: readonly { key: string; record: ZoneRecord }[], unmanaged: (l: LiveRecord) => boolean): Step[] {
  const bySet = new Map<string, LiveRecord[]>();
  for (const d of deletes) {
    const s = setOf(d.record);
    const list = bySet.get(s);
    if (list) list.push(d);
    else bySet.set(s, [d]);
  }
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
