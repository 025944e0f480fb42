/** PrivacyAddon's and Protection's arguments, as a program gives them (public; program side). Types only: what check makes of them and what state keeps are ./state.ts. */
import type * as pulumi from "@pulumi/pulumi";

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
}

/** Arguments of a {@link PrivacyAddon} or a {@link Protection}. */
export interface DomainAddonArgs {
  /** The domain (held by the account). Changing it replaces the resource. */
  domain: pulumi.Input<string>;
  /** Take the add-on, already on, into state: no purchase. */
  adopt?: pulumi.Input<boolean>;
}
