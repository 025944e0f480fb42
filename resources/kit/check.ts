/**
 * Input validation for every resource, without calling the API: the field rules and the parsing
 * every kind's schema (`<kind>/schema.ts`) is built from. Each kind's inputs are a zod schema
 * that parses what the program sent into the kind's typed, canonical inputs (see ../shared/normalize.ts), or
 * fails with messages that name the field, the value and the rule, e.g.
 * `ttl: 30 is below the minimum of 60 seconds`. Secret values (contacts, auth codes) are shown as
 * "(secret)".
 *
 * During preview any input may be Pulumi's unknown sentinel; an unknown value is never a failure and
 * is passed through unchanged. The types below describe applied inputs: `create` and `update` never
 * see the sentinel (the engine applies known inputs only); `diff` may, and treats it as a change.
 */
import { z } from "zod";
import { DEFAULT_CONTRACT, type Contract } from "../../api/contract";
import { maxPriceRule, parseMaxPrice } from "../../api/money";
import { YEARS } from "../../api/vocabulary";
import { canonicalHost, defined } from "../shared/normalize";
import { domainNameRule, intRule, show } from "../shared/rules";
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
export type Limits = Pick<Contract, "ttl" | "nameservers"> & Partial<Pick<Contract, "money" | "recordTypes">>;
export const DEFAULT_LIMITS: Limits = { ttl: DEFAULT_CONTRACT.ttl, nameservers: DEFAULT_CONTRACT.nameservers, money: DEFAULT_CONTRACT.money, recordTypes: DEFAULT_CONTRACT.recordTypes };

/** Years a registration or renewal may run (per-TLD limits are checked by the service). */
export { YEARS };

// ---- Field rules: zod schemas whose failures read "<value> <rule>" ----

/** Adds a failure at `path` (relative to the value being parsed) and returns zod's "no value". */
export function refuse(ctx: z.RefinementCtx, value: unknown, rule: string, opts: { secret?: boolean; path?: (string | number)[] } = {}): never {
  ctx.addIssue({ code: "custom", message: `${opts.secret ? SECRET_SHOWN : show(value)} ${rule}`, input: value, path: opts.path, params: ruled(rule, true) });
  return z.NEVER as never;
}

/** A failure without a value to show ("is required", a key that is itself the mistake). */
export function refuseBare(ctx: z.RefinementCtx, rule: string, path?: (string | number)[]): never {
  ctx.addIssue({ code: "custom", message: rule, path, params: ruled(rule, false) });
  return z.NEVER as never;
}

/** What a failure of an input the program marked secret is told from: the rule alone, and whether the message showed the value. */
export interface Ruled {
  rule: string;
  valued: boolean;
}
export const ruled = (rule: string, valued: boolean): Ruled => ({ rule, valued });

/** A failure's text for an input marked secret: the rule without the value (and without what it quotes of it); fails closed when the rule is not known. */
export function secretFailureText(issue: z.core.$ZodIssue): string {
  const r = (issue as { params?: Partial<Ruled> }).params;
  if (typeof r?.rule !== "string") return `${SECRET_SHOWN} is not valid`;
  return `${r.valued ? `${SECRET_SHOWN} ` : ""}${maskQuoted(r.rule)}`;
}

/**
 * A value kept as the program sent it while some input is still unknown (preview). Typed as what it
 * will be: the engine sends every input known, and checked again, before anything is applied.
 */
export function asSent<T>(v: unknown): T {
  return v as T;
}

/**
 * A field read by `read` (which returns the canonical value, or calls refuse), with the unknown
 * sentinel passed through untouched. `absent` is what an omitted (undefined or null) field becomes;
 * without it an omitted field is "required".
 */
export function field<T>(read: (v: unknown, ctx: z.RefinementCtx) => T, absent?: () => T | undefined): z.ZodType<T> {
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
export function anyValue<T>(read: (v: unknown, ctx: z.RefinementCtx) => T): z.ZodType<T> {
  return z
    .unknown()
    .optional()
    .transform((v, ctx) => (v === UNKNOWN ? asSent<T>(v) : read(v, ctx))) as unknown as z.ZodType<T>;
}

/** An optional field: absent stays absent. */
export const optional = <T>(read: (v: unknown, ctx: z.RefinementCtx) => T): z.ZodType<T | undefined> => field<T | undefined>(read, () => undefined);

export function readDomainName(v: unknown, ctx: z.RefinementCtx): string {
  const r = domainNameRule(v);
  return r.ok ? canonicalHost(r.value) : refuse(ctx, v, r.rule);
}
export const domainName = field(readDomainName);

export function readInt(min: number, max: number, unit = ""): (v: unknown, ctx: z.RefinementCtx) => number {
  return (v, ctx) => {
    const r = intRule(v, min, max, unit);
    return r.ok ? r.value : refuse(ctx, v, r.rule);
  };
}

export const bool = optional((v, ctx) => (typeof v === "boolean" ? v : refuse(ctx, v, "is not true or false")));

export function readString(opts: { secret?: boolean; nonEmpty?: boolean } = {}): (v: unknown, ctx: z.RefinementCtx) => string {
  return (v, ctx) => {
    if (typeof v !== "string") return refuse(ctx, v, "is not a string", { secret: opts.secret });
    if (opts.nonEmpty && v.trim() === "") return refuse(ctx, v, "is empty", { secret: opts.secret });
    return v;
  };
}

/** `acknowledgedCharges`: the invoices (or "<amount> <currency>" of a charge that named none) the program accepts after a charge failed its check (./charge-check.ts). */
export const acknowledgedCharges = optional((v, ctx): string[] => {
  if (!Array.isArray(v)) return refuse(ctx, v, 'is not a list of invoices (e.g. ["INV-1042"])');
  return v.map((s: unknown, i) => (isUnknown(s) ? asSent<string>(s) : typeof s === "string" && s.trim() !== "" ? s.trim() : refuse(ctx, s, "is not an invoice (a non-empty string)", { path: [i] })));
});

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses `v` with a nested schema, its failures reported under the field being read. */
export function nested<T>(schema: z.ZodType<T>, v: unknown, ctx: z.RefinementCtx): T {
  const r = schema.safeParse(v);
  if (r.success) return r.data;
  for (const issue of r.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path, params: (issue as { params?: Ruled }).params });
  return z.NEVER as never;
}

// ---- What every kind's schema shares (each kind's own is its schema.ts) ----

/**
 * maxPrice (Domain, PrivacyAddon, Protection) as api/money.ts parses it (the guard parses it
 * again from the same text, identically). A number is taken as the decimal text JavaScript prints for it (30 -> "30",
 * 12.5 -> "12.5"), so one the text rule refuses (0.1 + 0.2, 1e21, -5) is refused, never rounded.
 */
export function readMaxPrice(decimals: number): (v: unknown, ctx: z.RefinementCtx) => string {
  return (v, ctx) => {
    const text = typeof v === "number" ? String(v) : v;
    try {
      parseMaxPrice(text, decimals);
      return text as string;
    } catch {
      return refuse(ctx, v, `is not a decimal amount: a number, or ${maxPriceRule(decimals)}`);
    }
  };
}

export const common = { resourceUrn: z.string().optional(), adopt: bool };

/**
 * A schema that depends on the limits, built once per distinct limits (by value: a caller may hand
 * over a new but equal object each time, and building a zod schema, which zod then compiles on its
 * first parse, costs far more than a check).
 */
export const withLimits = <T>(build: (l: Limits) => z.ZodType<T>): ((l: Limits) => z.ZodType<T>) => {
  const built = new Map<string, z.ZodType<T>>();
  return (l) => {
    const key = JSON.stringify([l.ttl, l.nameservers, l.money, l.recordTypes]);
    let s = built.get(key);
    if (!s) built.set(key, (s = build(l)));
    return s;
  };
};

// ---- Parsing ----

/** "contacts.registrant.email", "nameservers[1]": the input path as a program names it. */
export const pathText = (path: readonly PropertyKey[]): string =>
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
