/**
 * The output names a resource class passes to its base constructor (./register.ts), checked by the
 * compiler: each is a key of what the kind's handler keeps in state (`OutputsOf`), and every
 * `pulumi.Output` property the class declares is among them (otherwise it would stay undefined).
 * Program side: it imports the host's types only, never its code.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { OutputsOf } from "../handlers";
import type { Kind } from "../kinds";

/** An output name of kind `K`. */
export type OutputName<K extends Kind> = keyof OutputsOf<K> & string;

/** The `pulumi.Output` properties class `C` declares, besides `id` and `urn` that every resource has. */
export type DeclaredOutputs<C> = Exclude<{ [P in keyof C]-?: C[P] extends pulumi.OutputInstance<unknown> ? P : never }[keyof C], "id" | "urn">;

/** What a list lacks: an error names the declared outputs it leaves out. */
type Unlisted<C, L extends readonly string[]> = [Exclude<DeclaredOutputs<C>, L[number]>] extends [never] ? unknown : { unlistedOutputs: Exclude<DeclaredOutputs<C>, L[number]> };

/**
 * `outputNames<"DnsZone", DnsZone>()(["domain", …])`: the list as given, once it names only outputs
 * of the kind and every output the class declares.
 */
export const outputNames =
  <K extends Kind, C>() =>
  <const L extends readonly OutputName<K>[]>(names: L & Unlisted<C, L>): L =>
    names;
