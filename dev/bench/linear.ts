/**
 * Bench section: is the cost per record flat as a stack grows? For each size N, N DnsRecords in
 * one zone ("ours") and N bare dynamic resources that make one request to the same sandbox per
 * create, read and delete ("bare") go through the same engine: up, no-op up, refresh, destroy.
 * The CPU (user + system) of the program's process and of the provider host is read from each
 * process itself (dev/bench/cpu-preload.ts, loaded through NODE_OPTIONS) and divided by N. Sizes 1,000
 * and 3,000; 10,000 too with BENCH_LARGE=1 (`linearSizes`). At the largest size also: the up of a
 * program that yields every `yieldEvery` records, and the first up of what `reseller-pulumi import`
 * writes for a zone of that many records (which adopts them). Figures and goals: dev/bench/README.md;
 * the section in full, and its earlier runs: dev/bench/history/2026-11-29.md, "Estates of thousands".
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../cli/main";
import { builtCli } from "../pulumi-cli";
import type { Engine, Program, RunResult } from "../engine/engine";
import { ResellerClient } from "../../api/client";
import { DEFAULT_CONTRACT } from "../../api/contract";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import type { Measurement, Metrics } from "./section";
import { checkpointsFigure, cliBenchSettings, CliSide, overStandIn, type CliOpCost } from "./cli-side";
import { CPU_DIR_ENV, CPU_PROFILE_DIR_ENV, type CpuRecord } from "./cpu-preload";
import { benchLarge, round, sandboxEngine } from "./measure";
import { measureOp, preloadOptions, type OpCost } from "./op-cost";
import { compiledProgram, generatedProgram } from "../engine/program-file";
import { prefixedRecords } from "./programs/prefixed-records";
import { ZONE } from "./records";

export interface LinearOptions {
  sizes: number[];
  /** Registrations the engine processes at once (the CLI's `--parallel`). */
  parallel: number;
  /** The yielding program's records per turn of the event loop. */
  yieldEvery: number;
  /**
   * Tests only: at the largest size the "ours" up runs the yielding program, and that one up gives
   * both the ours up's figures and the yielding ones; the no-op up after it runs the synchronous
   * program, which must declare the same records (nothing changes). One engine run fewer. The bench
   * leaves it unset: the ours up is the synchronous program's, the yielding up runs apart.
   */
  yieldingOursUp?: boolean;
  /**
   * Ours through the real Pulumi CLI too (dev/bench/cli-side.ts), at each size, the four operations
   * with the same `--parallel`, and an up of one record on both sides (`linearCli…`,
   * `linearCliOverOurs…`); skipped when the CLI is not built.
   */
  cli?: boolean;
  /** Parts left out (BENCH_LINEAR_SKIP, `linearSkip`): the bare kind, the yielding program's up, the imported zone's up. */
  skip?: LinearPart[];
}

export type LinearPart = "bare" | "yielding" | "imported";
const PARTS: LinearPart[] = ["bare", "yielding", "imported"];

/** BENCH_LINEAR_SKIP="bare,yielding,imported" leaves those parts out (a 10,000 run of ours on both sides only); default none. */
export function linearSkip(env: NodeJS.ProcessEnv = process.env): LinearPart[] {
  const raw = env.BENCH_LINEAR_SKIP;
  if (raw === undefined || raw === "") return [];
  const picked = raw.split(",");
  for (const p of picked) if (!PARTS.includes(p as LinearPart)) throw new Error(`BENCH_LINEAR_SKIP: "${p}" is not one of ${PARTS.join(", ")}`);
  return picked as LinearPart[];
}

/** BENCH_LINEAR_SIZES="1000,10000" picks the sizes; otherwise 100 and 300, and 1,000, 3,000 and 10,000 with BENCH_LARGE=1. */
export function linearSizes(env: NodeJS.ProcessEnv = process.env): number[] {
  const raw = env.BENCH_LINEAR_SIZES;
  if (raw !== undefined && raw !== "") {
    const picked = raw.split(",").map(Number);
    if (!picked.every((n) => Number.isInteger(n) && n > 0)) throw new Error(`BENCH_LINEAR_SIZES: "${raw}" is not a list of record counts, e.g. 1000,10000`);
    return picked;
  }
  return benchLarge(env) ? [1000, 3000, 10_000] : [100, 300];
}

export const LINEAR_DEFAULTS: LinearOptions = { sizes: linearSizes(), parallel: 16, yieldEvery: 100, cli: true, skip: linearSkip() };

/** High enough that neither the provider's pacing nor the sandbox's limit is what is measured. */
const UNPACED_PER_MINUTE = 10_000_000;

type Kind = "Ours" | "Bare" | "Imported" | "Cli";
type Op = "Up" | "Noop" | "Refresh" | "Destroy";
type Role = CpuRecord["role"];

const ROLE_NAME: Record<Role, string> = { program: "Program", host: "Host" };




/** Throws unless the run's summary has every count in `want`. */
function expectSummary(r: RunResult, what: string, want: Partial<RunResult["summary"]>): void {
  for (const [k, v] of Object.entries(want)) {
    if (r.summary[k as keyof RunResult["summary"]] !== v) throw new Error(`linear ${what}: expected ${k} ${v}, got ${JSON.stringify(r.summary)}`);
  }
}

/** Up (of `upProgram`, by default `program`), no-op up, refresh and destroy of `program`'s N resources; each checked by its summary. */
async function fourOps(sandbox: SandboxHandle, engine: Engine, program: Program, n: number, cpuDir: string, upProgram = program): Promise<Record<Op, OpCost>> {
  const run = (op: Op, call: () => Promise<RunResult>, want: Partial<RunResult["summary"]>): Promise<OpCost> =>
    measureOp(sandbox, cpuDir, async () => expectSummary(await call(), `${op} of ${n}`, want));
  return {
    Up: await run("Up", () => engine.up(upProgram), { create: n }),
    Noop: await run("Noop", () => engine.up(program), { same: n, create: 0, update: 0 }),
    Refresh: await run("Refresh", () => engine.refresh(), { read: n, update: 0, delete: 0 }),
    Destroy: await run("Destroy", () => engine.destroy(), { delete: n }),
  };
}

/**
 * The project `reseller-pulumi import --zone` writes for the bench zone once it holds `n` records
 * of ours (made through the client), compiled in `dir`.
 */
async function importedProgram(sandbox: SandboxHandle, n: number, dir: string): Promise<Program> {
  const credentials = { baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret };
  const client = new ResellerClient({ ...credentials, requestsPerMinute: UNPACED_PER_MINUTE, rateLimitLogDir: null });
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = next++; i < n; i = next++) await client.createRecord(ZONE, { type: "A", name: `imported-${i}`, content: `198.51.100.${(i % 250) + 1}`, ttl: 300 });
      }),
    );
  } finally {
    await client.close();
  }
  const errors: string[] = [];
  const env = { RESELLER_BASE_URL: credentials.baseUrl, RESELLER_API_KEY: credentials.apiKey, RESELLER_API_SECRET: credentials.apiSecret };
  const code = await main(["import", "--zone", ZONE, "--out", dir, "--requests-per-minute", String(UNPACED_PER_MINUTE)], { env, out: () => undefined, err: (l) => errors.push(l), cwd: dir });
  if (code !== 0) throw new Error(`linear: the import of a zone of ${n} records failed: ${errors.join("; ")}`);
  return generatedProgram(dir);
}

/**
 * One kind at one size, against its own sandbox (the zone's record limit raised above N): up,
 * no-op up, refresh and destroy. With `yieldEvery` ("ours" only): the same records declared by a
 * program that gives the event loop a turn after every `yieldEvery` of them, up only (what that
 * changes is when the first registrations leave the program). "Imported": the first up of the
 * imported program, which adopts the N records and the zone. With `upYieldEvery` ("ours" only): the
 * four operations, the up by the yielding program (LinearOptions.yieldingOursUp).
 */
async function measureKind(kind: Kind, n: number, parallel: number, yielding: { yieldEvery?: number; upYieldEvery?: number } = {}): Promise<Partial<Record<Op, OpCost>>> {
  const { yieldEvery, upYieldEvery } = yielding;
  const sandbox = await startSandbox({
    port: 0,
    requestsPerMinute: UNPACED_PER_MINUTE,
    processingDelaySeconds: 0,
    contract: { maxRecordsPerZone: n + 100 },
  });
  const cpuDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-linear-cpu-"));
  const projectDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-linear-import-"));
  try {
    // The engine passes the host's extra environment to the program's process too. With
    // BENCH_CLI_PROFILE_DIR, the stand-in's processes profile themselves too, into `standin-<kind>-<n>`
    // there (one folder for the four operations: the files' times give their order).
    const profileRoot = cliBenchSettings().profileDir;
    const profileDir = profileRoot && path.join(profileRoot, `standin-${kind.toLowerCase()}-${n}`);
    if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
    const env = { NODE_OPTIONS: preloadOptions(), [CPU_DIR_ENV]: cpuDir, ...(profileDir ? { [CPU_PROFILE_DIR_ENV]: profileDir } : {}) };
    const engine = sandboxEngine(sandbox, UNPACED_PER_MINUTE, { parallel, host: { env } });
    if (kind === "Imported") {
      const program = await importedProgram(sandbox, n, projectDir);
      // The bench zone's seeded records and the zone itself are adopted too.
      return { Up: await measureOp(sandbox, cpuDir, async () => expectSummary(await engine.up(program), `imported Up of ${n}`, { update: 0, replace: 0, delete: 0 })) };
    }
    const program = (every?: number): Program =>
      kind === "Ours"
        ? prefixedRecords("linear", n, undefined, every)
        : { file: compiledProgram("dev/bench/programs/bare-records-program.ts"), args: { records: n, url: `${sandbox.url}${DEFAULT_CONTRACT.apiPrefix}/bare` } };
    if (!yieldEvery) return await fourOps(sandbox, engine, program(), n, cpuDir, upYieldEvery === undefined ? undefined : program(upYieldEvery));
    return { Up: await measureOp(sandbox, cpuDir, async () => expectSummary(await engine.up(program(yieldEvery)), `yielding Up of ${n}`, { create: n })) };
  } finally {
    fs.rmSync(cpuDir, { recursive: true, force: true });
    fs.rmSync(projectDir, { recursive: true, force: true });
    await sandbox.close();
  }
}

/**
 * Ours through the real CLI against a sandbox of its own, as `measureKind` runs it through the
 * stand-in: the four operations of N records (the CLI counts the stack too: N + 1), or (`upOnly`)
 * the up alone. Undefined when the CLI is not built.
 */
async function measureCli(n: number, parallel: number, upOnly = false): Promise<Partial<Record<Op, CliOpCost>> | undefined> {
  const sandbox = await startSandbox({ port: 0, requestsPerMinute: UNPACED_PER_MINUTE, processingDelaySeconds: 0, contract: { maxRecordsPerZone: n + 100 } });
  try {
    const side = await CliSide.open(sandbox, { program: prefixedRecords("linear", n), limitPerMinute: UNPACED_PER_MINUTE, parallel });
    if (!side) return undefined;
    try {
      const Up = await side.run("up", { created: n + 1 });
      if (upOnly) return { Up };
      return {
        Up,
        Noop: await side.run("up", { unchanged: n + 1 }),
        Refresh: await side.run("refresh", { unchanged: n + 1 }),
        Destroy: await side.run("destroy", { deleted: n + 1 }),
      };
    } finally {
      await side.close();
    }
  } finally {
    await sandbox.close();
  }
}

const OPS: Op[] = ["Up", "Noop", "Refresh", "Destroy"];
const ROLES: Role[] = ["program", "host"];

/** `linearOursProgramUpMsPerRecordAt1000`: CPU ms per record of one process in one operation. */
const key = (kind: Kind, role: Role, op: Op, n: number): string => `linear${kind}${ROLE_NAME[role]}${op}MsPerRecordAt${n}`;

export function linear(opts: LinearOptions = LINEAR_DEFAULTS): Measurement {
  return {
    id: "linear",
    name: `CPU per record, ours and bare (${opts.sizes.join(", ")} resources; up, no-op up, refresh, destroy)`,
    // Its names follow its sizes, parts and CLI side: every one starts with `linear`.
    metrics: ["linear*"],
    async run(progress) {
      const out: Metrics = {};
      const perRecord: Record<string, number> = {};
      const small = opts.sizes[0];
      const large = opts.sizes[opts.sizes.length - 1];
      let oursYieldingUp: OpCost | undefined;
      let cli = opts.cli === true;
      const skip = new Set(opts.skip ?? []);
      if (skip.size > 0) out.linearSkipped = [...skip].join(",");
      if (cli) out.linearCliVersion = builtCli()?.version ?? "not built";
      if (cli) out.linearCliCheckpoints = checkpointsFigure();
      for (const n of opts.sizes) {
        for (const kind of (skip.has("bare") ? ["Ours"] : ["Ours", "Bare"]) as Kind[]) {
          const started = performance.now();
          const yieldingUp = opts.yieldingOursUp === true && kind === "Ours" && n === large;
          const costs = await measureKind(kind, n, opts.parallel, { upYieldEvery: yieldingUp ? opts.yieldEvery : undefined });
          if (yieldingUp) oursYieldingUp = costs.Up;
          let total = 0;
          for (const op of OPS) {
            // Refresh and destroy run no program (the engine uses the state and the config of the last up).
            for (const role of ROLES) {
              const ms = costs[op]?.cpuMs[role];
              if (ms === undefined) continue;
              perRecord[key(kind, role, op, n)] = ms / n;
              total += ms;
            }
          }
          perRecord[`linear${kind}MsPerRecordAt${n}`] = total / n;
          out[`linear${kind}FirstRequestSecondsAt${n}`] = round(costs.Up?.firstRequestSeconds ?? NaN, 2);
          out[`linear${kind}UpSecondsAt${n}`] = round(costs.Up?.wallSeconds ?? NaN, 1);
          progress(`${kind.toLowerCase()} ${n}: ${round(total / 1000, 1)} s CPU (program and host), ${round((performance.now() - started) / 1000, 1)} s wall`);
        }
        if (!cli) continue;
        const started = performance.now();
        const c = await measureCli(n, opts.parallel);
        if (!c) {
          out.linearCli = "skipped: the Pulumi CLI is not built (npm run pulumi-cli)";
          cli = false;
          continue;
        }
        let processes = 0;
        let all = 0;
        for (const op of OPS) {
          for (const role of ROLES) {
            const ms = c[op]?.cpuMs[role];
            if (ms === undefined) continue;
            perRecord[key("Cli", role, op, n)] = ms / n;
            processes += ms;
          }
          all += c[op]?.allMs ?? NaN;
        }
        perRecord[`linearCliMsPerRecordAt${n}`] = processes / n;
        perRecord[`linearCliAllMsPerRecordAt${n}`] = all / n;
        out[`linearCliFirstRequestSecondsAt${n}`] = round(c.Up?.firstRequestSeconds ?? NaN, 2);
        out[`linearCliUpSecondsAt${n}`] = round(c.Up?.wallSeconds ?? NaN, 1);
        for (const op of OPS) out[`linearCli${op}SecondsAt${n}`] = round(c[op]?.wallSeconds ?? NaN, 1);
        progress(`ours ${n} through the CLI ${out.linearCliVersion}: ${round(all / 1000, 1)} s CPU (CLI, program and host; program and host ${round(processes / 1000, 1)}), ${round((performance.now() - started) / 1000, 1)} s wall`);
      }
      if (!skip.has("yielding")) {
        // The first request waits for the whole synchronous loop of a program; one that yields, at the largest size.
        const yielding = oursYieldingUp ?? (await measureKind("Ours", large, opts.parallel, { yieldEvery: opts.yieldEvery })).Up;
        out[`linearOursYieldingFirstRequestSecondsAt${large}`] = round(yielding?.firstRequestSeconds ?? NaN, 2);
        out[`linearOursYieldingUpSecondsAt${large}`] = round(yielding?.wallSeconds ?? NaN, 1);
        progress(`ours ${large}, yielding every ${opts.yieldEvery}: up in ${round(yielding?.wallSeconds ?? NaN, 1)} s wall`);
      }
      if (!skip.has("imported")) {
        // What the import command writes for a zone of that many records: its first up adopts them.
        const imported = (await measureKind("Imported", large, opts.parallel)).Up;
        out[`linearImportedFirstRequestSecondsAt${large}`] = round(imported?.firstRequestSeconds ?? NaN, 2);
        out[`linearImportedUpSecondsAt${large}`] = round(imported?.wallSeconds ?? NaN, 1);
        out[`linearImportedUpRequestsAt${large}`] = imported?.requests ?? NaN;
        for (const role of ROLES) out[key("Imported", role, "Up", large)] = round((imported?.cpuMs[role] ?? NaN) / large, 3);
        progress(`imported ${large}: up in ${round(imported?.wallSeconds ?? NaN, 1)} s wall, ${imported?.requests} requests`);
      }
      if (cli) {
        // When the first request of an up of one record leaves, on both sides, one after the other.
        const one = (await measureKind("Ours", 1, opts.parallel)).Up;
        const cliOne = (await measureCli(1, opts.parallel, true))?.Up;
        out.linearOursFirstRequestSecondsAt1 = round(one?.firstRequestSeconds ?? NaN, 2);
        out.linearCliFirstRequestSecondsAt1 = round(cliOne?.firstRequestSeconds ?? NaN, 2);
        out.linearCliOverOursFirstRequestAt1 = overStandIn(cliOne?.firstRequestSeconds, one?.firstRequestSeconds);
        progress(`first request of an up of one record: ${out.linearOursFirstRequestSecondsAt1} s, through the CLI ${out.linearCliFirstRequestSecondsAt1} s`);
        for (const n of opts.sizes) {
          const over = (a: string, b: string): number => overStandIn(perRecord[a], perRecord[b]);
          out[`linearCliOverOursAt${n}`] = over(`linearCliAllMsPerRecordAt${n}`, `linearOursMsPerRecordAt${n}`);
          out[`linearCliProgramHostOverOursAt${n}`] = over(`linearCliMsPerRecordAt${n}`, `linearOursMsPerRecordAt${n}`);
          out[`linearCliOverOursFirstRequestAt${n}`] = overStandIn(out[`linearCliFirstRequestSecondsAt${n}`] as number, out[`linearOursFirstRequestSecondsAt${n}`] as number);
          out[`linearCliOverOursUpSecondsAt${n}`] = overStandIn(out[`linearCliUpSecondsAt${n}`] as number, out[`linearOursUpSecondsAt${n}`] as number);
        }
      }
      for (const [k, v] of Object.entries(perRecord)) out[k] = round(v, 3);
      const ratio = (a: string, b: string): number => round(perRecord[a] / perRecord[b], 3);
      // Growth: per record at the largest size over the smallest. Ours over bare: at each size.
      out.linearOursGrowth = ratio(`linearOursMsPerRecordAt${large}`, `linearOursMsPerRecordAt${small}`);
      if (cli && perRecord[`linearCliAllMsPerRecordAt${large}`] !== undefined) {
        out.linearCliGrowth = ratio(`linearCliAllMsPerRecordAt${large}`, `linearCliAllMsPerRecordAt${small}`);
        out.linearCliProgramHostGrowth = ratio(`linearCliMsPerRecordAt${large}`, `linearCliMsPerRecordAt${small}`);
      }
      if (skip.has("bare")) return out;
      out.linearBareGrowth = ratio(`linearBareMsPerRecordAt${large}`, `linearBareMsPerRecordAt${small}`);
      for (const n of opts.sizes) out[`linearOursOverBareAt${n}`] = ratio(`linearOursMsPerRecordAt${n}`, `linearBareMsPerRecordAt${n}`);
      for (const op of OPS) {
        for (const role of ROLES) {
          const name = `${ROLE_NAME[role]}${op}`;
          if (perRecord[key("Ours", role, op, small)] === undefined) continue;
          out[`linearOurs${name}Growth`] = ratio(key("Ours", role, op, large), key("Ours", role, op, small));
          out[`linearBare${name}Growth`] = ratio(key("Bare", role, op, large), key("Bare", role, op, small));
          out[`linear${name}OursOverBareAt${large}`] = ratio(key("Ours", role, op, large), key("Bare", role, op, large));
        }
      }
      return out;
    },
  };
}
