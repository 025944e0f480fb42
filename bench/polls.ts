/**
 * Bench section: polls spent waiting for a registration that the back office approves after ten
 * minutes. The sandbox holds orders for approval. The Domain resource registers the name through
 * the Engine; its apply ends, successfully, in stage pending_approval (a waiting stage is a state,
 * not a failure). The wait that follows is the provider's poll helper (provider/poll.ts, default
 * backoff) with a deadline beyond ten minutes, on a virtual clock: each of its sleeps advances the
 * sandbox's business clock instead of waiting, and the operator approves the order when that clock
 * reaches ten minutes. The figure is the number of GET /domains/{domain} the sandbox logged from the
 * first poll until the domain was active.
 */
import type { RunResult } from "../engine/engine";
import { DEFAULT_CONTRACT } from "../provider/contract";
import { ResellerClient } from "../provider/client";
import { pollDomain } from "../provider/poll";
import { startSandbox } from "../sandbox/index";
import type { RequestLogEntry } from "../sandbox/server";
import type { Measurement } from "./bench";
import { BENCH_REGISTRANT, sandboxEngine } from "./measure";

export interface PollsOptions {
  /** Simulated seconds after the registration at which the operator approves. */
  approveAfterSeconds: number;
  /** Poll deadline, simulated seconds; beyond the approval. */
  deadlineSeconds: number;
}

export const POLLS_DEFAULTS: PollsOptions = { approveAfterSeconds: 600, deadlineSeconds: 900 };

const DOMAIN = "bench-approval.com";

const isDomainGet = (e: RequestLogEntry, domain: string): boolean =>
  e.method === "GET" && e.path.split("?")[0] === `${DEFAULT_CONTRACT.apiPrefix}/domains/${domain}`;

async function domainProgram(): Promise<void> {
  const reseller = (require("../resources") as typeof import("../resources"));
  new reseller.Domain("approved", {
    domain: DOMAIN,
    contacts: { registrant: BENCH_REGISTRANT },
  });
}

export function polls(opts: PollsOptions = POLLS_DEFAULTS): Measurement {
  return {
    id: "polls",
    name: `polls for a registration approved after ${opts.approveAfterSeconds / 60} simulated minutes`,
    async run(progress) {
      // Sandbox default processing delay (2 s on the business clock) after the approval.
      const sandbox = await startSandbox({ port: 0, requestsPerMinute: 600, approval: { orders: true } });
      const op = sandbox.operator;
      const client = new ResellerClient({
        baseUrl: sandbox.url,
        apiKey: sandbox.credentials.key,
        apiSecret: sandbox.credentials.secret,
        requestsPerMinute: 600,
      });
      try {
        const engine = sandboxEngine(sandbox, 600);
        const up: RunResult = await engine.up(domainProgram);
        const created = engine.resources().find((r) => r.name === "approved");
        if (up.summary.create !== 1 || created?.outputs.stage !== "pending_approval") {
          throw new Error(`the registration should end its apply in pending_approval, got ${JSON.stringify(created?.outputs.stage)}`);
        }
        const createGets = op.requests().filter((e) => isDomainGet(e, DOMAIN)).length;
        progress(`Domain create ended in pending_approval after ${createGets} GET /domains/${DOMAIN}`);

        op.clearRequests();
        let clockMs = 0;
        let approvedAtMs: number | undefined;
        const approveAt = opts.approveAfterSeconds * 1000;
        const advance = (ms: number): void => {
          if (ms > 0) op.advanceClock(ms / 1000);
          clockMs += ms;
        };
        const sleep = async (ms: number): Promise<void> => {
          if (approvedAtMs === undefined && clockMs + ms >= approveAt) {
            const before = approveAt - clockMs;
            advance(before);
            op.approve(DOMAIN);
            approvedAtMs = clockMs;
            advance(ms - before);
          } else advance(ms);
        };
        const pollTimes: number[] = [];
        const result = await pollDomain(client, DOMAIN, {
          until: ["active"],
          deadlineMs: opts.deadlineSeconds * 1000,
          now: () => clockMs,
          sleep,
          onPoll: (e) => pollTimes.push(Math.round(e.elapsedMs / 1000)),
        });
        const logged = op.requests().filter((e) => isDomainGet(e, DOMAIN)).length;
        if (!result.reached) throw new Error(`the domain was not active by the deadline (stage ${result.info.stage})`);
        if (logged !== result.polls) throw new Error(`the sandbox logged ${logged} polls, the helper counted ${result.polls}`);
        progress(`approved at ${approvedAtMs! / 1000} s; polls at ${pollTimes.join(", ")} s`);
        return {
          pollsPerApprovedRegistration: logged,
          pollsApprovedAtSeconds: approvedAtMs! / 1000,
          pollsActiveAtSeconds: pollTimes[pollTimes.length - 1],
          pollTimesSeconds: pollTimes.join(","),
          domainCreateGets: createGets,
        };
      } finally {
        await client.close();
        await sandbox.close();
      }
    },
  };
}
