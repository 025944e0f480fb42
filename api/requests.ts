/**
 * Request bodies as zod schemas, one per operation that sends a body (spec, Endpoints: the stated
 * field names). The operation table (./operations) names them; the client's methods take the
 * matching types of ./views, which a compile-time check below ties to these schemas. The service
 * is the judge of a body: neither the client nor the sandbox parses a request with these (the
 * resources check inputs earlier, with messages naming the field, and the sandbox answers the
 * service's refusals with its own).
 */
import { z } from "zod";
import * as V from "./views";
import type { ConflictStrategy, PricingAction, RecordInput, RegisterRequest, RenewRequest, TransferRequest } from "./views";
import { CONFLICT_STRATEGIES, PRICING_ACTIONS, type ContactType } from "./shapes";
import { SERVICE_CONTACT_NAMES as N, type ServiceContact } from "./contact-names";

/** A contact as sent, in the service's names: the view's fields, state and postal code optional (spec, Contact). */
const ContactBody = z.object({ ...V.Contact.shape, state: z.string().nullable().optional(), [N.postalCode]: z.string().nullable().optional() });

/** Contacts by type; each a contact or null (spec, Register). */
export const ContactsBody = z.object({
  registrant: ContactBody.nullable().optional(),
  admin: ContactBody.nullable().optional(),
  tech: ContactBody.nullable().optional(),
  billing: ContactBody.nullable().optional(),
});

export const AvailabilityBody = z.object({ domains: z.array(z.string()), years: z.number().int().optional() });
export const CheckDomainBody = z.object({ domain: z.string() });

export const QuoteBody = z.object({ action: z.enum(PRICING_ACTIONS), domain: z.string(), years: z.number().int() });
export const RegisterBody = z.object({
  domain: z.string(),
  years: z.number().int(),
  contacts: ContactsBody.extend({ registrant: ContactBody }),
  nameservers: z.array(z.string()).optional(),
  addons: z.array(z.string()).optional(),
  client_reference: z.string().optional(),
});
export const TransferBody = RegisterBody.extend({ auth_code: z.string() });
export const RenewBody = z.object({ years: z.number().int(), current_expiry: z.string() });
export const NameserversBody = z.object({ nameservers: z.array(z.string()) });
export const LockBody = z.object({ locked: z.boolean() });
export const HostBody = z.object({ hostname: z.string(), ipv4: z.array(z.string()), ipv6: z.array(z.string()).optional() });
export const HostAddressesBody = z.object({ ipv4: z.array(z.string()), ipv6: z.array(z.string()) });
export const ZoneBody = z.object({ domain: z.string() });
export const RecordBody = z.object({
  type: z.string(),
  name: z.string(),
  content: z.string(),
  ttl: z.number().int().optional(),
  priority: z.number().int().nullable().optional(),
  extra: z.record(z.string(), z.union([z.string(), z.number()])).nullable().optional(),
});
export const RecordPatchBody = RecordBody.partial();

export const TemplateBody = z.object({ variables: z.record(z.string(), z.string()), conflict_strategy: z.enum(CONFLICT_STRATEGIES) });

// The client's parameter types agree with these schemas (compile-time checks, nothing at run time).
type Agrees<T, S extends z.ZodType> = (t: T) => z.input<S>;
const _agree: [
  Agrees<RegisterRequest, typeof RegisterBody>,
  Agrees<TransferRequest, typeof TransferBody>,
  Agrees<RenewRequest, typeof RenewBody>,
  Agrees<RecordInput, typeof RecordBody>,
  Agrees<Partial<RecordInput>, typeof RecordPatchBody>,
  Agrees<Partial<Record<ContactType, ServiceContact>>, typeof ContactsBody>,
  Agrees<{ action: PricingAction; domain: string; years: number }, typeof QuoteBody>,
  Agrees<{ variables: Record<string, string>; conflict_strategy: ConflictStrategy }, typeof TemplateBody>,
] = [(t) => t, (t) => t, (t) => t, (t) => t, (t) => t, (t) => t, (t) => t, (t) => t];
void _agree;
