// Drives the Pulumi SDK's own dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) over
// gRPC, exactly as `pulumi preview/up/refresh/destroy` do, so tests and the demo need no CLI.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as readline from "node:readline";
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { guardedNodeArgs } from "./guarded-node";
import { unwrapInputs } from "./secrets";

/** The value Pulumi sends for an input that is not known yet (during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type PropertyMap = Record<string, unknown>;

export interface HostOptions {
  /** Working directory of the host: where `require("reseller-pulumi/...")` in serialized text resolves. */
  cwd?: string;
  /**
   * A project of its own: the host script from its node_modules' @pulumi/pulumi, and the host run in
   * it unless `cwd` says otherwise. Default: this package's SDK, in this package's root.
   */
  projectDir?: string;
  /** Extra environment for the host process (merged over this process's environment). */
  env?: Record<string, string | undefined>;
}

export interface CheckResult {
  inputs: PropertyMap;
  failures: { property: string; reason: string }[];
}

export interface DiffResult {
  /** true: some change, false: none, undefined: the provider did not say (no `diff` method). */
  changes: boolean | undefined;
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  diffs: string[];
  /** The provider's detailed diff by property path, when it gave one (plugin.DiffResult.DetailedDiff). */
  detailedDiff?: Record<string, { kind: PropertyDiffKind }>;
}

/** plugin.DiffKind: what a detailed diff entry does to its path. */
export type PropertyDiffKind = "add" | "addReplace" | "delete" | "deleteReplace" | "update" | "updateReplace";
const DIFF_KINDS: PropertyDiffKind[] = ["add", "addReplace", "delete", "deleteReplace", "update", "updateReplace"];

/** A Read's answer: `props` undefined when the provider sent none (the resource does not exist). */
export interface ReadResult {
  id: string;
  props: PropertyMap | undefined;
  inputs: PropertyMap | undefined;
}

/** A provider call failed. For a create/update that made something, `id` and `properties` say what. */
export class ProviderHostError extends Error {
  override readonly name = "ProviderHostError";
  constructor(
    message: string,
    readonly method: string,
    readonly code: number | undefined,
    readonly id?: string,
    readonly properties?: PropertyMap,
    readonly reasons?: string[],
  ) {
    super(message);
  }
}

export function isProviderHostError(e: unknown): e is ProviderHostError {
  return e instanceof Error && e.name === "ProviderHostError";
}

export interface ProviderHost {
  readonly pid: number;
  readonly port: number;
  configure(config: Record<string, string>): Promise<void>;
  check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult>;
  diff(id: string, urn: string, olds: PropertyMap, news: PropertyMap, ignoreChanges?: readonly string[]): Promise<DiffResult>;
  create(urn: string, inputs: PropertyMap, opts?: { preview?: boolean }): Promise<{ id: string; outputs: PropertyMap }>;
  read(
    id: string,
    urn: string,
    props: PropertyMap,
    inputs?: PropertyMap,
  ): Promise<ReadResult>;
  update(id: string, urn: string, olds: PropertyMap, news: PropertyMap, ignoreChanges?: readonly string[]): Promise<{ outputs: PropertyMap }>;
  delete(id: string, urn: string, props: PropertyMap): Promise<void>;
  /** Lines the host wrote to stdout (after the port) and stderr, for audits (e.g. no secret leaked). */
  logs(): string[];
  /** SIGKILL the host, as a crash would. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

/** The directory holding this package's package.json: the default host cwd, so the package resolves by name. */
export function packageRoot(): string {
  let dir = __dirname;
  for (;;) {
    const pj = path.join(dir, "package.json");
    if (fs.existsSync(pj)) {
      const name = (JSON.parse(fs.readFileSync(pj, "utf8")) as { name?: string }).name;
      if (name === "reseller-pulumi") return dir;
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error("cannot find the reseller-pulumi package root above " + __dirname);
    dir = up;
  }
}

/** Struct.fromJavaScript rejects `undefined`; Pulumi treats an undefined property as absent. */
function toStruct(value: PropertyMap): Struct {
  return Struct.fromJavaScript(JSON.parse(JSON.stringify(value)) as Parameters<typeof Struct.fromJavaScript>[0]);
}

function fromStruct(s: Struct | undefined): PropertyMap {
  return s ? (s.toJavaScript() as PropertyMap) : {};
}

/** The top-level properties a provider's answer sent as secrets, by the plain map made of it. */
const SENT_SECRET = new WeakMap<PropertyMap, readonly string[]>();

/**
 * A provider's answer (check's inputs, create's, read's, update's and a partial failure's properties)
 * as the engine keeps it: values sent with the secret signature are kept secret (the real engine
 * unmarshals provider answers keeping secrets), and handed to the provider again as plain values (it
 * answered acceptSecrets=false). The plain map; secretKeysOf says which of its properties were secret.
 */
function fromProvider(s: Struct | undefined): PropertyMap {
  const { plain, secretKeys } = unwrapInputs(fromStruct(s));
  if (secretKeys.length) SENT_SECRET.set(plain, secretKeys);
  return plain;
}

/** The top-level properties of a provider's answer (made by this module) that it sent as secrets. */
export const secretKeysOf = (props: PropertyMap | undefined): readonly string[] => (props && SENT_SECRET.get(props)) ?? [];

/** Reads the ErrorResourceInitFailed detail the host packs into `grpc-status-details-bin` for partial failures. */
function initFailure(err: grpc.ServiceError): { id: string; properties: PropertyMap; reasons: string[] } | undefined {
  const raw = err.metadata?.get("grpc-status-details-bin")?.[0];
  if (!raw || typeof raw === "string") return undefined;
  const status = statusproto.Status.deserializeBinary(new Uint8Array(raw));
  for (const detail of status.getDetailsList() as Any[]) {
    if (detail.getTypeName() !== "pulumirpc.ErrorResourceInitFailed") continue;
    const failed = detail.unpack(
      provproto.ErrorResourceInitFailed.deserializeBinary,
      "pulumirpc.ErrorResourceInitFailed",
    );
    if (!failed) continue;
    return { id: failed.getId(), properties: fromProvider(failed.getProperties()), reasons: failed.getReasonsList() };
  }
  return undefined;
}

type Callback<Res> = (err: grpc.ServiceError | null, res: Res) => void;

class SpawnedHost implements ProviderHost {
  private readonly exited: Promise<void>;

  constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly client: ResourceProviderClient,
    private readonly lines: string[],
  ) {
    // 'close' fires once the child has exited and its stdio is drained; 'exit' can come before the
    // last lines are read, and logs() would miss them.
    this.exited = new Promise((resolve) => {
      if ((child.exitCode !== null || child.signalCode !== null) && child.stdout?.closed && child.stderr?.closed) resolve();
      else child.once("close", () => resolve());
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  private call<Res>(method: string, invoke: (cb: Callback<Res>) => unknown): Promise<Res> {
    return new Promise((resolve, reject) => {
      invoke((err, res) => {
        if (!err) return resolve(res);
        const partial = initFailure(err);
        reject(
          new ProviderHostError(
            err.details || err.message,
            method,
            err.code,
            partial?.id,
            partial?.properties,
            partial?.reasons,
          ),
        );
      });
    });
  }

  async configure(config: Record<string, string>): Promise<void> {
    const req = new provproto.ConfigureRequest();
    const vars = req.getVariablesMap();
    for (const [k, v] of Object.entries(config)) vars.set(k, v);
    req.setArgs(toStruct(config));
    req.setAcceptsecrets(false);
    await this.call<provproto.ConfigureResponse>("Configure", (cb) => this.client.configure(req, cb));
  }

  async check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
    const req = new provproto.CheckRequest();
    req.setUrn(urn);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    const res = await this.call<provproto.CheckResponse>("Check", (cb) => this.client.check(req, cb));
    return {
      inputs: fromProvider(res.getInputs()),
      failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  async diff(id: string, urn: string, olds: PropertyMap, news: PropertyMap, ignoreChanges: readonly string[] = []): Promise<DiffResult> {
    const req = new provproto.DiffRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    req.setIgnorechangesList([...ignoreChanges]);
    const res = await this.call<provproto.DiffResponse>("Diff", (cb) => this.client.diff(req, cb));
    const c = res.getChanges();
    const detailed = res.getHasdetaileddiff()
      ? Object.fromEntries(res.getDetaileddiffMap().toArray().map(([k, v]) => [k, { kind: DIFF_KINDS[v.getKind()] ?? "update" }]))
      : undefined;
    return {
      ...(detailed ? { detailedDiff: detailed } : {}),
      changes:
        c === provproto.DiffResponse.DiffChanges.DIFF_SOME
          ? true
          : c === provproto.DiffResponse.DiffChanges.DIFF_NONE
            ? false
            : undefined,
      replaces: res.getReplacesList(),
      stables: res.getStablesList(),
      deleteBeforeReplace: res.getDeletebeforereplace(),
      diffs: res.getDiffsList(),
    };
  }

  async create(
    urn: string,
    inputs: PropertyMap,
    opts: { preview?: boolean } = {},
  ): Promise<{ id: string; outputs: PropertyMap }> {
    const req = new provproto.CreateRequest();
    req.setUrn(urn);
    req.setProperties(toStruct(inputs));
    req.setPreview(opts.preview ?? false);
    const res = await this.call<provproto.CreateResponse>("Create", (cb) => this.client.create(req, cb));
    return { id: res.getId(), outputs: fromProvider(res.getProperties()) };
  }

  async read(
    id: string,
    urn: string,
    props: PropertyMap,
    inputs?: PropertyMap,
  ): Promise<ReadResult> {
    const req = new provproto.ReadRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setProperties(toStruct(props));
    if (inputs) req.setInputs(toStruct(inputs));
    const res = await this.call<provproto.ReadResponse>("Read", (cb) => this.client.read(req, cb));
    const resInputs = res.getInputs();
    // No properties at all is how a provider says the resource does not exist (ReadStep.Apply).
    return { id: res.getId(), props: res.hasProperties() ? fromProvider(res.getProperties()) : undefined, inputs: resInputs ? fromProvider(resInputs) : undefined };
  }

  async update(id: string, urn: string, olds: PropertyMap, news: PropertyMap, ignoreChanges: readonly string[] = []): Promise<{ outputs: PropertyMap }> {
    const req = new provproto.UpdateRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    req.setIgnorechangesList([...ignoreChanges]);
    const res = await this.call<provproto.UpdateResponse>("Update", (cb) => this.client.update(req, cb));
    return { outputs: fromProvider(res.getProperties()) };
  }

  async delete(id: string, urn: string, props: PropertyMap): Promise<void> {
    const req = new provproto.DeleteRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setProperties(toStruct(props));
    await this.call<unknown>("Delete", (cb) => this.client.delete(req, cb));
  }

  logs(): string[] {
    return [...this.lines];
  }

  private async stop(signal: NodeJS.Signals): Promise<void> {
    this.client.close();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    await this.exited;
  }

  kill(): Promise<void> {
    return this.stop("SIGKILL");
  }

  close(): Promise<void> {
    return this.stop("SIGTERM");
  }
}

/**
 * Path of the SDK's dynamic provider host script, the one the `pulumi` CLI starts for dynamic
 * resources: this package's SDK, or `projectDir`'s own.
 */
export function hostScriptPath(projectDir?: string): string {
  return require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js", projectDir ? { paths: [path.resolve(projectDir)] } : undefined);
}

/**
 * Spawns the SDK's dynamic provider host and connects to it. The host only needs an engine address to
 * exist as argv[2] (it logs through console when none answers), so a placeholder is passed.
 */
export async function startProviderHost(opts: HostOptions = {}): Promise<ProviderHost> {
  const child = spawn(process.execPath, guardedNodeArgs([hostScriptPath(opts.projectDir), "127.0.0.1:0"]), {
    cwd: opts.cwd ?? (opts.projectDir ? path.resolve(opts.projectDir) : packageRoot()),
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  readline.createInterface({ input: child.stderr! }).on("line", (l) => lines.push(l));
  const stdout = readline.createInterface({ input: child.stdout! });

  const port = await new Promise<number>((resolve, reject) => {
    let gotPort = false;
    const onExit = (code: number | null, signal: string | null): void => {
      if (!gotPort) reject(new Error(`provider host exited before listening (code ${code}, signal ${signal}): ${lines.join("\n")}`));
    };
    child.once("close", onExit);
    child.once("error", reject);
    stdout.on("line", (l) => {
      if (!gotPort && /^\d+$/.test(l.trim())) {
        gotPort = true;
        child.off("close", onExit);
        resolve(Number(l.trim()));
      } else {
        lines.push(l);
      }
    });
  });
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new SpawnedHost(child, port, client, lines);
}
