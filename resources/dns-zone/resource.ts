/** The DnsZone resource class (program side): registers it with its outputs; the work happens in the host (./handler.ts). */
import * as pulumi from "@pulumi/pulumi";
import { outputNames } from "../program/output-names";
import { isResellerResource, ResellerResource, type ResellerResourceOptions } from "../program/register";
import type { DnsZoneArgs } from "./args";
import type { ZoneOutputs } from "./state";
import type { DeclarationOrder } from "../program/declaration-order";

/** A zone named as a literal waits for the program's Domain of that name (and its records wait for it) (../program/declaration-order.ts). */
export const DNS_ZONE_ORDER: DeclarationOrder = { name: "domain", after: ["Domain"] };

/**
 * A DNS zone hosted by the service. Outputs the nameservers to delegate to. Deleting a zone deletes
 * all its records, so delete refuses while the zone holds records other than NS and SOA (the stack's
 * own DnsRecords are deleted first), unless `forceDestroy` is set.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * // Taken over when the account already hosts it (adopt), created otherwise.
 * const zone = new reseller.DnsZone("zone", { domain: "shop.example", adopt: true });
 *
 * export const nameservers = zone.nameservers; // the domain must use these
 * export const delegated = zone.delegated;
 * ```
 */
export class DnsZone extends ResellerResource {
  /** The zone's domain (ASCII). */
  declare readonly domain: pulumi.Output<string>;
  /** The service's nameservers to delegate the domain to. */
  declare readonly nameservers: pulumi.Output<string[]>;
  /** e.g. pending_nameserver, active. */
  declare readonly status: pulumi.Output<string>;
  /** True once the domain uses the service's nameservers and a check saw it. */
  declare readonly delegated: pulumi.Output<boolean>;
  /** True when the zone was adopted rather than created. */
  declare readonly adopted: pulumi.Output<boolean>;

  /**
   * Reads an existing DnsZone into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of a DnsZone in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<DnsZoneArgs>, opts?: ResellerResourceOptions): DnsZone {
    return new DnsZone(name, (state ?? {}) as DnsZoneArgs, { ...opts, id });
  }

  /** Whether `obj` is a DnsZone (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is DnsZone {
    return isResellerResource(obj, "DnsZone");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: DnsZoneArgs, opts?: ResellerResourceOptions) {
    super("DnsZone", name, args, outputNames<ZoneOutputs, DnsZone>()(["domain", "nameservers", "status", "delegated", "adopted"]), opts, DNS_ZONE_ORDER);
  }
}
