/**
 * Bench section: three engines applying at once against one sandbox at 60 requests a minute, on
 * one credential (three CI jobs on one runner). Each engine starts its own provider host; the hosts
 * share the credential's request log (provider/rate-limiter.ts). Reports the 429s drawn, the
 * busiest minute, and the time lost against the shared physical minimum (the service admits 60 in
 * any minute, so N requests need at least ⌊(N−1)/60⌋ minutes from the first to the last). Checks
 * that every engine converged with every record in the zone.
 */
import type { RunResult } from "../engine/engine";
import { startSandbox } from "../sandbox/index";
import type { Measurement } from "./bench";
import { atMs, round, sandboxEngine } from "./measure";
import { maxInWindow, ZONE } from "./records";
import { prefixedRecords } from "./programs/prefixed-records";

const MIN = 60_000;

/** Job `job`'s program: its own records, named `job<job>-NNNN`, in the shared zone. */
export const jobProgram = (job: number, records: number) => prefixedRecords(`job${job}`, records);

export function sharedCredential(opts: { engines: number; records: number; limitPerMinute: number } = { engines: 3, records: 40, limitPerMinute: 60 }): Measurement {
  return {
    id: "shared-credential",
    name: `${opts.engines} engines at once on one credential, ${opts.records} records each, ${opts.limitPerMinute}/min`,
    async run(progress) {
      const sb = await startSandbox({ port: 0, requestsPerMinute: opts.limitPerMinute, processingDelaySeconds: 0 });
      try {
        const engines = Array.from({ length: opts.engines }, () => sandboxEngine(sb, opts.limitPerMinute));
        const ticker = setInterval(() => progress(`${sb.operator.requests().filter((e) => e.status < 300).length} requests answered`), 15_000);
        let results: RunResult[];
        try {
          results = await Promise.all(engines.map((e, i) => e.up(jobProgram(i, opts.records))));
        } finally {
          clearInterval(ticker);
        }
        const failed = results.filter((r) => r.summary.create !== opts.records || r.errors.length > 0).length;
        const live = (sb.operator.state().zones[ZONE]?.records ?? []).filter((r) => /^job\d+-/.test(r.name)).length;
        if (failed || live !== opts.engines * opts.records) throw new Error(`shared credential: ${failed} engine(s) did not converge; ${live} records in the zone`);
        const log = sb.operator.requests();
        const times = log.map(atMs).sort((a, b) => a - b);
        const spanMs = times[times.length - 1] - times[0];
        const minimumMs = Math.floor((times.length - 1) / opts.limitPerMinute) * MIN;
        return {
          sharedRequests: log.length,
          shared429: log.filter((e) => e.status === 429).length,
          sharedBusiestMinute: maxInWindow(log.filter((e) => e.status !== 429).map(atMs), MIN),
          sharedSpanSeconds: round(spanMs / 1000, 1),
          sharedPhysicalMinimumSeconds: minimumMs / 1000,
          sharedSecondsLost: round((spanMs - minimumMs) / 1000, 1),
        };
      } finally {
        await sb.close();
      }
    },
  };
}
