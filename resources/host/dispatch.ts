/**
 * The implementation behind every serialized shim (../program/shim.ts). Loaded in the provider host
 * through ../runtime.ts, which old states `require` by package path: keep these exports stable, old
 * states ask for them. Each export takes the resource kind first and forwards to its handler with
 * the account's HostContext (../kit/context.ts).
 *
 * This module holds the process's one `Host`: the provider host serves every dynamic resource of
 * the stack from one process, and the SDK calls these exports without any context of ours.
 */
import { DEFAULT_ACCOUNT } from "../shared/api";
import type { DiffResult } from "../kit/diff";
import type { Props } from "../kit/handler";
import type { HostContext } from "../kit/context";
import { Host } from "./host";
import { onEngineCancel } from "./engine-cancel";
import { SECRET_INPUTS } from "../kinds";
import { dropPreviewReads, preflight, previewDiff, previewRecordWritten } from "../kit/preflight";
import { HANDLERS, isKind, type KindHandler } from "../handlers";
import { judgeNames } from "../kit/disguised-inputs";
import { sdkTooOld } from "../shared/sdk-version";
import type { CheckResult } from "../kit/check";
import { dropExpectedEchoes, expectEcho } from "./sdk-echo";
import { isSettingError } from "../../api/settings";
import { markDerivedSecrets } from "../kit/secret-inputs";
import { PartialFailure } from "../kit/partial-failure";
import type { LogSink } from "../kit/log";

/** Pulumi's engine log, as the SDK's provider host reaches it (loaded at the first line: the native provider never loads the SDK). */
const sdkLog: LogSink = {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  info: (line) => void (require("@pulumi/pulumi") as typeof import("@pulumi/pulumi")).log.info(line),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  warn: (line) => void (require("@pulumi/pulumi") as typeof import("@pulumi/pulumi")).log.warn(line),
};
let sink: LogSink = sdkLog;

const host = new Host({
  sink: { info: (line) => sink.info(line), warn: (line) => sink.warn(line) },
  sdkTooOld: () => sdkTooOld(),
});

/**
 * Where the host's log lines go, for a process that is not the SDK's provider host (the native
 * provider, ../provider/: lines attached to the resource they concern). Lines reach it redacted.
 */
export function useLogSink(s: LogSink): void {
  sink = s;
}

/** The engine's Cancel, heard by a process that serves the provider RPCs itself (../provider/): as engine-cancel.ts does for the SDK's host. */
export function cancel(why: string): void {
  host.cancel(why);
}
// In the SDK's provider host: the engine's Cancel (the CLI's first Ctrl-C or SIGINT) stops new requests.
onEngineCancel(() => host.cancel("the Pulumi CLI cancelled the command"));
// The SDK's host prints what check, diff, read and delete throw, besides sending it to the engine: printed once (sdk-echo.ts).
dropExpectedEchoes();

/** The handler table and its types, exported here too: runtime.ts re-exports this module, and its export names stay. */
export { HANDLERS, type OutputsOf } from "../handlers";

function handler(name: string): KindHandler {
  const tooOld = sdkTooOld();
  if (tooOld) throw new Error(tooOld);
  if (!isKind(name)) throw new Error(`reseller-pulumi: unknown resource kind "${name}" (state written by a newer version?)`);
  return HANDLERS[name];
}

const contextOf = (account: string | undefined): HostContext => host.context(account ?? DEFAULT_ACCOUNT);

/** The account's configured client, for a process that serves read-only functions itself (../provider/: Invoke). */
export const accountApi = (account?: string): ReturnType<HostContext["api"]> => contextOf(account).api();

/**
 * Runs a handler call with the values its property bags mark secret (`secretInputs`, from the
 * program) added to the host's, and masks them in whatever it throws: the SDK's host sends its
 * message and reasons to the engine, and `sdk: "prints"` (check, diff, read, delete) its text and
 * stack to stderr too.
 */
async function guarded<T>(bags: Props[], run: () => T | Promise<T>, sdk: "prints" | "sends only" = "sends only"): Promise<T> {
  host.secrets.addFrom(...bags);
  host.callsUnderWay++;
  try {
    return await run();
  } catch (e) {
    const error = withoutTrace(host.secrets.scrub(e));
    // A user's error once (on its resource), a bug's trace as the SDK prints it.
    if (sdk === "prints" && error instanceof Error && error.stack === "") expectEcho(error);
    throw error;
  } finally {
    host.callsUnderWay--;
  }
}

/**
 * The SDK's host prints every error a call throws as `${e}: ${e.stack}`, which the CLI shows the user
 * beside the error the engine reports on the resource. An error this package raises for the user
 * (a refusal, the service's answer) is its message, not a stack trace naming files of the machine:
 * it prints as its message once. A JavaScript engine's own error (TypeError and its kin: a bug) keeps
 * its trace.
 */
function withoutTrace(e: unknown): unknown {
  if (!(e instanceof Error)) return e;
  // A setting the user got wrong is a TypeError, as the client's other refusals of options, but no bug.
  if (!isSettingError(e) && (e instanceof TypeError || e instanceof ReferenceError || e instanceof RangeError || e instanceof SyntaxError)) return e;
  const message = e.message;
  Object.defineProperty(e, "stack", { value: "", configurable: true, writable: true, enumerable: false });
  Object.defineProperty(e, "toString", { value: () => message, configurable: true, writable: true, enumerable: false });
  return e;
}

/** The subset of Pulumi's dynamic ConfigureRequest we read. */
export interface ConfigureRequest {
  config: { get(key: string): string | undefined };
}

// `account` (last, optional) is the config namespace of a shim made for the resource option
// `account`; shims in older states do not pass it and mean the default namespace, "reseller".

export async function configure(_kind: string, req: ConfigureRequest, account: string = DEFAULT_ACCOUNT): Promise<void> {
  host.configure((key) => req.config.get(`${account}:${key}`), account);
}

export async function check(name: string, olds: Props, news: Props, account?: string): Promise<CheckResult<unknown>> {
  const ctx = contextOf(account);
  // After the offline validation, what up will meet (preflight.ts): in preview and up alike.
  const r = await guarded([news, olds], async () => {
    const h = handler(name);
    const was = h.upgrade(olds);
    // Host names that are not what they look like: warned about, or refused (names.strict), before anything is read.
    // (`name` is a kind: handler() refused any other.)
    const checked = judgeNames(ctx, name, h.nameInputs, news, await h.check(ctx, was, news));
    return preflight(ctx, h.preview, was, checked);
  }, "prints");
  // Failures of the inputs marked secret never show them (./check.ts); no other failure may quote them either.
  return r.ok ? { ...r, inputs: markDerivedSecrets(withSecretMarker(r.inputs, news), news, handler(name).secretDerived) } : { ...r, failures: r.failures.map((f) => ({ property: host.secrets.mask(f.property), reason: host.secrets.mask(f.reason) })) };
}

/**
 * Checked inputs that still carry the program's `secretInputs` marker: create, update and the outputs
 * they make are told which inputs were secret by it (a kind's check may build its inputs afresh).
 */
function withSecretMarker(inputs: unknown, news: Props): unknown {
  const marker = news[SECRET_INPUTS];
  if (marker === undefined || typeof inputs !== "object" || inputs === null || SECRET_INPUTS in inputs) return inputs;
  return { ...inputs, [SECRET_INPUTS]: marker };
}

export async function diff(name: string, id: string, olds: Props, news: Props, account?: string): Promise<DiffResult> {
  return guarded([news, olds], async () => {
    const ctx = contextOf(account);
    const h = handler(name);
    const d = h.diff(ctx, id, olds, news);
    // What only the diff decides (a Domain's renewal, priced as a purchase): preflight.ts.
    await previewDiff(ctx, h.previewDiff, olds, news, d);
    return d;
  }, "prints");
}

/**
 * After any write the account-wide read lists may be stale (read-cache.ts). Check's predictions
 * (preflight.ts) are read again only when a write may have happened: a request other than GET was
 * answered, or the call failed; an adoption that sent none keeps them (700 adopted records would
 * otherwise read the zone list and the zone again after each one). A DnsRecord's answered write
 * changed its zone's records and nothing else check reads (the zone list, the zone's state and
 * delegation, domains): a create or a delete is applied to the records as read (`recorded`), any
 * other write has them read again. The Pulumi CLI checks each record just before it creates it:
 * when every write dropped every view, an up of 300 records sent 206 reads besides its 300 creates,
 * each zone read holding the zone's records so far.
 */
function written<T>(ctx: HostContext, p: Promise<T>, record?: { zone: string; recorded?: (v: T) => boolean }): Promise<T> {
  const sent = ctx.writesSent();
  const settle = (failed: boolean, v?: T): void => {
    ctx.reads.dropAccountLists();
    if (!failed && ctx.writesSent() === sent) return;
    if (failed || !record) dropPreviewReads(ctx);
    else if (!record.recorded?.(v as T)) dropPreviewReads(ctx, record.zone);
  };
  return p.then(
    (v) => {
      settle(false, v);
      return v;
    },
    (e: unknown) => {
      settle(true);
      throw e;
    },
  );
}

/** The zone of a record kind's write (recordWrites), when every given props names the same one (an update that moves zones drops all views). */
function recordZone(h: KindHandler, ...props: Props[]): string | undefined {
  if (!h.recordWrites) return undefined;
  const zones = new Set(props.map((p) => h.recordWrites!.zone(p)));
  const [zone] = zones;
  return zones.size === 1 ? zone : undefined;
}

/**
 * A write's or read's result (or its partial failure's properties) with what the kind derives from an
 * input the program marked secret (in `from`) kept secret in state (markDerivedSecrets).
 */
async function keptSecret<T extends { outs: unknown } | { props: unknown }>(name: string, from: Props, run: Promise<T>): Promise<T> {
  const derived = handler(name).secretDerived;
  try {
    const r = await run;
    return "outs" in r ? { ...r, outs: markDerivedSecrets(r.outs, from, derived) } : { ...r, props: markDerivedSecrets(r.props, from, derived) };
  } catch (e) {
    if (e instanceof PartialFailure) Object.defineProperty(e, "properties", { value: markDerivedSecrets(e.properties, from, derived), configurable: true, enumerable: true });
    throw e;
  }
}

export function create(name: string, inputs: Props, account?: string): Promise<{ id: string; outs: unknown }> {
  const ctx = contextOf(account);
  return guarded([inputs], () => {
    const h = handler(name);
    const zone = recordZone(h, inputs);
    // An adoption that wrote (its TTL set) changed the siblings' TTL too: read again.
    const recorded = (v: { outs: unknown }): boolean => {
      const record = h.recordWrites?.created(v.outs as Props);
      if (zone === undefined || !record) return false;
      previewRecordWritten(ctx, zone, { created: record });
      return true;
    };
    return keptSecret(name, inputs, written(ctx, h.create(ctx, inputs), zone === undefined ? undefined : { zone, recorded }));
  });
}

export function read(name: string, id: string, props: Props, account?: string): Promise<{ id: string; props: unknown }> {
  return guarded([props], () => keptSecret(name, props, handler(name).read(contextOf(account), id, props)), "prints");
}

export function update(name: string, id: string, olds: Props, news: Props, account?: string): Promise<{ outs: unknown }> {
  const ctx = contextOf(account);
  return guarded([news, olds], () => {
    const h = handler(name);
    const zone = recordZone(h, olds, news);
    return keptSecret(name, news, written(ctx, h.update(ctx, id, olds, news), zone === undefined ? undefined : { zone }));
  });
}

// `delete` is a reserved word as a declaration name; exported under that name below.
function remove(name: string, id: string, props: Props, account?: string): Promise<void> {
  const ctx = contextOf(account);
  return guarded([props], () => {
    const h = handler(name);
    const zone = recordZone(h, props);
    if (zone === undefined) return written(ctx, h.delete(ctx, id, props));
    const recorded = (): boolean => {
      previewRecordWritten(ctx, zone, { deleted: id });
      return true;
    };
    return written(ctx, h.delete(ctx, id, props), { zone, recorded });
  }, "prints");
}
export { remove as delete };

// ---- Entry points of the shared provider (../program/shim.ts): the kind comes from the resource's URN. ----

/** The kind named by a URN's type (`...::pulumi-nodejs:dynamic/reseller:<Kind>::name`, parent types before a `$`). */
export function kindOfUrn(urn: unknown): string {
  const type = typeof urn === "string" ? urn.split("::")[2] : undefined;
  const name = type?.split("$").pop()?.split(":").pop();
  if (!name || !isKind(name)) throw new Error(`reseller-pulumi: cannot tell the resource kind from resourceUrn ${JSON.stringify(urn)}`);
  return name;
}

const isBag = (v: unknown): v is Props => typeof v === "object" && v !== null && !Array.isArray(v);

/** The property bag the engine passed; anything else is a call this provider does not know. */
function bag(v: unknown): Props {
  if (!isBag(v)) throw new Error(`reseller-pulumi: expected a property map from the provider host, got ${typeof v}`);
  return v;
}

const kindOf = (props: unknown): string => kindOfUrn(bag(props).resourceUrn);

const isConfigureRequest = (v: unknown): v is ConfigureRequest => isBag(v) && isBag(v.config) && typeof v.config.get === "function";

/**
 * configure(req), check(olds, news), diff(id, olds, news), create(inputs) and read(id, props) in one
 * function: an id (a string) first means diff (three arguments) or read (two); otherwise two
 * property maps are check, and one is create unless it is the configure request.
 */
export function dispatch(...a: unknown[]): Promise<unknown> {
  return dispatchIn(undefined, ...a);
}

export function updateByUrn(id: string, olds: Props, news: Props): Promise<{ outs: unknown }> {
  return updateByUrnIn(undefined, id, olds, news);
}

export function deleteByUrn(id: string, props: Props): Promise<void> {
  return deleteByUrnIn(undefined, id, props);
}

/** The same, for the shared provider of another account (resource option `account`: a config namespace). */
export function dispatchIn(account: string | undefined, ...a: unknown[]): Promise<unknown> {
  if (typeof a[0] === "string") {
    const id = a[0];
    return a.length >= 3 ? diff(kindOf(a[2]), id, bag(a[1]), bag(a[2]), account) : read(kindOf(a[1]), id, bag(a[1]), account);
  }
  if (a.length >= 2) return check(kindOf(a[1]), bag(a[0]), bag(a[1]), account);
  if (isConfigureRequest(a[0])) return configure("", a[0], account);
  return create(kindOf(a[0]), bag(a[0]), account);
}

export function updateByUrnIn(account: string | undefined, id: string, olds: Props, news: Props): Promise<{ outs: unknown }> {
  return update(kindOf(news), id, olds, news, account);
}

export function deleteByUrnIn(account: string | undefined, id: string, props: Props): Promise<void> {
  return remove(kindOf(props), id, props, account);
}
