// The two gRPC services a Pulumi program talks to (the protos ship in @pulumi/pulumi/proto): the
// ResourceMonitor, which receives every registration whole, and the Engine (Log, root resource).
// This file only translates protobuf to plain objects; deployment.ts takes them to the step rules
// (step-generator.ts) and their application (step-executor.ts).
import * as grpc from "@grpc/grpc-js";
import { EngineService } from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { ResourceMonitorService } from "@pulumi/pulumi/proto/resource_grpc_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type { Alias } from "@pulumi/pulumi/proto/alias_pb";
import type { PropertyMap } from "./host";

/** An alias as the SDK sends it with the aliasSpecs feature: an old URN, or the parts that changed. */
export type AliasSpec =
  | { urn: string }
  | { name?: string; type?: string; stack?: string; project?: string; parentUrn?: string; noParent?: boolean };

/** A RegisterResourceRequest, whole, as plain data. */
export interface Registration {
  type: string;
  name: string;
  parent: string;
  custom: boolean;
  /** Inputs as the SDK serialized them: secrets as signature objects, unknowns as the unknown string. */
  object: PropertyMap;
  protect: boolean | undefined;
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
  /** The resource option, when set; undefined leaves the provider's answer. */
  deleteBeforeReplace: boolean | undefined;
  ignoreChanges: string[];
  additionalSecretOutputs: string[];
  aliases: AliasSpec[];
  importId: string;
  retainOnDelete: boolean | undefined;
  deletedWith: string;
  replaceOnChanges: string[];
  provider: string;
  remote: boolean;
}

export interface ReadRegistration {
  id: string;
  type: string;
  name: string;
  parent: string;
  properties: PropertyMap;
  dependencies: string[];
  additionalSecretOutputs: string[];
}

/** What the monitor delegates to. A promise that never settles leaves the program waiting (after a failure). */
export interface MonitorHandler {
  register(reg: Registration): Promise<{ urn: string; id: string; object: PropertyMap }>;
  registerOutputs(urn: string, outputs: PropertyMap): Promise<void>;
  read(req: ReadRegistration): Promise<{ urn: string; properties: PropertyMap }>;
  invoke(token: string): Promise<never>;
  log(severity: "debug" | "info" | "warning" | "error", message: string, urn: string): void;
  /** SignalAndWaitForShutdown: answered when every registration in flight is done. */
  shutdown(): Promise<void>;
}

/** Features answered as the real engine answers them, for what this engine implements. */
const FEATURES: Record<string, boolean> = {
  secrets: true,
  // Off: the SDK then sends a referenced resource's id or URN, which is what a dynamic provider
  // (acceptResources=false) gets from the real engine anyway.
  resourceReferences: false,
  outputValues: true,
  deletedWith: true,
  aliasSpecs: true,
};

/** The output-value signature (sdk/nodejs/runtime/rpc.ts): a value with its known/secret bits. */
const OUTPUT_SIG = "d0e6a833031e9bbcd3f4e8bde6ca49a4";
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Output values (sent only for remote components) become plain, secret-marked or unknown values. */
function fromOutputValues(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(fromOutputValues);
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (o[SIG_KEY] === OUTPUT_SIG) {
      const inner = "value" in o ? fromOutputValues(o.value) : UNKNOWN;
      return o.secret === true ? { [SIG_KEY]: SECRET_SIG, value: inner } : inner;
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, fromOutputValues(x)]));
  }
  return v;
}

function fromStruct(s: Struct | undefined): PropertyMap {
  return s ? (fromOutputValues(s.toJavaScript()) as PropertyMap) : {};
}

function toStruct(value: PropertyMap): Struct {
  return Struct.fromJavaScript(JSON.parse(JSON.stringify(value)) as Parameters<typeof Struct.fromJavaScript>[0]);
}

function alias(a: Alias): AliasSpec {
  if (a.hasUrn()) return { urn: a.getUrn() };
  const s = a.getSpec();
  if (!s) return {};
  return {
    name: s.getName() || undefined,
    type: s.getType() || undefined,
    stack: s.getStack() || undefined,
    project: s.getProject() || undefined,
    parentUrn: s.hasParenturn() ? s.getParenturn() || undefined : undefined,
    noParent: s.hasNoparent() ? s.getNoparent() : undefined,
  };
}

function registration(req: resproto.RegisterResourceRequest): Registration {
  const object = fromStruct(req.getObject());
  const propertyDependencies: Record<string, string[]> = {};
  req.getPropertydependenciesMap().forEach((deps, key) => (propertyDependencies[key] = deps.getUrnsList()));
  // A request without property dependencies: each property depends on every resource in the
  // dependency list (source_eval.go RegisterResource, TestPropertyDependenciesAdapter).
  if (Object.keys(propertyDependencies).length === 0) for (const k of Object.keys(object)) propertyDependencies[k] = req.getDependenciesList();
  return {
    type: req.getType(),
    name: req.getName(),
    parent: req.getParent(),
    custom: req.getCustom(),
    object,
    protect: optionalBool(req, "hasProtect", req.getProtect()),
    dependencies: req.getDependenciesList(),
    propertyDependencies,
    deleteBeforeReplace: req.getDeletebeforereplacedefined() ? req.getDeletebeforereplace() : undefined,
    ignoreChanges: req.getIgnorechangesList(),
    additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
    aliases: [...req.getAliasurnsList().map((urn) => ({ urn })), ...req.getAliasesList().map(alias)],
    importId: req.getImportid(),
    retainOnDelete: optionalBool(req, "hasRetainondelete", req.getRetainondelete()),
    deletedWith: req.getDeletedwith(),
    replaceOnChanges: req.getReplaceonchangesList(),
    provider: req.getProvider(),
    remote: req.getRemote(),
  };
}

/**
 * `protect` and `retainOnDelete` became `optional bool` in the protocol after SDK 3.150.0: unset is
 * undefined. Older SDKs (the lowest supported, 3.139.0) have no `has…()` and always send the value,
 * already inherited from the parent by the SDK, as their engine reads it.
 */
function optionalBool(req: resproto.RegisterResourceRequest, has: "hasProtect" | "hasRetainondelete", value: boolean | undefined): boolean | undefined {
  const hasField = (req as unknown as Partial<Record<typeof has, () => boolean>>)[has];
  return typeof hasField !== "function" || hasField.call(req) ? value : undefined;
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Runs `work`; its result (or error, as gRPC UNKNOWN with the message) goes to the callback. */
function answer<Res>(callback: grpc.sendUnaryData<Res>, work: () => Promise<Res>): void {
  work().then(
    (res) => callback(null, res),
    (e: unknown) => callback({ code: grpc.status.UNKNOWN, details: errorMessage(e), name: "Error", message: errorMessage(e) }, null),
  );
}

export interface MonitorServer {
  /** 127.0.0.1:port, for --monitor and --engine. */
  address: string;
  close(): Promise<void>;
}

const SEVERITY: Record<number, "debug" | "info" | "warning" | "error"> = {
  [engineproto.LogSeverity.DEBUG]: "debug",
  [engineproto.LogSeverity.INFO]: "info",
  [engineproto.LogSeverity.WARNING]: "warning",
  [engineproto.LogSeverity.ERROR]: "error",
};

// Engine.RequirePulumiVersion is newer than the lowest supported SDK (3.139's engine.proto has no
// such method, so its programs never call it); answered only when the installed protos define it.
const RequirePulumiVersionResponse = (engineproto as unknown as Record<string, (new () => unknown) | undefined>)["RequirePulumiVersionResponse"];

/** Serves the ResourceMonitor and Engine services on one 127.0.0.1 port. */
export async function startMonitor(handler: MonitorHandler): Promise<MonitorServer> {
  const server = new grpc.Server();
  let root = "";
  const unimplemented = (_call: unknown, callback: grpc.sendUnaryData<never>): void =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: "not implemented by this engine", name: "Error", message: "unimplemented" }, null);

  server.addService(ResourceMonitorService, {
    supportsFeature(call: grpc.ServerUnaryCall<resproto.SupportsFeatureRequest, resproto.SupportsFeatureResponse>, callback: grpc.sendUnaryData<resproto.SupportsFeatureResponse>) {
      callback(null, new resproto.SupportsFeatureResponse().setHassupport(FEATURES[call.request.getId()] ?? false));
    },
    registerResource(call: grpc.ServerUnaryCall<resproto.RegisterResourceRequest, resproto.RegisterResourceResponse>, callback: grpc.sendUnaryData<resproto.RegisterResourceResponse>) {
      answer(callback, async () => {
        const res = await handler.register(registration(call.request));
        return new resproto.RegisterResourceResponse().setUrn(res.urn).setId(res.id).setObject(toStruct(res.object));
      });
    },
    registerResourceOutputs(call: grpc.ServerUnaryCall<resproto.RegisterResourceOutputsRequest, Empty>, callback: grpc.sendUnaryData<Empty>) {
      answer(callback, async () => {
        await handler.registerOutputs(call.request.getUrn(), fromStruct(call.request.getOutputs()));
        return new Empty();
      });
    },
    readResource(call: grpc.ServerUnaryCall<resproto.ReadResourceRequest, resproto.ReadResourceResponse>, callback: grpc.sendUnaryData<resproto.ReadResourceResponse>) {
      const r = call.request;
      answer(callback, async () => {
        const res = await handler.read({
          id: r.getId(),
          type: r.getType(),
          name: r.getName(),
          parent: r.getParent(),
          properties: fromStruct(r.getProperties()),
          dependencies: r.getDependenciesList(),
          additionalSecretOutputs: r.getAdditionalsecretoutputsList(),
        });
        return new resproto.ReadResourceResponse().setUrn(res.urn).setProperties(toStruct(res.properties));
      });
    },
    invoke(call: grpc.ServerUnaryCall<resproto.ResourceInvokeRequest, provproto.InvokeResponse>, callback: grpc.sendUnaryData<provproto.InvokeResponse>) {
      answer(callback, () => handler.invoke(call.request.getTok()));
    },
    signalAndWaitForShutdown(_call: grpc.ServerUnaryCall<Empty, Empty>, callback: grpc.sendUnaryData<Empty>) {
      answer(callback, async () => {
        await handler.shutdown();
        return new Empty();
      });
    },
    call: unimplemented,
    streamInvoke: unimplemented,
    getDeploymentInfo: unimplemented,
    registerStackTransform: unimplemented,
    registerStackInvokeTransform: unimplemented,
    registerResourceHook: unimplemented,
    registerErrorHook: unimplemented,
    registerPackage: unimplemented,
  } as unknown as grpc.UntypedServiceImplementation);

  server.addService(EngineService, {
    log(call: grpc.ServerUnaryCall<engineproto.LogRequest, Empty>, callback: grpc.sendUnaryData<Empty>) {
      handler.log(SEVERITY[call.request.getSeverity()] ?? "info", call.request.getMessage(), call.request.getUrn());
      callback(null, new Empty());
    },
    getRootResource(_call: unknown, callback: grpc.sendUnaryData<engineproto.GetRootResourceResponse>) {
      callback(null, new engineproto.GetRootResourceResponse().setUrn(root));
    },
    setRootResource(call: grpc.ServerUnaryCall<engineproto.SetRootResourceRequest, engineproto.SetRootResourceResponse>, callback: grpc.sendUnaryData<engineproto.SetRootResourceResponse>) {
      root = call.request.getUrn();
      callback(null, new engineproto.SetRootResourceResponse());
    },
    startDebugging: unimplemented,
    ...(RequirePulumiVersionResponse && {
      requirePulumiVersion(_call: unknown, callback: grpc.sendUnaryData<unknown>) {
        callback(null, new RequirePulumiVersionResponse());
      },
    }),
  } as unknown as grpc.UntypedServiceImplementation);

  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    address: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        // Calls left unanswered after a failure would hold a graceful shutdown forever.
        server.forceShutdown();
        resolve();
      }),
  };
}
