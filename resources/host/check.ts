/**
 * Input validation for every resource, without calling the API. Each kind's inputs are a zod schema
 * that parses what the program sent into the kind's typed, canonical inputs (see normalize.ts), or
 * fails with messages that name the field, the value and the rule, e.g.
 * `ttl: 30 is below the minimum of 60 seconds`. Secret values (contacts, auth codes) are shown as
 * "(secret)".
 *
 * During preview any input may be Pulumi's unknown sentinel; an unknown value is never a failure and
 * is passed through unchanged. The types below describe applied inputs: `create` and `update` never
 * see the sentinel (the engine applies known inputs only); `diff` may, and treats it as a change.
 */
import { isIPv4, isIPv6 } from "node:net";
import { z } from "zod";
import { DEFAULT_CONTRACT, type Contract } from "../../provider/contract";
import { YEARS } from "../../provider/vocabulary";
import { maxPriceRule as MAX_PRICE_RULE, moneyDecimals, parseMaxPrice } from "../../provider/money";
import { canonicalize, problemText } from "../../provider/records";
import { RENAMED_CONTACT_FIELDS } from "../../provider/contact-names";
import { CONFLICT_STRATEGIES, CONTACT_FIELDS, CONTACT_TYPES, type Contact, type ContactSet, type RecordExtra, type RenewalPolicy } from "../../provider/shapes";
import type { ConflictStrategy } from "../../provider/views";
import { DEFAULT_TTL, canonicalChildHost, canonicalContact, canonicalHost, canonicalIPv6, defined } from "../shared/normalize";
import { domainNameRule, hostNameProblem, intRule, show } from "../shared/rules";
import { isSecretName, maskQuoted, SECRET_SHOWN, secretNames } from "./secret-inputs";
import { UNKNOWN } from "./unknown";

export { UNKNOWN };

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

/** What check gives the engine: the canonical inputs, or the failures beside the inputs as the program sent them. */
export type CheckResult<T> = { ok: true; inputs: T; failures: [] } | { ok: false; inputs: Record<string, unknown>; failures: CheckFailure[] };

/** A check that failed on `news` for the given reasons (e.g. rules that need more than the inputs: a sibling's TTL, the service's templates). */
export const failed = (news: Record<string, unknown>, failures: CheckFailure[]): CheckResult<never> => ({ ok: false, inputs: news, failures });

/** Limits taken from the contract (overridable through reseller:contract). */
export type Limits = Pick<Contract, "ttl" | "nameservers"> & Partial<Pick<Contract, "money">>;
export const DEFAULT_LIMITS: Limits = { ttl: DEFAULT_CONTRACT.ttl, nameservers: DEFAULT_CONTRACT.nameservers, money: DEFAULT_CONTRACT.money };

/** Years a registration or renewal may run (per-TLD limits are checked by the service). */
export { YEARS };

// ---- The canonical inputs of each kind ----

/** Inputs every kind has: the resource's own URN (set by the resource class) and `adopt`. */
interface Common {
  resourceUrn?: string;
  adopt?: boolean;
}

export interface DomainInputs extends Common {
  domain: string;
  years: number;
  /** Absent only on an adopted domain whose contacts are not managed. */
  contacts?: ContactSet;
  nameservers?: string[];
  locked?: boolean;
  authCode?: string;
  clientReference?: string;
  maxPrice?: string;
  renewal?: RenewalPolicy;
  waitTimeoutSeconds?: number;
}

/** PrivacyAddon and Protection: a domain. */
export interface DomainAddonInputs extends Common {
  domain: string;
}

export interface EppCodeInputs extends Common {
  domain: string;
  /** Any value; a new one asks for a new code. */
  trigger?: unknown;
}

export interface ZoneInputs extends Common {
  domain: string;
  forceDestroy?: boolean;
  waitForDelegation?: boolean;
  waitTimeoutSeconds?: number;
}

export interface RecordInputs extends Common {
  zone: string;
  type: string;
  name: string;
  content: string;
  ttl: number;
  priority?: number | null;
  extra?: RecordExtra | null;
}

export interface ChildHostInputs extends Common {
  domain: string;
  hostname: string;
  ipv4: string[];
  ipv6: string[];
}

export interface TemplateInputs extends Common {
  zone: string;
  templateId: string;
  variables: Record<string, string>;
  conflictStrategy: ConflictStrategy;
}

// ---- Field rules: zod schemas whose failures read "<value> <rule>" ----

/** Adds a failure at `path` (relative to the value being parsed) and returns zod's "no value". */
function refuse(ctx: z.RefinementCtx, value: unknown, rule: string, opts: { secret?: boolean; path?: (string | number)[] } = {}): never {
  ctx.addIssue({ code: "custom", message: `${opts.secret ? SECRET_SHOWN : show(value)} ${rule}`, input: value, path: opts.path, params: ruled(rule, true) });
  return z.NEVER as never;
}

/** A failure without a value to show ("is required", a key that is itself the mistake). */
function refuseBare(ctx: z.RefinementCtx, rule: string, path?: (string | number)[]): never {
  ctx.addIssue({ code: "custom", message: rule, path, params: ruled(rule, false) });
  return z.NEVER as never;
}

/** What a failure of an input the program marked secret is told from: the rule alone, and whether the message showed the value. */
interface Ruled {
  rule: string;
  valued: boolean;
}
const ruled = (rule: string, valued: boolean): Ruled => ({ rule, valued });

/** A failure's text for an input marked secret: the rule without the value (and without what it quotes of it); fails closed when the rule is not known. */
function secretFailureText(issue: z.core.$ZodIssue): string {
  const r = (issue as { params?: Partial<Ruled> }).params;
  if (typeof r?.rule !== "string") return `${SECRET_SHOWN} is not valid`;
  return `${r.valued ? `${SECRET_SHOWN} ` : ""}${maskQuoted(r.rule)}`;
}

/**
 * A value kept as the program sent it while some input is still unknown (preview). Typed as what it
 * will be: the engine sends every input known, and checked again, before anything is applied.
 */
function asSent<T>(v: unknown): T {
  return v as T;
}

/**
 * A field read by `read` (which returns the canonical value, or calls refuse), with the unknown
 * sentinel passed through untouched. `absent` is what an omitted (undefined or null) field becomes;
 * without it an omitted field is "required".
 */
function field<T>(read: (v: unknown, ctx: z.RefinementCtx) => T, absent?: () => T | undefined): z.ZodType<T> {
  return z
    .unknown()
    .optional()
    .transform((v, ctx) => {
      if (v === UNKNOWN) return asSent<T>(v);
      if (v === undefined || v === null) return absent ? (absent() as T) : refuseBare(ctx, "is required");
      return read(v, ctx);
    }) as unknown as z.ZodType<T>;
}

/** A field whose rule also judges an omitted value (shown as undefined or null). */
function anyValue<T>(read: (v: unknown, ctx: z.RefinementCtx) => T): z.ZodType<T> {
  return z
    .unknown()
    .optional()
    .transform((v, ctx) => (v === UNKNOWN ? asSent<T>(v) : read(v, ctx))) as unknown as z.ZodType<T>;
}

/** An optional field: absent stays absent. */
const optional = <T>(read: (v: unknown, ctx: z.RefinementCtx) => T): z.ZodType<T | undefined> => field<T | undefined>(read, () => undefined);

function readDomainName(v: unknown, ctx: z.RefinementCtx): string {
  const r = domainNameRule(v);
  return r.ok ? canonicalHost(r.value) : refuse(ctx, v, r.rule);
}
const domainName = field(readDomainName);

function readInt(min: number, max: number, unit = ""): (v: unknown, ctx: z.RefinementCtx) => number {
  return (v, ctx) => {
    const r = intRule(v, min, max, unit);
    return r.ok ? r.value : refuse(ctx, v, r.rule);
  };
}

const bool = optional((v, ctx) => (typeof v === "boolean" ? v : refuse(ctx, v, "is not true or false")));

function readString(opts: { secret?: boolean; nonEmpty?: boolean } = {}): (v: unknown, ctx: z.RefinementCtx) => string {
  return (v, ctx) => {
    if (typeof v !== "string") return refuse(ctx, v, "is not a string", { secret: opts.secret });
    if (opts.nonEmpty && v.trim() === "") return refuse(ctx, v, "is empty", { secret: opts.secret });
    return v;
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const EMAIL = /^[^\s@"<>]+@[^\s@]+$/;
const PHONE = /^\+[1-9]\d{6,14}$/;
const KNOWN_CONTACT_FIELDS: readonly string[] = [...CONTACT_FIELDS.required, ...CONTACT_FIELDS.optional];

/** Parses `v` with a nested schema, its failures reported under the field being read. */
function nested<T>(schema: z.ZodType<T>, v: unknown, ctx: z.RefinementCtx): T {
  const r = schema.safeParse(v);
  if (r.success) return r.data;
  for (const issue of r.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path, params: (issue as { params?: Ruled }).params });
  return z.NEVER as never;
}

/** A required contact field: a non-empty string that meets `rule` (which names what is wrong, or undefined). Values are secret. */
const contactText = (rule?: (trimmed: string) => string | undefined) =>
  anyValue((v, ctx) => {
    if (typeof v !== "string" || v.trim() === "") return refuseBare(ctx, "is required (a non-empty string)");
    const broken = rule?.(v.trim());
    return broken ? refuse(ctx, v, broken, { secret: true }) : v;
  });
const contactOptionalText = optional((v, ctx) => (typeof v === "string" ? v : refuse(ctx, v, "is not a string", { secret: true })));

const contactShape = z
  .looseObject({
    name: contactText(),
    organization: contactOptionalText,
    email: contactText((e) => (EMAIL.test(e) && !hostNameProblem(e.slice(e.lastIndexOf("@") + 1), { minLabels: 2 }) ? undefined : "is not an e-mail address (name@domain.tld)")),
    phone: contactText((p) => (PHONE.test(p.replace(/[\s().-]/g, "")) ? undefined : 'is not an international phone number ("+" then 7 to 15 digits, e.g. +44.2071234567)')),
    addressLine1: contactText(),
    addressLine2: contactOptionalText,
    city: contactText(),
    state: contactOptionalText,
    postalCode: contactOptionalText,
    country: contactText((c) => (/^[A-Za-z]{2}$/.test(c) ? undefined : "is not a two-letter country code (ISO 3166-1 alpha-2, e.g. DE)")),
  })
  .superRefine(
    (c, ctx) => {
      for (const key of Object.keys(c)) {
        if (KNOWN_CONTACT_FIELDS.includes(key)) continue;
        const ours = RENAMED_CONTACT_FIELDS.find(([, service]) => service === key)?.[0];
        // The service's name, which 0.2.0 and before used: Domain's check renames it (with a warning) unless ours is given too.
        refuseBare(ctx, ours ? `is the name 0.2.0 used for ${ours}; give ${ours} only` : `is not a contact field (known: ${KNOWN_CONTACT_FIELDS.join(", ")})`, [key]);
      }
    },
    { when: () => true },
  )
  // In preview a field may be unknown: the contact is kept as sent until every field is known.
  .transform((c): Contact => (containsUnknown(c) ? c : canonicalContact(c)));

/** One contact; secret, so failures never show its values. */
const readContact = (v: unknown, ctx: z.RefinementCtx): Contact => (isObject(v) ? nested(contactShape, v, ctx) : refuse(ctx, v, "is not a contact object", { secret: true }));

const contactSetShape = z
  .looseObject({
    registrant: field(readContact),
    admin: optional(readContact),
    tech: optional(readContact),
    billing: optional(readContact),
  })
  .superRefine(
    (set, ctx) => {
      for (const key of Object.keys(set))
        if (!CONTACT_TYPES.some((t) => t === key)) refuseBare(ctx, "is not a contact type (registrant, admin, tech, billing)", [key]);
    },
    { when: () => true },
  );

function readContacts(v: unknown, ctx: z.RefinementCtx): ContactSet {
  if (!isObject(v)) return refuse(ctx, v, "is not an object keyed by registrant, admin, tech, billing", { secret: true });
  // Absent types are left out (they default to the registrant: normalize.effectiveContacts); defined() drops them.
  return nested(contactSetShape, v, ctx);
}

function readNameservers(limits: Limits): (v: unknown, ctx: z.RefinementCtx) => string[] {
  return (v, ctx) => {
    if (!Array.isArray(v)) return refuse(ctx, v, "is not a list of host names");
    const { min, max } = limits.nameservers;
    if (v.length < min || v.length > max) refuse(ctx, v, `has ${v.length} entries; a domain needs ${min} to ${max} nameservers`);
    const out: string[] = [];
    const seen = new Set<string>();
    v.forEach((ns: unknown, i) => {
      if (isUnknown(ns)) return void out.push(asSent<string>(ns));
      if (typeof ns !== "string") return void refuse(ctx, ns, "is not a string", { path: [i] });
      const problem = hostNameProblem(ns, { minLabels: 2 });
      if (problem) return void refuse(ctx, ns, `is not a valid host name: it ${problem}`, { path: [i] });
      const c = canonicalHost(ns);
      if (seen.has(c)) refuse(ctx, ns, "is listed twice", { path: [i] });
      seen.add(c);
      out.push(c);
    });
    return out;
  };
}

/**
 * maxPrice as provider/money.ts parses it (the guard parses it again from the same text,
 * identically). A number is taken as the decimal text JavaScript prints for it (30 -> "30",
 * 12.5 -> "12.5"), so one the text rule refuses (0.1 + 0.2, 1e21, -5) is refused, never rounded.
 */
function readMaxPrice(decimals: number): (v: unknown, ctx: z.RefinementCtx) => string {
  return (v, ctx) => {
    const text = typeof v === "number" ? String(v) : v;
    try {
      parseMaxPrice(text, decimals);
      return text as string;
    } catch {
      return refuse(ctx, v, `is not a decimal amount: a number, or ${MAX_PRICE_RULE(decimals)}`);
    }
  };
}
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether a YYYY-MM-DD string names a real calendar day. */
export function isCalendarDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

const RENEWAL_KEYS = ["minDaysRemaining", "notBefore", "years"];

const renewalShape = z
  .looseObject({
    minDaysRemaining: optional(readInt(0, 3650, "days")),
    notBefore: optional((d, c) => (typeof d === "string" && isCalendarDate(d) ? d : refuse(c, d, "is not a date YYYY-MM-DD"))),
    years: optional(readInt(YEARS.min, YEARS.max, "years")),
  })
  .superRefine(
    (r, ctx) => {
      for (const k of Object.keys(r)) if (!RENEWAL_KEYS.includes(k)) refuse(ctx, r[k], "is not a renewal setting (minDaysRemaining, notBefore, years)", { path: [k] });
    },
    { when: () => true },
  );

/** The renewal policy (a policy, not a value the service holds: kept as the program gave it). */
function readRenewal(v: unknown, ctx: z.RefinementCtx): RenewalPolicy {
  if (!isObject(v)) return refuse(ctx, v, "is not an object { minDaysRemaining?, notBefore?, years? }");
  return nested(renewalShape, v, ctx);
}

function readIps(family: 4 | 6, required: boolean): (v: unknown, ctx: z.RefinementCtx) => string[] {
  return (v, ctx) => {
    if (!Array.isArray(v)) return refuse(ctx, v, `is not a list of IPv${family} addresses`);
    if (required && v.length === 0) refuse(ctx, v, "is empty; a child nameserver needs at least one IPv4 address (glue)");
    const out: string[] = [];
    v.forEach((ip: unknown, i) => {
      if (isUnknown(ip)) return void out.push(asSent<string>(ip));
      const ok = typeof ip === "string" && (family === 4 ? isIPv4(ip.trim()) : isIPv6(ip.trim()));
      if (!ok) return void refuse(ctx, ip, `is not an IPv${family} address`, { path: [i] });
      const c = family === 6 ? canonicalIPv6(ip) : ip.trim();
      if (out.includes(c)) refuse(ctx, ip, "is listed twice", { path: [i] });
      out.push(c);
    });
    return out;
  };
}

const isStrategy = (v: unknown): v is ConflictStrategy => CONFLICT_STRATEGIES.some((s) => s === v);

// ---- The kinds' schemas ----

const common = { resourceUrn: z.string().optional(), adopt: bool };

/**
 * A schema that depends on the limits, built once per distinct limits (by value: a caller may hand
 * over a new but equal object each time, and building a zod schema, which zod then compiles on its
 * first parse, costs far more than a check).
 */
export const withLimits = <T>(build: (l: Limits) => z.ZodType<T>): ((l: Limits) => z.ZodType<T>) => {
  const built = new Map<string, z.ZodType<T>>();
  return (l) => {
    const key = JSON.stringify([l.ttl, l.nameservers, l.money]);
    let s = built.get(key);
    if (!s) built.set(key, (s = build(l)));
    return s;
  };
};

const domainSchema = withLimits<DomainInputs>((limits) =>
  z
    .looseObject({
      ...common,
      domain: domainName,
      years: field(readInt(YEARS.min, YEARS.max, "years"), () => 1),
      // Required unless adopted (an adopted domain may leave its contacts unmanaged): see the check below.
      contacts: optional(readContacts),
      nameservers: optional(readNameservers(limits)),
      locked: bool,
      authCode: optional(readString({ secret: true, nonEmpty: true })),
      clientReference: optional((v, ctx) => {
        const ref = readString({ nonEmpty: true })(v, ctx);
        return ref.length > 255 ? refuse(ctx, ref, "is longer than 255 characters") : ref;
      }),
      maxPrice: optional(readMaxPrice(moneyDecimals(limits.money))),
      renewal: optional(readRenewal),
      waitTimeoutSeconds: optional(readInt(0, 3600, "seconds")),
    })
    .superRefine(
      (d, ctx) => {
        if (d.contacts === undefined && d.adopt !== true) refuseBare(ctx, "is required", ["contacts"]);
      },
      { when: () => true },
    ),
);

const domainAddonSchema: z.ZodType<DomainAddonInputs> = z.looseObject({ ...common, domain: domainName });

const eppCodeSchema: z.ZodType<EppCodeInputs> = z.looseObject({ resourceUrn: common.resourceUrn, domain: domainName });

const zoneSchema: z.ZodType<ZoneInputs> = z.looseObject({
  ...common,
  domain: domainName,
  forceDestroy: bool,
  waitForDelegation: bool,
  waitTimeoutSeconds: optional(readInt(0, 3600, "seconds")),
});

/**
 * DnsRecord inputs. The zone, TTL (the contract's range) and the fields' JSON types are checked
 * first; then, with every field known, the record table (provider/records, shared with the sandbox
 * and the import command) canonicalizes and checks the record as a whole: name, content, priority
 * and extra per type and RFC.
 */
const recordSchema = withLimits<RecordInputs>((limits) =>
  z
    .looseObject({
      ...common,
      zone: domainName,
      ttl: field(readInt(limits.ttl.min, limits.ttl.max, "seconds"), () => DEFAULT_TTL),
      type: anyValue((v, ctx) => (typeof v === "string" ? v : refuse(ctx, v, "is not a record type (e.g. A, AAAA, CNAME, MX, TXT)"))),
      name: optional(readString()),
      content: field(readString()),
      // The record table judges priority and each extra field, with the type.
      priority: z.unknown().optional(),
      extra: optional((v, ctx) => (isObject(v) ? v : refuse(ctx, v, "is not an object ({weight, port} for SRV, {flag, tag} for CAA)"))),
    })
    .transform((r, ctx): RecordInputs => {
      const name = r.name ?? "@";
      // In preview, with a field unknown, the record cannot be judged whole yet: kept as sent (type upper-cased), judged once known.
      if (containsUnknown([r.zone, r.type, name, r.content, r.priority, r.extra]))
        return { ...r, type: isUnknown(r.type) ? r.type : r.type.trim().toUpperCase(), name, priority: asSent(r.priority), extra: asSent(r.extra) };
      const c = canonicalize({ type: r.type, name, content: r.content, ttl: r.ttl, priority: r.priority, extra: r.extra }, r.zone);
      if (!c.record) {
        for (const p of c.problems)
          ctx.addIssue({ code: "custom", message: problemText(p).slice(p.field.length + 2), path: [p.field], params: ruled(p.rule, p.value !== undefined && p.value !== null) });
        return z.NEVER as never;
      }
      return { ...r, type: c.record.type, name: c.record.name, content: c.record.content, priority: c.record.priority, extra: c.record.extra };
    }),
);

const childHostSchema: z.ZodType<ChildHostInputs> = z
  .looseObject({
    ...common,
    domain: domainName,
    hostname: anyValue((v, ctx) => (typeof v === "string" ? v : refuse(ctx, v, "is not a string"))),
    ipv4: field(readIps(4, true)),
    ipv6: field(readIps(6, false), () => []),
  })
  // Judged with the other fields' failures, whenever both names are there to judge.
  .superRefine(
    (h, ctx) => {
      if (typeof h.hostname !== "string" || typeof h.domain !== "string" || isUnknown(h.hostname) || isUnknown(h.domain)) return;
      const c = canonicalChildHost(h.hostname, h.domain);
      const p = hostNameProblem(c, { minLabels: 3 });
      if (p) refuse(ctx, h.hostname, `is not a valid host name: it ${p}`, { path: ["hostname"] });
      else if (!c.endsWith(`.${h.domain}`))
        refuse(ctx, h.hostname, `is not under the domain ${h.domain} (a child nameserver is named inside its domain, e.g. ns1.${h.domain})`, { path: ["hostname"] });
    },
    { when: () => true },
  )
  .transform((h) => (isUnknown(h.hostname) || isUnknown(h.domain) ? h : { ...h, hostname: canonicalChildHost(h.hostname, h.domain) }));

const templateSchema: z.ZodType<TemplateInputs> = z.looseObject({
  ...common,
  zone: domainName,
  templateId: anyValue((v, ctx) => (typeof v === "string" && v.trim() !== "" ? v : refuse(ctx, v, "is not a template id (see getTemplates or the reseller portal)"))),
  variables: field((v, ctx) => {
    if (!isObject(v)) return refuse(ctx, v, "is not an object of name to string");
    const vars: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === "string") vars[k] = x; // an unknown value (preview) is a string too
      else refuse(ctx, x, "is not a string", { path: [k] });
    }
    return vars;
  }, () => ({})),
  conflictStrategy: field<ConflictStrategy>((v, ctx) => (isStrategy(v) ? v : refuse(ctx, v, `is not one of ${CONFLICT_STRATEGIES.join(", ")}`)), () => "cancel"),
});

// ---- Parsing ----

/** "contacts.registrant.email", "nameservers[1]": the input path as a program names it. */
const pathText = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((s, k) => (typeof k === "number" ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), "");

/**
 * Parses `news` with `schema`: the canonical inputs, or the failures, each naming its input. On
 * failure the inputs are the program's own (the engine shows them beside the failures).
 */
export function parseInputs<T>(schema: z.ZodType<T>, news: Record<string, unknown>): CheckResult<T> {
  const r = schema.safeParse(news);
  if (r.success) return { ok: true, inputs: defined(r.data), failures: [] };
  const secret = secretNames(news);
  const failures = r.error.issues.map((i) => {
    // The input the failure is under ("extra.weight" is a record problem's one-element path).
    const input = String(i.path[0] ?? "").split(/[.[]/)[0];
    const property = pathText(i.path);
    const message = isSecretName(secret, input) ? secretFailureText(i) : i.message;
    return { property, reason: property ? `${property}: ${message}` : message };
  });
  return failed(defined(news), failures);
}

export const checkDomainInputs = (news: Record<string, unknown>, limits: Limits = DEFAULT_LIMITS): CheckResult<DomainInputs> => parseInputs(domainSchema(limits), news);
/** PrivacyAddon and Protection. */
export const checkDomainOnlyInputs = (news: Record<string, unknown>): CheckResult<DomainAddonInputs> => parseInputs(domainAddonSchema, news);
export const checkEppCodeInputs = (news: Record<string, unknown>): CheckResult<EppCodeInputs> => parseInputs(eppCodeSchema, news);
export const checkZoneInputs = (news: Record<string, unknown>): CheckResult<ZoneInputs> => parseInputs(zoneSchema, news);
export const checkRecordInputs = (news: Record<string, unknown>, limits: Limits = DEFAULT_LIMITS): CheckResult<RecordInputs> => parseInputs(recordSchema(limits), news);
export const checkChildHostInputs = (news: Record<string, unknown>): CheckResult<ChildHostInputs> => parseInputs(childHostSchema, news);
export const checkTemplateInputs = (news: Record<string, unknown>): CheckResult<TemplateInputs> => parseInputs(templateSchema, news);
