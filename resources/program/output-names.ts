/**
 * The output names a resource class passes to its base constructor (./register.ts), checked by the
 * compiler: each is a key of what the kind keeps in state (its `state.ts` outputs type, the `O` of
 * its handler's `Handler<I, O>`), and every `pulumi.Output` property the class declares is among
 * them (otherwise it would stay undefined). Program side: it imports no kind and no host code; the
 * class names its kind's outputs type.
 */
import type * as pulumi from "@pulumi/pulumi";

/** An output name of a kind whose state keeps `O`. */
export type OutputName<O> = keyof O & string;

/** The `pulumi.Output` properties class `C` declares, besides `id` and `urn` that every resource has. */
export type DeclaredOutputs<C> = Exclude<{ [P in keyof C]-?: C[P] extends pulumi.OutputInstance<unknown> ? P : never }[keyof C], "id" | "urn">;

/** What a list lacks: an error names the declared outputs it leaves out. */
type Unlisted<C, L extends readonly string[]> = [Exclude<DeclaredOutputs<C>, L[number]>] extends [never] ? unknown : { unlistedOutputs: Exclude<DeclaredOutputs<C>, L[number]> };

/**
 * `outputNames<ZoneOutputs, DnsZone>()(["domain", …])`: the list as given, once it names only outputs
 * of the kind (keys of its state's outputs `O`) and every output the class `C` declares.
 */
export const outputNames =
  <O, C>() =>
  <const L extends readonly OutputName<O>[]>(names: L & Unlisted<C, L>): L =>
    names;
