/**
 * The one normalizer: the canonical form of names and record content. check() stores inputs in this
 * form, diff() compares in this form and read() maps what the service returns to this form, so a
 * plan never shows a change the service would not make (the DNSControl/octoDNS habit).
 *
 * Records: every per-type rule lives in the record table (dns, one t_<type>.ts per
 * type, shared with the import command and the sandbox); this file only adapts it. Canonical forms
 * of other names (the spec is silent): host names as ASCII (punycode), lower case, no trailing dot;
 * IPv6 as RFC 5952 text.
 *
 * Everything here is pure and never throws: a value that cannot be read is returned trimmed, and
 * check (../host/check.ts) reports it.
 */
import { domainToASCII } from "node:url";
import { isIPv6 } from "node:net";
import { DEFAULT_TTL, canonicalize, ttlOrDefault, recordType, relativeName as tableRelativeName, type CanonicalRecord, type RecordExtra } from "../../dns";
import { CONTACT_TYPES, type Contact, type ContactSet, type ContactType, type StoredContact } from "../../api/shapes";

export { DEFAULT_TTL, ttlOrDefault, type CanonicalRecord };

/**
 * A host name in canonical form: ASCII, lower case, no trailing dot. Wildcard and underscore labels
 * are kept. A label holding ASCII that no host name can ("/", "%", ...) is kept as written, never
 * cut or decoded, so validation names it.
 */
export function canonicalHost(name: string): string {
  const trimmed = name.trim().replace(/\.+$/, "");
  if (trimmed === "") return "";
  const labels = trimmed.split(".").map((label) => {
    if (!/[^\x00-\x7f]/.test(label)) return label.toLowerCase();
    const ascii = /[\x00-\x2c\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]/.test(label) ? "" : domainToASCII(label);
    return ascii === "" ? label.toLowerCase() : ascii;
  });
  return labels.join(".");
}

/** A record name relative to its zone; "@" for the apex. A name the table refuses is returned lower-cased as written. */
export function relativeName(name: string, zone: string): string {
  try {
    return tableRelativeName(name, zone);
  } catch {
    const z = canonicalHost(zone);
    const n = canonicalHost(name);
    if (n === "" || n === "@" || n === z) return "@";
    return z !== "" && n.endsWith("." + z) ? n.slice(0, -(z.length + 1)) : n;
  }
}

/** The fully qualified name of a record. */
export function fqdn(name: string, zone: string): string {
  const rel = relativeName(name, zone);
  const z = canonicalHost(zone);
  return rel === "@" ? z : `${rel}.${z}`;
}

/** Compressed lower-case IPv6, or the input trimmed when it is not an IPv6 address. */
export function canonicalIPv6(address: string): string {
  const a = address.trim();
  if (!isIPv6(a)) return a;
  try {
    return new URL(`http://[${a}]/`).hostname.slice(1, -1);
  } catch {
    return a.toLowerCase();
  }
}

/** IPv4 without leading zeros in octets ("010.0.0.1" is refused by validate; this only trims). */
export function canonicalIPv4(address: string): string {
  return address.trim();
}

/** Extra fields of SRV and CAA records. */
export type RecordExtraInput = RecordExtra;

/** Record fields as a program or the service gives them; anything may be missing. */
export interface RecordLike {
  type: string;
  name: string;
  content: string;
  ttl?: number | null;
  priority?: number | null;
  extra?: RecordExtraInput | null;
}

/**
 * The canonical record through the table. A record the table refuses (only the service can hand one
 * back: check() refuses them on the way in) keeps its fields as given, trimmed, so read() still
 * reports it instead of failing.
 */
export function canonicalRecord(r: RecordLike, zone: string): CanonicalRecord {
  const c = canonicalize(r, zone);
  if (c.record) return c.record;
  const type = r.type.trim().toUpperCase();
  const entry = recordType(type);
  const extra = entry.extra.length && r.extra ? dropUndefined({ ...r.extra }) : null;
  return { type, name: relativeName(r.name, zone), content: r.content.trim(), ttl: ttlOrDefault(r.ttl), priority: entry.priority ? (r.priority ?? null) : null, extra };
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;
}

/** Nameserver list in comparable form: canonical host names, sorted (order carries no meaning). */
export function canonicalNameservers(ns: readonly string[]): string[] {
  return ns.map(canonicalHost).sort();
}

/**
 * Drops undefined, recursively (the provider host refuses it in the structs it sends, and check's
 * inputs compare without it); array elements are kept as they are.
 */
export function defined<T>(v: T): T {
  if (Array.isArray(v)) return v.map(defined) as T;
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, defined(x)])) as T;
  }
  return v;
}

/** IP list in comparable form: canonical, sorted, without duplicates. */
export function canonicalIps(ips: readonly string[], family: 4 | 6): string[] {
  const c = ips.map((ip) => (family === 6 ? canonicalIPv6(ip) : canonicalIPv4(ip)));
  return [...new Set(c)].sort();
}

/** A child host name: absolute under its domain; a bare label ("ns1") is taken as relative to the domain. */
export function canonicalChildHost(hostname: string, domain: string): string {
  const h = canonicalHost(hostname);
  const d = canonicalHost(domain);
  if (h !== "" && !h.includes(".") && d !== "") return `${h}.${d}`;
  return h;
}

/** Deep equality for JSON-like values, key order ignored. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") {
    return (a ?? null) === (b ?? null);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameJson(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!sameJson(ao[k] ?? null, bo[k] ?? null)) return false;
  return true;
}

export { CONTACT_TYPES };
export type { Contact, ContactSet, ContactType };

/** Phone digits only after "+" (spaces, dashes, dots, parentheses dropped): "+1 (555) 010-2030" → "+15550102030". */
export function canonicalPhone(phone: string): string {
  return phone.trim().replace(/[\s().-]/g, "");
}

/** E-mail with its domain part in canonical host form (the local part is kept as written). */
export function canonicalEmail(email: string): string {
  const t = email.trim();
  const at = t.lastIndexOf("@");
  return at < 0 ? t : `${t.slice(0, at)}@${canonicalHost(t.slice(at + 1))}`;
}

const optionalText = (v: string | null | undefined): string | null => {
  const t = (v ?? "").trim();
  return t === "" ? null : t;
};

/** One contact in canonical form; unknown fields a service returns are dropped. */
export function canonicalContact(c: Contact): StoredContact {
  return {
    name: c.name.trim(),
    organization: optionalText(c.organization),
    email: canonicalEmail(c.email),
    phone: canonicalPhone(c.phone),
    addressLine1: c.addressLine1.trim(),
    addressLine2: optionalText(c.addressLine2),
    city: c.city.trim(),
    // Spec, Contact: state and postal code are strings (not "or null"); absent means "".
    state: (c.state ?? "").trim(),
    postalCode: (c.postalCode ?? "").trim(),
    country: c.country.trim().toUpperCase(),
  };
}

/**
 * Contacts as the registry holds them: every type present, an omitted admin/tech/billing being the
 * registrant (spec, Register rule 1). Comparing this form means a program that gives only the
 * registrant does not differ from a service that reports four copies of it.
 */
export function effectiveContacts(c: Partial<Record<ContactType, Contact | null>>): Record<ContactType, StoredContact | null> {
  const registrant = c.registrant ? canonicalContact(c.registrant) : null;
  const pick = (t: ContactType): StoredContact | null => {
    const v = c[t];
    return v ? canonicalContact(v) : registrant;
  };
  return { registrant, admin: pick("admin"), tech: pick("tech"), billing: pick("billing") };
}
