/**
 * The options and the older account argument every read-only function takes (./functions.ts,
 * ./lookups.ts): the public half of ./invoke.ts, apart so the package's declarations reach no client type.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Provider } from "./account";

/** Which account a function asks, in its arguments (older form of `{ provider }` in its options). */
export interface AccountArgs {
  /**
   * Config namespace of the account's settings, e.g. "reseller-eu" (environment prefix RESELLER_EU_). Default "reseller".
   * @deprecated Pass `{ provider: new reseller.Provider(name, { configNamespace }) }` as the options.
   */
  account?: string;
}

/**
 * Options of a function: Pulumi's invoke options, so a `pulumi.InvokeOptions` a wrapper was given
 * can be passed on as it is. The account is a reseller {@link Provider}; a Pulumi provider resource
 * compiles (Pulumi's options carry one) and is refused when the function is called, saying what to pass.
 */
export interface ResellerInvokeOptions extends Omit<pulumi.InvokeOptions, "provider" | "parent"> {
  /** The account's {@link Provider}. Default: the settings under `reseller:`. A Pulumi provider resource is refused. */
  provider?: Provider | pulumi.ProviderResource;
  /** Accepted as Pulumi's invoke options have it; the function runs in the program and ignores it. */
  parent?: pulumi.Resource;
}

/** Options of an `…Output` function: Pulumi's invoke output options (see {@link ResellerInvokeOptions}). */
export interface ResellerInvokeOutputOptions extends ResellerInvokeOptions {
  /** Resources the call waits for: it runs once they are created or updated (unknown during a preview that creates them). */
  dependsOn?: pulumi.Input<pulumi.Input<pulumi.Resource>[]> | pulumi.Input<pulumi.Resource>;
}
