/**
 * A sandbox whose account holds the given domains, active, with the DNS add-on and delegated to the
 * service's nameservers, so a migrated zone becomes active at once; each domain of `withZones` also
 * has an active, empty zone. Its state is held in memory only (no state file rewritten after every
 * write).
 */
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { DNS_SERVICE_NAMESERVERS } from "../../sandbox/state";

export async function hostingSandbox(domains: string[], opts: { withZones?: string[]; requestsPerMinute: number }): Promise<SandboxHandle> {
  const seed = await startSandbox({ port: 0 });
  const state = seed.operator.state();
  await seed.close();
  const template = Object.values(state.domains).find((d) => d.stage === "active" && d.addons.includes("dns_management"))!;
  for (const d of domains) {
    state.domains[d] = { ...structuredClone(template), domain: d, nameservers: [...DNS_SERVICE_NAMESERVERS], hosts: [] };
    if (opts.withZones?.includes(d)) state.zones[d] = { domain: d, status: "active", records: [] };
  }
  return startSandbox({ port: 0, state, requestsPerMinute: opts.requestsPerMinute, processingDelaySeconds: 0 });
}
