/**
 * DNS rules between records, stated once and read from the table: what makes two records the same
 * record and the TTL a record has when none is given; which types stand alone at their name is
 * each entry's `alone` (entry.ts), applied by index.ts `exclusivityClash`.
 * check (resources), diff, adopt, import (cli, zonefile.ts) and the sandbox all call these.
 */
import type { RecordExtra } from "./common";

/** TTL of a record that gives none, seconds (the spec is silent; one hour, as the sandbox's records). */
export const DEFAULT_TTL = 3600;

/** A record's TTL as given, or the default when it gives none: where every record gets its default. */
export const ttlOrDefault = <T>(ttl: T | null | undefined): T | number => ttl ?? DEFAULT_TTL;

/** A record as far as its identity goes (canonical fields; TTL is shared per name and type, so not part of it). */
export interface RecordIdentityFields {
  type: string;
  name: string;
  content: string;
  priority?: number | null;
  extra?: RecordExtra | Readonly<Record<string, unknown>> | null;
}

/**
 * A record's identity as one string: type, name, content, priority and every extra field, extra
 * in key order so `{weight, port}` and `{port, weight}` are one record (RFC 2181 §5: identical
 * records are one record). Give it canonical records (dns canonicalize).
 */
export const recordIdentity = (r: RecordIdentityFields): string => JSON.stringify(recordIdentityParts(r));

/** The parts of recordIdentity, in order: [type, name, content, priority or null, extra with sorted keys or null]. */
export function recordIdentityParts(r: RecordIdentityFields): [string, string, string, number | null, Record<string, unknown> | null] {
  const extra = r.extra ? Object.fromEntries(Object.entries(r.extra).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : null;
  return [r.type, r.name, r.content, r.priority ?? null, extra && Object.keys(extra).length ? extra : null];
}

/** Whether two canonical records are the same record (recordIdentity). */
export const sameRecord = (a: RecordIdentityFields, b: RecordIdentityFields): boolean => recordIdentity(a) === recordIdentity(b);
