/**
 * Bench section: refresh of an estate of 100 domains, each with a zone and 5 records, through the
 * engine and the provider host: calls per refresh with contacts managed (goal ≤ 210) and without
 * (goal ≤ 110). Reads use GET /domains and GET /dns/zones where contract.listEntries says their
 * entries carry what a read needs, and one record list per zone (resources/host/read-cache.ts).
 */
import { ResellerClient } from "../provider/client";
import { toServiceContact } from "../provider/contact-names";
import { deriveIdempotencyKey } from "../provider/idempotency";
import { startSandbox, type SandboxHandle } from "../sandbox/index";
import { DNS_SERVICE_NAMESERVERS } from "../sandbox/state";
import type { Measurement } from "./bench";
import { sandboxEngine } from "./measure";
import { compiledProgram } from "./program-file";

import { ESTATE_CONTACT, ESTATE_RECORDS, estateDomain } from "./estate-data";

export { ESTATE_CONTACT, ESTATE_RECORDS, estateDomain };

/** Registers the estate through the API: domains delegated to the DNS service, active zones, records. */
export async function buildEstate(sb: SandboxHandle, domains: number): Promise<void> {
  sb.operator.settings({ balance: "100000.00" });
  const c = new ResellerClient({ baseUrl: sb.url, apiKey: sb.credentials.key, apiSecret: sb.credentials.secret, requestsPerMinute: 1_000_000, rateLimitLogDir: null });
  try {
    await Promise.all(
      Array.from({ length: domains }, async (_x, i) => {
        const d = estateDomain(i);
        const key = deriveIdempotencyKey(`estate::${d}`, "register");
        await c.register({ domain: d, years: 1, contacts: { registrant: toServiceContact(ESTATE_CONTACT) }, nameservers: DNS_SERVICE_NAMESERVERS }, { idempotencyKey: key });
        await c.createZone(d);
        await c.checkZone(d);
        for (let k = 0; k < ESTATE_RECORDS; k++) await c.createRecord(d, { type: "A", name: `host${k}`, content: `198.51.100.${k + 1}`, ttl: 300 });
      }),
    );
  } finally {
    await c.close();
  }
}

/** The program that adopts the estate (bench/programs/estate-program.ts): a Domain (contacts managed or not), its DnsZone and records. */
export function estateProgram(domains: number, withContacts: boolean): { file: string; args: { domains: number; withContacts: boolean } } {
  return { file: compiledProgram("bench/programs/estate-program.ts"), args: { domains, withContacts } };
}

export function estate(domains = 100): Measurement {
  return {
    id: "estate",
    name: `refresh of ${domains} domains with a zone and ${ESTATE_RECORDS} records each`,
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
