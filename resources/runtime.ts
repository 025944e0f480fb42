/**
 * The implementation behind every serialized shim (./shim.ts). Loaded in the provider host by
 * `require("reseller-pulumi/dist/resources/runtime")`: keep this path and these exports stable,
 * old states ask for them. Each export takes the resource kind first and forwards to its handler.
 */
import { addonKinds } from "./addon-handlers";
import { client, configureFrom, inAccount } from "./context";
import { domainHandler } from "./domain-handler";
import { recordHandler, templateHandler, zoneHandler } from "./dns-handlers";
import type { Handler, Props } from "./handler";
import { checkSdkVersion } from "./sdk-version";
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
  checkSdkVersion();
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

export function create(kind: string, inputs: Props, account?: string): Promise<{ id: string; outs: Props }> {
  return inAccount(account, () => handler(kind).create(inputs));
}

export function read(kind: string, id: string, props: Props, account?: string): Promise<{ id: string; props: Props }> {
  return inAccount(account, () => handler(kind).read(id, props));
}

export function update(kind: string, id: string, olds: Props, news: Props, account?: string): Promise<{ outs: Props }> {
  return inAccount(account, () => handler(kind).update(id, olds, news));
}

// `delete` is a reserved word as a declaration name; exported under that name below.
function remove(kind: string, id: string, props: Props, account?: string): Promise<void> {
  return inAccount(account, () => handler(kind).delete(id, props));
}
export { remove as delete };
