/**
 * Bench section: refresh of an estate of 100 domains, each with a zone and 5 records, through the
 * engine and the provider host: calls per refresh with contacts managed (goal ≤ 210) and without
 * (goal ≤ 110). Reads use GET /domains and GET /dns/zones where contract.listEntries says their
 * entries carry what a read needs, and one record list per zone (resources/kit/read-cache.ts).
 */
import { startSandbox } from "../../sandbox/index";
import type { Measurement } from "./section";
import { sandboxEngine } from "./measure";
import { compiledProgram } from "../engine/program-file";

import { buildEstate, ESTATE_RECORDS } from "../../test/support/estate";

/** The program that adopts the estate (dev/bench/programs/estate-program.ts): a Domain (contacts managed or not), its DnsZone and records. */
export function estateProgram(domains: number, withContacts: boolean): { file: string; args: { domains: number; withContacts: boolean } } {
  return { file: compiledProgram("dev/bench/programs/estate-program.ts"), args: { domains, withContacts } };
}

export function estate(domains = 100): Measurement {
  return {
    id: "estate",
    name: `refresh of ${domains} domains with a zone and ${ESTATE_RECORDS} records each`,
    metrics: ["estateRefreshCallsWithContacts", "estateRefreshCallsNoContacts"],
    async run(progress) {
      const out: Record<string, number> = {};
      for (const withContacts of [true, false]) {
        const sb = await startSandbox({ port: 0, requestsPerMinute: 1_000_000, processingDelaySeconds: 0 });
        try {
          await buildEstate(sb, domains);
          const engine = sandboxEngine(sb, 1_000_000, { parallel: 16 });
          await engine.up(estateProgram(domains, withContacts));
          sb.operator.clearRequests();
          const refreshed = await engine.refresh();
          const calls = sb.operator.requests().length;
          out[withContacts ? "estateRefreshCallsWithContacts" : "estateRefreshCallsNoContacts"] = calls;
          progress(`${withContacts ? "with" : "without"} contacts: ${calls} calls, ${refreshed.steps.filter((s) => s.op !== "same").length} changed`);
        } finally {
          await sb.close();
        }
      }
      return out;
    },
  };
}
