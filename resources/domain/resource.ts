/** The Domain resource class (program side): registers it with its outputs; the work happens in the host (./handler.ts). */
import * as pulumi from "@pulumi/pulumi";
import { outputNames } from "../program/output-names";
import { isResellerResource, ResellerResource, type ResellerResourceOptions } from "../program/register";
import type { AcceptedPriceOutput, DomainArgs, DomainContacts, OverchargeOutput } from "./args";
import type { DomainOutputs } from "./state";
import type { DeclarationOrder } from "../program/declaration-order";

const OUTPUTS = outputNames<DomainOutputs, Domain>()([
  "domain", "stage", "status", "expiryDate", "expiresAt", "nameservers", "locked", "charged", "currency",
  "invoice", "registryStatuses", "adopted", "contactsStatus", "unconfirmedOrder", "years", "contacts", "authCode", "clientReference",
  "maxPrice", "renewal", "adopt", "waitTimeoutSeconds", "overcharges", "acknowledgedCharges",
]);

/** A Domain waits for the purchase declared before it (purchases go in turn); what names its domain as a literal waits for it (../program/declaration-order.ts). */
export const DOMAIN_ORDER: DeclarationOrder = { name: "domain", after: [], purchase: 0 };

/**
 * A registered domain. Create registers (or transfers, with `authCode`, or adopts, with `adopt`)
 * under an Idempotency-Key derived from the URN, so a retried or re-run `up` never buys twice;
 * `pending_approval`, `pending_kyc` and `pending_transfer` end the apply successfully with `stage`
 * saying so. Nameservers, contacts and lock change in place; renewal follows `renewal`.
 *
 * A domain cannot be deleted through the API: `retainOnDelete` defaults to true, and a delete
 * (if you turn that off) only logs that the domain stays registered and where to cancel it.
 *
 * ## Example Usage
 *
 * ### Register a domain, with a price ceiling and a renewal policy
 *
 * ```typescript
 * import * as pulumi from "@pulumi/pulumi";
 * import * as reseller from "reseller-pulumi";
 *
 * const cfg = new pulumi.Config();
 * const shop = new reseller.Domain("shop", {
 *   domain: "shop.example",
 *   contacts: { registrant: cfg.requireSecretObject<reseller.ContactArgs>("registrant") },
 *   maxPrice: "25.00", // refuse a quote above this, before any money moves
 *   renewal: { minDaysRemaining: 30, years: 1 }, // renewed by the first `pulumi up` inside 30 days
 * });
 *
 * export const stage = shop.stage;
 * export const expiryDate = shop.expiryDate;
 * ```
 *
 * ### Renew a domain the account already holds
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * // adopt: taken into state, never bought; the service has no auto-renew, so schedule `pulumi up --refresh`.
 * new reseller.Domain("held", { domain: "held.example", adopt: true, renewal: { minDaysRemaining: 45 } });
 * ```
 */
export class Domain extends ResellerResource {
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
  /**
   * Set while an order this resource sent may have been charged but its answer was lost or
   * unreadable (the service shows it applied); the next `up` reads it back and sets `charged`.
   */
  declare readonly unconfirmedOrder: pulumi.Output<
    | {
        /** register, transfer or renew. */
        operation: string;
        /** The Idempotency-Key it was sent with; the read-back replays it, never a new order. */
        idempotencyKey: string;
        /** The term ordered, in years. */
        years: number;
        /** A renewal: the expiry it renewed from. */
        from?: string;
        /** Why it is unconfirmed. */
        reason: string;
        /** When it was sent, ISO 8601 (none when a take-over's replay was unanswered). */
        placedAt?: string;
        /** What it was accepted at (maxPrice set): maxPrice, its currency and the quote; its replayed charge is held against it. */
        accepted?: AcceptedPriceOutput;
      }
    | undefined
  >;
  /** Charges that failed their check (above maxPrice, another currency) and are not in `acknowledgedCharges` yet; every `up` fails while one is here. */
  declare readonly overcharges: pulumi.Output<OverchargeOutput[] | undefined>;
  /** Contacts (secret). */
  declare readonly contacts: pulumi.Output<DomainContacts | undefined>;

  /**
   * Reads an existing Domain into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of a Domain in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<DomainArgs>, opts?: ResellerResourceOptions): Domain {
    return new Domain(name, (state ?? {}) as DomainArgs, { ...opts, id });
  }

  /** Whether `obj` is a Domain (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is Domain {
    return isResellerResource(obj, "Domain");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: DomainArgs, opts?: ResellerResourceOptions) {
    const inputs = {
      ...args,
      contacts: args.contacts === undefined ? undefined : pulumi.secret(args.contacts),
      authCode: args.authCode === undefined ? undefined : pulumi.secret(args.authCode),
    };
    super("Domain", name, inputs, OUTPUTS, { retainOnDelete: true, ...opts }, DOMAIN_ORDER);
  }
}
