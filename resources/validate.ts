/**
 * Input validation for every resource, without calling the API. Pure: each `check*` takes the new
 * inputs and returns the canonical inputs (see normalize.ts) and failures that name the field, the
 * value and the rule, e.g. `ttl: 30 is below the minimum of 60 seconds`. Secret values (contacts,
 * auth codes) are shown as "(secret)".
 *
 * During preview any input may be Pulumi's unknown sentinel; an unknown value is never a failure and
 * is passed through unchanged.
 */
import { domainToASCII } from "node:url";
import { isIPv4, isIPv6 } from "node:net";
import { DEFAULT_CONTRACT, isServiceManagedRecord, type Contract } from "../provider/contract";
import {
  CONTACT_TYPES,
  DEFAULT_TTL,
  canonicalChildHost,
  canonicalContact,
  canonicalHost,
  canonicalIPv6,
  canonicalRecord,
  canonicalTarget,
  usesPriority,
  type CanonicalRecord,
  type ContactInput,
} from "./normalize";

/** The value Pulumi sends for an input that is not known yet (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export const isUnknown = (v: unknown): boolean => v === UNKNOWN;

/** Whether the value or anything inside it is unknown. */
export function containsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v && typeof v === "object") return Object.values(v).some(containsUnknown);
  return false;
}

export interface CheckFailure {
  property: string;
  reason: string;
}

/** Limits taken from the contract (overridable through reseller:contract). */
export type Limits = Pick<Contract, "ttl" | "nameservers">;
export const DEFAULT_LIMITS: Limits = { ttl: DEFAULT_CONTRACT.ttl, nameservers: DEFAULT_CONTRACT.nameservers };

/** Years a registration or renewal may run (spec: "the permitted range of years: not shown"; per-TLD limits are checked by the service). */
export const YEARS = { min: 1, max: 10 };

type Props = Record<string, unknown>;

/** Collects failures; values are shown as JSON, secrets as "(secret)". */
class Failures {
  readonly list: CheckFailure[] = [];
  add(property: string, value: unknown, rule: string, secret = false): void {
    const shown = secret ? "(secret)" : show(value);
    this.list.push({ property, reason: `${property}: ${shown} ${rule}` });
  }
  missing(property: string): void {
    this.list.push({ property, reason: `${property}: is required` });
  }
}

function show(v: unknown): string {
  if (v === undefined) return "undefined";
  const s = typeof v === "number" || typeof v === "boolean" ? String(v) : JSON.stringify(v);
  return s.length > 80 ? s.slice(0, 77) + "..." : s;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const OWNER_LABEL = /^(\*|_?[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9_])?|_[a-z0-9_-]{1,62})$/;

/** Why a name is not a valid host name, or undefined when it is. `owner` allows "*" and "_" labels. */
export function hostNameProblem(name: string, opts: { owner?: boolean; minLabels?: number } = {}): string | undefined {
  const raw = name.trim().replace(/\.$/, "");
  if (raw === "") return "is empty";
  if (/\s/.test(raw)) return "contains white space";
  const ascii = canonicalHost(raw);
  if (ascii.length > 253) return "is longer than 253 characters";
  const labels = ascii.split(".");
  if (labels.length < (opts.minLabels ?? 1)) return `needs at least ${opts.minLabels} labels (e.g. example.com)`;
  for (const label of labels) {
    if (label === "") return "has an empty label (two dots in a row)";
    if (label.length > 63) return `has a label longer than 63 characters ("${label.slice(0, 20)}...")`;
    const ok = opts.owner ? OWNER_LABEL.test(label) : LABEL.test(label);
    if (!ok) return `has an invalid label "${label}" (letters, digits and inner hyphens only${opts.owner ? '; "*" and leading "_" allowed' : ""})`;
  }
  const tld = labels[labels.length - 1];
  if ((opts.minLabels ?? 1) >= 2 && !/^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) return `has an invalid top-level label "${tld}"`;
  if (domainToASCII(raw) === "" && !opts.owner) return "is not a valid internationalized name";
  return undefined;
}

function checkDomainName(f: Failures, property: string, v: unknown): string | undefined {
  if (isUnknown(v)) return v as string;
  if (typeof v !== "string") {
    if (v === undefined || v === null) f.missing(property);
    else f.add(property, v, "is not a string");
    return undefined;
  }
  const problem = hostNameProblem(v, { minLabels: 2 });
  if (problem) {
    f.add(property, v, `is not a valid domain name: it ${problem}`);
    return undefined;
  }
  return canonicalHost(v);
}

function checkInt(f: Failures, property: string, v: unknown, min: number, max: number, unit = ""): number | undefined {
  if (isUnknown(v)) return v as unknown as number;
  const u = unit ? ` ${unit}` : "";
  if (typeof v !== "number" || !Number.isFinite(v)) f.add(property, v, "is not a number");
  else if (!Number.isInteger(v)) f.add(property, v, "is not a whole number");
  else if (v < min) f.add(property, v, `is below the minimum of ${min}${u}`);
  else if (v > max) f.add(property, v, `is above the maximum of ${max}${u}`);
  else return v;
  return undefined;
}

function checkBool(f: Failures, property: string, v: unknown): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (isUnknown(v) || typeof v === "boolean") return v as boolean;
  f.add(property, v, "is not true or false");
  return undefined;
}

function checkString(f: Failures, property: string, v: unknown, opts: { secret?: boolean; nonEmpty?: boolean } = {}): string | undefined {
  if (isUnknown(v)) return v as string;
  if (typeof v !== "string") {
    f.add(property, opts.secret ? "" : v, "is not a string", opts.secret);
    return undefined;
  }
  if (opts.nonEmpty && v.trim() === "") {
    f.add(property, v, "is empty", opts.secret);
    return undefined;
  }
  return v;
}

const EMAIL = /^[^\s@"<>]+@[^\s@]+$/;
const PHONE = /^\+[1-9]\d{6,14}$/;

/** Contacts are secret: failures never show their values. */
function checkContact(f: Failures, property: string, v: unknown): ContactInput | undefined {
  if (isUnknown(v)) return v as unknown as ContactInput;
  if (!v || typeof v !== "object" || Array.isArray(v)) {
    f.add(property, v, "is not a contact object", true);
    return undefined;
  }
  const c = v as Props;
  const before = f.list.length;
  const required = ["name", "email", "phone", "address_line_1", "city", "country"] as const;
  for (const key of required) {
    const val = c[key];
    if (isUnknown(val)) continue;
    if (typeof val !== "string" || val.trim() === "") f.list.push({ property: `${property}.${key}`, reason: `${property}.${key}: is required (a non-empty string)` });
  }
  for (const key of ["organization", "address_line_2", "state", "postal_code"] as const) {
    const val = c[key];
    if (val !== undefined && val !== null && !isUnknown(val) && typeof val !== "string") f.add(`${property}.${key}`, val, "is not a string", true);
  }
  const known = new Set<string>([...required, "organization", "address_line_2", "state", "postal_code"]);
  for (const key of Object.keys(c)) if (!known.has(key)) f.list.push({ property: `${property}.${key}`, reason: `${property}.${key}: is not a contact field (known: ${[...known].join(", ")})` });
  if (typeof c.email === "string" && c.email.trim() !== "" && !isUnknown(c.email)) {
    const at = c.email.trim().lastIndexOf("@");
    if (!EMAIL.test(c.email.trim()) || hostNameProblem(c.email.trim().slice(at + 1), { minLabels: 2 }))
      f.add(`${property}.email`, c.email, "is not an e-mail address (name@domain.tld)", true);
  }
  if (typeof c.phone === "string" && c.phone.trim() !== "" && !isUnknown(c.phone)) {
    const p = c.phone.trim().replace(/[\s().-]/g, "");
    if (!PHONE.test(p)) f.add(`${property}.phone`, c.phone, 'is not an international phone number ("+" then 7 to 15 digits, e.g. +44.2071234567)', true);
  }
  if (typeof c.country === "string" && !isUnknown(c.country) && c.country.trim() !== "" && !/^[A-Za-z]{2}$/.test(c.country.trim()))
    f.add(`${property}.country`, c.country, "is not a two-letter country code (ISO 3166-1 alpha-2, e.g. DE)", true);
  if (f.list.length > before || containsUnknown(c)) return f.list.length > before ? undefined : (c as unknown as ContactInput);
  return canonicalContact(c as unknown as ContactInput);
}

function checkContacts(f: Failures, property: string, v: unknown): Props | undefined {
  if (isUnknown(v)) return v as unknown as Props;
  if (v === undefined || v === null) {
    f.missing(property);
    return undefined;
  }
  if (typeof v !== "object" || Array.isArray(v)) {
    f.add(property, v, "is not an object keyed by registrant, admin, tech, billing", true);
    return undefined;
  }
  const c = v as Props;
  const out: Props = {};
  for (const key of Object.keys(c)) {
    if (!(CONTACT_TYPES as readonly string[]).includes(key)) {
      f.list.push({ property: `${property}.${key}`, reason: `${property}.${key}: is not a contact type (registrant, admin, tech, billing)` });
    }
  }
  if (c.registrant === undefined || c.registrant === null) f.missing(`${property}.registrant`);
  for (const t of CONTACT_TYPES) {
    const val = c[t];
    if (val === undefined || val === null) continue;
    out[t] = checkContact(f, `${property}.${t}`, val);
  }
  return out;
}

function checkNameservers(f: Failures, property: string, v: unknown, limits: Limits): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (isUnknown(v)) return v as unknown as string[];
  if (!Array.isArray(v)) {
    f.add(property, v, "is not a list of host names");
    return undefined;
  }
  const { min, max } = limits.nameservers;
  if (v.length < min || v.length > max) f.add(property, v, `has ${v.length} entries; a domain needs ${min} to ${max} nameservers`);
  const out: string[] = [];
  const seen = new Set<string>();
  v.forEach((ns, i) => {
    if (isUnknown(ns)) return void out.push(ns);
    if (typeof ns !== "string") return void f.add(`${property}[${i}]`, ns, "is not a string");
    const problem = hostNameProblem(ns, { minLabels: 2 });
    if (problem) return void f.add(`${property}[${i}]`, ns, `is not a valid host name: it ${problem}`);
    const c = canonicalHost(ns);
    if (seen.has(c)) f.add(`${property}[${i}]`, ns, "is listed twice");
    seen.add(c);
    out.push(c);
  });
  return out;
}

const DECIMAL = /^\d{1,12}(\.\d{1,2})?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether a YYYY-MM-DD string names a real calendar day. */
export function isCalendarDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** For the read-only functions, which throw instead of reporting: the failure of a domain name, or undefined. */
export function domainNameFailure(property: string, v: unknown): string | undefined {
  const f = new Failures();
  checkDomainName(f, property, v);
  return f.list[0]?.reason;
}

/** For the read-only functions: the failure of a number of years (absent is fine), or undefined. */
export function yearsFailure(property: string, v: unknown): string | undefined {
  const f = new Failures();
  if (v !== undefined && v !== null) checkInt(f, property, v, YEARS.min, YEARS.max, "years");
  return f.list[0]?.reason;
}

export interface CheckResult<T = Props> {
  inputs: T;
  failures: CheckFailure[];
}

/** Copy of `news` with undefined values dropped at any depth (the host refuses undefined in structs). */
function compact<T>(o: T): T {
  if (Array.isArray(o)) return o.filter((v) => v !== undefined).map(compact) as T;
  if (o && typeof o === "object") return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined).map(([k, v]) => [k, compact(v)])) as T;
  return o;
}

/** Domain inputs. */
export function checkDomainInputs(news: Props, limits: Limits = DEFAULT_LIMITS): CheckResult {
  const f = new Failures();
  const out: Props = { ...news };
  out.domain = checkDomainName(f, "domain", news.domain);
  out.years = news.years === undefined || news.years === null ? 1 : checkInt(f, "years", news.years, YEARS.min, YEARS.max, "years");
  // An adopted domain may leave its contacts unmanaged (as the import command generates it).
  out.contacts = (news.contacts === undefined || news.contacts === null) && news.adopt === true ? undefined : checkContacts(f, "contacts", news.contacts);
  out.nameservers = checkNameservers(f, "nameservers", news.nameservers, limits);
  out.locked = checkBool(f, "locked", news.locked);
  out.adopt = checkBool(f, "adopt", news.adopt);
  if (news.authCode !== undefined && news.authCode !== null) out.authCode = checkString(f, "authCode", news.authCode, { secret: true, nonEmpty: true });
  if (news.clientReference !== undefined && news.clientReference !== null) {
    const ref = checkString(f, "clientReference", news.clientReference, { nonEmpty: true });
    if (typeof ref === "string" && ref.length > 255) f.add("clientReference", ref, "is longer than 255 characters");
  }
  if (news.maxPrice !== undefined && news.maxPrice !== null && !isUnknown(news.maxPrice)) {
    const p = news.maxPrice;
    if (typeof p !== "string" || !DECIMAL.test(p.trim())) f.add("maxPrice", p, 'is not a decimal amount as a string (e.g. "12.50")');
    else out.maxPrice = p.trim();
  }
  if (news.renewal !== undefined && news.renewal !== null && !isUnknown(news.renewal)) {
    const r = news.renewal as Props;
    if (typeof r !== "object" || Array.isArray(r)) f.add("renewal", r, "is not an object { minDaysRemaining?, notBefore?, years? }");
    else {
      const known = new Set(["minDaysRemaining", "notBefore", "years"]);
      for (const k of Object.keys(r)) if (!known.has(k)) f.add(`renewal.${k}`, r[k], "is not a renewal setting (minDaysRemaining, notBefore, years)");
      if (r.minDaysRemaining !== undefined && r.minDaysRemaining !== null) checkInt(f, "renewal.minDaysRemaining", r.minDaysRemaining, 0, 3650, "days");
      if (r.years !== undefined && r.years !== null) checkInt(f, "renewal.years", r.years, YEARS.min, YEARS.max, "years");
      if (r.notBefore !== undefined && r.notBefore !== null && !isUnknown(r.notBefore) && (typeof r.notBefore !== "string" || !isCalendarDate(r.notBefore)))
        f.add("renewal.notBefore", r.notBefore, "is not a date YYYY-MM-DD");
    }
  }
  if (news.waitTimeoutSeconds !== undefined && news.waitTimeoutSeconds !== null)
    out.waitTimeoutSeconds = checkInt(f, "waitTimeoutSeconds", news.waitTimeoutSeconds, 0, 3600, "seconds");
  return { inputs: compact(out), failures: f.list };
}

/** Inputs of resources that name only a domain (PrivacyAddon, Protection), and EppCode. */
export function checkDomainOnlyInputs(news: Props): CheckResult {
  const f = new Failures();
  const out: Props = { ...news, domain: checkDomainName(f, "domain", news.domain), adopt: checkBool(f, "adopt", news.adopt) };
  return { inputs: compact(out), failures: f.list };
}

/** DnsZone inputs. */
export function checkZoneInputs(news: Props): CheckResult {
  const f = new Failures();
  const out: Props = {
    ...news,
    domain: checkDomainName(f, "domain", news.domain),
    adopt: checkBool(f, "adopt", news.adopt),
    forceDestroy: checkBool(f, "forceDestroy", news.forceDestroy),
    waitForDelegation: checkBool(f, "waitForDelegation", news.waitForDelegation),
  };
  if (news.waitTimeoutSeconds !== undefined && news.waitTimeoutSeconds !== null)
    out.waitTimeoutSeconds = checkInt(f, "waitTimeoutSeconds", news.waitTimeoutSeconds, 0, 3600, "seconds");
  return { inputs: compact(out), failures: f.list };
}

const HEX = /^[0-9a-fA-F]+$/;

/** Why a record's content does not fit its type, or undefined. Works on the canonical record. */
export function recordContentProblem(r: CanonicalRecord, zone: string): string | undefined {
  const c = r.content;
  const w = c.trim().split(/\s+/);
  // Targets are absolute names, so one label ("mail") is not one; "." means "no host" where a type allows it.
  const target = (t: string): string | undefined => (t === "." ? undefined : hostNameProblem(t, { owner: true, minLabels: 2 }));
  if (c.length > 4096) return "is longer than 4096 characters";
  switch (r.type) {
    case "A":
      return isIPv4(c) ? undefined : "is not an IPv4 address";
    case "AAAA":
      return isIPv6(c) ? undefined : "is not an IPv6 address";
    case "CNAME":
    case "NS":
    case "PTR":
    case "DNAME":
    case "MX": {
      if (c === "." && r.type !== "MX") return 'is not a host name: "." (no host) is allowed only in MX, SRV, HTTPS and SVCB records';
      const p = c === "." ? undefined : target(canonicalTarget(c, zone));
      return p ? `is not a host name: it ${p}` : undefined;
    }
    case "SRV": {
      const p = target(c);
      return p ? `is not a target host name (or "."): it ${p}` : undefined;
    }
    case "TXT":
    case "SPF":
      return c.length === 0 ? "is empty" : undefined;
    case "CAA": {
      if (c.trim() === "") return 'is empty (the value, e.g. "letsencrypt.org")';
      // RFC 8659: iodef holds a URL; issue/issuewild an issuer domain (or none) then ";" parameters.
      const tag = typeof r.extra?.tag === "string" ? r.extra.tag.toLowerCase() : "";
      if (tag === "iodef" && !/^(mailto:|https?:\/\/)\S+$/i.test(c.trim())) return "is not an iodef URL (mailto: or https:)";
      const issuer = c.split(";")[0].trim();
      if ((tag === "issue" || tag === "issuewild") && issuer !== "" && hostNameProblem(issuer, { minLabels: 2 }))
        return `has an issuer "${issuer}" that is not a domain name (e.g. letsencrypt.org, or ";" to forbid issuance)`;
      return undefined;
    }
    case "TLSA": {
      if (w.length !== 4) return "is not TLSA content: usage selector matching-type certificate-data (e.g. 3 1 1 <hex>)";
      const [u, s, m, data] = w;
      if (!/^[0-3]$/.test(u)) return "has a TLSA usage other than 0 to 3";
      if (!/^[01]$/.test(s)) return "has a TLSA selector other than 0 or 1";
      if (!/^[0-2]$/.test(m)) return "has a TLSA matching type other than 0 to 2";
      if (!HEX.test(data)) return "has TLSA certificate data that is not hexadecimal";
      const len = { "1": 64, "2": 128 }[m as "1" | "2"];
      return len && data.length !== len ? `has ${data.length} hex digits of data; matching type ${m} needs ${len}` : undefined;
    }
    case "SSHFP": {
      if (w.length !== 3) return "is not SSHFP content: algorithm fingerprint-type fingerprint (e.g. 4 2 <hex>)";
      const [a, t, fp] = w;
      if (!/^[1-46]$/.test(a)) return "has an SSHFP algorithm other than 1, 2, 3, 4 or 6";
      if (!/^[12]$/.test(t)) return "has an SSHFP fingerprint type other than 1 (SHA-1) or 2 (SHA-256)";
      if (!HEX.test(fp)) return "has an SSHFP fingerprint that is not hexadecimal";
      const len = t === "1" ? 40 : 64;
      return fp.length !== len ? `has ${fp.length} hex digits of fingerprint; type ${t} needs ${len}` : undefined;
    }
    case "DS": {
      if (w.length !== 4) return "is not DS content: key-tag algorithm digest-type digest (e.g. 12345 13 2 <hex>)";
      const [tag, alg, dt, digest] = w;
      if (!/^\d+$/.test(tag) || Number(tag) > 65535) return "has a DS key tag outside 0 to 65535";
      if (!/^\d+$/.test(alg) || Number(alg) < 1 || Number(alg) > 255) return "has a DS algorithm outside 1 to 255 (0 is reserved)";
      const len = { "1": 40, "2": 64, "4": 96 }[dt as "1" | "2" | "4"];
      if (!len) return "has a DS digest type other than 1, 2 or 4";
      if (!HEX.test(digest)) return "has a DS digest that is not hexadecimal";
      return digest.length !== len ? `has ${digest.length} hex digits of digest; digest type ${dt} needs ${len}` : undefined;
    }
    case "HTTPS":
    case "SVCB": {
      if (w.length < 2) return `is not ${r.type} content: priority target [key=value ...] (e.g. 1 . alpn=h2)`;
      if (!/^\d+$/.test(w[0]) || Number(w[0]) > 65535) return `has a ${r.type} priority outside 0 to 65535`;
      const p = target(w[1]);
      if (p) return `has a ${r.type} target that is not a host name or ".": it ${p}`;
      const bad = w.slice(2).find((kv) => !/^[a-z0-9-]+(=.*)?$/.test(kv));
      if (bad) return `has a ${r.type} parameter "${bad}" that is not key or key=value`;
      return Number(w[0]) === 0 && w.length > 2 ? `has ${r.type} priority 0 (alias mode), which takes no parameters` : undefined;
    }
    default:
      return c.trim() === "" ? "is empty" : undefined;
  }
}

function checkExtra(f: Failures, r: CanonicalRecord): void {
  const e = r.extra ?? {};
  if (r.type === "SRV") {
    for (const k of ["weight", "port"] as const) {
      const v = e[k];
      if (v === undefined || v === null) f.list.push({ property: `extra.${k}`, reason: `extra.${k}: is required for SRV records (0 to 65535)` });
      else checkInt(f, `extra.${k}`, v, 0, 65535);
    }
  }
  if (r.type === "CAA") {
    if (e.flag === undefined || e.flag === null) f.list.push({ property: "extra.flag", reason: "extra.flag: is required for CAA records (0 to 255, usually 0)" });
    else checkInt(f, "extra.flag", e.flag, 0, 255);
    if (e.tag === undefined || e.tag === null) f.list.push({ property: "extra.tag", reason: "extra.tag: is required for CAA records (issue, issuewild, iodef, ...)" });
    else if (typeof e.tag !== "string" || !/^[a-z0-9]{1,15}$/i.test(e.tag)) f.add("extra.tag", e.tag, "is not a CAA tag (1 to 15 letters or digits, e.g. issue)");
  }
}

/** DnsRecord inputs. */
export function checkRecordInputs(news: Props, limits: Limits = DEFAULT_LIMITS): CheckResult {
  const f = new Failures();
  const out: Props = { ...news };
  const zone = checkDomainName(f, "zone", news.zone);
  out.zone = zone;
  out.adopt = checkBool(f, "adopt", news.adopt);
  const ttl = news.ttl === undefined || news.ttl === null ? DEFAULT_TTL : checkInt(f, "ttl", news.ttl, limits.ttl.min, limits.ttl.max, "seconds");
  out.ttl = ttl;
  const type = news.type;
  if (!isUnknown(type) && (typeof type !== "string" || !/^[A-Za-z][A-Za-z0-9-]{0,15}$/.test(type.trim())))
    f.add("type", type, "is not a record type (e.g. A, AAAA, CNAME, MX, TXT)");
  const name = news.name ?? "@";
  if (!isUnknown(name) && typeof name !== "string") f.add("name", name, "is not a string");
  if (typeof news.content !== "string" && !isUnknown(news.content)) {
    if (news.content === undefined || news.content === null) f.missing("content");
    else f.add("content", news.content, "is not a string");
  }
  if (news.priority !== undefined && news.priority !== null) checkInt(f, "priority", news.priority, 0, 65535);
  if (news.extra !== undefined && news.extra !== null && !isUnknown(news.extra) && (typeof news.extra !== "object" || Array.isArray(news.extra)))
    f.add("extra", news.extra, "is not an object ({weight, port} for SRV, {flag, tag} for CAA)");
  if (f.list.length > 0) return { inputs: compact(out), failures: f.list };

  // With every field known, canonicalize and check the record as a whole.
  if (!containsUnknown([zone, type, name, news.content, news.priority, news.extra])) {
    const r = canonicalRecord(
      { type: type as string, name: name as string, content: news.content as string, ttl: ttl as number, priority: news.priority as number | undefined, extra: news.extra as CanonicalRecord["extra"] },
      zone as string,
    );
    const rawName = (name as string).trim();
    if (rawName.endsWith(".") && rawName !== "." && r.name !== "@" && !canonicalHost(rawName).endsWith(`.${zone as string}`))
      f.add("name", news.name, `is an absolute name outside the zone ${zone as string}`);
    else if (r.name !== "@" && r.name !== "*") {
      const p = hostNameProblem(r.name, { owner: true });
      if (p) f.add("name", news.name, `is not a valid record name: it ${p}`);
      else if (r.name.endsWith(".") || canonicalHost(r.name).length + (zone as string).length + 1 > 253) f.add("name", news.name, "makes a name longer than 253 characters");
      else if (r.name.split(".").slice(1).includes("*")) f.add("name", news.name, 'has "*" below its first label (a wildcard is only the leftmost label, e.g. *.www)');
    }
    if (r.type === "SRV" && r.name !== "@" && !/^_[a-z0-9-]+\._(tcp|udp|tls|sctp)(\.|$)/.test(r.name))
      f.add("name", news.name, "is not an SRV owner name (_service._proto[.name], e.g. _sip._tcp)");
    if (r.type === "CNAME" && r.name === "@") f.add("name", news.name, "cannot hold a CNAME: the zone apex has SOA and NS records");
    // Spec: "NS records are managed by the service" (the apex set; delegating a subdomain is the user's).
    if (isServiceManagedRecord(zone as string, r)) f.add("name", news.name, "cannot hold an NS record: the service manages the zone apex NS records");
    const problem = recordContentProblem(r, zone as string);
    if (problem) f.add("content", news.content, problem);
    if (usesPriority(r.type) && r.priority === null) f.list.push({ property: "priority", reason: `priority: is required for ${r.type} records (0 to 65535)` });
    checkExtra(f, r);
    Object.assign(out, { type: r.type, name: r.name, content: r.content, priority: r.priority, extra: r.extra });
  } else if (typeof type === "string") out.type = type.trim().toUpperCase();
  return { inputs: compact(out), failures: f.list };
}

function checkIps(f: Failures, property: string, v: unknown, family: 4 | 6, required: boolean): string[] | undefined {
  if (isUnknown(v)) return v as unknown as string[];
  if (v === undefined || v === null) {
    if (required) f.missing(property);
    return [];
  }
  if (!Array.isArray(v)) {
    f.add(property, v, `is not a list of IPv${family} addresses`);
    return undefined;
  }
  if (required && v.length === 0) f.add(property, v, "is empty; a child nameserver needs at least one IPv4 address (glue)");
  const out: string[] = [];
  v.forEach((ip, i) => {
    if (isUnknown(ip)) return void out.push(ip);
    const ok = typeof ip === "string" && (family === 4 ? isIPv4(ip.trim()) : isIPv6(ip.trim()));
    if (!ok) return void f.add(`${property}[${i}]`, ip, `is not an IPv${family} address`);
    const c = family === 6 ? canonicalIPv6(ip) : ip.trim();
    if (out.includes(c)) f.add(`${property}[${i}]`, ip, "is listed twice");
    out.push(c);
  });
  return out;
}

/** ChildHost inputs. */
export function checkChildHostInputs(news: Props): CheckResult {
  const f = new Failures();
  const out: Props = { ...news, adopt: checkBool(f, "adopt", news.adopt) };
  const domain = checkDomainName(f, "domain", news.domain);
  out.domain = domain;
  const h = news.hostname;
  if (isUnknown(h)) out.hostname = h;
  else if (typeof h !== "string") f.add("hostname", h, "is not a string");
  else if (domain !== undefined && !isUnknown(domain)) {
    const c = canonicalChildHost(h, domain);
    const p = hostNameProblem(c, { minLabels: 3 });
    if (p) f.add("hostname", h, `is not a valid host name: it ${p}`);
    else if (!c.endsWith(`.${domain}`)) f.add("hostname", h, `is not under the domain ${domain} (a child nameserver is named inside its domain, e.g. ns1.${domain})`);
    else out.hostname = c;
  }
  out.ipv4 = checkIps(f, "ipv4", news.ipv4, 4, true);
  out.ipv6 = checkIps(f, "ipv6", news.ipv6, 6, false);
  return { inputs: compact(out), failures: f.list };
}

/** EppCode inputs: a domain and any trigger value. */
export function checkEppCodeInputs(news: Props): CheckResult {
  const f = new Failures();
  const out: Props = { ...news, domain: checkDomainName(f, "domain", news.domain) };
  return { inputs: compact(out), failures: f.list };
}

const STRATEGIES = ["skip", "replace", "cancel"];

/** ZoneTemplate inputs. */
export function checkTemplateInputs(news: Props): CheckResult {
  const f = new Failures();
  const out: Props = { ...news, zone: checkDomainName(f, "zone", news.zone), adopt: checkBool(f, "adopt", news.adopt) };
  const id = news.templateId;
  if (!isUnknown(id) && (typeof id !== "string" || id.trim() === "")) f.add("templateId", id, "is not a template id (see getTemplates or the reseller portal)");
  const vars = news.variables ?? {};
  if (!isUnknown(vars)) {
    if (typeof vars !== "object" || Array.isArray(vars)) f.add("variables", vars, "is not an object of name to string");
    else for (const [k, v] of Object.entries(vars as Props)) if (!isUnknown(v) && typeof v !== "string") f.add(`variables.${k}`, v, "is not a string");
  }
  out.variables = vars;
  const s = news.conflictStrategy ?? "cancel";
  if (!isUnknown(s) && !STRATEGIES.includes(s as string)) f.add("conflictStrategy", s, `is not one of ${STRATEGIES.join(", ")}`);
  out.conflictStrategy = s;
  return { inputs: compact(out), failures: f.list };
}
