/**
 * Bench section: pacing at the service's real default (60 a minute), separated from start-up.
 *
 * 1. 300 requests through the provider's client from 16 workers against a sandbox counting 60 per
 *    sliding minute, both on one virtual clock (api/clock.ts, ManualClock with autoAdvance): 429s drawn, the busiest
 *    minute, the time taken against the physical minimum (the 300th request can go no sooner than
 *    4 minutes after the first), and the steady-state utilisation (requests beyond the first
 *    window's allowance over the limit times the windows elapsed).
 * 2. Start-up cost: wall time from `engine.up` to the first request the sandbox sees, for a small
 *    program (host start, program set-up, first Check and Create), which no pacing can recover.
 */
import { startSandbox } from "../../sandbox/index";
import type { Measurement } from "./section";
import { atMs, maxInWindow, round, sandboxEngine, sandboxOnClock } from "./measure";
import { prefixedRecords } from "./programs/prefixed-records";
import { ManualClock } from "../../api/clock";

const MIN = 60_000;

export interface PacingOptions {
  requests: number;
  limitPerMinute: number;
  workers: number;
}

export const PACING_DEFAULTS: PacingOptions = { requests: 300, limitPerMinute: 60, workers: 16 };

/** Ms the `n`th request (1-based) must wait after the first under a sliding window of `limit` per minute. */
export const physicalMinimumMs = (n: number, limit: number): number => Math.floor((n - 1) / limit) * MIN;

export function pacing(opts: PacingOptions = PACING_DEFAULTS): Measurement {
  return {
    id: "pacing",
    name: `pacing: ${opts.requests} requests at ${opts.limitPerMinute}/min (virtual clock) and start-up cost`,
    metrics: [
      "pacingRequests",
      "pacing429",
      "pacingBusiestMinute",
      "pacingSpanSeconds",
      "pacingPhysicalMinimumSeconds",
      "pacingOverMinimum",
      "pacingSteadyStateUtilization",
      "pacingCpuMsPerRequest",
      "pacingStartupSeconds",
    ],
    async run(progress) {
      const clock = new ManualClock({ start: Date.parse("2026-01-01T00:00:00Z"), autoAdvance: true });
      const { sandbox, client } = await sandboxOnClock(clock, opts.limitPerMinute, 0);
      let figures: Record<string, number>;
      try {
        let next = 0;
        const worker = async (): Promise<void> => {
          while (next < opts.requests) {
            next++;
            await client.getDomain("demo-reseller.com");
          }
        };
        const cpu = process.cpuUsage();
        await Promise.all(Array.from({ length: opts.workers }, worker));
        const cpuMs = (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000;
        await client.close();
        const times = sandbox.operator.requests().map(atMs).sort((a, b) => a - b);
        const spanMs = times[times.length - 1] - times[0];
        const minimumMs = physicalMinimumMs(times.length, opts.limitPerMinute);
        figures = {
          pacingRequests: times.length,
          pacing429: sandbox.operator.requests().filter((e) => e.status === 429).length,
          pacingBusiestMinute: maxInWindow(times, MIN),
          pacingSpanSeconds: round(spanMs / 1000, 3),
          pacingPhysicalMinimumSeconds: minimumMs / 1000,
          pacingOverMinimum: round(spanMs / minimumMs - 1, 4),
          pacingSteadyStateUtilization: round((times.length - opts.limitPerMinute) / (opts.limitPerMinute * (spanMs / MIN)), 3),
          pacingCpuMsPerRequest: round(cpuMs / times.length, 2),
        };
        progress(`${times.length} requests over ${figures.pacingSpanSeconds} virtual s (minimum ${minimumMs / 1000} s), ${figures.pacing429} 429s`);
      } finally {
        await sandbox.close();
      }

      // Start-up: a 5-record program through the engine, at a limit that never makes it wait.
      const startupMs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const sb = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
        try {
          const engine = sandboxEngine(sb, 100_000);
          const startedAt = Date.now();
          await engine.up(prefixedRecords("startup", 5));
          const first = Math.min(...sb.operator.requests().map(atMs));
          startupMs.push(first - startedAt);
        } finally {
          await sb.close();
        }
      }
      startupMs.sort((a, b) => a - b);
      progress(`start-up (engine.up to first request): ${startupMs.map((m) => Math.round(m)).join(", ")} ms`);
      return { ...figures, pacingStartupSeconds: round(startupMs[1] / 1000, 2) };
    },
  };
}
