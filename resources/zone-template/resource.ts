/** The ZoneTemplate resource class (program side): registers it with its outputs; the work happens in the host (./handler.ts). */
import * as pulumi from "@pulumi/pulumi";
import { outputNames } from "../program/output-names";
import { isResellerResource, ResellerResource, type ResellerResourceOptions } from "../program/register";
import type { ZoneTemplateArgs } from "./args";
import type { TemplateOutputs } from "./state";
import type { DeclarationOrder } from "../program/declaration-order";

/** A template applied to a zone named as a literal waits for the program's Domain and DnsZone of that name (../program/declaration-order.ts). */
export const ZONE_TEMPLATE_ORDER: DeclarationOrder = { name: "zone", after: ["Domain", "DnsZone"] };

/**
 * A Quick Setup template applied to a zone. Another template or other variables apply it again
 * (delete-before-replace); delete removes the records this application created or replaced.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * // The service's "custom-mail" Quick Setup template (reseller.getTemplates() lists them and their variables).
 * const mail = new reseller.ZoneTemplate("mail", {
 *   zone: "shop.example",
 *   templateId: "custom-mail",
 *   variables: { mx_host: "mx1.shop.example" },
 *   conflictStrategy: "skip", // keep live records the template would replace
 * });
 *
 * export const created = mail.created;
 * ```
 */
export class ZoneTemplate extends ResellerResource {
  /** Ids of the records the application created or replaced (those still present after a refresh). */
  declare readonly recordIds: pulumi.Output<string[]>;
  /** How many records the application created. */
  declare readonly created: pulumi.Output<number>;
  /** How many existing records it replaced (conflictStrategy replace). */
  declare readonly replaced: pulumi.Output<number>;
  /** "TYPE name" of the records skipped (conflictStrategy skip). */
  declare readonly skipped: pulumi.Output<string[]>;
  /** True when the application was adopted (`adopt`: taken into state as applied, nothing sent) rather than applied by this resource. */
  declare readonly adopted: pulumi.Output<boolean>;

  /**
   * Reads an existing ZoneTemplate into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of a ZoneTemplate in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<ZoneTemplateArgs>, opts?: ResellerResourceOptions): ZoneTemplate {
    return new ZoneTemplate(name, (state ?? {}) as ZoneTemplateArgs, { ...opts, id });
  }

  /** Whether `obj` is a ZoneTemplate (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is ZoneTemplate {
    return isResellerResource(obj, "ZoneTemplate");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: ZoneTemplateArgs, opts?: ResellerResourceOptions) {
    super("ZoneTemplate", name, args, outputNames<TemplateOutputs, ZoneTemplate>()(["recordIds", "created", "replaced", "skipped", "adopted"]), opts, ZONE_TEMPLATE_ORDER);
  }
}
