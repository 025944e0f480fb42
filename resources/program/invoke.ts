/**
 * What every read-only function shares (./functions.ts, ./lookups.ts): its client, its one-line
 * failure, its argument checks and its `…Output` form (its options: ./invoke-options.ts). The dynamic provider host implements no Invoke, so the
 * functions run in the program's own process, with credentials from `new pulumi.Config("reseller")`
 * (env fallback), or from another account's namespace named by `{ provider }` in the options. Their
 * clients pace every request through the credential's rate limiter, as the provider host's do.
 */
import * as pulumi from "@pulumi/pulumi";
import { DEFAULT_ACCOUNT, readSettings, type ReadOnlyApi } from "../shared/api";
import { ClientCache } from "../shared/client-cache";
import { canonicalHost } from "../shared/normalize";
import { domainNameFailure, yearsFailure } from "../shared/rules";
import { namespaceOf } from "./account";
import type { AccountArgs, ResellerInvokeOptions, ResellerInvokeOutputOptions } from "./invoke-options";

/** The program's clients, one per connection (../shared/client-cache.ts). */
const clients = new ClientCache();

/**
 * A function's failure as the program shows it: one line, no stack, no dumped error object. The
 * SDK's runner prints a RunError's message alone (cmd/run: "Always hide the stack for RunErrors").
 */
function oneLine(e: unknown): pulumi.RunError {
  const message = e instanceof Error ? e.message : String(e);
  return new pulumi.RunError(`reseller: ${message.replace(/^reseller: /, "").replace(/\s*\n\s*/g, " ")}`);
}

/** Runs a function's body; any failure becomes one line (oneLine). */
export async function failingInOneLine<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (e) {
    throw oneLine(e);
  }
}

/** Where a process that is not the program takes its clients (the native plugin's Invoke: its provider's configured client). */
let clientSource: ((account: string | undefined) => ReadOnlyApi) | undefined;

/** The functions' clients from `source` instead of the program's stack config (../provider/: Invoke). */
export function useClients(source: (account: string | undefined) => ReadOnlyApi): void {
  clientSource = source;
}

/** The program's client for an account (a namespace `accountOf` checked), from stack config (or env): one per connection. */
export function programClient(account: string | undefined): ReadOnlyApi {
  if (clientSource) return clientSource(account);
  const ns = account ?? DEFAULT_ACCOUNT;
  const cfg = new pulumi.Config(ns);
  return clients.get(readSettings((k) => cfg.get(k), process.env, ns));
}

// Arguments are checked before any call, with the resources' messages (field, value, rule).

/** A domain name argument in canonical form, or a refusal naming the field. */
export function domainName(field: string, v: unknown): string {
  const failure = domainNameFailure(field, v);
  if (failure) throw new Error(failure);
  return canonicalHost(v as string);
}

/** A term in years (default 1), or a refusal naming the field. */
export function years(field: string, v: unknown): number {
  const failure = yearsFailure(field, v);
  if (failure) throw new Error(failure);
  return (v as number | undefined) ?? 1;
}

/** snake_case to camelCase, as a type: `register_price` → `registerPrice`. */
type CamelWord<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelWord<T>>}` : S;

/** A view's parsed answer (api/views.ts) with every key camelCased, recursively: what {@link camelKeys} returns. */
export type Camel<T> = T extends readonly (infer E)[] ? Camel<E>[] : T extends object ? { [K in keyof T as K extends string ? CamelWord<K> : K]: Camel<T[K]> } : T;

/**
 * A view's answer with snake_case keys in camelCase, recursively: results read like the resources'
 * outputs, and keep the fields the service adds. Its type follows the view's, so a function's
 * documented result type is checked against the view schema by the compiler.
 */
export function camelKeys<T>(v: T): Camel<T> {
  const walk = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(walk);
    if (x && typeof x === "object") return Object.fromEntries(Object.entries(x).map(([k, y]) => [k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()), walk(y)]));
    return x;
  };
  return walk(v) as Camel<T>;
}

/** The config namespace of a call: `provider` in the options, or the older `account` argument. */
export const accountOf = (args: AccountArgs | undefined, opts: ResellerInvokeOptions | undefined, at = ""): string | undefined =>
  namespaceOf({ provider: opts?.provider, account: args?.account }, at);

/** `args` as an output that also waits for `opts.dependsOn`, for the `…Output` forms. */
export function outputArgs<T>(args: T, opts: ResellerInvokeOutputOptions | undefined): pulumi.Output<pulumi.Unwrap<T>> {
  const deps = opts?.dependsOn === undefined ? [] : opts.dependsOn;
  const ready = pulumi.output(deps).apply((d) => pulumi.all((Array.isArray(d) ? d : [d]).map((r) => (pulumi.CustomResource.isInstance(r) ? r.id : r.urn))));
  return pulumi.all([pulumi.output(args), ready]).apply(([a]) => a) as pulumi.Output<pulumi.Unwrap<T>>;
}
