/**
 * The record table: one entry per type (t_<type>.ts), and the one function that turns a record as a
 * program, the import command or the service gives it into its canonical form, or into refusals
 * naming the field, the value and the rule. `check`, diff, read, import and the sandbox all call it.
 *
 * Canonical record (the spec is silent on the form; these are this package's choices):
 * - type upper case; name relative to the zone, lower case, IDNs as punycode, "@" the apex;
 * - targets absolute without trailing dot; content per type (see each t_<type>.ts);
 * - priority and extra only where the type's entry carries them (MX and SRV; SRV {weight, port}, CAA {flag, tag}).
 */
import { RecordSyntaxError, canonicalName, fail, type Problem, type RecordExtra, type RecordFields } from "./common";
import type { RecordTypeEntry } from "./entry";
import { passThrough } from "./t_other";
import { RECORD_TYPES } from "./table";
import { ttlOrDefault } from "./rules";
import { genericTypeRule, isGenericTypeName } from "./types";

export type { Problem, RecordExtra, RecordFields } from "./common";
export type { FieldKind, RecordTypeEntry, RecordInputFields } from "./entry";
export { absolute, absoluteNames, dotted, fieldAt } from "./entry";
export { HOST_LABEL, canonicalName, parseCharacterStrings, quoteString } from "./common";
export { IANA_DATA_TYPES, IANA_META_TYPES, TYPE_SOURCES, genericTypeRule, isGenericTypeName, nearestType, recordTypeRule } from "./types";

export { RECORD_TYPES } from "./table";

/** Types by a property of their entry, for messages that name them (generated, never listed by hand). */
const typesWhere = (f: (e: RecordTypeEntry) => boolean): string[] => Object.values(RECORD_TYPES).filter(f).map((e) => e.type);
/** "A and B", "A, B and C". */
const andList = (xs: string[]): string => (xs.length <= 1 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);
const PRIORITY_TYPES = andList(typesWhere((e) => e.priority));
const EXTRA_TYPES = andList(typesWhere((e) => e.extra.length > 0).map((t) => `${t} {${RECORD_TYPES[t].extra.join(", ")}}`));

/** Types the service makes itself or a signer generates: never held as user records. */
export const NOT_HELD: Readonly<Record<string, string>> = {
  SOA: "the service writes the zone's SOA itself",
  RRSIG: "DNSSEC signatures are made by the signing server, not held as records",
  NSEC: "DNSSEC denial records are made by the signing server",
  NSEC3: "DNSSEC denial records are made by the signing server",
  NSEC3PARAM: "DNSSEC denial parameters are the signing server's",
  DNSKEY: "DNSSEC keys are the signing server's",
  CDS: "child DS signals are made by the signing server (RFC 7344)",
  CDNSKEY: "child DNSKEY signals are made by the signing server (RFC 7344)",
  ZONEMD: "a zone digest is computed over the whole zone by its server (RFC 8976)",
};

const TYPE = /^[A-Z][A-Z0-9-]{0,15}$/;

/**
 * The entry of a type (upper case); other types are passed through (content kept as written). Whether
 * a name is a record type at all is `recordTypeRule`'s to say (types.ts), on the way in.
 */
export function recordType(type: string): RecordTypeEntry {
  // Own entries only: a type read from a zone or an answer may be any word ("constructor").
  return (Object.hasOwn(RECORD_TYPES, type) ? RECORD_TYPES[type] : undefined) ?? passThrough(type);
}

/** A record as anyone gives it; anything may be missing. */
export interface RecordInput {
  type: string;
  name?: string | null;
  content: string;
  ttl?: number | null;
  /** As given: the table judges it. */
  priority?: unknown;
  /** As given: the table judges each field. */
  extra?: { readonly [field: string]: unknown } | null;
}

/**
 * A record's canonical fields: the one shape of a record after check (DnsRecord's inputs and
 * outputs, DnsZoneRecords' records, the preview's predictions, the lookups, the import) and in
 * the request body (api/views.ts RecordInput is made of it).
 */
export interface CanonicalRecord {
  type: string;
  name: string;
  content: string;
  ttl: number;
  priority: number | null;
  extra: RecordExtra | null;
}

/** A record's canonical fields as a holder keeps them: priority and extra may be left out where they are null. */
export type HeldRecord = Omit<CanonicalRecord, "priority" | "extra"> & Partial<Pick<CanonicalRecord, "priority" | "extra">>;

/** The canonical fields of a record already in canonical form (inputs after check, outputs, a declared record), and nothing else of it. */
export const canonicalFields = (r: HeldRecord): CanonicalRecord => ({ type: r.type, name: r.name, content: r.content, ttl: r.ttl, priority: r.priority ?? null, extra: r.extra ?? null });

export { DEFAULT_TTL, ttlOrDefault, recordIdentity, recordIdentityParts, sameRecord, type RecordIdentityFields } from "./rules";

/** The last zone named and its form: a zone's records are canonicalized one after the other (a list of 10,000 named it 20,000 times). */
let lastZone: { zone: string; name: string } | undefined;

/** Host-name form of a zone: lower case, punycode, no trailing dot (zones are checked elsewhere). */
export function zoneName(zone: string): string {
  if (lastZone?.zone === zone) return lastZone.name;
  let name: string;
  try {
    name = canonicalName(zone.trim(), "zone", { underscore: false });
  } catch {
    name = zone.trim().toLowerCase().replace(/\.$/, "");
  }
  lastZone = { zone, name };
  return name;
}

/**
 * A record name relative to its zone: "", "@", the zone itself (with or without trailing dot) are
 * the apex "@"; "www.example.com." and "www" are "www". An absolute name (trailing dot) outside the
 * zone is refused; labels are checked (RFC 1035 §2.3.1, RFC 8552 underscores, RFC 4592 wildcards).
 */
export function relativeName(raw: string, zone: string): string {
  const z = zoneName(zone);
  const t = raw.trim();
  if (t === "" || t === "@") return "@";
  if (t !== raw) fail("name", raw, "has white space at either end");
  const n = canonicalName(t, "name", { underscore: true, plus: true, wildcard: true });
  if (n === z) return "@";
  if (n.endsWith("." + z)) return n.slice(0, -(z.length + 1));
  if (t.endsWith(".")) fail("name", raw, `is an absolute name outside the zone ${z}: give it relative to the zone (e.g. "www" for www.${z}), or declare the record in the zone it belongs to`);
  if (n.length + z.length + 1 > 253) fail("name", raw, "makes a name longer than 253 characters (RFC 1035 §2.3.4)");
  return n;
}

export type CanonicalResult = { record: CanonicalRecord; problems: [] } | { record: undefined; problems: Problem[] };

/**
 * The canonical record, or the problems that stop it. Field checks are independent, so a name and a
 * content problem are both reported. TTL range and the type's name are the caller's (the contract's
 * range and recordTypes; `recordTypeRule`): the service's list is open, so this takes any name.
 * `recordTypes` (the contract's) lets a refusal name a type the service holds as the fix.
 */
export function canonicalize(r: RecordInput, zone: string, recordTypes: readonly string[] = []): CanonicalResult {
  const problems: Problem[] = [];
  const type = typeof r.type === "string" ? r.type.trim().toUpperCase() : "";
  if (!TYPE.test(type)) return { record: undefined, problems: [{ field: "type", value: r.type, rule: "is not a record type (e.g. A, AAAA, CNAME, MX, TXT)" }] };
  const generic = isGenericTypeName(type) ? genericTypeRule(type) : undefined;
  if (generic) return { record: undefined, problems: [{ field: "type", value: r.type, rule: generic }] };
  if (Object.hasOwn(NOT_HELD, type)) return { record: undefined, problems: [{ field: "type", value: r.type, rule: `cannot be held: ${NOT_HELD[type]}` }] };
  const entry = recordType(type);
  const z = zoneName(zone);
  const guard = <T>(f: () => T): T | undefined => {
    try {
      return f();
    } catch (e) {
      if (!(e instanceof RecordSyntaxError)) throw e;
      // A refusal shows the field's whole value as given; the rule names the part at fault.
      const whole = e.field === "content" ? r.content : e.field === "name" ? (r.name ?? "@") : e.value;
      const part = typeof e.value === "string" && e.value !== whole && !e.rule.includes(e.value) ? `— "${e.value}" ` : "";
      problems.push({ field: e.field, value: whole, rule: part + e.rule });
      return undefined;
    }
  };
  const name = guard(() => relativeName(r.name ?? "@", z));
  if (name !== undefined) {
    const rule = entry.owner?.(name, recordTypes);
    if (rule) problems.push({ field: "name", value: r.name ?? "@", rule });
  }
  if (!entry.priority && r.priority !== undefined && r.priority !== null)
    problems.push({ field: "priority", value: r.priority, rule: `is not a field of ${type} records (only ${PRIORITY_TYPES} carry a priority)` });
  if (entry.extra.length === 0 && r.extra && Object.keys(r.extra).length > 0)
    problems.push({ field: "extra", value: r.extra, rule: `is not a field of ${type} records (only ${EXTRA_TYPES} carry extra)` });
  if (typeof r.content !== "string") problems.push({ field: "content", value: r.content, rule: "is not a string" });
  const fields: RecordFields | undefined = typeof r.content === "string" ? guard(() => entry.parse({ content: r.content, priority: r.priority, extra: r.extra }, z)) : undefined;
  if (problems.length > 0 || name === undefined || fields === undefined) return { record: undefined, problems };
  return { record: { type, name, content: fields.content, ttl: ttlOrDefault(r.ttl), priority: fields.priority, extra: fields.extra }, problems: [] };
}

/** One problem as text: `field: value rule`. */
export function problemText(p: Problem): string {
  if (p.value === undefined || p.value === null) return `${p.field}: ${p.rule}`;
  const v = typeof p.value === "number" ? String(p.value) : JSON.stringify(p.value);
  return `${p.field}: ${v.length > 120 ? v.slice(0, 117) + "..." : v} ${p.rule}`;
}

/** A canonical record as one zone-file line (absolute owner, TTL, class IN). */
export function zoneLine(r: CanonicalRecord, zone: string): string {
  const z = zoneName(zone);
  const owner = r.name === "@" ? `${z}.` : `${r.name}.${z}.`;
  return `${owner}\t${r.ttl}\tIN\t${r.type}\t${recordType(r.type).print({ content: r.content, priority: r.priority, extra: r.extra })}`;
}

/**
 * The records of `here` (the others at the same name) that a record of `type` may not share its
 * name with, and the rule that says so (the entry's `alone`): all of them when `type` stands alone
 * (CNAME), else those that stand alone themselves. Undefined when nothing clashes.
 */
export function exclusivityClash<R extends { type: string }>(type: string, here: readonly R[]): { clash: R[]; rule: string } | undefined {
  const own = recordType(type).alone;
  if (own !== undefined) return here.length > 0 ? { clash: [...here], rule: own } : undefined;
  const alone = here.filter((r) => recordType(r.type).alone !== undefined);
  return alone.length > 0 ? { clash: alone, rule: recordType(alone[0].type).alone! } : undefined;
}

/** Whether a record of `type` stands alone at its name (CNAME). */
export const standsAlone = (type: string): boolean => recordType(type.trim().toUpperCase()).alone !== undefined;
