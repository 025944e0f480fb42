/** The ChildHost resource class (program side): registers it with its outputs; the work happens in the host (./handler.ts). */
import * as pulumi from "@pulumi/pulumi";
import { outputNames } from "../program/output-names";
import { isResellerResource, ResellerResource, type ResellerResourceOptions } from "../program/register";
import type { ChildHostArgs } from "./args";
import type { ChildHostOutputs } from "./state";
import type { DeclarationOrder } from "../program/declaration-order";

/** A ChildHost of a domain this program buys, named as a literal, waits for its Domain (../program/declaration-order.ts). */
export const CHILD_HOST_ORDER: DeclarationOrder = { name: "domain", after: ["Domain"] };

/**
 * A child nameserver (glue host) of a domain: full create, read, update, delete.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * // ns1.shop.example, with its glue addresses at the registry.
 * new reseller.ChildHost("ns1", { domain: "shop.example", hostname: "ns1", ipv4: ["192.0.2.53"], ipv6: ["2001:db8::53"] });
 * ```
 */
export class ChildHost extends ResellerResource {
  /** The parent domain (ASCII). */
  declare readonly domain: pulumi.Output<string>;
  /** Canonical host name. */
  declare readonly hostname: pulumi.Output<string>;
  /** Canonical, sorted. */
  declare readonly ipv4: pulumi.Output<string[]>;
  /** Canonical (compressed), sorted. */
  declare readonly ipv6: pulumi.Output<string[]>;
  /** True when the host was adopted rather than created. */
  declare readonly adopted: pulumi.Output<boolean>;

  /**
   * Reads an existing ChildHost into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of a ChildHost in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<ChildHostArgs>, opts?: ResellerResourceOptions): ChildHost {
    return new ChildHost(name, (state ?? {}) as ChildHostArgs, { ...opts, id });
  }

  /** Whether `obj` is a ChildHost (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is ChildHost {
    return isResellerResource(obj, "ChildHost");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: ChildHostArgs, opts?: ResellerResourceOptions) {
    super("ChildHost", name, { ipv6: [], ...args }, outputNames<ChildHostOutputs, ChildHost>()(["domain", "hostname", "ipv4", "ipv6", "adopted"]), opts, CHILD_HOST_ORDER);
  }
}
