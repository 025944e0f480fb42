/** The EppCode resource class (program side): registers it with its outputs; the work happens in the host (./handler.ts). */
import * as pulumi from "@pulumi/pulumi";
import { outputNames } from "../program/output-names";
import { isResellerResource, ResellerResource, type ResellerResourceOptions } from "../program/register";
import type { EppCodeArgs } from "./args";
import type { EppCodeOutputs } from "./state";
import type { DeclarationOrder } from "../program/declaration-order";

/** An EppCode of a domain named as a literal waits for the program's Domain of that name (../program/declaration-order.ts). */
export const EPP_CODE_ORDER: DeclarationOrder = { name: "domain", after: ["Domain"] };

/**
 * A transfer (EPP) code, requested deliberately: requesting one sets a new code at the registry and
 * e-mails the registrant, so it happens only when this resource is created or its `trigger` (or
 * domain) changes, never in preview or refresh. `authCode` is a secret output.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * // Requested once, and again whenever `trigger` changes (each request e-mails the registrant).
 * const code = new reseller.EppCode("transfer-out", { domain: "shop.example", trigger: "2025-06" });
 *
 * export const authCode = code.authCode; // a secret output: `pulumi stack output --show-secrets authCode`
 * ```
 */
export class EppCode extends ResellerResource {
  /** The transfer code (secret). */
  declare readonly authCode: pulumi.Output<string>;
  /** When this code was requested, ISO 8601. */
  declare readonly requestedAt: pulumi.Output<string>;

  /**
   * Reads an existing EppCode into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of an EppCode in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<EppCodeArgs>, opts?: ResellerResourceOptions): EppCode {
    return new EppCode(name, (state ?? {}) as EppCodeArgs, { ...opts, id });
  }

  /** Whether `obj` is an EppCode (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is EppCode {
    return isResellerResource(obj, "EppCode");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: EppCodeArgs, opts?: ResellerResourceOptions) {
    super("EppCode", name, args, outputNames<EppCodeOutputs, EppCode>()(["authCode", "requestedAt"]), opts, EPP_CODE_ORDER);
  }
}
