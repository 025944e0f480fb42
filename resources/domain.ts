import * as pulumi from "@pulumi/pulumi";
import { resourceArgs, type ResellerResourceOptions } from "./register";

/** A WHOIS contact (spec, Contact). Personal data: always stored as a secret. */
export interface ContactArgs {
  /** Full name of the person. */
  name: pulumi.Input<string>;
  /** Organisation, if any. */
  organization?: pulumi.Input<string | null>;
  /** E-mail address; the registry sends confirmations here. */
  email: pulumi.Input<string>;
  /** International format: "+" and digits, e.g. "+441234567890" (spaces, dots and dashes are ignored). */
  phone: pulumi.Input<string>;
  /** First address line. */
  address_line_1: pulumi.Input<string>;
  /** Second address line, if any. */
  address_line_2?: pulumi.Input<string | null>;
  /** City. */
  city: pulumi.Input<string>;
  /** State, province or region. */
  state?: pulumi.Input<string | null>;
  /** Postal code. */
  postal_code?: pulumi.Input<string | null>;
  /** Two-letter country code, e.g. "GB". (state and postal_code, when omitted, are sent as "".) */
  country: pulumi.Input<string>;
}

/** A WHOIS contact as the outputs hold it (secret). */
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
  address_line_1: string;
  /** Second address line, if any. */
  address_line_2?: string | null;
  /** City. */
  city: string;
  /** State, province or region. */
  state?: string | null;
  /** Postal code. */
  postal_code?: string | null;
  /** Two-letter country code, e.g. "GB". (state and postal_code, when omitted, are sent as "".) */
  country: string;
}

/** Contacts by type; admin, tech and billing default to the registrant (spec, Register rule 1). */
export interface DomainContactsArgs {
  /** The domain's holder. */
  registrant: pulumi.Input<ContactArgs>;
  /** Administrative contact; defaults to the registrant. */
  admin?: pulumi.Input<ContactArgs | null>;
  /** Technical contact; defaults to the registrant. */
  tech?: pulumi.Input<ContactArgs | null>;
  /** Billing contact; defaults to the registrant. */
  billing?: pulumi.Input<ContactArgs | null>;
}

/** Contacts by type as the outputs hold them (secret). */
export interface DomainContacts {
  registrant: Contact;
  admin?: Contact | null;
  tech?: Contact | null;
  billing?: Contact | null;
}

/** Declarative renewal: renew `years` whenever fewer than `minDaysRemaining` days remain, never before `notBefore`. */
export interface RenewalPolicyArgs {
  /** Default 30. */
  minDaysRemaining?: pulumi.Input<number>;
  /** "YYYY-MM-DD". */
  notBefore?: pulumi.Input<string>;
  /** Default 1. */
  years?: pulumi.Input<number>;
}

export interface DomainArgs {
  /** The domain name; an IDN may be given in Unicode (stored as punycode). Changing it replaces the resource (the old domain stays registered). */
  domain: pulumi.Input<string>;
  /** Registration term in years, default 1. Used only when the domain is bought. */
  years?: pulumi.Input<number>;
  /** Contacts (secret). Required unless `adopt` is set; an adopted domain without contacts keeps its own. Changed in place. */
  contacts?: pulumi.Input<DomainContactsArgs>;
  /** 2 to 5 nameservers. Omitted: the operator's defaults, not managed. Changed in place (order ignored). */
  nameservers?: pulumi.Input<pulumi.Input<string>[]>;
  /** Registrar lock. Omitted: not managed. */
  locked?: pulumi.Input<boolean>;
  /** Transfer code (secret). When given, the domain is transferred in instead of registered. */
  authCode?: pulumi.Input<string>;
  /** Your own order or domain reference, sent with the order. */
  clientReference?: pulumi.Input<string>;
  /** Decimal string, e.g. "25.00": refuse to register, transfer or renew when the quote is higher. Nothing is charged then. */
  maxPrice?: pulumi.Input<string>;
  /** Renewal policy; renewals happen in `pulumi up` when due, keyed on the current expiry (never twice). */
  renewal?: pulumi.Input<RenewalPolicyArgs>;
  /** Take an existing domain of the account into state: no purchase, no change. */
  adopt?: boolean;
  /** How long create waits for the registry (stage `pending`), seconds; default 120. */
  waitTimeoutSeconds?: pulumi.Input<number>;
}

const OUTPUTS = [
  "domain", "stage", "status", "expiryDate", "expiresAt", "nameservers", "locked", "charged", "currency",
  "invoice", "registryStatuses", "adopted", "contactsStatus", "years", "contacts", "authCode", "clientReference",
  "maxPrice", "renewal", "adopt", "waitTimeoutSeconds",
] as const;

/**
 * A registered domain. Create registers (or transfers, with `authCode`, or adopts, with `adopt`)
 * under an Idempotency-Key derived from the URN, so a retried or re-run `up` never buys twice;
 * `pending_approval`, `pending_kyc` and `pending_transfer` end the apply successfully with `stage`
 * saying so. Nameservers, contacts and lock change in place; renewal follows `renewal`.
 *
 * A domain cannot be deleted through the API: `retainOnDelete` defaults to true, and a delete
 * (if you turn that off) only logs that the domain stays registered and where to cancel it.
 */
export class Domain extends pulumi.dynamic.Resource {
  /** The domain name (ASCII). */
  declare readonly domain: pulumi.Output<string>;
  /** Order stage: active, pending, pending_approval, pending_kyc, pending_transfer, expired, ... */
  declare readonly stage: pulumi.Output<string>;
  /** The service's status of the domain (spec, Domain info `status`), e.g. active. */
  declare readonly status: pulumi.Output<string>;
  /** Expiry date, YYYY-MM-DD. */
  declare readonly expiryDate: pulumi.Output<string | null>;
  /** Expiry timestamp, ISO 8601. */
  declare readonly expiresAt: pulumi.Output<string | null>;
  /** Nameservers the registry has. */
  declare readonly nameservers: pulumi.Output<string[] | null>;
  /** Whether the registrar (transfer) lock is on. */
  declare readonly locked: pulumi.Output<boolean | null>;
  /** Amount of the last charge this resource made (register, transfer or renew), decimal string. */
  declare readonly charged: pulumi.Output<string | null>;
  /** Currency of `charged`, e.g. USD. */
  declare readonly currency: pulumi.Output<string | null>;
  /** Invoice number of the last charge this resource made, when the service gives one. */
  declare readonly invoice: pulumi.Output<string | null>;
  /** EPP statuses at the registry, e.g. clientTransferProhibited. */
  declare readonly registryStatuses: pulumi.Output<string[]>;
  /** True when the domain was adopted rather than bought. */
  declare readonly adopted: pulumi.Output<boolean>;
  /** "pending" while a contact change awaits the registrant's e-mail confirmation. */
  declare readonly contactsStatus: pulumi.Output<string | undefined>;
  /** Contacts (secret). */
  declare readonly contacts: pulumi.Output<DomainContacts | undefined>;

  constructor(name: string, args: DomainArgs, opts?: ResellerResourceOptions) {
    const inputs = {
      ...args,
      contacts: args.contacts === undefined ? undefined : pulumi.secret(args.contacts),
      authCode: args.authCode === undefined ? undefined : pulumi.secret(args.authCode),
    };
    super(...resourceArgs("Domain", name, inputs, OUTPUTS, { retainOnDelete: true, ...opts }));
  }
}
