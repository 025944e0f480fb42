/**
 * Response views as zod schemas. Field names the spec states are used as stated; the others
 * come from VIEW_FIELDS in ./contract (and are spelled the same here). Every object schema is
 * loose: unknown fields are kept, so a service that returns more than we know loses nothing.
 *
 * The sandbox builds its responses to these shapes; the client parses every response with them.
 */
import { z } from "zod";
import type { CONFLICT_STRATEGIES, ContactSet, PRICING_ACTIONS, RecordExtra as ExtraFields } from "./shapes";
import type { HeldRecord } from "../dns";
import { SERVICE_CONTACT_NAMES as N, type ServiceContact, type StoredServiceContact } from "./contact-names";

/**
 * Decimal amounts travel as strings ("12.50"); some services send numbers, which we accept and
 * write with two decimals when that is exact. Never rounded: 12.999 stays "12.999", which
 * api/money.ts then refuses wherever money is decided.
 */
export const Decimal = z.union([z.string(), z.number()]).transform((v) => (typeof v !== "number" ? v : Number(v.toFixed(2)) === v ? v.toFixed(2) : String(v)));

/** A contact as the service returns it, in its names (./contact-names.ts). */
export const Contact = z.looseObject({
  [N.name]: z.string(),
  [N.organization]: z.string().nullable().optional(),
  [N.email]: z.string(),
  [N.phone]: z.string(),
  [N.addressLine1]: z.string(),
  [N.addressLine2]: z.string().nullable().optional(),
  [N.city]: z.string(),
  [N.state]: z.string(),
  [N.postalCode]: z.string(),
  [N.country]: z.string(),
});
export type Contact = z.infer<typeof Contact>;
// The view agrees with the one declaration of a contact (api/shapes.ts): a compile-time check.
const _contactAgrees: (c: Contact) => StoredServiceContact = (c) => c;
void _contactAgrees;

export const ContactType = z.enum(["registrant", "admin", "tech", "billing"]);
export type ContactType = z.infer<typeof ContactType>;

export const Contacts = z.looseObject({
  registrant: Contact.nullable().optional(),
  admin: Contact.nullable().optional(),
  tech: Contact.nullable().optional(),
  billing: Contact.nullable().optional(),
});
export type Contacts = z.infer<typeof Contacts>;

export const Stage = z.string(); // stated values in VALUES.stages; kept open so a new stage is not a crash

/** Result of register, transfer, renew (stated fields). */
export const DomainOrder = z.looseObject({
  domain: z.string(),
  status: z.string(),
  stage: Stage,
  expires_at: z.string().nullable().optional(),
  expiry_date: z.string().nullable().optional(),
  charged: Decimal,
  currency: z.string(),
  invoice: z.string().nullable().optional(),
  balance: Decimal.optional(),
});
export type DomainOrder = z.infer<typeof DomainOrder>;

export const PrivacyView = z.looseObject({
  enabled: z.boolean(),
  status: z.string(),
  expires_at: z.string().nullable().optional(),
});
export type PrivacyView = z.infer<typeof PrivacyView>;

export const ProtectionView = z.looseObject({
  enabled: z.boolean(),
  status: z.string().optional(),
});
export type ProtectionView = z.infer<typeof ProtectionView>;

/**
 * What an add-on purchase (POST privacy, POST protection) answers: the add-on's view and what the
 * order charged. Spec: "Response bodies of the management endpoints ... not shown"; we assume the
 * Domain order's charge fields (contract: VIEW_FIELDS.addonOrder). Optional: an answer that states no
 * charge leaves it unknown, and a malformed one is refused where money is decided (api/money.ts).
 */
const AddonCharge = { charged: Decimal.optional(), currency: z.string().optional(), invoice: z.string().nullable().optional() };
export const PrivacyOrder = PrivacyView.extend(AddonCharge);
export type PrivacyOrder = z.infer<typeof PrivacyOrder>;
export const ProtectionOrder = ProtectionView.extend(AddonCharge);
export type ProtectionOrder = z.infer<typeof ProtectionOrder>;

export const DomainDnsState = z.looseObject({
  hosted: z.boolean(),
  zone_status: z.string().nullable().optional(),
});

/** GET /domains/{domain}. */
export const DomainInfo = z.looseObject({
  domain: z.string(),
  status: z.string(),
  stage: Stage,
  expires_at: z.string().nullable().optional(),
  expiry_date: z.string().nullable().optional(),
  created_at: z.string().nullable().optional(),
  locked: z.boolean().optional(),
  nameservers: z.array(z.string()).optional(),
  registry_statuses: z.array(z.string()).optional(),
  privacy: PrivacyView.optional(),
  protection: ProtectionView.optional(),
  dns: DomainDnsState.optional(),
  addons: z.array(z.string()).optional(),
  client_reference: z.string().nullable().optional(),
});
export type DomainInfo = z.infer<typeof DomainInfo>;

/** Entry of GET /domains (not shown: we assume the info view's main fields). */
export const DomainListEntry = z.looseObject({
  domain: z.string(),
  status: z.string().optional(),
  stage: Stage.optional(),
  expiry_date: z.string().nullable().optional(),
  expires_at: z.string().nullable().optional(),
});
export type DomainListEntry = z.infer<typeof DomainListEntry>;

export const Pricing = z.looseObject({ amount: Decimal, currency: z.string() });

export const Availability = z.looseObject({
  domain: z.string(),
  available: z.boolean(),
  pricing: Pricing.nullable().optional(),
});
export type Availability = z.infer<typeof Availability>;

export const AvailabilityBatch = z.looseObject({ results: z.array(Availability) });

export const Quote = z.looseObject({
  action: z.string(),
  domain: z.string().optional(),
  years: z.number().int().optional(),
  amount: Decimal,
  currency: z.string(),
});
export type Quote = z.infer<typeof Quote>;

export const Tld = z.looseObject({
  tld: z.string(),
  register_price: Decimal,
  renew_price: Decimal,
  transfer_price: Decimal,
  currency: z.string().optional(),
  min_years: z.number().int().optional(),
  max_years: z.number().int().optional(),
  kyc_required: z.boolean().optional(),
});
export type Tld = z.infer<typeof Tld>;

export const Ping = z.looseObject({
  account: z.string(),
  currency: z.string(),
  balance: Decimal,
  scopes: z.array(z.string()),
});
export type Ping = z.infer<typeof Ping>;

export const Balance = z.looseObject({
  balance: Decimal,
  currency: z.string(),
  active_domains: z.number().int(),
});
export type Balance = z.infer<typeof Balance>;

export const Tier = z.looseObject({
  tier: z.string(),
  next_tier: z.string().nullable(),
  domains_to_next_tier: z.number().int().nullable(),
});
export type Tier = z.infer<typeof Tier>;

export const Host = z.looseObject({
  hostname: z.string(),
  ipv4: z.array(z.string()),
  ipv6: z.array(z.string()).default([]),
});
export type Host = z.infer<typeof Host>;

export const ContactsUpdate = z.looseObject({
  status: z.string(), // "updated" or "pending" (stated: pending until e-mail confirmation)
  contacts: Contacts.optional(),
});
export type ContactsUpdate = z.infer<typeof ContactsUpdate>;

export const LockView = z.looseObject({ domain: z.string().optional(), locked: z.boolean() });
export const NameserversView = z.looseObject({ domain: z.string().optional(), nameservers: z.array(z.string()) });
export const EppCode = z.looseObject({ auth_code: z.string() });

export const RecordExtra = z.looseObject({
  weight: z.number().int().optional(),
  port: z.number().int().optional(),
  flag: z.number().int().optional(),
  tag: z.string().optional(),
});
// The view agrees with the one declaration of a record's extra fields (api/shapes.ts).
const _extraAgrees: (e: z.infer<typeof RecordExtra>) => ExtraFields = (e) => e;
void _extraAgrees;

export const DnsRecord = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  type: z.string(),
  name: z.string(),
  content: z.string(),
  ttl: z.number().int(),
  priority: z.number().int().nullable().optional(),
  extra: RecordExtra.nullable().optional(),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

export const DnsZone = z.looseObject({
  domain: z.string(),
  status: z.string(),
  nameservers: z.array(z.string()),
  delegated: z.boolean(),
  records_count: z.number().int(),
});
export type DnsZone = z.infer<typeof DnsZone>;

export const DnsZoneWithRecords = DnsZone.extend({ records: z.array(DnsRecord) });
export type DnsZoneWithRecords = z.infer<typeof DnsZoneWithRecords>;

export const Template = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  name: z.string().optional(),
  description: z.string().optional(),
  variables: z.array(z.string()),
});
export type Template = z.infer<typeof Template>;

export const TemplateApplied = z.looseObject({
  created: z.array(DnsRecord).default([]),
  replaced: z.array(DnsRecord).default([]),
  skipped: z.array(z.looseObject({ name: z.string(), type: z.string() })).default([]),
});
export type TemplateApplied = z.infer<typeof TemplateApplied>;

/** Pagination block of a list's data (contract: PagingContract). */
export const Pagination = z.looseObject({
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  next_page: z.number().int().nullable(),
});

/** Error body (contract: ErrorShape). Parsed leniently by the client; produced exactly by the sandbox. */
export const ErrorBody = z.looseObject({
  success: z.literal(false),
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    field: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Request bodies (our names follow the spec's stated field names). */
export interface RegisterRequest {
  domain: string;
  years: number;
  contacts: ContactSet<ServiceContact>;
  nameservers?: string[];
  addons?: string[];
  client_reference?: string;
}
export interface TransferRequest extends RegisterRequest {
  auth_code: string;
}
export interface RenewRequest {
  years: number;
  current_expiry: string;
}
/** A record's create body: its canonical fields (dns/ HeldRecord), the TTL left to the service's default when absent. */
export type RecordInput = Omit<HeldRecord, "ttl"> & { ttl?: number };
export type ConflictStrategy = (typeof CONFLICT_STRATEGIES)[number];
export type PricingAction = (typeof PRICING_ACTIONS)[number];
