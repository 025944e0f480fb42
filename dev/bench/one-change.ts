/**
 * Bench section: a one-change preview among N records through the native provider
 * plugin and the real Pulumi CLI, as a user with that many records in CI runs it: a program on the
 * generated Node SDK (`@reseller-pulumi/native`, sdk/nodejs, compiled), in two forms, one
 * `DnsZoneRecords` holding the N records and a loop of N `DnsRecord`s. Each form's stack is made by
 * an up (with the CLI's checkpoints off, not measured); then `pulumi preview` with one record's
 * address changed, `runs` times (the CLI counts the stack among the unchanged). Each preview's CPU (user + system) of the program's process and
 * of the plugin's (dev/bench/cpu-preload.ts) and of everything the CLI ran (/usr/bin/time, which
 * counts every process it waited for); medians. The goal: program + plugin at most 2 s. The same two
 * forms in YAML too (`…Yaml`), whose program is the CLI's YAML language host (Go, no Node process).
 *
 * N: BENCH_ONE_CHANGE_RECORDS (default 1,000; 10,000 with BENCH_LARGE=1, the size of the goal).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CliStack, checkoutRoot } from "../pulumi-cli";
import { startSandbox } from "../../sandbox/index";
import { buildSdk, nativeProject } from "../../test/support/native-project";
import type { Measurement, Metrics } from "./section";
import { cliBenchSettings, cliSummary, configureForSandbox, lastCommandCpuMs, PROFILE_DIR_ENV, NO_TIMED_CLI, timedCliFolder, timesLines } from "./cli-side";
import { CPU_DIR_ENV, CPU_PROFILE_DIR_ENV } from "./cpu-preload";
import { measureOp, preloadOptions } from "./op-cost";
import { benchLarge, median, round } from "./measure";

const ZONE = "demo-reseller.com";
const RPM = 10_000_000;

export interface OneChangeOptions {
  records: number;
  /** Measured previews of each form. */
  runs: number;
  /** The forms measured (BENCH_ONE_CHANGE_FORMS, e.g. `zoneRecords,zoneRecordsYaml`; default all four). */
  forms: Form[];
}

export function oneChangeForms(env: NodeJS.ProcessEnv = process.env): Form[] {
  const raw = env.BENCH_ONE_CHANGE_FORMS;
  if (raw === undefined || raw === "") return [...FORMS];
  const picked = raw.split(",");
  const unknown = picked.filter((f) => !FORMS.includes(f as Form));
  if (unknown.length) throw new Error(`BENCH_ONE_CHANGE_FORMS: ${unknown.join(", ")} is none of ${FORMS.join(", ")}`);
  return picked as Form[];
}

export function oneChangeRecords(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BENCH_ONE_CHANGE_RECORDS;
  if (raw === undefined || raw === "") return benchLarge(env) ? 10_000 : 1000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 2) throw new Error(`BENCH_ONE_CHANGE_RECORDS: "${raw}" is not a record count of 2 or more, e.g. 10000`);
  return n;
}


/** The address of record `i`, and of the one the preview changes. */
const ADDRESS = `(i) => (i === changed ? "203.0.113.1" : "198.51.100." + ((i % 250) + 1))`;

/** The two forms' programs on the generated SDK, reading `records` and `changed` (-1: none) from the stack config. */
const PROGRAMS = {
  zoneRecords: `const pulumi = require("@pulumi/pulumi");
const reseller = require("@reseller-pulumi/native");
const config = new pulumi.Config();
const n = Number(config.require("records"));
const changed = Number(config.get("changed") ?? -1);
const address = ${ADDRESS};
const records = Array.from({ length: n }, (_, i) => ({ type: "A", name: "zr-" + String(i).padStart(5, "0"), content: address(i), ttl: 300 }));
new reseller.DnsZoneRecords("zone", { zone: "${ZONE}", records, allowLargeChanges: true });
`,
  loop: `const pulumi = require("@pulumi/pulumi");
const reseller = require("@reseller-pulumi/native");
const config = new pulumi.Config();
const n = Number(config.require("records"));
const changed = Number(config.get("changed") ?? -1);
const address = ${ADDRESS};
for (let i = 0; i < n; i++) {
  const name = "loop-" + String(i).padStart(5, "0");
  new reseller.DnsRecord(name, { zone: "${ZONE}", type: "A", name, content: address(i), ttl: 300 });
}
`,
} as const;

/**
 * The same two forms in YAML (no Node program process: the CLI's YAML language host reads the
 * file), the records written out; `changed` (an index, or -1) gets the other address. The preview
 * rewrites the file with one record changed, as a commit that changes one line would.
 */
export function yamlProgram(form: "zoneRecordsYaml" | "loopYaml", records: number, changed: number): string {
  const address = (i: number): string => (i === changed ? "203.0.113.1" : `198.51.100.${(i % 250) + 1}`);
  const head = `name: one-change-${form}\nruntime: yaml\nresources:\n`;
  if (form === "zoneRecordsYaml") {
    const list = Array.from({ length: records }, (_, i) => `        - { type: A, name: zr-${String(i).padStart(5, "0")}, content: ${address(i)}, ttl: 300 }\n`).join("");
    return `${head}  zone:\n    type: reseller:index:DnsZoneRecords\n    properties:\n      zone: ${ZONE}\n      allowLargeChanges: true\n      records:\n${list}`;
  }
  const each = (i: number): string => {
    const name = `loop-${String(i).padStart(5, "0")}`;
    return `  ${name}:\n    type: reseller:index:DnsRecord\n    properties: { zone: ${ZONE}, type: A, name: ${name}, content: ${address(i)}, ttl: 300 }\n`;
  };
  return head + Array.from({ length: records }, (_, i) => each(i)).join("");
}

const YAML_FORMS = ["zoneRecordsYaml", "loopYaml"] as const;
type Form = keyof typeof PROGRAMS | (typeof YAML_FORMS)[number];
const FORMS: readonly Form[] = [...(Object.keys(PROGRAMS) as (keyof typeof PROGRAMS)[]), ...YAML_FORMS];
const isYaml = (form: Form): form is (typeof YAML_FORMS)[number] => (YAML_FORMS as readonly string[]).includes(form);

export const ONE_CHANGE_DEFAULTS: OneChangeOptions = { records: oneChangeRecords(), runs: 3, forms: oneChangeForms() };

interface PreviewCost {
  programCpuS: number;
  pluginCpuS: number;
  allCpuS: number;
  wallS: number;
  requests: number;
}

export function oneChange(opts: OneChangeOptions = ONE_CHANGE_DEFAULTS): Measurement {
  return {
    id: "one-change",
    name: `real CLI, native provider: a one-change preview among ${opts.records} records (${opts.runs} previews each)`,
    metrics: ["oneChange*"],
    async run(progress) {
      const timed = timedCliFolder("bench-one-change-");
      if (!timed) return { oneChangeSkipped: NO_TIMED_CLI };
      if (!fs.existsSync(path.join(checkoutRoot, "sdk", "nodejs", "bin", "index.js")) || !fs.existsSync(path.join(checkoutRoot, "sdk", "nodejs", "node_modules"))) {
        progress("building the generated SDK (npm run sdk -- --build)");
        buildSdk();
      }
      const { dir, cli, timesFile } = timed;
      const cpuDir = path.join(dir, "cpu");
      fs.mkdirSync(cpuDir);
      const settings = cliBenchSettings();
      const sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0, requestsPerMinute: RPM, contract: { maxRecordsPerZone: 2 * opts.records + 100 } });
      const metrics: Metrics = { oneChangeCliVersion: cli.version, oneChangeRecords: opts.records, oneChangeRuns: opts.runs };
      const stacks: CliStack[] = [];
      const projects: string[] = [];
      try {
        for (const form of opts.forms) {
          const projectDir = isYaml(form) ? nativeProject(`one-change-${form}`, {}) : nativeProject(`one-change-${form}`, { "index.js": PROGRAMS[form] }, { sdk: true });
          projects.push(projectDir);
          const yamlFile = path.join(projectDir, "Pulumi.yaml");
          // nativeProject's Pulumi.yaml names the plugin (its `plugins:` block, kept); the YAML program replaces the rest.
          const plugins = fs.readFileSync(yamlFile, "utf8").replace(/^[\s\S]*?(?=^plugins:)/m, "");
          const writeYaml = (changed: number): void => fs.writeFileSync(yamlFile, (isYaml(form) ? yamlProgram(form, opts.records, changed) : "") + plugins);
          if (isYaml(form)) writeYaml(-1);
          const stack = await CliStack.init({
            cli,
            projectDir,
            env: { NODE_OPTIONS: preloadOptions(), [CPU_DIR_ENV]: cpuDir, RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined },
          });
          stacks.push(stack);
          await stack.configSet("records", String(opts.records));
          await configureForSandbox(stack, sandbox, RPM);
          const t = performance.now();
          // The setup's up is run again when it stops part way, as its message says to (a POST whose
          // keep-alive connection the sandbox closed meanwhile is not re-sent: seen at 10,000 records
          // on the loaded machine; a record already live is taken, not made again).
          for (let attempt = 1; ; attempt++) {
            const r = await stack.run(["up", "--yes", "--non-interactive", "--skip-preview"], { env: { PULUMI_SKIP_CHECKPOINTS: "true" } });
            if (r.code === 0) break;
            if (attempt === 3) throw new Error(`one-change ${form}: the setup's up failed 3 times; the last:\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-2000)}`);
            progress(`${form}: the setup's up stopped part way (${/UND_ERR_\w+/.exec(r.stdout)?.[0] ?? "see its output"}); running it again`);
          }
          progress(`${form}: up of ${opts.records} records in ${((performance.now() - t) / 1000).toFixed(0)} s (not measured)`);
          const changed = Math.floor(opts.records / 2);
          if (isYaml(form)) writeYaml(changed);
          else await stack.configSet("changed", String(changed));
          const costs: PreviewCost[] = [];
          for (let i = 0; i < opts.runs; i++) {
            const profileDir = settings.profileDir ? path.join(settings.profileDir, `one-change-${form}-${i + 1}`) : undefined;
            if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
            const args = ["preview", "--non-interactive", ...(profileDir ? ["--profiling", path.join(profileDir, "cli")] : [])];
            let allMs = 0;
            let stdout = "";
            const cost = await measureOp(sandbox, cpuDir, async () => {
              const before = timesLines(timesFile);
              stdout = (await stack.must(args, { env: profileDir ? { [CPU_PROFILE_DIR_ENV]: profileDir } : {} })).stdout;
              allMs = lastCommandCpuMs(timesFile, before);
            });
            const summary = cliSummary(stdout);
            const want = form === "zoneRecords" || form === "zoneRecordsYaml" ? { "to update": 1, unchanged: 1 } : { "to update": 1, unchanged: opts.records };
            for (const [k, v] of Object.entries(want)) if (summary[k] !== v) throw new Error(`one-change ${form}: the preview should show ${k} ${v}, it showed ${JSON.stringify(summary)}`);
            const c = {
              programCpuS: (cost.cpuMs.program ?? 0) / 1000,
              pluginCpuS: (cost.cpuMs.host ?? 0) / 1000,
              allCpuS: allMs / 1000,
              wallS: cost.wallSeconds,
              requests: cost.requests,
            };
            costs.push(c);
            progress(`${form}: preview ${i + 1}/${opts.runs}: program ${c.programCpuS.toFixed(2)} s CPU, plugin ${c.pluginCpuS.toFixed(2)}, all processes ${c.allCpuS.toFixed(2)}, wall ${c.wallS.toFixed(1)} s, ${c.requests} requests`);
          }
          const m = (k: keyof PreviewCost): number => round(median(costs.map((c) => c[k])), 2);
          const key = `oneChange${form[0].toUpperCase()}${form.slice(1)}`;
          Object.assign(metrics, {
            // The YAML forms have no Node program: their program is the CLI's YAML language host, a Go process counted in All.
            ...(isYaml(form) ? {} : { [`${key}ProgramCpuS`]: m("programCpuS"), [`${key}ProgramAndPluginCpuS`]: round(median(costs.map((c) => c.programCpuS + c.pluginCpuS)), 2) }),
            [`${key}PluginCpuS`]: m("pluginCpuS"),
            [`${key}AllCpuS`]: m("allCpuS"),
            [`${key}AllButPluginCpuS`]: round(median(costs.map((c) => c.allCpuS - c.pluginCpuS)), 2),
            [`${key}WallS`]: m("wallS"),
            [`${key}Requests`]: m("requests"),
          });
        }
        if (settings.profileDir) metrics.oneChangeProfiles = `${PROFILE_DIR_ENV}: one folder per preview`;
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
