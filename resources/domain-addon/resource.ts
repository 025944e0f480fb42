/** The PrivacyAddon and Protection resource classes (program side): two kinds, one host-side handler (./handler.ts) with a description of each. */
import * as pulumi from "@pulumi/pulumi";
import { outputNames } from "../program/output-names";
import { isResellerResource, ResellerResource, type ResellerResourceOptions } from "../program/register";
import type { DomainAddonArgs, UnconfirmedAddonOrder } from "./args";
import type { PrivacyOutputs, ProtectionOutputs } from "./state";
import type { OverchargeOutput } from "../domain/args";
import type { DeclarationOrder } from "../program/declaration-order";

/** Outputs of a purchased add-on that say what it cost. */
const ADDON_CHARGE_OUTPUTS = ["charged", "currency", "invoice", "unconfirmedOrder", "overcharges", "acknowledgedCharges"] as const;

/** An add-on of a domain named as a literal waits for the program's Domain of that name (it is priced for the years that Domain buys) (../program/declaration-order.ts). */
export const ADDON_ORDER: DeclarationOrder = { name: "domain", after: ["Domain"], purchase: 1 };

/**
 * WHOIS Privacy. Create buys it (for the rest of the term, under an Idempotency-Key from the URN)
 * and enables it; `status` is awaiting_verification until the registrant confirms by e-mail.
 * Delete disables privacy (the add-on stays bought for the term).
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * // Bought for the rest of the term; live once the registrant confirms the e-mail.
 * const privacy = new reseller.PrivacyAddon("privacy", { domain: "shop.example" });
 *
 * export const privacyStatus = privacy.status;
 * ```
 */
export class PrivacyAddon extends ResellerResource {
  /** The domain (ASCII). */
  declare readonly domain: pulumi.Output<string>;
  /** Whether privacy is in force in WHOIS. */
  declare readonly enabled: pulumi.Output<boolean>;
  /** e.g. awaiting_verification, active. */
  declare readonly status: pulumi.Output<string>;
  /** End of the paid term, ISO 8601. */
  declare readonly expiresAt: pulumi.Output<string | null>;
  /** True when the add-on was adopted rather than bought. */
  declare readonly adopted: pulumi.Output<boolean>;
  /** What this resource's purchase charged, decimal string; null when adopted, taken over as found, or not stated by the service. */
  declare readonly charged: pulumi.Output<string | null>;
  /** Currency of `charged`, e.g. USD. */
  declare readonly currency: pulumi.Output<string | null>;
  /** Invoice number of the purchase, when the service gives one. */
  declare readonly invoice: pulumi.Output<string | null>;
  /** Set while the purchase may have been charged but its answer was lost or unreadable; the next `up` reads it back and sets `charged`. */
  declare readonly unconfirmedOrder: pulumi.Output<UnconfirmedAddonOrder | undefined>;
  /** Charges that failed their check (above maxPrice, another currency) and are not in `acknowledgedCharges` yet; every `up` fails while one is here. */
  declare readonly overcharges: pulumi.Output<OverchargeOutput[] | undefined>;

  /**
   * Reads an existing PrivacyAddon into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of a PrivacyAddon in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<DomainAddonArgs>, opts?: ResellerResourceOptions): PrivacyAddon {
    return new PrivacyAddon(name, (state ?? {}) as DomainAddonArgs, { ...opts, id });
  }

  /** Whether `obj` is a PrivacyAddon (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is PrivacyAddon {
    return isResellerResource(obj, "PrivacyAddon");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: DomainAddonArgs, opts?: ResellerResourceOptions) {
    super("PrivacyAddon", name, args, outputNames<PrivacyOutputs, PrivacyAddon>()(["domain", "enabled", "status", "expiresAt", "adopted", ...ADDON_CHARGE_OUTPUTS]), opts, ADDON_ORDER);
  }
}

/**
 * Domain Protection. Create buys and switches it on (Idempotency-Key from the URN). While on, the
 * registrar lock cannot be removed and no EPP code can be requested through the API. The API never
 * removes it: delete leaves it on and logs that it must be removed in the reseller portal.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * // Only the reseller portal removes it: `pulumi destroy` leaves it on.
 * new reseller.Protection("protection", { domain: "shop.example" });
 * ```
 */
export class Protection extends ResellerResource {
  /** The domain (ASCII). */
  declare readonly domain: pulumi.Output<string>;
  /** Whether Domain Protection is on. */
  declare readonly enabled: pulumi.Output<boolean>;
  /** The service's status of the add-on, e.g. on. */
  declare readonly status: pulumi.Output<string>;
  /** True when the add-on was adopted rather than bought. */
  declare readonly adopted: pulumi.Output<boolean>;
  /** What this resource's purchase charged, decimal string; null when adopted, taken over as found, or not stated by the service. */
  declare readonly charged: pulumi.Output<string | null>;
  /** Currency of `charged`, e.g. USD. */
  declare readonly currency: pulumi.Output<string | null>;
  /** Invoice number of the purchase, when the service gives one. */
  declare readonly invoice: pulumi.Output<string | null>;
  /** Set while the purchase may have been charged but its answer was lost or unreadable; the next `up` reads it back and sets `charged`. */
  declare readonly unconfirmedOrder: pulumi.Output<UnconfirmedAddonOrder | undefined>;
  /** Charges that failed their check (above maxPrice, another currency) and are not in `acknowledgedCharges` yet; every `up` fails while one is here. */
  declare readonly overcharges: pulumi.Output<OverchargeOutput[] | undefined>;

  /**
   * Reads an existing Protection into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of a Protection in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<DomainAddonArgs>, opts?: ResellerResourceOptions): Protection {
    return new Protection(name, (state ?? {}) as DomainAddonArgs, { ...opts, id });
  }

  /** Whether `obj` is a Protection (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is Protection {
    return isResellerResource(obj, "Protection");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: DomainAddonArgs, opts?: ResellerResourceOptions) {
    super("Protection", name, args, outputNames<ProtectionOutputs, Protection>()(["domain", "enabled", "status", "adopted", ...ADDON_CHARGE_OUTPUTS]), opts, ADDON_ORDER);
  }
}
