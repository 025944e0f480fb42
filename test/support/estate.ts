/**
 * The estate: 100-odd domains, each delegated to the DNS service with an active zone and records,
 * built through the API; its names and registrant, shared by the estate bench, its program and the
 * read-coalescing test. The program (dev/bench/programs/estate-program.ts) loads only the constants.
 */
import { ResellerClient } from "../../api/client";
import { toServiceContact } from "../../api/contact-names";
import { deriveIdempotencyKey } from "../../api/idempotency";
import type { SandboxHandle } from "../../sandbox/index";
import { DNS_SERVICE_NAMESERVERS } from "../../sandbox/state";

/** Records per domain of the estate. */
export const ESTATE_RECORDS = 5;

/** A registrant in the form the service keeps (so adopting it changes nothing). */
export const ESTATE_CONTACT = { name: "Estate Owner", email: "owner@estate.test", phone: "+442079460001", addressLine1: "3 Estate Road", city: "London", state: "", postalCode: "E1 6AN", country: "GB" };

export const estateDomain = (i: number): string => `estate-${String(i).padStart(3, "0")}.com`;

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
