/**
 * Bench section: polls the product spends waiting for a registration the registry takes ten minutes
 * to process. The wait measured is the Domain create's own, `waitForRegistry` (api/waits.ts),
 * with its schedule, through a real client against the sandbox. Sandbox, client and wait share one
 * virtual clock (ManualClock with autoAdvance), so the ten minutes take the time the requests take.
 * The figure is the number of GET /domains/{domain} the sandbox logged from the first poll until
 * the wait saw the domain active; the poll times are the sandbox's own log times.
 */
import { ManualClock } from "../../api/clock";
import { DEFAULT_CONTRACT } from "../../api/contract";
import { toServiceContact } from "../../api/contact-names";
import { deriveIdempotencyKey } from "../../api/idempotency";
import { waitForRegistry } from "../../api/waits";
import { DEFAULT_WAIT_SECONDS } from "../../resources/domain/schema";
import type { RequestLogEntry } from "../../sandbox/server";
import type { Measurement } from "./section";
import { atMs, sandboxOnClock } from "./measure";
import { BENCH_REGISTRANT } from "../../test/support/registrant";

export interface PollsOptions {
  /** Simulated seconds the registry takes to process the order (the sandbox's processing delay). */
  processingSeconds: number;
  /** The wait's bound (a Domain's waitTimeoutSeconds), simulated seconds; beyond the processing. */
  waitSeconds: number;
}

export const POLLS_DEFAULTS: PollsOptions = { processingSeconds: 600, waitSeconds: 900 };

const isDomainGet = (e: RequestLogEntry, domain: string): boolean =>
  e.method === "GET" && e.path.split("?")[0] === `${DEFAULT_CONTRACT.apiPrefix}/domains/${domain}`;

export function polls(opts: PollsOptions = POLLS_DEFAULTS): Measurement {
  return {
    id: "polls",
    name: `polls for a registration the registry processes in ${opts.processingSeconds / 60} simulated minutes`,
    metrics: ["pollsPerRegistration", "pollsActiveAtSeconds", "pollTimesSeconds", "pollsProgressLines", "pollsWithinDefaultWait"],
    async run(progress) {
      const clock = new ManualClock({ start: Date.parse("2026-01-01T00:00:00Z"), autoAdvance: true });
      const { sandbox, client } = await sandboxOnClock(clock, 600, opts.processingSeconds);
      const op = sandbox.operator;
      /** Orders `domain`, then runs the Domain create's wait on it, bounded by `seconds`. */
      const registerAndWait = async (domain: string, seconds: number) => {
        const order = await client.register(
          { domain, years: 1, contacts: { registrant: toServiceContact({ ...BENCH_REGISTRANT, state: "" }) } },
          { idempotencyKey: deriveIdempotencyKey(`urn:bench:polls::${domain}`, "register", domain) },
        );
        if (order.stage !== "pending") throw new Error(`the order should be processing, got stage ${order.stage}`);
        op.clearRequests();
        const lines: string[] = [];
        const r = await waitForRegistry(client, domain, seconds, { clock, log: { info: (l) => lines.push(l), warn: (l) => lines.push(l) } });
        const gets = op.requests().filter((e) => isDomainGet(e, domain));
        if (gets.length !== r.polls) throw new Error(`the sandbox logged ${gets.length} polls, the wait counted ${r.polls}`);
        const t0 = atMs(gets[0]);
        return { r, lines, times: gets.map((e) => Math.round((atMs(e) - t0) / 1000)) };
      };
      try {
        const long = await registerAndWait("bench-processing.com", opts.waitSeconds);
        if (!long.r.reached || long.r.value.stage !== "active") throw new Error(`the domain was not active by the deadline (stage ${long.r.value.stage})`);
        progress(`active after ${opts.processingSeconds} s; polls at ${long.times.join(", ")} s; ${long.lines.length} progress line(s)`);
        // The same order under the Domain's default bound: the apply ends in stage pending, a state.
        const short = await registerAndWait("bench-default-bound.com", DEFAULT_WAIT_SECONDS);
        progress(`with the default bound of ${DEFAULT_WAIT_SECONDS} s: polls at ${short.times.join(", ")} s, ends in stage ${short.r.value.stage}`);
        return {
          pollsPerRegistration: long.r.polls,
          pollsActiveAtSeconds: long.times[long.times.length - 1],
          pollTimesSeconds: long.times.join(","),
          pollsProgressLines: long.lines.length,
          pollsWithinDefaultWait: short.r.polls,
        };
      } finally {
        await client.close();
        await sandbox.close();
      }
    },
  };
}
