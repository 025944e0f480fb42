/**
 * Bench section: one DnsZoneRecords holding N records (1,000, 3,000 and 10,000; BENCH_ZONE_RECORDS_SIZES
 * picks others), driven by the engine against the sandbox, the limit raised out of the way:
 * - when the first API request of an up comes, at N and at one record, side by side;
 * - CPU of program and host per record for up, no-op up, refresh, preview of a one-record change
 *   and destroy, and its growth from the smallest size to the largest;
 * - requests of a no-op up (none) and of a refresh (one list per page of the zone);
 * - state bytes per record;
 * and, at a raised limit that the sandbox enforces too, an apply of `floor.records` creates against
 * the floor (N − burst) / limit, with the 429s the sandbox answered. Goals: dev/bench/README.md.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { RunResult } from "../engine/engine";
import { DEFAULT_CONTRACT } from "../../api/contract";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import type { Measurement, Metrics } from "./section";
import { builtCli } from "../pulumi-cli";
import { checkpointsFigure, CliSide, overStandIn, type CliOpCost } from "./cli-side";
import { CPU_DIR_ENV } from "./cpu-preload";
import { measureOp, preloadOptions, type OpCost } from "./op-cost";
import { atMs, benchLarge, round, sandboxConfig, sandboxEngine } from "./measure";
import { compiledProgram } from "../engine/program-file";
import { ZONE } from "./records";

export interface ZoneRecordsOptions {
  sizes: number[];
  /** Creates against the floor at a raised limit: with the contract's window, and with a window of `shortWindowSeconds` (both sandbox and client), in which the limit binds. */
  floor: { records: number; limitPerMinute: number; shortWindowSeconds: number };
  /**
   * Tests only: the side-by-side figures (first request, preview CPU) at the largest size, and at one
   * record when 1 is among the sizes, are taken from the full measurements of those sizes instead of
   * an up and a preview apart, two engine runs fewer each (the pair runs the same up and preview as
   * the full measurement). The bench leaves it unset, so the pair is measured one after the other.
   */
  reuseFullForSideBySide?: boolean;
  /**
   * Each figure through the real Pulumi CLI too (dev/bench/cli-side.ts), beside the stand-in's, with
   * CLI over stand-in (`zoneRecordsCli…`, `…CliOverEngine…`); skipped when the CLI is not built.
   */
  cli: boolean;
}

export function zoneRecordsSizes(env: NodeJS.ProcessEnv = process.env): number[] {
  const raw = env.BENCH_ZONE_RECORDS_SIZES;
  if (raw === undefined || raw === "") return benchLarge(env) ? [1000, 3000, 10_000] : [1000];
  const picked = raw.split(",").map(Number);
  if (!picked.every((n) => Number.isInteger(n) && n > 0)) throw new Error(`BENCH_ZONE_RECORDS_SIZES: "${raw}" is not a list of record counts, e.g. 1000,10000`);
  return picked;
}

export const ZONE_RECORDS_DEFAULTS: ZoneRecordsOptions = { sizes: zoneRecordsSizes(), floor: { records: 1000, limitPerMinute: 3000, shortWindowSeconds: 6 }, cli: true };

const UNPACED_PER_MINUTE = 10_000_000;
/** The records per page of a list (contract.paging). */
const PER_PAGE = Math.min(DEFAULT_CONTRACT.paging.perPage, DEFAULT_CONTRACT.paging.maxPerPage);

const program = (records: number, changed?: number): { file: string; args: Record<string, unknown> } => ({
  file: compiledProgram("dev/bench/programs/zone-records-program.ts"),
  args: { records, zone: ZONE, ...(changed === undefined ? {} : { changed }) },
});

function expectSummary(r: RunResult, what: string, want: Partial<RunResult["summary"]>): void {
  for (const [k, v] of Object.entries(want))
    if (r.summary[k as keyof RunResult["summary"]] !== v) throw new Error(`zone-records ${what}: expected ${k} ${v}, got ${JSON.stringify(r.summary)}`);
}

const cpu = (c: OpCost): number => (c.cpuMs.program ?? 0) + (c.cpuMs.host ?? 0);

async function withSandbox<T>(limitPerMinute: number, records: number, run: (sandbox: SandboxHandle) => Promise<T>, windowSeconds?: number): Promise<T> {
  const rateLimit = windowSeconds === undefined ? {} : { rateLimit: { ...DEFAULT_CONTRACT.rateLimit, windowSeconds } };
  const sandbox = await startSandbox({ port: 0, requestsPerMinute: limitPerMinute, processingDelaySeconds: 0, contract: { maxRecordsPerZone: records + 100, ...rateLimit } });
  try {
    return await run(sandbox);
  } finally {
    await sandbox.close();
  }
}

interface SizeCosts {
  up: OpCost;
  noop: OpCost;
  refresh: OpCost;
  preview: OpCost;
  destroy: OpCost;
  stateBytes: number;
}

/** Up, no-op up, refresh, preview of one changed record, and destroy of N records, each checked by its summary; or (not `full`) up and the preview. */
async function measureSize(n: number, full: boolean): Promise<SizeCosts | Pick<SizeCosts, "up" | "preview">> {
  return withSandbox(UNPACED_PER_MINUTE, n, async (sandbox) => {
    const cpuDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-zone-records-cpu-"));
    try {
      const engine = sandboxEngine(sandbox, UNPACED_PER_MINUTE, { parallel: 16, host: { env: { NODE_OPTIONS: preloadOptions(), [CPU_DIR_ENV]: cpuDir } } });
      const op = (what: string, call: () => Promise<RunResult>, want: Partial<RunResult["summary"]>) =>
        measureOp(sandbox, cpuDir, async () => expectSummary(await call(), `${what} of ${n}`, want));
      const up = await op("up", () => engine.up(program(n)), { create: 1 });
      const preview = () => op("preview", () => engine.preview(program(n, Math.floor(n / 2))), { update: 1 });
      if (!full) return { up, preview: await preview() };
      const stateBytes = Buffer.byteLength(engine.serializedState());
      return {
        up,
        stateBytes,
        noop: await op("no-op up", () => engine.up(program(n)), { same: 1 }),
        refresh: await op("refresh", () => engine.refresh(), { read: 1, update: 0 }),
        preview: await preview(),
        destroy: await op("destroy", () => engine.destroy(), { delete: 1 }),
      };
    } finally {
      fs.rmSync(cpuDir, { recursive: true, force: true });
    }
  });
}

/** An up of `records` creates at a limit both the client and the sandbox hold: the creates' span against the floor, and the 429s. */
async function measureFloor(records: number, limitPerMinute: number, windowSeconds?: number): Promise<{ seconds: number; floorSeconds: number; rateLimited: number }> {
  return withSandbox(limitPerMinute, records, async (sandbox) => {
    const engine = sandboxEngine(
      sandbox,
      limitPerMinute,
      windowSeconds === undefined ? {} : { config: { ...sandboxConfig(sandbox, limitPerMinute), "reseller:contract": JSON.stringify({ rateLimit: { windowSeconds } }) } },
    );
    sandbox.operator.clearRequests();
    expectSummary(await engine.up(program(records)), `floor up of ${records}`, { create: 1 });
    const log = sandbox.operator.requests();
    const creates = log.filter((r) => r.method === "POST" && r.path.endsWith("/records") && r.status === 201).map(atMs);
    const burst = DEFAULT_CONTRACT.rateLimit.burst;
    return {
      seconds: (Math.max(...creates) - Math.min(...creates)) / 1000,
      floorSeconds: ((records - burst) / limitPerMinute) * 60,
      rateLimited: log.filter((r) => r.status === 429).length,
    };
  }, windowSeconds);
}

type CliSizeCosts = { [K in "up" | "noop" | "refresh" | "preview" | "destroy"]: CliOpCost } & { stateBytes: number };

/** `measureSize` through the real CLI: the same program, operations and checks; undefined when the CLI is not built. */
async function measureCliSize(n: number, full: boolean): Promise<CliSizeCosts | Pick<CliSizeCosts, "up" | "preview"> | undefined> {
  return withSandbox(UNPACED_PER_MINUTE, n, async (sandbox) => {
    const side = await CliSide.open(sandbox, { program: program(n), limitPerMinute: UNPACED_PER_MINUTE });
    if (!side) return undefined;
    try {
      // The CLI counts the stack too: one resource more than the stand-in's summary.
      const up = await side.run("up", { created: 2 });
      const preview = () => side.run("preview", { "to update": 1 }, program(n, Math.floor(n / 2)).args);
      if (!full) return { up, preview: await preview() };
      const stateBytes = (await side.state(":DnsZoneRecords")).bytes;
      return {
        up,
        stateBytes,
        noop: await side.run("up", { unchanged: 2 }),
        refresh: await side.run("refresh", { unchanged: 2 }),
        preview: await preview(),
        destroy: await side.run("destroy", { deleted: 2 }),
      };
    } finally {
      await side.close();
    }
  });
}

/** `measureFloor` through the real CLI. */
async function measureCliFloor(records: number, limitPerMinute: number, windowSeconds?: number): Promise<{ seconds: number; floorSeconds: number; rateLimited: number } | undefined> {
  return withSandbox(limitPerMinute, records, async (sandbox) => {
    const config: Record<string, string> = windowSeconds === undefined ? {} : { "reseller:contract": JSON.stringify({ rateLimit: { windowSeconds } }) };
    const side = await CliSide.open(sandbox, { program: program(records), limitPerMinute, config });
    if (!side) return undefined;
    try {
      sandbox.operator.clearRequests();
      await side.run("up", { created: 2 });
      const log = sandbox.operator.requests();
      const creates = log.filter((r) => r.method === "POST" && r.path.endsWith("/records") && r.status === 201).map(atMs);
      return {
        seconds: (Math.max(...creates) - Math.min(...creates)) / 1000,
        floorSeconds: ((records - DEFAULT_CONTRACT.rateLimit.burst) / limitPerMinute) * 60,
        rateLimited: log.filter((r) => r.status === 429).length,
      };
    } finally {
      await side.close();
    }
  }, windowSeconds);
}

export function zoneRecords(options: ZoneRecordsOptions = ZONE_RECORDS_DEFAULTS): Measurement {
  const opts = options;
  return {
    id: "zone-records",
    name: `DnsZoneRecords (${opts.sizes.join(", ")} records; first request, CPU per record, requests, state; creates at ${opts.floor.limitPerMinute}/min)`,
    // Its names follow its sizes and CLI side: every one starts with `zoneRecords`.
    metrics: ["zoneRecords*"],
    async run(progress) {
      let opts = options;
      const out: Metrics = {};
      const perRecord: Record<number, number> = {};
      const full: Record<number, SizeCosts> = {};
      const cliPerRecord: Record<number, number> = {};
      const cliFull: Record<number, CliSizeCosts> = {};
      if (opts.cli) out.zoneRecordsCliVersion = builtCli()?.version ?? "not built";
      if (opts.cli) out.zoneRecordsCliCheckpoints = checkpointsFigure();
      for (const n of opts.sizes) {
        const c = (await measureSize(n, true)) as SizeCosts;
        full[n] = c;
        const total = cpu(c.up) + cpu(c.noop) + cpu(c.refresh) + cpu(c.preview) + cpu(c.destroy);
        perRecord[n] = total / n;
        out[`zoneRecordsUpSecondsAt${n}`] = round(c.up.wallSeconds, 1);
        out[`zoneRecordsMsPerRecordAt${n}`] = round(total / n, 3);
        out[`zoneRecordsUpMsPerRecordAt${n}`] = round(cpu(c.up) / n, 3);
        out[`zoneRecordsNoopRequestsAt${n}`] = c.noop.requests;
        out[`zoneRecordsRefreshRequestsAt${n}`] = c.refresh.requests;
        out[`zoneRecordsRefreshPagesAt${n}`] = Math.ceil((n + 14) / PER_PAGE);
        out[`zoneRecordsPreviewCpuSecondsAt${n}`] = round(cpu(c.preview) / 1000, 2);
        out[`zoneRecordsStateBytesPerRecordAt${n}`] = round(c.stateBytes / n, 1);
        progress(`${n}: up ${round(c.up.wallSeconds, 1)} s, ${round(total / 1000, 1)} s CPU in all, preview ${round(cpu(c.preview) / 1000, 2)} s CPU, state ${round(c.stateBytes / n, 1)} B/record`);
        if (!opts.cli) continue;
        const k = (await measureCliSize(n, true)) as CliSizeCosts | undefined;
        if (!k) {
          out.zoneRecordsCli = "skipped: the Pulumi CLI is not built (npm run pulumi-cli)";
          opts = { ...opts, cli: false };
          continue;
        }
        cliFull[n] = k;
        const ops = [k.up, k.noop, k.refresh, k.preview, k.destroy];
        const processes = ops.reduce((a, o) => a + cpu(o), 0);
        const all = ops.reduce((a, o) => a + o.allMs, 0);
        cliPerRecord[n] = all / n;
        out[`zoneRecordsCliUpSecondsAt${n}`] = round(k.up.wallSeconds, 1);
        out[`zoneRecordsCliMsPerRecordAt${n}`] = round(all / n, 3);
        out[`zoneRecordsCliProgramHostMsPerRecordAt${n}`] = round(processes / n, 3);
        out[`zoneRecordsCliOverEngineMsPerRecordAt${n}`] = overStandIn(all, total);
        out[`zoneRecordsCliProgramHostOverEngineAt${n}`] = overStandIn(processes, total);
        out[`zoneRecordsCliNoopRequestsAt${n}`] = k.noop.requests;
        out[`zoneRecordsCliRefreshRequestsAt${n}`] = k.refresh.requests;
        out[`zoneRecordsCliPreviewCpuSecondsAt${n}`] = round(k.preview.allMs / 1000, 2);
        out[`zoneRecordsCliPreviewProgramHostCpuSecondsAt${n}`] = round(cpu(k.preview) / 1000, 2);
        out[`zoneRecordsCliOverEnginePreviewCpuAt${n}`] = overStandIn(k.preview.allMs, cpu(c.preview));
        out[`zoneRecordsCliStateBytesPerRecordAt${n}`] = round(k.stateBytes / n, 1);
        out[`zoneRecordsCliOverEngineStateAt${n}`] = overStandIn(k.stateBytes, c.stateBytes);
        progress(`${n} through the CLI ${out.zoneRecordsCliVersion}: up ${round(k.up.wallSeconds, 1)} s, ${round(all / 1000, 1)} s CPU in all (program and host ${round(processes / 1000, 1)}), preview ${round(k.preview.allMs / 1000, 2)} s CPU, state ${round(k.stateBytes / n, 1)} B/record`);
      }
      // When the first request leaves: one record and the largest zone, one after the other in this run.
      const large = opts.sizes[opts.sizes.length - 1];
      // Then the preview of one changed record, at one record and at the largest: what the processes' start costs, and what the records add.
      const one = opts.reuseFullForSideBySide && full[1] ? full[1] : await measureSize(1, false);
      const big = opts.reuseFullForSideBySide ? full[large] : await measureSize(large, false);
      out.zoneRecordsFirstRequestSecondsAt1 = round(one.up.firstRequestSeconds ?? NaN, 2);
      out[`zoneRecordsFirstRequestSecondsAt${large}`] = round(big.up.firstRequestSeconds ?? NaN, 2);
      out.zoneRecordsFirstRequestLaterSeconds = round((big.up.firstRequestSeconds ?? NaN) - (one.up.firstRequestSeconds ?? NaN), 2);
      out.zoneRecordsPreviewCpuSecondsSideBySideAt1 = round(cpu(one.preview) / 1000, 2);
      out[`zoneRecordsPreviewCpuSecondsSideBySideAt${large}`] = round(cpu(big.preview) / 1000, 2);
      out.zoneRecordsPreviewProgramCpuSecondsAt1 = round((one.preview.cpuMs.program ?? 0) / 1000, 2);
      out.zoneRecordsPreviewHostCpuSecondsAt1 = round((one.preview.cpuMs.host ?? 0) / 1000, 2);
      progress(`first request: 1 record ${out.zoneRecordsFirstRequestSecondsAt1} s, ${large} ${out[`zoneRecordsFirstRequestSecondsAt${large}`]} s; preview CPU: 1 record ${out.zoneRecordsPreviewCpuSecondsSideBySideAt1} s, ${large} ${out[`zoneRecordsPreviewCpuSecondsSideBySideAt${large}`]} s`);
      if (opts.cli) {
        const cOne = (opts.reuseFullForSideBySide && cliFull[1]) || (await measureCliSize(1, false));
        const cBig = (opts.reuseFullForSideBySide && cliFull[large]) || (await measureCliSize(large, false));
        if (cOne && cBig) {
          out.zoneRecordsCliFirstRequestSecondsAt1 = round(cOne.up.firstRequestSeconds ?? NaN, 2);
          out[`zoneRecordsCliFirstRequestSecondsAt${large}`] = round(cBig.up.firstRequestSeconds ?? NaN, 2);
          out.zoneRecordsCliOverEngineFirstRequestAt1 = overStandIn(cOne.up.firstRequestSeconds, one.up.firstRequestSeconds);
          out[`zoneRecordsCliOverEngineFirstRequestAt${large}`] = overStandIn(cBig.up.firstRequestSeconds, big.up.firstRequestSeconds);
          out.zoneRecordsCliPreviewCpuSecondsSideBySideAt1 = round(cOne.preview.allMs / 1000, 2);
          out[`zoneRecordsCliPreviewCpuSecondsSideBySideAt${large}`] = round(cBig.preview.allMs / 1000, 2);
          out[`zoneRecordsCliOverEnginePreviewSideBySideAt${large}`] = overStandIn(cBig.preview.allMs, cpu(big.preview));
          progress(`through the CLI: first request: 1 record ${out.zoneRecordsCliFirstRequestSecondsAt1} s, ${large} ${out[`zoneRecordsCliFirstRequestSecondsAt${large}`]} s; preview CPU: 1 record ${out.zoneRecordsCliPreviewCpuSecondsSideBySideAt1} s, ${large} ${out[`zoneRecordsCliPreviewCpuSecondsSideBySideAt${large}`]} s`);
        }
        if (cliPerRecord[large] !== undefined) out.zoneRecordsCliGrowth = round(cliPerRecord[large] / cliPerRecord[opts.sizes[0]], 3);
      }
      out.zoneRecordsGrowth = round(perRecord[large] / perRecord[opts.sizes[0]], 3);
      /**
       * The creates at the floor, the stand-in then the CLI, under keys named `name`: with the
       * contract's window, or with `windowSeconds`, where a window holds fewer than N and the limit binds.
       */
      const floorFigures = async (name: "Floor" | "ShortWindowFloor", windowSeconds?: number): Promise<void> => {
        const { records, limitPerMinute } = opts.floor;
        const f = await measureFloor(records, limitPerMinute, windowSeconds);
        out[`zoneRecords${name}SecondsAt${records}`] = round(f.seconds, 2);
        if (windowSeconds === undefined) out[`zoneRecordsFloorIdealSecondsAt${records}`] = round(f.floorSeconds, 2);
        out[`zoneRecords${name}Ratio`] = round(f.seconds / f.floorSeconds, 3);
        out[`zoneRecords${name}429s`] = f.rateLimited;
        const window = windowSeconds === undefined ? "" : `, window ${windowSeconds} s`;
        progress(`${records} creates at ${limitPerMinute}/min${window}: ${round(f.seconds, 1)} s (floor ${round(f.floorSeconds, 1)} s), ${f.rateLimited} × 429`);
        const cf = opts.cli ? await measureCliFloor(records, limitPerMinute, windowSeconds) : undefined;
        if (!cf) return;
        out[`zoneRecordsCli${name}SecondsAt${records}`] = round(cf.seconds, 2);
        out[`zoneRecordsCli${name}Ratio`] = round(cf.seconds / cf.floorSeconds, 3);
        out[`zoneRecordsCli${name}429s`] = cf.rateLimited;
        out[`zoneRecordsCliOverEngine${name}`] = overStandIn(cf.seconds, f.seconds);
        progress(`the same through the CLI: ${round(cf.seconds, 1)} s, ${cf.rateLimited} × 429`);
      };
      await floorFigures("Floor");
      out.zoneRecordsShortWindowSeconds = opts.floor.shortWindowSeconds;
      await floorFigures("ShortWindowFloor", opts.floor.shortWindowSeconds);
      return out;
    },
  };
}
