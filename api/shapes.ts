/**
 * Shapes the service, the resources and the sandbox share, each declared once: a contact, a set of
 * contacts by type, a renewal policy. Plain TypeScript (no zod), so the package's public
 * declarations stay free of validator internals; resources/kit/check.ts parses inputs into them and
 * api/views.ts checks that its response schemas agree with them.
 */

/**
 * A WHOIS contact (spec, Contact), in this package's names; the service's names differ for
 * addressLine1, addressLine2 and postalCode (api/contact-names.ts maps them). Personal data:
 * stored as a secret, never logged.
 */
export interface Contact {
  /** Full name of the person. */
  name: string;
  /** Organisation, if any. */
  organization?: string | null;
  /** E-mail address; the registry sends confirmations here. */
  email: string;
  /** International format: "+" and digits, e.g. "+441234567890" (spaces, dots and dashes are ignored). */
  phone: string;
  /** First address line. */
  addressLine1: string;
  /** Second address line, if any. */
  addressLine2?: string | null;
  /** City. */
  city: string;
  /** State, province or region. */
  state?: string | null;
  /** Postal code. */
  postalCode?: string | null;
  /** Two-letter country code, e.g. "GB". (state and postalCode, when omitted, are sent as "".) */
  country: string;
}

/** A contact in canonical form, as the service holds it: state and postalCode are strings ("" when none; spec, Contact). */
export type StoredContact = Contact & { state: string; postalCode: string };

/** The contact fields, required ones first (spec, Contact). */
export const CONTACT_FIELDS = {
  required: ["name", "email", "phone", "addressLine1", "city", "country"],
  optional: ["organization", "addressLine2", "state", "postalCode"],
} as const satisfies { required: readonly (keyof Contact)[]; optional: readonly (keyof Contact)[] };

export const CONTACT_TYPES = ["registrant", "admin", "tech", "billing"] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];

/** Contacts by type; admin, tech and billing default to the registrant (spec, Register rule 1). */
export type ContactSet<C = Contact> = {
  /** The domain's holder. */
  registrant: C;
  /** Administrative contact; omitted or null: the registrant. */
  admin?: C | null;
  /** Technical contact; omitted or null: the registrant. */
  tech?: C | null;
  /** Billing contact; omitted or null: the registrant. */
  billing?: C | null;
};

/** Declarative renewal: renew `years` whenever fewer than `minDaysRemaining` days remain, never before `notBefore`. */
export interface RenewalPolicy {
  /** Renew when fewer than this many days remain before expiry. Default 30. */
  minDaysRemaining?: number;
  /** Never renew before this date ("YYYY-MM-DD"). */
  notBefore?: string;
  /** Years added per renewal. Default 1. */
  years?: number;
}

export type { RecordExtra } from "../dns/common";

/** Pricing actions (spec, Endpoints: "quotes for registration, renewal, transfer or restore"). */
export const PRICING_ACTIONS = ["register", "renew", "transfer", "restore"] as const;

/** Stated: "conflict_strategy (enum: skip, replace, cancel)". */
export const CONFLICT_STRATEGIES = ["skip", "replace", "cancel"] as const;
