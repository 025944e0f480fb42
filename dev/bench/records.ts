/**
 * Bench section: one zone, N DnsRecord resources, driven by the Engine (dev/engine/engine.ts) through
 * the SDK's dynamic provider host against a sandbox whose limit is 600 requests a minute.
 *
 * 1. `up` creating the N records: how much of the limit the provider's token bucket uses, and how
 *    many 429 answers the sandbox gave (both from the sandbox's request log).
 * 2. `refresh` of the N records: how many API calls it costs (reads of one zone are coalesced).
 * 3. a second `up` with no change: how many mutating (non-GET) calls it makes.
 */
import type { Program, RunResult } from "../engine/engine";
import { startSandbox } from "../../sandbox/index";
import type { RequestLogEntry } from "../../sandbox/server";
import type { Measurement } from "./section";
import { atMs, isMutatingMethod, maxInWindow, round, sandboxEngine } from "./measure";
import { compiledProgram } from "../engine/program-file";

export interface RecordsOptions {
  records: number;
  limitPerMinute: number;
  /** Registrations the engine processes at once (the CLI's `--parallel`). */
  parallel: number;
}

export const RECORDS_DEFAULTS: RecordsOptions = { records: 200, limitPerMinute: 600, parallel: 16 };

/** The seeded sandbox zone (active), so records can be created at once. */
export const ZONE = "demo-reseller.com";

/** The program: `records` A records with distinct names in one zone (dev/bench/programs/records-program.ts). */
export function recordsProgram(records: number): Program {
  return { file: compiledProgram("dev/bench/programs/records-program.ts"), args: { records, zone: ZONE } };
}


/** Rate between the first and the last of sorted times (N-1 intervals), over the limit; 0 for fewer than two. */
function spanUtilization(times: number[], limitPerMinute: number): number {
  const spanMs = times.length > 1 ? times[times.length - 1] - times[0] : 0;
  return spanMs > 0 ? round((((times.length - 1) / spanMs) * 60_000) / limitPerMinute, 3) : 0;
}

/**
 * Figures of one apply, from the request log the sandbox kept during it. The headline rate is over
 * the whole apply (engine.up from call to return: host start and program set-up included), so the
 * token bucket's initial burst cannot lift it above what the apply achieved. The rate over the
 * span of the requests alone is shown too: there the burst (contract.rateLimit.burst) makes it
 * exceed the limit by about burst/N, while the sandbox, counting per 60 s window, is never exceeded.
 */
export function applyFigures(log: RequestLogEntry[], apply: { startedAtMs: number; ms: number }, limitPerMinute: number) {
  const times = log.map(atMs).sort((a, b) => a - b);
  const perMinute = (log.length / apply.ms) * 60_000;
  return {
    applyRequests: log.length,
    applySeconds: round(apply.ms / 1000, 2),
    applyFirstRequestAfterSeconds: times.length ? round((times[0] - apply.startedAtMs) / 1000, 2) : 0,
    applyRequestsPerMinute: round(perMinute, 1),
    rateLimitUtilization: round(perMinute / limitPerMinute, 3),
    applyRequestSpanUtilization: spanUtilization(times, limitPerMinute),
    // The second half of the requests only: the bucket's steady rate, with neither start-up nor burst.
    applySecondHalfUtilization: spanUtilization(times.slice(Math.floor(times.length / 2)), limitPerMinute),
    applyMaxRequestsInOneSecond: maxInWindow(times, 1000),
    rateLimited429: log.filter((e) => e.status === 429).length,
  };
}

export function records(opts: RecordsOptions = RECORDS_DEFAULTS): Measurement {
  return {
    id: "records",
    name: `${opts.records} records in one zone (engine, limit ${opts.limitPerMinute}/min)`,
    metrics: [
      "records",
      "limitPerMinute",
      "engineParallel",
      "applyRequests",
      "applySeconds",
      "applyFirstRequestAfterSeconds",
      "applyRequestsPerMinute",
      "rateLimitUtilization",
      "applyRequestSpanUtilization",
      "applySecondHalfUtilization",
      "applyMaxRequestsInOneSecond",
      "rateLimited429",
      `refreshCallsPer${opts.records}Records`,
      "refreshChanged",
      "noopUpMutatingCalls",
      "noopUpRequests",
    ],
    async run(progress) {
      const sandbox = await startSandbox({ port: 0, requestsPerMinute: opts.limitPerMinute, processingDelaySeconds: 0 });
      const op = sandbox.operator;
      const engine = sandboxEngine(sandbox, opts.limitPerMinute, { parallel: opts.parallel });
      const program = recordsProgram(opts.records);
      const expectSummary = (r: RunResult, what: string, want: Partial<RunResult["summary"]>): void => {
        for (const [k, v] of Object.entries(want)) {
          if (r.summary[k as keyof RunResult["summary"]] !== v) throw new Error(`${what}: expected ${k} ${v}, got ${JSON.stringify(r.summary)}`);
        }
      };
      try {
        const before = op.state().zones[ZONE]?.records.length ?? 0;
        op.clearRequests();
        const ticker = setInterval(() => {
          const created = op.requests().filter((e) => e.method === "POST" && e.status < 300).length;
          progress(`up: ${created}/${opts.records} records created`);
        }, 5000);
        let up: RunResult;
        const startedAtMs = Date.now();
        const started = performance.now();
        try {
          up = await engine.up(program);
        } finally {
          clearInterval(ticker);
        }
        const applyMs = performance.now() - started;
        const applyLog = op.requests();
        expectSummary(up, "up", { create: opts.records });
        const after = op.state().zones[ZONE]?.records.length ?? 0;
        if (after - before !== opts.records) throw new Error(`up: the zone gained ${after - before} records, not ${opts.records}`);
        const apply = applyFigures(applyLog, { startedAtMs, ms: applyMs }, opts.limitPerMinute);
        progress(`up: ${opts.records} created in ${apply.applySeconds} s, ${apply.applyRequests} requests`);

        op.clearRequests();
        const refreshed = await engine.refresh();
        const refreshLog = op.requests();
        expectSummary(refreshed, "refresh", { read: opts.records, delete: 0 });
        progress(`refresh: ${refreshLog.length} request(s) for ${opts.records} records`);

        op.clearRequests();
        const again = await engine.up(program);
        const noopLog = op.requests();
        expectSummary(again, "second up", { same: opts.records, create: 0 });
        progress(`second up: ${noopLog.length} request(s), ${noopLog.filter(isMutatingMethod).length} mutating`);

        return {
          records: opts.records,
          limitPerMinute: opts.limitPerMinute,
          engineParallel: opts.parallel,
          ...apply,
          [`refreshCallsPer${opts.records}Records`]: refreshLog.length,
          refreshChanged: refreshed.steps.filter((s) => s.op !== "same").length,
          noopUpMutatingCalls: noopLog.filter(isMutatingMethod).length,
          noopUpRequests: noopLog.length,
        };
      } finally {
        await sandbox.close();
      }
    },
  };
}
