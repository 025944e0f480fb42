/**
 * The one normalizer: the canonical form of names and record content. check() stores inputs in this
 * form, diff() compares in this form and read() maps what the service returns to this form, so a
 * plan never shows a change the service would not make (the DNSControl/octoDNS habit).
 *
 * Canonical forms chosen here (the spec is silent on all of them):
 * - host names: IDNs as ASCII (punycode), lower case, no trailing dot;
 * - record names: relative to the zone, "@" for the apex ("", "@", "example.com", "example.com."
 *   all mean the apex; "www.example.com." and "www" are the same name);
 * - targets (CNAME, MX, NS, PTR, SRV, HTTPS/SVCB target): absolute host names without trailing dot,
 *   "@" meaning the zone apex; "." (no target) stays ".";
 * - TXT: the unquoted value; `"abc" "def"` (quoted, chunked) is the value `abcdef`;
 * - MX/SRV written in zone-file form ("10 mail.example.com", "10 5 5060 sip.example.com") are split
 *   into priority, extra and content; CAA ("0 issue \"ca.example\"") likewise into extra and content;
 * - IPv6: compressed lower case (RFC 5952, via WHATWG URL parsing);
 * - hex fields (TLSA, SSHFP, DS): lower case; numeric fields without leading zeros; one space between.
 *
 * Everything here is pure and never throws: a value that cannot be read is returned trimmed, and
 * validate.ts reports it.
 */
import { domainToASCII } from "node:url";
import { isIPv6 } from "node:net";

/** Record types whose content is a single host name. */
export const TARGET_TYPES = new Set(["CNAME", "MX", "NS", "PTR", "SRV", "DNAME"]);

/** A host name in canonical form: ASCII, lower case, no trailing dot. Wildcard and underscore labels are kept. */
export function canonicalHost(name: string): string {
  const trimmed = name.trim().replace(/\.+$/, "");
  if (trimmed === "") return "";
  const labels = trimmed.split(".").map((label) => {
    if (label === "*" || /^[A-Za-z0-9_-]*$/.test(label)) return label.toLowerCase();
    const ascii = domainToASCII(label);
    return ascii === "" ? label.toLowerCase() : ascii;
  });
  return labels.join(".");
}

/** A record name relative to its zone; "@" for the apex. */
export function relativeName(name: string, zone: string): string {
  const z = canonicalHost(zone);
  const raw = name.trim();
  if (raw === "" || raw === "@") return "@";
  const n = canonicalHost(raw);
  if (n === "" || n === z) return "@";
  if (z !== "" && n.endsWith("." + z)) return n.slice(0, -(z.length + 1));
  return n;
}

/** The fully qualified name of a record. */
export function fqdn(name: string, zone: string): string {
  const rel = relativeName(name, zone);
  const z = canonicalHost(zone);
  return rel === "@" ? z : `${rel}.${z}`;
}

/** A target host name: "@" is the apex, "." stays ".", otherwise canonicalHost. */
export function canonicalTarget(target: string, zone: string): string {
  const t = target.trim();
  if (t === ".") return ".";
  if (t === "@") return canonicalHost(zone);
  return canonicalHost(t);
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

/**
 * TXT value: a content made only of quoted strings ("a" "b") is unquoted, unescaped and joined;
 * anything else is the value as written.
 */
export function canonicalTxt(content: string): string {
  const t = content.trim();
  if (!t.startsWith('"')) return content;
  const chunks: string[] = [];
  let i = 0;
  while (i < t.length) {
    while (i < t.length && /\s/.test(t[i])) i++;
    if (i >= t.length) break;
    if (t[i] !== '"') return content;
    i++;
    let chunk = "";
    let closed = false;
    while (i < t.length) {
      const c = t[i];
      if (c === "\\" && i + 1 < t.length) {
        chunk += t[i + 1];
        i += 2;
        continue;
      }
      if (c === '"') {
        closed = true;
        i++;
        break;
      }
      chunk += c;
      i++;
    }
    if (!closed) return content;
    chunks.push(chunk);
  }
  return chunks.join("");
}

/** Strip one pair of surrounding double quotes. */
function unquote(v: string): string {
  const t = v.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
}

/** A decimal field: "007" → "7"; a non-number stays as written. */
function canonicalNumber(v: string): string {
  return /^\d+$/.test(v) ? String(Number(v)) : v;
}

function words(content: string): string[] {
  return content.trim().split(/\s+/).filter((w) => w !== "");
}

/** Extra fields of SRV and CAA records. */
export interface RecordExtraInput {
  weight?: number;
  port?: number;
  flag?: number;
  tag?: string;
}

/** A record as this package stores and compares it. */
export interface CanonicalRecord {
  type: string;
  name: string;
  content: string;
  ttl: number;
  priority: number | null;
  extra: RecordExtraInput | null;
}

/** Record fields as a program or the service gives them; anything may be missing. */
export interface RecordLike {
  type: string;
  name: string;
  content: string;
  ttl?: number | null;
  priority?: number | null;
  extra?: RecordExtraInput | null;
}

export const DEFAULT_TTL = 3600;

/** Whether a record type carries a priority. */
export const usesPriority = (type: string): boolean => type === "MX" || type === "SRV";

const toInt = (v: string): number | undefined => (/^\d+$/.test(v) ? Number(v) : undefined);

/**
 * Canonical record. Zone-file shorthand in content (MX/SRV priority, SRV weight/port, CAA flag/tag)
 * is moved to the structured fields when those are not given; structured fields win.
 */
export function canonicalRecord(r: RecordLike, zone: string): CanonicalRecord {
  const type = r.type.trim().toUpperCase();
  const name = relativeName(r.name, zone);
  let content = r.content;
  let priority: number | null = r.priority ?? null;
  let extra: RecordExtraInput | null = r.extra ? { ...r.extra } : null;

  switch (type) {
    case "A":
      content = canonicalIPv4(content);
      break;
    case "AAAA":
      content = canonicalIPv6(content);
      break;
    case "MX": {
      const w = words(content);
      if (w.length === 2 && toInt(w[0]) !== undefined) {
        priority = priority ?? toInt(w[0])!;
        content = w[1];
      }
      content = canonicalTarget(content, zone);
      break;
    }
    case "SRV": {
      const w = words(content);
      if (w.length === 4 && w.slice(0, 3).every((x) => toInt(x) !== undefined)) {
        priority = priority ?? toInt(w[0])!;
        extra = { weight: extra?.weight ?? toInt(w[1]), port: extra?.port ?? toInt(w[2]) };
        content = w[3];
      }
      content = canonicalTarget(content, zone);
      if (extra) extra = { weight: extra.weight, port: extra.port };
      break;
    }
    case "CAA": {
      const w = words(content);
      if (!extra && w.length >= 3 && toInt(w[0]) !== undefined && /^[A-Za-z0-9]+$/.test(w[1])) {
        extra = { flag: toInt(w[0]), tag: w[1] };
        content = content.trim().slice(content.trim().indexOf(w[1]) + w[1].length);
      }
      content = unquote(content);
      if (extra) extra = { flag: extra.flag, tag: extra.tag?.toLowerCase() };
      break;
    }
    case "TXT":
    case "SPF":
      content = canonicalTxt(content);
      break;
    case "CNAME":
    case "NS":
    case "PTR":
    case "DNAME":
      content = canonicalTarget(content, zone);
      break;
    case "TLSA":
    case "SSHFP":
    case "DS": {
      const w = words(content);
      const numeric = type === "DS" ? 3 : type === "TLSA" ? 3 : 2;
      if (w.length >= numeric + 1) {
        content = [...w.slice(0, numeric).map(canonicalNumber), w.slice(numeric).join("").toLowerCase()].join(" ");
      } else content = content.trim();
      break;
    }
    case "HTTPS":
    case "SVCB": {
      const w = words(content);
      if (w.length >= 2) {
        const params = w.slice(2).map((p) => {
          const eq = p.indexOf("=");
          return eq < 0 ? p.toLowerCase() : `${p.slice(0, eq).toLowerCase()}=${unquote(p.slice(eq + 1))}`;
        });
        content = [canonicalNumber(w[0]), canonicalTarget(w[1], zone), ...params].join(" ");
      } else content = content.trim();
      break;
    }
    default:
      content = content.trim();
  }
  if (!usesPriority(type)) priority = null;
  if (type !== "SRV" && type !== "CAA") extra = null;
  return { type, name, content, ttl: r.ttl ?? DEFAULT_TTL, priority, extra: extra ? dropUndefined(extra) : null };
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;
}

/** Nameserver list in comparable form: canonical host names, sorted (order carries no meaning). */
export function canonicalNameservers(ns: readonly string[]): string[] {
  return ns.map(canonicalHost).sort();
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

/** Contact fields (spec, Contact). */
export interface ContactInput {
  name: string;
  organization?: string | null;
  email: string;
  phone: string;
  address_line_1: string;
  address_line_2?: string | null;
  city: string;
  state?: string | null;
  postal_code?: string | null;
  country: string;
}

export const CONTACT_TYPES = ["registrant", "admin", "tech", "billing"] as const;
export type ContactTypeName = (typeof CONTACT_TYPES)[number];
export type ContactsInput = { registrant: ContactInput } & Partial<Record<Exclude<ContactTypeName, "registrant">, ContactInput | null>>;

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
export function canonicalContact(c: ContactInput): ContactInput {
  return {
    name: c.name.trim(),
    organization: optionalText(c.organization),
    email: canonicalEmail(c.email),
    phone: canonicalPhone(c.phone),
    address_line_1: c.address_line_1.trim(),
    address_line_2: optionalText(c.address_line_2),
    city: c.city.trim(),
    // Spec, Contact: state and postal_code are strings (not "or null"); absent means "".
    state: (c.state ?? "").trim(),
    postal_code: (c.postal_code ?? "").trim(),
    country: c.country.trim().toUpperCase(),
  };
}

/**
 * Contacts as the registry holds them: every type present, an omitted admin/tech/billing being the
 * registrant (spec, Register rule 1). Comparing this form means a program that gives only the
 * registrant does not differ from a service that reports four copies of it.
 */
export function effectiveContacts(c: Partial<Record<ContactTypeName, ContactInput | null>>): Record<ContactTypeName, ContactInput | null> {
  const registrant = c.registrant ? canonicalContact(c.registrant) : null;
  const pick = (t: ContactTypeName): ContactInput | null => {
    const v = c[t];
    return v ? canonicalContact(v) : registrant;
  };
  return { registrant, admin: pick("admin"), tech: pick("tech"), billing: pick("billing") };
}
