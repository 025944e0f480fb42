/**
 * An explicit provider for a second (third, ...) account, passed as `{ provider }` the way
 * pulumi-cloudflare and pulumi-dnsimple users pass theirs. Dynamic resources cannot take a Pulumi
 * provider resource, so this is a plain object, not a resource: it names the config namespace
 * that holds the account's settings, and only that name reaches the serialized provider in state.
 * The credentials stay in the stack config (the secret encrypted) or the environment.
 */
import { accountFailure, DEFAULT_ACCOUNT, envPrefix } from "../shared/api";

/** Arguments of a {@link Provider}. */
export interface ProviderArgs {
  /**
   * Config namespace of the account's settings: `<namespace>:baseUrl`, `<namespace>:apiKey`,
   * `<namespace>:apiSecret` (set it with `--secret`) and the other `reseller:` settings, or the
   * environment with the namespace as prefix (`RESELLER_EU_API_KEY` for "reseller-eu").
   * Default: the provider's name.
   */
  configNamespace?: string;
}

const BRAND = Symbol.for("reseller-pulumi.Provider");

/**
 * The account a resource or function uses: `{ provider }` in its options. Without one, the
 * `reseller` namespace.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * // Its settings: `pulumi config set reseller-eu:apiKey ...`, `pulumi config set --secret reseller-eu:apiSecret` (it asks for the value, or reads it from a pipe)
 * const eu = new reseller.Provider("eu", { configNamespace: "reseller-eu" });
 * new reseller.DnsZone("shop-eu", { domain: "shop.eu" }, { provider: eu });
 *
 * export const euBalance = reseller.getBalanceOutput({}, { provider: eu }).balance;
 * ```
 */
export class Provider {
  /** The name given to the constructor. */
  readonly name: string;
  /** Config namespace of the account's settings, e.g. "reseller-eu". */
  readonly configNamespace: string;
  /** Environment prefix of the account's settings, e.g. "RESELLER_EU_". */
  readonly environmentPrefix: string;
  /** Marks a Provider for {@link Provider.isInstance}, across copies of the package. */
  readonly [BRAND] = true;

  /**
   * @param name A name for the account, e.g. "eu"; the default config namespace.
   * @param args Where the account's settings are.
   */
  constructor(name: string, args: ProviderArgs = {}) {
    const ns = args.configNamespace ?? name;
    const failure = accountFailure(ns);
    if (failure) throw new Error(`Provider ${name}: ${failure.replace(/^account/, args.configNamespace === undefined ? "name" : "configNamespace")}`);
    this.name = name;
    this.configNamespace = ns;
    this.environmentPrefix = envPrefix(ns);
  }

  /** Whether `obj` is a reseller Provider (also one made by another copy of this package). */
  static isInstance(obj: unknown): obj is Provider {
    return typeof obj === "object" && obj !== null && (obj as Record<symbol, unknown>)[BRAND] === true;
  }
}

/**
 * The config namespace that options name, from `provider` or the older `account`; undefined for
 * the default account. `where` prefixes refusals (e.g. `DnsRecord www: `).
 */
export function namespaceOf(opts: { provider?: unknown; account?: unknown } | undefined, where: string): string | undefined {
  const { provider, account } = opts ?? {};
  const pkg = pulumiProviderPackage(provider);
  if (pkg !== undefined)
    throw new Error(
      `${where}provider: the Pulumi provider resource of package "${pkg}" cannot serve a reseller resource or function (they run as dynamic resources, whose account is named by a reseller.Provider): pass provider: new reseller.Provider(name, { configNamespace }), or leave provider out for the reseller: settings (a component passing its own options on: { ...opts, provider: undefined })`,
    );
  if (provider !== undefined && !Provider.isInstance(provider))
    throw new Error(`${where}provider: a reseller resource or function takes a reseller.Provider (new reseller.Provider(name, { configNamespace })), not ${describe(provider)}`);
  const failure = accountFailure(account);
  if (failure) throw new Error(`${where}${failure}`);
  const ns = provider?.configNamespace ?? (account as string | undefined);
  if (provider && account !== undefined && account !== provider.configNamespace)
    throw new Error(`${where}account: "${account}" differs from the provider's configNamespace "${provider.configNamespace}"; give only provider`);
  return ns === DEFAULT_ACCOUNT ? undefined : ns;
}

/**
 * The package of a Pulumi provider resource (what `pulumi.CustomResourceOptions` and
 * `pulumi.InvokeOptions` carry as `provider`), read from its type token `pulumi:providers:<package>`;
 * undefined for anything else. The token, not `instanceof`, so a second copy of the SDK is recognised too.
 */
function pulumiProviderPackage(v: unknown): string | undefined {
  const token = v && typeof v === "object" ? (v as { __pulumiType?: unknown }).__pulumiType : undefined;
  return typeof token === "string" && token.startsWith("pulumi:providers:") ? token.slice("pulumi:providers:".length) : undefined;
}

function describe(v: unknown): string {
  if (v && typeof v === "object") return `a ${(v as object).constructor?.name ?? "object"}`;
  return JSON.stringify(v);
}
