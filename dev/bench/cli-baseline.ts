/**
 * Bench section: the real Pulumi CLI (`npm run pulumi-cli`), `up`, a no-op `up`, `refresh` and
 * `destroy` of N records in one sandbox zone, by this package's DnsRecord, by the same records on
 * the native provider plugin (resources/provider/), and by a bare dynamic
 * provider that sends the same HTTP calls through the package's HTTP client and nothing else (one
 * create per record, one zone list per refresh shared by its reads, one delete per record; no check,
 * no diff, no adopt). Each command's wall time and CPU (user + system of the CLI and every process
 * it waits for: language host, program, provider host, by /usr/bin/time), and ours over bare.
 *
 * N: BENCH_CLI_RECORDS (default 300; 1,000 with BENCH_LARGE=1). The sandbox and the client allow far more than the
 * service's 60 a minute, so the figures are the stack's own cost, not the pacing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CliStack, checkoutRoot, makeProject } from "../pulumi-cli";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import type { Measurement, Metrics } from "./section";
import { checkpointEnv, checkpointsFigure, cliBenchSettings, configureForSandbox, lastCommandCpuMs, NO_TIMED_CLI, timedCliFolder, timesLines } from "./cli-side";
import { CPU_DIR_ENV, CPU_PROFILE_DIR_ENV } from "./cpu-preload";
import { measureOp, preloadOptions } from "./op-cost";
import { benchLarge, round } from "./measure";

const ZONE = "demo-reseller.com";
const RPM = 1_000_000;

/** Our program: N DnsRecords, as a user writes them. */
const OURS = `const reseller = require("reseller-pulumi");
const pulumi = require("@pulumi/pulumi");
const n = Number(new pulumi.Config().require("records"));
for (let i = 0; i < n; i++) {
  const name = "cli-" + String(i).padStart(5, "0");
  new reseller.DnsRecord(name, { zone: "${ZONE}", type: "A", name, content: "198.51.100." + (i % 250), ttl: 300 });
}
`;

/** The same records on the native provider plugin (its type token; Pulumi.yaml names the plugin). */
const NATIVE = `const pulumi = require("@pulumi/pulumi");
const n = Number(new pulumi.Config().require("records"));
for (let i = 0; i < n; i++) {
  const name = "cli-native-" + String(i).padStart(5, "0");
  new pulumi.CustomResource("reseller:index:DnsRecord", name, { zone: "${ZONE}", type: "A", name, content: "198.51.100." + (i % 250), ttl: 300 });
}
`;

/** The bare provider: the same HTTP calls through the package's client, required at call time by its file. */
const bare = (clientFile: string) => `const pulumi = require("@pulumi/pulumi");
const clientFile = ${JSON.stringify(clientFile)};
const provider = {
  async create(inputs) {
    const r = await api().createRecord(inputs.zone, { type: "A", name: inputs.name, content: inputs.content, ttl: 300 });
    return { id: r.id, outs: inputs };
  },
  async read(id, props) {
    const live = await zoneList(props.zone);
    const r = live.find((x) => x.id === id);
    return r ? { id, props: { ...props, content: r.content } } : { id: "", props: {} };
  },
  async delete(id, props) {
    await api().deleteRecord(props.zone, id);
  },
};
function api() {
  if (!global.__bareClient) {
    const { ResellerClient } = require(clientFile);
    global.__bareClient = new ResellerClient({ baseUrl: process.env.BARE_BASE_URL, apiKey: process.env.BARE_API_KEY, apiSecret: process.env.BARE_API_SECRET, requestsPerMinute: ${RPM} });
  }
  return global.__bareClient;
}
function zoneList(zone) {
  global.__bareLists = global.__bareLists || new Map();
  if (!global.__bareLists.has(zone)) global.__bareLists.set(zone, api().listRecords(zone, {}));
  return global.__bareLists.get(zone);
}
class BareRecord extends pulumi.dynamic.Resource {
  constructor(name, args) { super(provider, name, args, {}, "bench", "BareRecord"); }
}
const n = Number(new pulumi.Config().require("records"));
for (let i = 0; i < n; i++) {
  const name = "bare-" + String(i).padStart(5, "0");
  new BareRecord(name, { zone: "${ZONE}", name, content: "198.51.100." + (i % 250) });
}
`;

interface Cost {
  wallS: number;
  cpuS: number;
  /** CPU of the program's process and of the provider's process alone, the SDK's dynamic host or the native plugin (dev/bench/cpu-preload.ts). */
  programCpuS: number;
  hostCpuS: number;
  /** Requests the sandbox answered during the command. */
  requests: number;
}

/** One command's cost; with `profileDir`, the command's processes write their CPU profiles there (the CLI's by `--profiling`). */
async function measure(stack: CliStack, timesFile: string, args: string[], sandbox: SandboxHandle, cpuDir: string, profileDir?: string): Promise<Cost> {
  if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
  let cpuMs = 0;
  const cost = await measureOp(sandbox, cpuDir, async () => {
    const before = timesLines(timesFile);
    await stack.must(profileDir ? [...args, "--profiling", path.join(profileDir, "cli")] : args, { env: profileDir ? { [CPU_PROFILE_DIR_ENV]: profileDir } : {} });
    cpuMs = lastCommandCpuMs(timesFile, before);
  });
  const s = (ms: number | undefined): number => round((ms ?? 0) / 1000, 2);
  return { wallS: round(cost.wallSeconds, 2), cpuS: s(cpuMs), programCpuS: s(cost.cpuMs.program), hostCpuS: s(cost.cpuMs.host), requests: cost.requests };
}

export function cliBaseline(records = Number(process.env.BENCH_CLI_RECORDS || (benchLarge() ? 1000 : 300))): Measurement {
  return {
    id: "cli-baseline",
    name: `real CLI: ours vs a bare dynamic provider, ${records} records`,
    // Every name starts with `cliBaseline`: `cliBaselineUpWallS`, `cliBaselineNoopUpCpuOverBare`, ...
    metrics: ["cliBaseline*"],
    async run(progress) {
      const timed = timedCliFolder("bench-cli-");
      if (!timed) return { cliBaselineSkipped: NO_TIMED_CLI };
      const { dir, cli, timesFile } = timed;
      const cpuDir = path.join(dir, "cpu");
      fs.mkdirSync(cpuDir);
      const sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0, requestsPerMinute: RPM, contract: { maxRecordsPerZone: 3 * records + 100 } });
      const settings = cliBenchSettings();
      const metrics: Metrics = { cliBaselineCliVersion: cli.version, cliBaselineRecords: records, cliBaselineCheckpoints: checkpointsFigure(settings) };
      const stacks: CliStack[] = [];
      const projects: string[] = [];
      try {
        const costs: Record<string, Record<string, Cost>> = {};
        const sides: [string, CliStack][] = [];
        for (const [side, program] of [
          ["ours", OURS],
          ["native", NATIVE],
          ["bare", bare(path.join(checkoutRoot, "dist", "api", "client.js"))],
        ] as const) {
          const projectDir = makeProject(`cli-${side}`, { "index.js": program });
          projects.push(projectDir);
          if (side === "native") fs.appendFileSync(path.join(projectDir, "Pulumi.yaml"), `plugins:\n  providers:\n    - name: reseller\n      path: ${path.join(checkoutRoot, "plugin")}\n`);
          const env = {
            BARE_BASE_URL: sandbox.url,
            BARE_API_KEY: sandbox.credentials.key,
            BARE_API_SECRET: sandbox.credentials.secret,
            NODE_OPTIONS: preloadOptions(),
            [CPU_DIR_ENV]: cpuDir,
            ...checkpointEnv(settings),
          };
          const stack = await CliStack.init({ cli, projectDir, env });
          stacks.push(stack);
          await stack.configSet("records", String(records));
          await configureForSandbox(stack, sandbox, RPM);
          costs[side] = {};
          sides.push([side, stack]);
        }
        // Each command by ours, then at once by bare: a change of the machine's load between them is a
        // change of minutes, not of the whole run (before, ours ran its four, then bare its four).
        for (const [op, args] of [
          ["up", ["up", "--yes", "--non-interactive", "--skip-preview"]],
          ["noopUp", ["up", "--yes", "--non-interactive", "--skip-preview", "--expect-no-changes"]],
          ["refresh", ["refresh", "--yes", "--non-interactive", "--skip-preview"]],
          ["destroy", ["destroy", "--yes", "--non-interactive", "--skip-preview"]],
        ] as const) {
          for (const [side, stack] of sides) {
            progress(`${side}: ${op}`);
            costs[side][op] = await measure(stack, timesFile, [...args], sandbox, cpuDir, settings.profileDir && path.join(settings.profileDir, `cli-baseline-${side}-${op}`));
          }
        }
        for (const op of Object.keys(costs.ours)) {
          const o = costs.ours[op];
          const n = costs.native[op];
          const b = costs.bare[op];
          const k = `cliBaseline${op[0].toUpperCase()}${op.slice(1)}`;
          Object.assign(metrics, {
            [`${k}WallS`]: o.wallS,
            [`${k}CpuS`]: o.cpuS,
            [`${k}NativeWallS`]: n.wallS,
            [`${k}NativeCpuS`]: n.cpuS,
            [`${k}BareWallS`]: b.wallS,
            [`${k}BareCpuS`]: b.cpuS,
            [`${k}WallOverBare`]: round(o.wallS / b.wallS, 2),
            [`${k}CpuOverBare`]: round(o.cpuS / b.cpuS, 2),
            [`${k}NativeWallOverBare`]: round(n.wallS / b.wallS, 2),
            [`${k}NativeCpuOverBare`]: round(n.cpuS / b.cpuS, 2),
            [`${k}ProgramCpuS`]: o.programCpuS,
            [`${k}HostCpuS`]: o.hostCpuS,
            [`${k}BareProgramCpuS`]: b.programCpuS,
            [`${k}BareHostCpuS`]: b.hostCpuS,
            [`${k}HostCpuOverBare`]: round(o.hostCpuS / b.hostCpuS, 2),
            [`${k}NativeProgramCpuS`]: n.programCpuS,
            [`${k}NativeHostCpuS`]: n.hostCpuS,
            [`${k}NativeHostCpuOverBare`]: round(n.hostCpuS / b.hostCpuS, 2),
            [`${k}Requests`]: o.requests,
            [`${k}NativeRequests`]: n.requests,
            [`${k}BareRequests`]: b.requests,
          });
        }
        return metrics;
      } finally {
        for (const s of stacks) await s.dispose();
        for (const p of projects) fs.rmSync(p, { recursive: true, force: true });
        fs.rmSync(dir, { recursive: true, force: true });
        await sandbox.close();
      }
    },
  };
}
