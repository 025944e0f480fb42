/**
 * A sandbox whose account holds the given domains, active, with the DNS add-on and delegated to the
 * service's nameservers, so a migrated zone becomes active at once; each domain of `withZones` also
 * has an active, empty zone. Its state lives in `dir`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { DNS_SERVICE_NAMESERVERS } from "../../sandbox/state";

export async function hostingSandbox(dir: string, domains: string[], opts: { withZones?: string[]; requestsPerMinute: number }): Promise<SandboxHandle> {
  const dataFile = path.join(dir, "state.json");
  const seed = await startSandbox({ port: 0, dataFile });
  await seed.close();
  const state = JSON.parse(fs.readFileSync(dataFile, "utf8"));
  const template = Object.values(state.domains as Record<string, { addons: string[]; stage: string }>).find((d) => d.stage === "active" && d.addons.includes("dns_management"));
  for (const d of domains) {
    state.domains[d] = { ...structuredClone(template), domain: d, nameservers: [...DNS_SERVICE_NAMESERVERS], hosts: [] };
    if (opts.withZones?.includes(d)) state.zones[d] = { domain: d, status: "active", records: [] };
  }
  fs.writeFileSync(dataFile, JSON.stringify(state));
  return startSandbox({ port: 0, dataFile, requestsPerMinute: opts.requestsPerMinute, processingDelaySeconds: 0 });
}
