/**
 * The implementation behind every serialized shim (./shim.ts). Loaded in the provider host by
 * `require("reseller-pulumi/dist/resources/runtime")`: keep this path and these exports stable,
 * old states ask for them. Each export takes the resource kind first and forwards to its handler.
 */
import { addonKinds } from "./addon-handlers";
import { client, configureFrom, inAccount } from "./context";
import { dropAccountLists } from "./read-cache";
import { domainHandler } from "./domain-handler";
import { recordHandler, templateHandler, zoneHandler } from "./dns-handlers";
import type { Handler, Props } from "./handler";
import { sdkTooOld } from "./sdk-version";
import { templateFailures } from "./template-check";
import type { CheckResult } from "./validate";
import type { DiffResult } from "./diff";

/** Resource kinds, as the shims name them. */
export const HANDLERS: Record<string, Handler> = {
  Domain: domainHandler,
  DnsZone: zoneHandler,
  DnsRecord: recordHandler,
  ZoneTemplate: templateHandler,
  ...addonKinds,
};

function handler(kind: string): Handler {
  const tooOld = sdkTooOld();
  if (tooOld) throw new Error(tooOld);
  const h = HANDLERS[kind];
  if (!h) throw new Error(`reseller-pulumi: unknown resource kind "${kind}" (state written by a newer version?)`);
  return h;
}

/** The subset of Pulumi's dynamic ConfigureRequest we read. */
export interface ConfigureRequest {
  config: { get(key: string): string | undefined };
}

// `account` (last, optional) is the config namespace of a shim made for the resource option
// `account`; shims in older states do not pass it and mean the default namespace, "reseller".

export async function configure(_kind: string, req: ConfigureRequest, account = "reseller"): Promise<void> {
  configureFrom((key) => req.config.get(`${account}:${key}`), account);
}

export async function check(kind: string, olds: Props, news: Props, account?: string): Promise<CheckResult> {
  return inAccount(account, async () => {
    const result = handler(kind).check(olds, news);
    // A template id or variable the service does not have fails at preview, not at apply.
    if (kind === "ZoneTemplate" && result.failures.length === 0) result.failures.push(...(await templateFailures(result.inputs, client)));
    return result;
  });
}

export async function diff(kind: string, id: string, olds: Props, news: Props, account?: string): Promise<DiffResult> {
  return inAccount(account, () => handler(kind).diff(id, olds, news));
}

/** After any write the account-wide read lists may be stale (read-cache.ts). */
const written = <T>(p: Promise<T>): Promise<T> => p.finally(dropAccountLists);

export function create(kind: string, inputs: Props, account?: string): Promise<{ id: string; outs: Props }> {
  return inAccount(account, () => written(handler(kind).create(inputs)));
}

export function read(kind: string, id: string, props: Props, account?: string): Promise<{ id: string; props: Props }> {
  return inAccount(account, () => handler(kind).read(id, props));
}

export function update(kind: string, id: string, olds: Props, news: Props, account?: string): Promise<{ outs: Props }> {
  return inAccount(account, () => written(handler(kind).update(id, olds, news)));
}

// `delete` is a reserved word as a declaration name; exported under that name below.
function remove(kind: string, id: string, props: Props, account?: string): Promise<void> {
  return inAccount(account, () => written(handler(kind).delete(id, props)));
}
export { remove as delete };

// ---- Entry points of the shared provider (./shim.ts): the kind comes from the resource's URN. ----

/** The kind named by a URN's type (`...::pulumi-nodejs:dynamic/reseller:<Kind>::name`, parent types before a `$`). */
export function kindOfUrn(urn: unknown): string {
  const type = typeof urn === "string" ? urn.split("::")[2] : undefined;
  const kind = type?.split("$").pop()?.split(":").pop();
  if (!kind || !HANDLERS[kind]) throw new Error(`reseller-pulumi: cannot tell the resource kind from resourceUrn ${JSON.stringify(urn)}`);
  return kind;
}

const kindOf = (props: unknown): string => kindOfUrn((props as Props | undefined)?.resourceUrn);

const isConfigureRequest = (v: unknown): v is ConfigureRequest => typeof (v as ConfigureRequest | undefined)?.config?.get === "function";

/**
 * configure(req), check(olds, news), diff(id, olds, news), create(inputs) and read(id, props) in one
 * function: an id (a string) first means diff (three arguments) or read (two); otherwise two
 * property maps are check, and one is create unless it is the configure request.
 */
export function dispatch(...a: unknown[]): Promise<unknown> {
  return dispatchIn(undefined, ...a);
}

export function updateByUrn(id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  return updateByUrnIn(undefined, id, olds, news);
}

export function deleteByUrn(id: string, props: Props): Promise<void> {
  return deleteByUrnIn(undefined, id, props);
}

/** The same, for the shared provider of another account (resource option `account`: a config namespace). */
export function dispatchIn(account: string | undefined, ...a: unknown[]): Promise<unknown> {
  if (typeof a[0] === "string") {
    const id = a[0];
    return a.length >= 3 ? diff(kindOf(a[2]), id, a[1] as Props, a[2] as Props, account) : read(kindOf(a[1]), id, a[1] as Props, account);
  }
  if (a.length >= 2) return check(kindOf(a[1]), a[0] as Props, a[1] as Props, account);
  if (isConfigureRequest(a[0])) return configure("", a[0], account);
  return create(kindOf(a[0]), a[0] as Props, account);
}

export function updateByUrnIn(account: string | undefined, id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  return update(kindOf(news), id, olds, news, account);
}

export function deleteByUrnIn(account: string | undefined, id: string, props: Props): Promise<void> {
  return remove(kindOf(props), id, props, account);
}
