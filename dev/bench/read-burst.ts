/**
 * Bench section: a burst of reads against a local sandbox whose limit is 600 requests per
 * minute, through one client configured with the same limit. Measures how much of the limit the
 * client uses and how many 429 answers it still provoked.
 */
import { ResellerClient } from "../../api/client";
import { startSandbox } from "../../sandbox/index";
import type { Measurement } from "./section";
import { round } from "./measure";

export interface ReadBurstOptions {
  requests: number;
  limitPerMinute: number;
}

export const READ_BURST_DEFAULTS: ReadBurstOptions = { requests: 300, limitPerMinute: 600 };

export function readBurst(opts: ReadBurstOptions = READ_BURST_DEFAULTS): Measurement {
  return {
    id: "read-burst",
    name: `read burst (${opts.requests} x GET /ping, limit ${opts.limitPerMinute}/min)`,
    metrics: ["readBurstRequests", "readBurstSeconds", "readBurstRequestsPerMinute", "readBurstLimitPerMinute", "readBurstUtilization", "readBurst429"],
    async run(progress) {
      const sandbox = await startSandbox({ port: 0, requestsPerMinute: opts.limitPerMinute });
      let rateLimited429 = 0;
      let done = 0;
      const client = new ResellerClient({
        baseUrl: sandbox.url,
        apiKey: sandbox.credentials.key,
        apiSecret: sandbox.credentials.secret,
        requestsPerMinute: opts.limitPerMinute,
        onResponse: (e) => {
          if (e.status === 429) rateLimited429++;
        },
      });
      try {
        const start = performance.now();
        await Promise.all(
          Array.from({ length: opts.requests }, async () => {
            await client.ping();
            if (++done % 50 === 0) progress(`${done}/${opts.requests}`);
          }),
        );
        const seconds = (performance.now() - start) / 1000;
        const requestsPerMinute = (opts.requests / seconds) * 60;
        return {
          readBurstRequests: opts.requests,
          readBurstSeconds: round(seconds, 2),
          readBurstRequestsPerMinute: round(requestsPerMinute, 1),
          readBurstLimitPerMinute: opts.limitPerMinute,
          readBurstUtilization: round(requestsPerMinute / opts.limitPerMinute, 3),
          readBurst429: rateLimited429,
        };
      } finally {
        await client.close();
        await sandbox.close();
      }
    },
  };
}
