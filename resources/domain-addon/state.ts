/** PrivacyAddon's and Protection's host-side types: the inputs check makes of the program's arguments, and the outputs state keeps. Types only. */
import type { Charge, UnconfirmedBase } from "../kit/unanswered-order";
import type { HeldOvercharge } from "../kit/charge-check";
import type { Common } from "../kinds";

/** PrivacyAddon and Protection: a domain, and optionally the most the purchase may cost. */
export interface DomainAddonInputs extends Common {
  domain: string;
  /** As the program states it ("5.00" or "5.00 USD"): the ceiling of the purchase's charge. */
  maxPrice?: string;
  /** Overcharges the program accepts, by invoice (../kit/charge-check.ts). */
  acknowledgedCharges?: string[];
}

/** An add-on purchase whose charge is unknown (its answer lost or unreadable, the add-on on); the next up confirms it. */
export interface HeldAddonOrder extends UnconfirmedBase {
  operation: "privacy" | "protection";
}
/** What an add-on holds in state besides its view: who brought it and what its purchase charged (null: adopted, taken over, or not stated). */
export type AddonHeld = Charge & { adopted: boolean; unconfirmedOrder?: HeldAddonOrder; overcharges?: HeldOvercharge[] };
export type PrivacyOutputs = DomainAddonInputs & AddonHeld & { enabled: boolean; status: string; expiresAt: string | null };
export type ProtectionOutputs = DomainAddonInputs & AddonHeld & { enabled: boolean; status: string };
