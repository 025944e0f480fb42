/** Domain's arguments, as a program gives them (public; program side). Types only: what check makes of them and what state keeps are ./state.ts. */
import type * as pulumi from "@pulumi/pulumi";
import type { Contact, ContactSet, RenewalPolicy } from "../../api/shapes";

/** A WHOIS contact (spec, Contact), as a program gives it. Personal data: always stored as a secret. */
export type ContactArgs = { [K in keyof Contact]: pulumi.Input<Contact[K]> };

/** A WHOIS contact as the outputs hold it (secret). */
export type { Contact };

/** Contacts by type; admin, tech and billing default to the registrant (spec, Register rule 1). */
export type DomainContactsArgs = { [K in keyof ContactSet<ContactArgs>]: pulumi.Input<ContactSet<ContactArgs>[K]> };

/** Contacts by type as the outputs hold them (secret). */
export type DomainContacts = ContactSet;

/** Declarative renewal: renew `years` whenever fewer than `minDaysRemaining` days remain, never before `notBefore`. */
export type RenewalPolicyArgs = { [K in keyof RenewalPolicy]: pulumi.Input<RenewalPolicy[K]> };

/** Arguments of a {@link Domain}. */
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
  /**
   * A number or a decimal string, e.g. 25 or "25.00" (optionally with a currency, "25.00 USD"): refuse to register, transfer or renew when the quote is higher. Nothing is charged then.
   * The order's answer is held against it and the quote: a charge above it, or in another currency, fails the step naming the invoice, the domain kept in state with that charge (never bought again).
   */
  maxPrice?: pulumi.Input<number | string>;
  /** Renewal policy; renewals happen in `pulumi up` when due, keyed on the current expiry (never twice). */
  renewal?: pulumi.Input<RenewalPolicyArgs>;
  /** Take an existing domain of the account into state: no purchase, no change. */
  adopt?: pulumi.Input<boolean>;
  /** How long create waits for the registry (stage `pending`), seconds; default 120. */
  waitTimeoutSeconds?: pulumi.Input<number>;
  /**
   * Charges you have checked and accept after they failed their check (above maxPrice, or in another
   * currency), by the value the failure names: the invoice, e.g. ["INV-1042"] (or "30.00 USD" when the
   * service named no invoice). Until an overcharge is listed here, every `pulumi up` fails on it.
   */
  acknowledgedCharges?: pulumi.Input<pulumi.Input<string>[]>;
}

/** A charge that failed its check and is not acknowledged yet (state's `overcharges`). */
export interface OverchargeOutput {
  /** What was wrong: the charge, what it was held against, the invoice. */
  problem: string;
  /** What to add to `acknowledgedCharges` once checked: the invoice, or "<amount> <currency>". */
  acknowledge: string;
}

/** What a paid order was accepted at before it was sent, as state keeps it (decimal strings). */
export interface AcceptedPriceOutput {
  /** The ceiling: maxPrice. */
  maxPrice: string;
  /** The currency it is charged in. */
  currency: string;
  /** The price expected: the quote, or the contract's price of an add-on. */
  expected?: string;
  /** What stated `expected`, e.g. "the quote". */
  expectedSource?: string;
}
