/**
 * What the program and the provider host must agree on, and nothing else: the kinds' names, their
 * type tokens and the reserved input `secretInputs`. Declarations only, no behaviour: the one module
 * of resources/ that both processes load (resources/README.md, "Two processes"). Program-side code
 * lives in ./program/, host-side code in ./host/ and in each kind's schema, diff and handler.
 */

/** Resource kinds; each is also the type name in the token `pulumi-nodejs:dynamic/reseller:<Kind>`. */
export type Kind = "Domain" | "DnsZone" | "DnsRecord" | "ChildHost" | "PrivacyAddon" | "Protection" | "EppCode" | "ZoneTemplate" | "DnsZoneRecords";

/** Module of every type token: `pulumi-nodejs:dynamic/reseller:<Kind>`. */
export const MODULE = "reseller";

/**
 * The type token of a kind in state and URNs, e.g. `pulumi-nodejs:dynamic/reseller:Domain`.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as pulumi from "@pulumi/pulumi";
 * import * as reseller from "reseller-pulumi";
 *
 * // Protect every Domain of the stack, whatever component declares it.
 * pulumi.runtime.registerResourceTransform((args) =>
 *   args.type === reseller.typeToken("Domain") ? { props: args.props, opts: { ...args.opts, protect: true } } : undefined,
 * );
 * ```
 */
export const typeToken = (kind: Kind): string => `pulumi-nodejs:dynamic/${MODULE}:${kind}`;

/** The input holding the names of the inputs the program marked secret (absent when none was). */
export const SECRET_INPUTS = "secretInputs";

/** Inputs every kind has: the resource's own URN (set by the resource class) and `adopt`. */
export interface Common {
  resourceUrn?: string;
  adopt?: boolean;
}
