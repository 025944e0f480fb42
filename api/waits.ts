/**
 * The product's waits on the service, each one waitUntil (api/wait.ts) with what it probes and
 * what ends it. The Domain and DnsZone handlers call these; so does the bench's polls section.
 */
import type { Clock } from "./clock";
import { STAGE } from "./vocabulary";
import { waitUntil, type WaitLog, type WaitResult } from "./wait";
import type { DnsZone, DomainInfo } from "./views";

export interface WaitContext {
  clock: Clock;
  log: WaitLog & { warn(line: string): void };
}

/** The stage in which the service is still working on an order by itself (spec: registrations are processed asynchronously). */
const stillWorking = (stage: string): boolean => stage === STAGE.pending;

/**
 * Polls GET /domains/{domain} while the order is processing, up to `seconds`. Stages that wait on
 * someone else (review, KYC, a transfer's losing registrar) end the wait: they are states, not
 * reasons to spend the rate limit.
 */
export async function waitForRegistry(
  api: { getDomain(domain: string): Promise<DomainInfo> },
  domain: string,
  seconds: number,
  ctx: WaitContext,
): Promise<WaitResult<DomainInfo>> {
  const r = await waitUntil({
    subject: domain,
    awaited: "the registry to finish",
    probe: () => api.getDomain(domain),
    done: (d) => !stillWorking(d.stage),
    describe: (d) => `stage ${d.stage}`,
    timeoutMs: seconds * 1000,
    ...ctx,
  });
  if (!r.reached) ctx.log.warn(`${domain}: still in stage ${r.value.stage} after ${seconds} s; the next refresh will follow it`);
  return r;
}

/** Posts the delegation check until the zone is delegated, up to `seconds`. */
export async function waitForDelegation(
  api: { checkZone(domain: string): Promise<DnsZone> },
  domain: string,
  seconds: number,
  ctx: WaitContext,
): Promise<WaitResult<DnsZone>> {
  const r = await waitUntil({
    subject: domain,
    awaited: (z) => `delegation to ${z.nameservers.join(", ")}`,
    probe: () => api.checkZone(domain),
    done: (z) => z.delegated,
    describe: (z) => `zone ${z.status}`,
    timeoutMs: seconds * 1000,
    ...ctx,
  });
  const z = r.value;
  if (!r.reached)
    ctx.log.warn(`${domain}: not delegated after ${seconds} s (status ${z.status}); point the domain's nameservers at ${z.nameservers.join(", ")}. Records cannot be changed until the zone is active.`);
  return r;
}
