/** Adopts one seeded domain and one seeded zone (test/resources/read-coalescing.test.ts, the fallback case). */
import * as reseller from "../../../resources";

function adoptPairProgram(): void {
  new reseller.Domain("d", { domain: "demo-labs.io", adopt: true });
  new reseller.DnsZone("z", { domain: "demo-reseller.com", adopt: true });
}

export = adoptPairProgram;
