/** What every resource constructor shares: the type token, the URN input and secret outputs. */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { namespaceOf, type Provider } from "./account";
import { MODULE, SECRET_INPUTS, typeToken, type Kind } from "../kinds";
import { sdkTooOld } from "../shared/sdk-version";
import { shim } from "./shim";
import { implicitDependsOn, noteDeclared, type Declared, type DeclarationOrder } from "./declaration-order";

/**
 * Which account a resource lives in: `provider`, a {@link Provider} naming the config namespace
 * of the account's settings, as Pulumi's explicit providers are passed. Default: the `reseller`
 * namespace. Credentials stay in the stack config (secret); only the namespace's name is in the
 * serialized provider.
 */
export interface AccountOption {
  /**
   * The account's {@link Provider}. Default: the settings under `reseller:`. A Pulumi provider
   * resource compiles (so a `pulumi.CustomResourceOptions` can be passed on as it is) and is
   * refused when the resource is declared, saying what to pass.
   */
  provider?: Provider | pulumi.ProviderResource;
  /**
   * Config namespace of the account's settings, e.g. "reseller-eu".
   * @deprecated Pass `provider: new reseller.Provider(name, { configNamespace })`; both name the same namespace in state.
   */
  account?: string;
}

/** Options of every reseller resource: Pulumi's own `pulumi.CustomResourceOptions` (`provider` a reseller {@link Provider}), and `account`. */
export type ResellerResourceOptions = Omit<pulumi.CustomResourceOptions, "provider"> & AccountOption;

/**
 * Outputs that are secret although no same-named input is, by kind. Each name is checked by the
 * compiler against the kind's outputs in test/resources/kind-tables.types.ts (compiled by
 * `npm run build`): this side imports no kind.
 */
export const SECRET_OUTPUTS_BY_KIND = {
  Domain: ["contacts", "authCode"],
  EppCode: ["authCode"],
  // Keys of the zone's other records, a DnsRecord's secret content among them: this resource cannot tell which are secret.
  DnsZoneRecords: ["unmanaged", "elsewhere"],
} as const satisfies { readonly [K in Kind]?: readonly string[] };

/**
 * Outputs that are secret although no same-named input is, by type token. The constructors pass
 * them as `additionalSecretOutputs`, which the engine applies (the CLI's, and dev/engine/, which sees
 * every resource option).
 */
export const SECRET_OUTPUTS: Record<string, string[]> = Object.fromEntries(
  Object.entries(SECRET_OUTPUTS_BY_KIND).map(([kind, names]) => [typeToken(kind as Kind), [...names]]),
);

/**
 * Registers a dynamic resource of `kind`: adds the `resourceUrn` input (Pulumi reserves `urn` as a property name; create is not given the URN, and
 * idempotency keys and the shared-TTL registry need it), declares every output key, and merges
 * the kind's secret outputs into the options.
 */
export function resourceArgs(
  kind: Kind,
  name: string,
  args: object,
  outputs: readonly string[],
  resourceOpts: ResellerResourceOptions | undefined,
  declared?: Declared,
): [pulumi.dynamic.ResourceProvider, string, pulumi.Inputs, pulumi.CustomResourceOptions, string, string] {
  const tooOld = sdkTooOld();
  if (tooOld) throw new Error(tooOld);
  const { account, provider, ...opts } = resourceOpts ?? {};
  const ns = namespaceOf({ account, provider }, `${kind} ${name}: `);
  const urn = pulumi.createUrn(name, typeToken(kind), parentUrnOf(opts.parent), pulumi.getProject(), pulumi.getStack());
  const props: pulumi.Inputs = Object.fromEntries(outputs.map((k) => [k, undefined]));
  Object.assign(props, args, { resourceUrn: urn, [SECRET_INPUTS]: secretInputNames(args) });
  const secret = SECRET_OUTPUTS[typeToken(kind)] ?? [];
  // The program's Domain (and DnsZone) of a domain this resource names as a literal go first
  // (./declaration-order.ts); the SDK gathers nested lists and promises of resources alike.
  const implicit = declared && implicitDependsOn(declared);
  const options: pulumi.CustomResourceOptions = {
    ...opts,
    additionalSecretOutputs: [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secret])],
    ...(implicit ? { dependsOn: opts.dependsOn === undefined ? implicit : ([opts.dependsOn, implicit] as pulumi.Input<pulumi.Resource>[]) } : {}),
  };
  return [shim(kind, ns), name, props, options, MODULE, kind];
}

/** The declaration ./declaration-order.ts orders by; undefined for a resource read with `get` (an `id` option), which creates nothing. */
function declarationOf(kind: Kind, name: string, args: object, opts: ResellerResourceOptions | undefined, order: DeclarationOrder | undefined): Declared | undefined {
  if (!order || opts?.id !== undefined) return undefined;
  const account = namespaceOf({ account: opts?.account, provider: opts?.provider }, `${kind} ${name}: `);
  const waits = dependsOnResources(args) || opts?.dependsOn !== undefined || pulumi.CustomResource.isInstance(opts?.parent);
  return { kind, order, account, args: args as Record<string, unknown>, waits };
}

/**
 * Whether `v` holds (in an array or a plain object) a promise, or an output made from a resource's:
 * what could make a resource wait for another of the program. A secret or value of the stack's
 * config is an output of no resource.
 */
function dependsOnResources(v: unknown, depth = 0): boolean {
  if (pulumi.Output.isInstance(v)) return (v as unknown as { resources?: () => Set<unknown> }).resources?.().size !== 0;
  if (v instanceof Promise) return true;
  if (depth > 10 || !v || typeof v !== "object") return false;
  return Object.values(v).some((x) => dependsOnResources(x, depth + 1));
}

/** Whether `v` is or holds (in an array or a plain object) an Output or a promise: only those can be secret. */
function holdsOutput(v: unknown, depth = 0): boolean {
  if (pulumi.Output.isInstance(v) || v instanceof Promise) return true;
  if (depth > 10 || !v || typeof v !== "object") return false;
  return Object.values(v).some((x) => holdsOutput(x, depth + 1));
}

/**
 * The names of the inputs the program marked secret (pulumi.secret, a secret output, or one inside
 * an object or list), for the input `secretInputs`: the provider host gets plain values and could
 * not tell otherwise (resources/kit/secret-inputs.ts). Undefined, so absent from the inputs and the
 * state, when none is; resolved without waiting for anything but the inputs themselves.
 */
function secretInputNames(args: object): pulumi.Output<string[] | undefined> | undefined {
  const candidates = Object.entries(args).filter(([, v]) => holdsOutput(v));
  if (!candidates.length) return undefined;
  const names = Promise.all(candidates.map(async ([k, v]) => ((await pulumi.isSecret(pulumi.output(v))) ? k : undefined))).then((ns) => {
    const secret = ns.filter((n): n is string => n !== undefined);
    return secret.length ? secret : undefined;
  });
  return pulumi.output(names);
}

/**
 * Base of every reseller resource: registers through `resourceArgs`, with the SDK's per-promise
 * stack text switched off for the duration.
 *
 * The SDK gives each property of a resource four promises and records `new Error().stack` on each
 * (`debuggablePromise`, runtime/debuggable.js), formatted at once through source-map-support,
 * which the program runner registers. That text is read only when `PULUMI_DEBUG_PROMISE_LEAKS` is
 * set, and it was about 90 % of the program's CPU for a DnsRecord. So the
 * registration runs with `Error.stackTraceLimit` 0 unless that variable is set, and the limit is
 * restored before the constructor returns or throws.
 *
 * The stack text of the registration leaves out this package's constructors, so the source position
 * and stack trace the SDK sends (and the CLI keeps in state) start at the user's line.
 *
 * What stays: the resource's source position and stack trace sent to the engine, and the stack of
 * an error thrown from here (captured again at the caller). What goes: the frames of the error the
 * SDK prepares for a registration the engine refuses later; its message still names the resource
 * and its type. The SDK's capture of the source position raises the limit for itself from 3.200
 * (`Resource.callsites`); an older SDK reads it under the ambient limit, so there nothing changes.
 */
export abstract class ResellerResource extends pulumi.dynamic.Resource {
  protected constructor(kind: Kind, name: string, args: object, outputs: readonly string[], opts: ResellerResourceOptions | undefined, order?: DeclarationOrder) {
    const limit = Error.stackTraceLimit;
    const quiet = !process.env.PULUMI_DEBUG_PROMISE_LEAKS && positionsSurviveNoStacks();
    if (quiet) Error.stackTraceLimit = 0;
    const format = Error.prepareStackTrace;
    Error.prepareStackTrace = withoutOwnConstructors(format);
    let declared: Declared | undefined;
    try {
      declared = declarationOf(kind, name, args, opts, order);
      super(...resourceArgs(kind, name, args, outputs, opts, declared));
      if (declared) noteDeclared(declared, this);
    } catch (e) {
      Error.stackTraceLimit = limit;
      Error.prepareStackTrace = format;
      if (quiet && e instanceof Error) Error.captureStackTrace(e, new.target);
      throw e;
    } finally {
      Error.stackTraceLimit = limit;
      Error.prepareStackTrace = format;
    }
  }
}

/** This package's resources/ folder (built or not): the constructors' files. */
const RESOURCES_DIR = path.dirname(__dirname) + path.sep;

/**
 * A stack formatter that leaves out the frames of this package's constructors (the kind's class and
 * ResellerResource), then formats as `format` (the runner's source-map-support) or as V8 does.
 * The SDK takes a resource's source position and stack trace, which the Pulumi CLI keeps in state
 * per resource, a fixed number of frames below `new dynamic.Resource`: without this, the position
 * of every resource was ResellerResource's line in this package, not the user's.
 */
function withoutOwnConstructors(format: typeof Error.prepareStackTrace): (error: Error, sites: NodeJS.CallSite[]) => unknown {
  return (error, sites) => {
    const kept = sites.filter((s) => !(s.isConstructor() && (s.getFileName() ?? "").startsWith(RESOURCES_DIR)));
    return format ? format(error, kept) : [String(error), ...kept.map((s) => `    at ${s.toString()}`)].join("\n");
  };
}

let survive: boolean | undefined;

/** Whether the SDK still finds a resource's source position with `Error.stackTraceLimit` 0 (asked once). */
function positionsSurviveNoStacks(): boolean {
  if (survive === undefined) {
    const callsites = (pulumi.Resource as unknown as { callsites?: () => unknown[] }).callsites;
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      survive = typeof callsites === "function" && callsites.call(pulumi.Resource).length > 0;
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
  return survive;
}

/**
 * The parent's URN as an output that does not depend on the parent. `createUrn(…, parent)` would
 * carry the parent as a dependency of the `resourceUrn` input, and the SDK widens a dependency on a
 * component to all of its children: two of our resources under one component then wait for each
 * other and neither registers (under `pulumi up` as under dev/engine/).
 */
function parentUrnOf(parent: pulumi.Resource | undefined): pulumi.Output<string> | undefined {
  if (!parent) return undefined;
  return pulumi.output(new Promise<string>((resolve) => void parent.urn.apply((u) => resolve(u))));
}

/** Whether `obj` is a reseller resource of `kind`, by its type token (so across copies of the package). */
export function isResellerResource(obj: unknown, kind: Kind): boolean {
  return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === typeToken(kind);
}
