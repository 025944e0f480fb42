/** PrivacyAddon's and Protection's arguments, as a program gives them (public; program side). Types only: what check makes of them and what state keeps are ./state.ts. */
import type * as pulumi from "@pulumi/pulumi";
import type { AcceptedPriceOutput } from "../domain/args";

/** An add-on purchase whose charge is unknown: its answer was lost or unreadable, and the service shows the add-on on. */
export interface UnconfirmedAddonOrder {
  /** privacy or protection. */
  operation: string;
  /** The Idempotency-Key it was sent with; the read-back replays it, never a new order. */
  idempotencyKey: string;
  /** Why it is unconfirmed. */
  reason: string;
  /** When it was sent, ISO 8601. */
  placedAt?: string;
  /** What it was accepted at (maxPrice set); its replayed charge is held against it. */
  accepted?: AcceptedPriceOutput;
}

/** Arguments of a {@link PrivacyAddon} or a {@link Protection}. */
export interface DomainAddonArgs {
  /** The domain (held by the account). Changing it replaces the resource. */
  domain: pulumi.Input<string>;
  /** Take the add-on, already on, into state: no purchase. */
  adopt?: pulumi.Input<boolean>;
  /**
   * A number or a decimal string, e.g. 5 or "5.00" (optionally with the account's currency, "5.00 USD"):
   * the most the purchase may charge. Before buying it is held against the price reseller:contract
   * states for the add-on (money.addonPricesPerYear), if any, and nothing is bought above it; after
   * buying, a charge above it (or in another currency) fails the step, the add-on kept in state.
   */
  maxPrice?: pulumi.Input<number | string>;
  /**
   * Charges you have checked and accept after they failed their check (above maxPrice, or in another
   * currency), by the value the failure names: the invoice (or "5.00 USD" when the service named
   * none). Until an overcharge is listed here, every `pulumi up` fails on it.
   */
  acknowledgedCharges?: pulumi.Input<pulumi.Input<string>[]>;
}
