/** Domain's check (host side): the zod schema of its inputs, on the shared field rules of ../host/check.ts. */
import { z } from "zod";
import { YEARS } from "../../api/vocabulary";
import { moneyDecimals } from "../../api/money";
import { RENAMED_CONTACT_FIELDS } from "../../api/contact-names";
import { CONTACT_FIELDS, CONTACT_TYPES, type Contact, type ContactSet, type RenewalPolicy } from "../../api/shapes";
import { canonicalContact, canonicalHost } from "../shared/normalize";
import { hostNameProblem } from "../shared/rules";
import { CheckResult, DEFAULT_LIMITS, Limits, acknowledgedCharges, anyValue, asSent, bool, common, containsUnknown, domainName, field, isObject, isUnknown, nested, optional, parseInputs, readInt, readMaxPrice, readString, refuse, refuseBare, withLimits } from "../kit/check";
import { DomainInputs } from "./state";

/** How long an up waits for a registration or transfer the service is still processing (waitTimeoutSeconds). */
export const DEFAULT_WAIT_SECONDS = 120;
/** The seconds an up waits for a pending registration or transfer: the one place its default applies. */
export const processingWaitSeconds = (i: { waitTimeoutSeconds?: number }): number => i.waitTimeoutSeconds ?? DEFAULT_WAIT_SECONDS;

export const EMAIL = /^[^\s@"<>]+@[^\s@]+$/;
export const PHONE = /^\+[1-9]\d{6,14}$/;
export const KNOWN_CONTACT_FIELDS: readonly string[] = [...CONTACT_FIELDS.required, ...CONTACT_FIELDS.optional];

/** A required contact field: a non-empty string that meets `rule` (which names what is wrong, or undefined). Values are secret. */
export const contactText = (rule?: (trimmed: string) => string | undefined) =>
  anyValue((v, ctx) => {
    if (typeof v !== "string" || v.trim() === "") return refuseBare(ctx, "is required (a non-empty string)");
    const broken = rule?.(v.trim());
    return broken ? refuse(ctx, v, broken, { secret: true }) : v;
  });
export const contactOptionalText = optional((v, ctx) => (typeof v === "string" ? v : refuse(ctx, v, "is not a string", { secret: true })));

export const contactShape = z
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
export const readContact = (v: unknown, ctx: z.RefinementCtx): Contact => (isObject(v) ? nested(contactShape, v, ctx) : refuse(ctx, v, "is not a contact object", { secret: true }));

export const contactSetShape = z
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

export function readContacts(v: unknown, ctx: z.RefinementCtx): ContactSet {
  if (!isObject(v)) return refuse(ctx, v, "is not an object keyed by registrant, admin, tech, billing", { secret: true });
  // Absent types are left out (they default to the registrant: normalize.effectiveContacts); defined() drops them.
  return nested(contactSetShape, v, ctx);
}

export function readNameservers(limits: Limits): (v: unknown, ctx: z.RefinementCtx) => string[] {
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

export const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether a YYYY-MM-DD string names a real calendar day. */
export function isCalendarDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

export const RENEWAL_KEYS = ["minDaysRemaining", "notBefore", "years"];

export const renewalShape = z
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
export function readRenewal(v: unknown, ctx: z.RefinementCtx): RenewalPolicy {
  if (!isObject(v)) return refuse(ctx, v, "is not an object { minDaysRemaining?, notBefore?, years? }");
  return nested(renewalShape, v, ctx);
}

export const domainSchema = withLimits<DomainInputs>((limits) =>
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
      acknowledgedCharges,
    })
    .superRefine(
      (d, ctx) => {
        if (d.contacts === undefined && d.adopt !== true) refuseBare(ctx, "is required", ["contacts"]);
      },
      { when: () => true },
    ),
);

export const checkDomainInputs = (news: Record<string, unknown>, limits: Limits = DEFAULT_LIMITS): CheckResult<DomainInputs> => parseInputs(domainSchema(limits), news);
