/**
 * Bench section: start-up of the native provider plugin (`plugin/pulumi-resource-reseller`, as the
 * CLI starts it) beside the SDK's dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`),
 * each spawned as the CLI spawns it and driven over gRPC as a preview begins: GetPluginInfo (the
 * CLI's first call), then Configure and a DnsRecord's Check, whose preview prediction reads the
 * zone: the first API request. Two moments, each as wall ms since the spawn and CPU ms of the
 * process (user + system, from /proc/<pid>/stat): the first answer (GetPluginInfo answered) and the
 * first API request (its arrival at a counting proxy in front of the sandbox). Runs alternate
 * (native, dynamic, native, ...) after one unmeasured spawn of each; medians are compared.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { hostScriptPath, packageRoot } from "../engine/host";
import { shim } from "../../resources/program/shim";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import type { Measurement } from "./section";
import { serializeProvider } from "./cold-start";
import { median, round } from "./measure";

export interface PluginStartOptions {
  /** Measured spawns of each. */
  runs: number;
}

export const PLUGIN_START_DEFAULTS: PluginStartOptions = { runs: 7 };

/** The seeded sandbox zone. */
const ZONE = "demo-reseller.com";

/** CPU ms (user + system) a live process has used so far, or NaN once it is gone. */
export function cpuMsOf(pid: number): number {
  try {
    // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
/** USER_HZ: 100 on every Linux Node runs on. */
const CLOCK_TICKS = 100;

/** What one start-up took. */
export interface StartUp {
  firstAnswerWallMs: number;
  firstAnswerCpuMs: number;
  firstRequestWallMs: number;
  firstRequestCpuMs: number;
}

/** A proxy in front of the sandbox that notes when the first request of a spawn arrives, and the spawn's CPU then. */
class ArrivalProxy {
  private watching: { pid: number; started: number; seen?: { wallMs: number; cpuMs: number } } | undefined;
  private readonly server: http.Server;

  constructor(target: SandboxHandle) {
    const to = new URL(target.url);
    this.server = http.createServer((req, res) => {
      const w = this.watching;
      if (w && !w.seen) w.seen = { wallMs: performance.now() - w.started, cpuMs: cpuMsOf(w.pid) };
      const up = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      up.on("error", () => res.destroy());
      req.pipe(up);
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  watch(pid: number, started: number): void {
    this.watching = { pid, started };
  }

  seen(): { wallMs: number; cpuMs: number } | undefined {
    return this.watching?.seen;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const toStruct = (v: Record<string, unknown>): Struct => Struct.fromJavaScript(v as never);

function unary<Res>(invoke: (cb: (err: grpc.ServiceError | null, res: Res) => void) => unknown): Promise<Res> {
  return new Promise((resolve, reject) => invoke((err, res) => (err ? reject(err) : resolve(res))));
}

/** A process that serves ResourceProvider: how to start it, and the Check that makes its first API request. */
export interface Contender {
  name: string;
  command: string[];
  urn: string;
  inputs: Record<string, unknown>;
  /** Configure's args as this process reads them: the native provider's inputs are the settings without the namespace, the dynamic host takes the config keys whole. */
  argsOf(config: Record<string, string>): Record<string, string>;
}

/** One spawn: start, GetPluginInfo, Configure, Check; the two moments. */
export async function startUp(c: Contender, config: Record<string, string>, proxy: ArrivalProxy): Promise<StartUp> {
  const started = performance.now();
  const child = spawn(c.command[0], c.command.slice(1), {
    cwd: packageRoot(),
    env: { ...process.env, RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined, PULUMI_CONFIG: undefined },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  readline.createInterface({ input: child.stderr! }).on("line", (l) => lines.push(l));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const pid = child.pid!;
  proxy.watch(pid, started);
  const client = await new Promise<ResourceProviderClient>((resolve, reject) => {
    child.once("close", (code) => reject(new Error(`${c.name} exited before listening (code ${code}): ${lines.join("\n")}`)));
    readline.createInterface({ input: child.stdout! }).on("line", (l) => {
      if (/^\d+$/.test(l.trim())) resolve(new ResourceProviderClient(`127.0.0.1:${l.trim()}`, grpc.credentials.createInsecure()));
    });
  });
  try {
    await unary((cb) => client.getPluginInfo(new Empty(), cb));
    const firstAnswerWallMs = performance.now() - started;
    const firstAnswerCpuMs = cpuMsOf(pid);
    const configure = new provproto.ConfigureRequest();
    for (const [k, v] of Object.entries(config)) configure.getVariablesMap().set(k, v);
    configure.setArgs(toStruct(c.argsOf(config)));
    await unary((cb) => client.configure(configure, cb));
    const check = new provproto.CheckRequest();
    check.setUrn(c.urn);
    check.setOlds(toStruct({}));
    check.setNews(toStruct(c.inputs));
    const checked = await unary<provproto.CheckResponse>((cb) => client.check(check, cb));
    const failures = checked.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
    if (failures.length) throw new Error(`${c.name}: Check refused the record: ${failures.join("; ")}`);
    const seen = proxy.seen();
    if (!seen) throw new Error(`${c.name}: the Check made no API request, so there is no first request to time (stderr: ${lines.join("\n")})`);
    return { firstAnswerWallMs, firstAnswerCpuMs, firstRequestWallMs: seen.wallMs, firstRequestCpuMs: seen.cpuMs };
  } finally {
    client.close();
    child.kill("SIGTERM");
    await exited;
  }
}

/** The two contenders, one DnsRecord each in the seeded zone. */
export async function contenders(): Promise<{ native: Contender; dynamic: Contender }> {
  const record = { zone: ZONE, type: "A", name: "plugin-start", content: "192.0.2.1", ttl: 300 };
  const dynamicUrn = "urn:pulumi:bench::reseller::pulumi-nodejs:dynamic/reseller:DnsRecord::plugin-start";
  const plugin = path.join(packageRoot(), "plugin", "pulumi-resource-reseller");
  return {
    native: {
      name: "native plugin", command: [plugin], urn: "urn:pulumi:bench::reseller::reseller:index:DnsRecord::plugin-start", inputs: record,
      argsOf: (config) => Object.fromEntries(Object.entries(config).map(([k, v]) => [k.replace(/^reseller:/, ""), v])),
    },
    dynamic: {
      name: "SDK dynamic-provider host",
      command: [process.execPath, hostScriptPath(), "127.0.0.1:0"],
      urn: dynamicUrn,
      inputs: { ...record, resourceUrn: dynamicUrn, __provider: await serializeProvider(shim("DnsRecord")) },
      argsOf: (config) => config,
    },
  };
}

export function pluginStart(opts: PluginStartOptions = PLUGIN_START_DEFAULTS): Measurement {
  return {
    id: "plugin-start",
    name: `native plugin start-up beside the SDK's dynamic-provider host (${opts.runs} spawns each, alternating)`,
    metrics: ["pluginStart*"],
    async run(progress) {
      const sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000 });
      const proxy = new ArrivalProxy(sandbox);
      try {
        const config = {
          "reseller:baseUrl": await proxy.listen(),
          "reseller:apiKey": sandbox.credentials.key,
          "reseller:apiSecret": sandbox.credentials.secret,
          "reseller:requestsPerMinute": "100000",
          "reseller:rateLimitDir": fs.mkdtempSync(path.join(os.tmpdir(), "bench-plugin-start-")),
        };
        const { native, dynamic } = await contenders();
        await startUp(native, config, proxy);
        await startUp(dynamic, config, proxy);
        const runs: { native: StartUp; dynamic: StartUp }[] = [];
        for (let i = 0; i < opts.runs; i++) {
          const n = await startUp(native, config, proxy);
          const d = await startUp(dynamic, config, proxy);
          runs.push({ native: n, dynamic: d });
          progress(
            `spawn ${i + 1}/${opts.runs}: first answer native ${Math.round(n.firstAnswerWallMs)} ms wall / ${n.firstAnswerCpuMs} ms CPU, dynamic ${Math.round(d.firstAnswerWallMs)} / ${d.firstAnswerCpuMs}; ` +
              `first request native ${Math.round(n.firstRequestWallMs)} / ${n.firstRequestCpuMs}, dynamic ${Math.round(d.firstRequestWallMs)} / ${d.firstRequestCpuMs}`,
          );
        }
        const out: Record<string, number> = { pluginStartRuns: opts.runs };
        for (const moment of ["firstAnswer", "firstRequest"] as const) {
          for (const measure of ["Wall", "Cpu"] as const) {
            const key = `${moment}${measure}Ms` as keyof StartUp;
            const n = median(runs.map((r) => r.native[key]));
            const d = median(runs.map((r) => r.dynamic[key]));
            const Moment = moment[0].toUpperCase() + moment.slice(1);
            out[`pluginStart${Moment}${measure}NativeMs`] = round(n, 1);
            out[`pluginStart${Moment}${measure}DynamicMs`] = round(d, 1);
            out[`pluginStart${Moment}${measure}Ratio`] = round(n / d, 3);
          }
        }
        return out;
      } finally {
        await proxy.close();
        await sandbox.close();
      }
    },
  };
}
