/** Domain's host-side types: the inputs check makes of the program's arguments, and the outputs state keeps. Types only. */
import type { Contact, ContactSet, RenewalPolicy, ContactType } from "../../api/shapes";
import type { UnconfirmedBase } from "../kit/unanswered-order";
import type { HeldOvercharge } from "../kit/charge-check";
import type { Common } from "../kinds";

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
  /** Overcharges the program accepts, by invoice (../kit/charge-check.ts). */
  acknowledgedCharges?: string[];
}

/** What a Domain holds in state: its inputs, overlaid with what the service reports and what its orders cost. */
export type DomainOutputs = Omit<DomainInputs, "nameservers" | "locked" | "contacts"> & {
  stage: string;
  status: string;
  expiryDate: string | null;
  expiresAt: string | null;
  nameservers: string[] | null;
  locked: boolean | null;
  registryStatuses: string[];
  charged: string | null;
  currency: string | null;
  invoice: string | null;
  adopted: boolean;
  /** "pending" while a contact change awaits the registrant's confirmation. */
  contactsStatus?: string;
  /** A paid order whose charge is unknown (its answer was lost or unreadable); the next up confirms it. */
  unconfirmedOrder?: UnconfirmedOrder;
  contacts?: HeldContacts;
  /** Charges that failed their check and are not acknowledged yet: every up fails until they are. */
  overcharges?: HeldOvercharge[];
};

/**
 * A paid order that may have been charged: sent, applied (the service shows it), its answer lost or
 * unreadable. The next up asks for it again under the same key, which the service answers with a
 * replay of the order (spec, Authentication 7: a retry with the same key never charges twice).
 */
export interface UnconfirmedOrder extends UnconfirmedBase {
  operation: "register" | "transfer" | "renew";
  years: number;
  /** A renewal: the expiry it renewed from. */
  from?: string;
}

/** Contacts as state holds them: the program's (when the registry agrees) or the registry's. */
export type HeldContacts = Partial<Record<ContactType, Contact | null>>;
