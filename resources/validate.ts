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
import { DEFAULT_CONTRACT, type Contract } from "../provider/contract";
import { canonicalize, problemText, type RecordExtra } from "../provider/records";
import { CONTACT_TYPES, DEFAULT_TTL, canonicalChildHost, canonicalContact, canonicalHost, canonicalIPv6, type ContactInput } from "./normalize";

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

/** Why a name is not a valid host name (domains, nameservers, child hosts; record names are the record table's), or undefined. */
export function hostNameProblem(name: string, opts: { minLabels?: number } = {}): string | undefined {
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
    if (!LABEL.test(label)) return `has an invalid label "${label}" (letters, digits and inner hyphens only)`;
  }
  const tld = labels[labels.length - 1];
  if ((opts.minLabels ?? 1) >= 2 && !/^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) return `has an invalid top-level label "${tld}"`;
  if (domainToASCII(raw) === "") return "is not a valid internationalized name";
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

/**
 * DnsRecord inputs. The zone, TTL (the contract's range) and the fields' JSON types are checked here;
 * everything about the record itself (name, content, priority, extra, per type and RFC) is the
 * record table's (provider/records), the same the sandbox and the import command use.
 */
export function checkRecordInputs(news: Props, limits: Limits = DEFAULT_LIMITS): CheckResult {
  const f = new Failures();
  const out: Props = { ...news };
  const zone = checkDomainName(f, "zone", news.zone);
  out.zone = zone;
  out.adopt = checkBool(f, "adopt", news.adopt);
  const ttl = news.ttl === undefined || news.ttl === null ? DEFAULT_TTL : checkInt(f, "ttl", news.ttl, limits.ttl.min, limits.ttl.max, "seconds");
  out.ttl = ttl;
  const type = news.type;
  if (!isUnknown(type) && typeof type !== "string") f.add("type", type, "is not a record type (e.g. A, AAAA, CNAME, MX, TXT)");
  const name = news.name ?? "@";
  if (!isUnknown(name) && typeof name !== "string") f.add("name", name, "is not a string");
  if (typeof news.content !== "string" && !isUnknown(news.content)) {
    if (news.content === undefined || news.content === null) f.missing("content");
    else f.add("content", news.content, "is not a string");
  }
  if (news.extra !== undefined && news.extra !== null && !isUnknown(news.extra) && (typeof news.extra !== "object" || Array.isArray(news.extra)))
    f.add("extra", news.extra, "is not an object ({weight, port} for SRV, {flag, tag} for CAA)");
  if (f.list.length > 0) return { inputs: compact(out), failures: f.list };

  // With every field known, the table canonicalizes and checks the record as a whole: once, here.
  if (!containsUnknown([zone, type, name, news.content, news.priority, news.extra])) {
    const c = canonicalize(
      { type: type as string, name: name as string, content: news.content as string, ttl: ttl as number, priority: news.priority as number | undefined, extra: news.extra as RecordExtra | undefined },
      zone as string,
    );
    if (!c.record) for (const p of c.problems) f.list.push({ property: p.field, reason: problemText(p) });
    else Object.assign(out, { type: c.record.type, name: c.record.name, content: c.record.content, priority: c.record.priority, extra: c.record.extra });
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
