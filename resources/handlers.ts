/**
 * The kinds' handlers, by kind: the one module that imports every kind's handler. The dynamic
 * provider host (./host/dispatch.ts), the native provider (./provider/, through the dispatch) and the import command (../cli/import-file.ts) look a kind up
 * here; nothing below the kinds imports it. A kind without a handler, or an entry that is no kind,
 * does not compile (`IMPLEMENTATIONS` is checked against `Kind`, ./kinds.ts).
 */
import { domainHandler } from "./domain/handler";
import { childHostHandler } from "./child-host/handler";
import { privacyHandler, protectionHandler } from "./domain-addon/handler";
import { eppCodeHandler } from "./epp-code/handler";
import { recordHandler } from "./dns-record/handler";
import { templateHandler } from "./zone-template/handler";
import { zoneHandler } from "./dns-zone/handler";
import { zoneRecordsHandler } from "./zone-records/handler";
import type { CheckResult } from "./kit/check";
import type { HostContext } from "./kit/context";
import type { DiffResult } from "./kit/diff";
import type { Gone, Handler, Imported, NameInputs, Props, RecordWrites, SecretDerived } from "./kit/handler";
import type { DiffPrediction, Prediction } from "./kit/preflight";
import type { Kind } from "./kinds";

/**
 * The one place property bags from the engine become a kind's types. The engine hands `diff`,
 * `create` and `update` the inputs `check` returned, and `read`, `update` and `delete` the outputs a
 * create, read or update returned (state keeps them as they were); they are not parsed again. This is
 * the typing Pulumi's own `dynamic.ResourceProvider<Inputs, Outputs>` gives a provider.
 */
function fromEngine<T>(bag: Props): T {
  return bag as unknown as T;
}

/** A handler behind the engine's untyped calls. */
export interface KindHandler {
  upgrade(state: Props): Props;
  preview?: Prediction;
  previewDiff?: DiffPrediction;
  nameInputs: NameInputs;
  recordWrites?: RecordWrites<Props>;
  secretDerived?: SecretDerived;
  importId(id: string): Imported;
  check(ctx: HostContext, olds: Props, news: Props): Promise<CheckResult<unknown>>;
  diff(ctx: HostContext, id: string, olds: Props, news: Props): DiffResult;
  create(ctx: HostContext, inputs: Props): Promise<{ id: string; outs: unknown }>;
  read(ctx: HostContext, id: string, props: Props): Promise<{ id: string; props: unknown } | Gone>;
  update(ctx: HostContext, id: string, olds: Props, news: Props): Promise<{ outs: unknown }>;
  delete(ctx: HostContext, id: string, props: Props): Promise<void>;
}

function kind<I, O>(h: Handler<I, O>): KindHandler {
  const upgrade = (state: Props): Props => (h.upgrade ? h.upgrade(state) : state);
  const writes = h.recordWrites;
  return {
    upgrade,
    preview: h.preview,
    previewDiff: h.previewDiff,
    nameInputs: h.nameInputs,
    recordWrites: writes && { zone: writes.zone, created: (outs) => writes.created(fromEngine<O>(outs)) },
    secretDerived: h.secretDerived,
    importId: (id) => h.importId(id),
    // check's olds are upgraded by the caller, which hands them to preflight as well.
    check: async (ctx, olds, news) => h.check(ctx, olds, news),
    // A refresh's diff gets the inputs in state as news (engine: RefreshStep), old names and all.
    diff: (ctx, id, olds, news) => h.diff(ctx, id, fromEngine<O>(upgrade(olds)), fromEngine<I>(upgrade(news))),
    create: (ctx, inputs) => h.create(ctx, fromEngine<I>(inputs)),
    read: (ctx, id, props) => h.read(ctx, id, fromEngine<O>(upgrade(props))),
    update: (ctx, id, olds, news) => h.update(ctx, id, fromEngine<O>(upgrade(olds)), fromEngine<I>(news)),
    delete: (ctx, id, props) => h.delete(ctx, id, fromEngine<O>(upgrade(props))),
  };
}

/**
 * Each resource kind's implementation, keyed by the kind type (./kinds.ts): a kind without a handler,
 * or an entry that is no kind, does not compile.
 */
const IMPLEMENTATIONS = {
  Domain: domainHandler,
  DnsZone: zoneHandler,
  DnsRecord: recordHandler,
  ZoneTemplate: templateHandler,
  ChildHost: childHostHandler,
  PrivacyAddon: privacyHandler,
  Protection: protectionHandler,
  EppCode: eppCodeHandler,
  DnsZoneRecords: zoneRecordsHandler,
} satisfies { readonly [K in Kind]: Handler<unknown, unknown> };

/** What a kind's handler keeps in state (its `O`): the names a resource class lists as outputs are checked against it (./program/output-names.ts). */
export type OutputsOf<K extends Kind> = (typeof IMPLEMENTATIONS)[K] extends Handler<unknown, infer O> ? O : never;

/** The handlers behind the engine's untyped calls, by kind (every kind: IMPLEMENTATIONS is checked to hold each). */
export const HANDLERS = Object.fromEntries(Object.entries(IMPLEMENTATIONS).map(([k, h]) => [k, kind<unknown, unknown>(h)])) as { readonly [K in Kind]: KindHandler };

/** Whether `name` is a kind this version implements (own keys only: not `toString` and the like). */
export const isKind = (name: string): name is Kind => Object.prototype.hasOwnProperty.call(HANDLERS, name);
