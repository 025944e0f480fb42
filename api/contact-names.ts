/**
 * A contact's field names: this package's (camelCase, as Pulumi providers name properties) against
 * the service's (spec, Contact). The one place they are mapped: the response view
 * (api/views.ts), Domain's contact requests and answers and its reading of states and programs
 * of 0.2.0 and before, which used the service's names (resources/domain/handler.ts), and redaction
 * read this table; the sandbox's stored contact is typed from it.
 */
import type { Contact, StoredContact } from "./shapes";

/** Our name of each contact field → the service's (spec, Contact). */
export const SERVICE_CONTACT_NAMES = {
  name: "name",
  organization: "organization",
  email: "email",
  phone: "phone",
  addressLine1: "address_line_1",
  addressLine2: "address_line_2",
  city: "city",
  state: "state",
  postalCode: "postal_code",
  country: "country",
} as const satisfies { readonly [K in keyof Contact]-?: string };

type Names = typeof SERVICE_CONTACT_NAMES;

/** A contact in the service's field names (optionality kept). */
export type InServiceNames<C extends Contact> = { [K in keyof C as K extends keyof Names ? Names[K] : never]: C[K] };

/** A contact as the client sends it (spec, Contact). */
export type ServiceContact = InServiceNames<Contact>;

/** A contact as the service holds and returns it: state and postal_code are strings ("" when none; spec, Contact). */
export type StoredServiceContact = InServiceNames<StoredContact>;

const PAIRS = Object.entries(SERVICE_CONTACT_NAMES) as [keyof Contact, string][];

/** The fields whose service name is not ours: [ours, the service's], e.g. ["postalCode", "postal_code"]. */
export const RENAMED_CONTACT_FIELDS: readonly (readonly [ours: keyof Contact, service: string])[] = PAIRS.filter(([ours, service]) => ours !== service);

/** A contact in the service's names, for a request. Fields not given stay out. */
export function toServiceContact<C extends Contact>(c: C): InServiceNames<C> {
  const out: Record<string, unknown> = {};
  for (const [ours, service] of PAIRS) if (c[ours] !== undefined) out[service] = c[ours];
  return out as InServiceNames<C>;
}

/** A contact the service returned, in our names. Fields the spec does not state are dropped. */
export function fromServiceContact(s: ServiceContact): Contact {
  const given = s as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [ours, service] of PAIRS) if (given[service] !== undefined) out[ours] = given[service];
  return out as unknown as Contact;
}

const OURS_BY_SERVICE_NAME = new Map(RENAMED_CONTACT_FIELDS.map(([ours, service]) => [service, ours]));

/**
 * A contact object that may use the service's names where ours differ (a program, stack config or
 * state of 0.2.0 and before), with those keys renamed to ours; other keys are kept as they are, for
 * validation to judge. A field given in both spellings is left as given (validation refuses the old
 * one). `renamed` lists the [old, new] pairs renamed.
 */
export function withOurContactNames(o: Record<string, unknown>): { contact: Record<string, unknown>; renamed: [string, string][] } {
  const contact: Record<string, unknown> = {};
  const renamed: [string, string][] = [];
  // Renamed in place, so the keys keep their order (a state's contacts then compare equal as JSON).
  for (const [key, value] of Object.entries(o)) {
    const ours = OURS_BY_SERVICE_NAME.get(key);
    if (ours && !(ours in o)) {
      contact[ours] = value;
      renamed.push([key, ours]);
    } else contact[key] = value;
  }
  return { contact, renamed };
}
