/**
 * `pulumi-resource-reseller`: the native Pulumi provider plugin. The engine starts it with its own
 * address as the first argument; it serves pulumirpc.ResourceProvider (`@pulumi/pulumi/proto/
 * provider_grpc_pb`, not `pulumi.provider.main`, which ignores Configure's request, answers
 * CheckConfig and DiffConfig Unimplemented and sends no detailed diff) on 127.0.0.1, port printed on
 * stdout. Every resource call goes to the same dispatch, handlers, checks, preview predictions and
 * money guards as the dynamic resources (../host/dispatch.ts); every function to the same read-only
 * functions (../program/functions.ts, ../program/lookups.ts) with this provider's client.
 *
 * It starts lean: only gRPC and the protocol's messages load at start; the handlers load at the
 * first call that needs them, the read-only functions at the first Invoke; and what it compiles is
 * kept in Node's compile cache for the next start (./compile-cache.ts, imported first).
 */
import "./compile-cache";
import { AsyncLocalStorage } from "node:async_hooks";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { detailedDiff, engineBag, handlerBag, kindOfNativeUrn, reveal, revealBag, type Props } from "./properties";
import { functionNamed } from "./functions";
import { importedInputs, schemaText, secretOutputs } from "./schema";
import { withPlainStructs, type StructFields } from "./wire";

type Dispatch = typeof import("../host/dispatch");

// The protocol as the installed SDK defines it (its gRPC copy, so server and messages agree).
const sdk = createRequire(require.resolve("@pulumi/pulumi/package.json"));
/* eslint-disable @typescript-eslint/no-require-imports */
const grpc = sdk("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
const provrpc = sdk("./proto/provider_grpc_pb");
const provproto = sdk("./proto/provider_pb");
const pluginproto = sdk("./proto/plugin_pb");
const enginerpc = sdk("./proto/engine_grpc_pb");
const engineproto = sdk("./proto/engine_pb");
const structproto = sdk("google-protobuf/google/protobuf/struct_pb");
const emptyproto = sdk("google-protobuf/google/protobuf/empty_pb");
const anyproto = sdk("google-protobuf/google/protobuf/any_pb");
const statusproto = sdk("./proto/status_pb");
/* eslint-enable @typescript-eslint/no-require-imports */

/** The config namespace of this provider's settings: one plugin process serves one provider (default or explicit). */
const NAMESPACE = "reseller";

/** The resource a call is about, so the lines it logs are attached to it. */
const current = new AsyncLocalStorage<string>();

let dispatch: Dispatch | undefined;
let engine: { log(req: unknown, cb: (err: unknown) => void): void } | undefined;

/** The handlers, loaded at the first call that needs them, logging to the engine against the resource of the call. */
function handlers(): Dispatch {
  if (dispatch) return dispatch;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const d = require("../host/dispatch") as Dispatch;
  const send = (severity: number, line: string): void => {
    if (!engine) {
      process.stderr.write(`${line}\n`);
      return;
    }
    const req = new engineproto.LogRequest();
    req.setSeverity(severity);
    req.setMessage(line);
    req.setUrn(current.getStore() ?? "");
    engine.log(req, () => undefined);
  };
  d.useLogSink({ info: (line) => send(engineproto.LogSeverity.INFO, line), warn: (line) => send(engineproto.LogSeverity.WARNING, line) });
  return (dispatch = d);
}

const struct = (v: unknown): unknown => structproto.Struct.fromJavaScript(v ?? {});
const bagOf = (s: { toJavaScript(): Props } | undefined): Props => (s ? s.toJavaScript() : {});

/** A call's failure as the engine takes it; a partial failure (an object made, then an error) keeps the object in state. */
function failure(e: unknown, secrets: ReadonlySet<string> = new Set()): { code: number; message: string; metadata: unknown } {
  const err = e as { message?: string; id?: string; properties?: object; reasons?: string[] };
  const message = err?.message ?? String(e);
  const metadata = new grpc.Metadata();
  if (err && typeof err.id === "string" && err.id) {
    const detail = new provproto.ErrorResourceInitFailed();
    detail.setId(err.id);
    detail.setProperties(struct(engineBag(err.properties ?? {}, secrets)));
    detail.setReasonsList(err.reasons ?? [message]);
    const any = new anyproto.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusproto.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, message, metadata };
}

type Callback = (err: unknown, resp?: unknown, metadata?: unknown) => void;
interface Call {
  request: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** An RPC whose answer `run` makes, attached to `urn`; any failure goes back as the engine takes it. */
function rpc(run: (req: any) => Promise<unknown> | unknown, urnOf: (req: any) => string = () => "") {
  return (call: Call, callback: Callback): void => {
    const urn = urnOf(call.request);
    current.run(urn, async () => {
      try {
        callback(null, await run(call.request));
      } catch (e) {
        const f = failure(e, (e as { secrets?: ReadonlySet<string> })?.secrets);
        callback(f, undefined, f.metadata);
      }
    });
  };
}
const byUrn = (req: { getUrn(): string }): string => req.getUrn();

/** The provider's settings as `configure` reads them: config keys of the namespace, values as text (a non-text value as JSON). */
function settingsOf(bag: Props): (key: string) => string | undefined {
  const plain = reveal(bag).value as Props;
  return (key) => {
    const name = key.startsWith(`${NAMESPACE}:`) ? key.slice(NAMESPACE.length + 1) : undefined;
    const v = name === undefined ? undefined : plain[name];
    if (v === undefined || v === null) return undefined;
    return typeof v === "string" ? v : JSON.stringify(v);
  };
}

/** Inputs of a provider config: its args, or (older engines) the `<ns>:config:<key>` variables. */
function configArgs(req: { getArgs?(): { toJavaScript(): Props } | undefined; getVariablesMap(): { forEach(f: (v: string, k: string) => void): void } }): Props {
  const args = req.getArgs?.();
  if (args) return args.toJavaScript();
  const out: Props = {};
  req.getVariablesMap().forEach((v, k) => {
    const m = /^[^:]+:config:(.+)$/.exec(k);
    if (m) out[m[1]] = v;
  });
  return out;
}

/** The check of a provider config: values that are set but wrong (a missing credential may come from the environment at first use). */
function configProblems(bag: Props): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readSettings } = require("../shared/api") as typeof import("../shared/api");
  const get = settingsOf(bag);
  try {
    readSettings((k) => get(`${NAMESPACE}:${k}`), process.env, NAMESPACE);
    return [];
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return /missing configuration/.test(message) ? [] : [message];
  }
}

/** Whether a provider's URN is a default provider's (`pulumi:providers:reseller::default` or `::default_<version>`). */
const isDefaultProvider = (urn: string | undefined): boolean => !!urn && /::default(_[0-9_]+.*)?$/.test(urn);

/** The stack's `reseller:*` config as the engine passed it to this process (PULUMI_CONFIG: names without the namespace). */
function stackConfig(): ((key: string) => string | undefined) | undefined {
  const text = process.env.PULUMI_CONFIG;
  if (!text) return undefined;
  try {
    return settingsOf(JSON.parse(text) as Props);
  } catch {
    return undefined;
  }
}

const CONFIG_KEYS = ["baseUrl", "apiKey", "apiSecret", "requestsPerMinute", "timeoutSeconds", "rateLimitDir", "contract", "preflight"];

const service = {
  getPluginInfo: rpc(() => {
    const r = new pluginproto.PluginInfo();
    r.setVersion(version());
    return r;
  }),

  getSchema: rpc(() => {
    const r = new provproto.GetSchemaResponse();
    r.setSchema(schemaText());
    return r;
  }),

  checkConfig: rpc((req) => {
    const news = bagOf(req.getNews());
    const r = new provproto.CheckResponse();
    r.setInputs(struct(news));
    r.setFailuresList(
      configProblems(news).map((reason) => {
        const f = new provproto.CheckFailure();
        f.setProperty("");
        f.setReason(reason);
        return f;
      }),
    );
    return r;
  }, byUrn),

  diffConfig: rpc((req) => {
    const olds = reveal(bagOf(req.getOldInputs?.() ?? req.getOlds())).value as Props;
    const news = reveal(bagOf(req.getNews())).value as Props;
    const diffs = CONFIG_KEYS.filter((k) => JSON.stringify(olds[k] ?? null) !== JSON.stringify(news[k] ?? null));
    const r = new provproto.DiffResponse();
    // New settings (a rotated secret, another URL) are used from the next call: nothing is replaced.
    r.setChanges(diffs.length ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE);
    r.setDiffsList(diffs);
    return r;
  }, byUrn),

  configure: rpc((req) => {
    const saved = settingsOf(configArgs(req));
    // The default provider takes the stack's config as it is now (the engine passes it to the plugin
    // as PULUMI_CONFIG), so a setting changed with `pulumi config set` is used by the next refresh and
    // destroy too, which otherwise configure it from the inputs saved at the last up. An explicit
    // provider's settings are its own inputs.
    const current = isDefaultProvider(req.getUrn?.()) ? stackConfig() : undefined;
    handlers().configure("", { config: { get: (key) => current?.(key) ?? saved(key) } }, NAMESPACE);
    const r = new provproto.ConfigureResponse();
    r.setAcceptsecrets(true);
    r.setSupportspreview(false);
    r.setAcceptresources(false);
    r.setAcceptoutputs(false);
    return r;
  }),

  check: rpc(async (req) => {
    const urn: string = req.getUrn();
    const kind = kindOfNativeUrn(urn);
    const olds = revealBag(bagOf(req.getOlds()));
    const news = revealBag(bagOf(req.getNews()));
    const secrets = new Set([...news.secrets, ...secretOutputs(kind).filter((k) => k in news.plain)]);
    // No old inputs is a create (or a replacement), as the checks and predictions tell it (kit/preflight.ts `creating`): nothing is added to them.
    const was = Object.keys(olds.plain).length ? handlerBag(olds.plain, urn, olds.secrets) : {};
    const r = await handlers().check(kind, was, handlerBag(news.plain, urn, secrets));
    const resp = new provproto.CheckResponse();
    resp.setInputs(struct(engineBag(r.inputs, secrets)));
    resp.setFailuresList(
      r.failures.map((x) => {
        const f = new provproto.CheckFailure();
        f.setProperty(x.property);
        f.setReason(x.reason);
        return f;
      }),
    );
    return resp;
  }, byUrn),

  diff: rpc(async (req) => {
    const urn: string = req.getUrn();
    const kind = kindOfNativeUrn(urn);
    const olds = revealBag(bagOf(req.getOlds()));
    const news = revealBag(bagOf(req.getNews()));
    const d = await handlers().diff(kind, req.getId(), handlerBag(olds.plain, urn, olds.secrets), handlerBag(news.plain, urn, news.secrets));
    const resp = new provproto.DiffResponse();
    resp.setChanges(d.changes ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE);
    resp.setReplacesList(d.replaces);
    resp.setStablesList(d.stables);
    resp.setDeletebeforereplace(d.deleteBeforeReplace);
    resp.setDiffsList(d.diffs);
    const detail = resp.getDetaileddiffMap();
    for (const [key, k] of Object.entries(detailedDiff(olds.plain, news.plain, d.diffs, d.replaces))) {
      const p = new provproto.PropertyDiff();
      p.setKind(k);
      p.setInputdiff(true);
      detail.set(key, p);
    }
    resp.setHasdetaileddiff(true);
    return resp;
  }, byUrn),

  create: rpc(async (req) => {
    const urn: string = req.getUrn();
    const kind = kindOfNativeUrn(urn);
    const inputs = revealBag(bagOf(req.getProperties()));
    const secrets = new Set([...inputs.secrets, ...secretOutputs(kind)]);
    try {
      const r = await handlers().create(kind, handlerBag(inputs.plain, urn, inputs.secrets));
      const resp = new provproto.CreateResponse();
      resp.setId(r.id);
      resp.setProperties(struct(engineBag(r.outs, secrets)));
      return resp;
    } catch (e) {
      throw Object.assign(e as object, { secrets });
    }
  }, byUrn),

  read: rpc(async (req) => {
    const urn: string = req.getUrn();
    const kind = kindOfNativeUrn(urn);
    const d = handlers();
    const held = revealBag(bagOf(req.getProperties()));
    const importing = Object.keys(held.plain).length === 0;
    // An import (`pulumi import`, the `import` option) names the object by its id alone.
    const { id, props } = importing ? d.HANDLERS[kind as keyof typeof d.HANDLERS]?.importId(req.getId()) ?? { id: req.getId(), props: {} } : { id: req.getId(), props: held.plain };
    const secrets = new Set([...held.secrets, ...secretOutputs(kind)]);
    const r = (await d.read(kind, id, handlerBag(props, urn, held.secrets))) as { id: string; props: Props };
    const resp = new provproto.ReadResponse();
    if (!r.id) return resp; // gone: the engine drops it
    resp.setId(r.id);
    const inputs = req.getInputs?.();
    if (importing) {
      // Inputs as state keeps them after an up: what check makes of them (the engine stores an import's inputs as read gives them),
      // and, as after a create, the outputs hold them too.
      const picked = handlerBag(importedInputs(kind, r.props), urn, held.secrets);
      const checked = await d.check(kind, {}, picked);
      const taken = (checked.ok ? checked.inputs : picked) as Props;
      resp.setInputs(struct(engineBag(taken, secrets)));
      resp.setProperties(struct(engineBag({ ...taken, ...r.props }, secrets)));
      return resp;
    }
    resp.setProperties(struct(engineBag(r.props, secrets)));
    if (inputs) resp.setInputs(inputs);
    return resp;
  }, byUrn),

  update: rpc(async (req) => {
    const urn: string = req.getUrn();
    const kind = kindOfNativeUrn(urn);
    const olds = revealBag(bagOf(req.getOlds()));
    const news = revealBag(bagOf(req.getNews()));
    const secrets = new Set([...news.secrets, ...olds.secrets, ...secretOutputs(kind)]);
    try {
      const r = await handlers().update(kind, req.getId(), handlerBag(olds.plain, urn, olds.secrets), handlerBag(news.plain, urn, news.secrets));
      const resp = new provproto.UpdateResponse();
      resp.setProperties(struct(engineBag(r.outs, secrets)));
      return resp;
    } catch (e) {
      throw Object.assign(e as object, { secrets });
    }
  }, byUrn),

  delete: rpc(async (req) => {
    const urn: string = req.getUrn();
    const held = revealBag(bagOf(req.getProperties()));
    await handlers().delete(kindOfNativeUrn(urn), req.getId(), handlerBag(held.plain, urn, held.secrets));
    return new emptyproto.Empty();
  }, byUrn),

  invoke: rpc(async (req) => {
    const fn = String(req.getTok()).split(":").pop()!;
    const args = reveal(bagOf(req.getArgs())).value as Props;
    const d = handlers();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const invoke = require("../program/invoke") as typeof import("../program/invoke");
    invoke.useClients(() => d.accountApi(NAMESPACE));
    const f = functionNamed(fn);
    if (!f) throw new Error(`reseller: no function ${req.getTok()}`);
    const result = await f(args);
    const resp = new provproto.InvokeResponse();
    resp.setReturn(struct(engineBag(Array.isArray(result) ? { items: result } : result, new Set())));
    return resp;
  }),

  cancel: rpc(() => {
    dispatch?.cancel("the Pulumi CLI cancelled the command");
    return new emptyproto.Empty();
  }),

  getMapping: rpc(() => new provproto.GetMappingResponse()),
  getMappings: rpc(() => new provproto.GetMappingsResponse()),
};

/** This package's version (the plugin's). */
function version(): string {
  const file = path.join(__dirname, "..", "..", "..", "package.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}

/**
 * The Struct fields of the requests that carry a resource's properties (pulumirpc's field numbers),
 * read from the bytes into plain values (./wire.ts). ReadRequest's `inputs` is left to the protocol's
 * class: read answers it back as it came.
 */
export const PLAIN_STRUCTS: Readonly<Record<string, StructFields>> = {
  check: { 2: "getOlds", 3: "getNews" },
  diff: { 3: "getOlds", 4: "getNews", 6: "getOldInputs" },
  create: { 2: "getProperties" },
  update: { 3: "getOlds", 4: "getNews", 8: "getOldInputs" },
  read: { 3: "getProperties" },
  delete: { 3: "getProperties", 5: "getOldInputs" },
};

/** The provider service as grpc-js serves it, with PLAIN_STRUCTS' requests read by ./wire.ts. */
export function serviceDefinition(): Record<string, { requestDeserialize: (b: Buffer) => object }> {
  const base = provrpc.ResourceProviderService as Record<string, { requestDeserialize: (b: Buffer) => object }>;
  const out = { ...base };
  for (const [method, fields] of Object.entries(PLAIN_STRUCTS)) out[method] = { ...base[method], requestDeserialize: withPlainStructs(base[method].requestDeserialize, fields) };
  return out;
}

async function main(args: string[]): Promise<void> {
  const address = args[0];
  if (address) engine = new enginerpc.EngineClient(address, grpc.credentials.createInsecure());
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(serviceDefinition() as never, service as never);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  process.stdout.write(`${port}\n`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`pulumi-resource-reseller: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
