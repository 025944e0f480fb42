/**
 * Domain's prediction at preview (called by ../kit/preflight.ts, in preview and up alike): a
 * Domain it creates adopts, takes over, or buys (register or transfer, quoted and counted in the
 * stack's total, refused above maxPrice or the balance); a renewal its diff asks for is quoted the
 * same way; a zone of the program its nameservers rule out fails on it (../dns-zone/preview.ts).
 */
import { isGoneStage } from "../../api/vocabulary";
import { moneyDecimals, parseAmount } from "../../api/money";
import type { DiffResult } from "../kit/diff";
import type { HostContext } from "../kit/context";
import type { Props } from "../kit/handler";
import { containsUnknown } from "../kit/check";
import { creating, named, PreflightState, type Preflight } from "../kit/preflight";
import { adoptDomainMissing } from "../kit/preview-messages";
import type { PricedAction } from "../kit/preview-reads";
import { priceGuard } from "../kit/price-guard";
import { zonesInRun } from "../dns-zone/zones-in-run";
import { previewDomainRulesOutZone } from "../dns-zone/preview";
import { processingWaitSeconds } from "./schema";
import type { DomainInputs } from "./state";

/** The years each Domain this command buys is bought for, by domain (an add-on of it is charged for them). */
const PLANNED_YEARS = new PreflightState(() => new Map<string, number>());

/** The years this command buys `domain` for, when a Domain of it registers or transfers it. */
export const plannedYears = (p: Preflight, domain: string): number | undefined => p.stateOf(PLANNED_YEARS).get(domain);

export async function previewDomain(p: Preflight, ctx: HostContext, olds: Props, i: Props): Promise<void> {
  try {
    if (typeof i.domain === "string") await previewDomainRulesOutZone(ctx, i.domain, () => p.reads.serviceNameservers());
    if (!containsUnknown([i.authCode, i.years, i.maxPrice, i.adopt])) await domain(p, ctx, olds, i as unknown as DomainInputs);
  } catch (e) {
    // Nothing of the name is bought in this run: what waits for its zone fails at once (../dns-zone/zones-in-run.ts).
    if (typeof i.domain === "string") zonesInRun(ctx).abandon(i.domain, e instanceof Error ? e.message : String(e));
    throw e;
  }
}

async function domain(p: Preflight, ctx: HostContext, olds: Props, i: DomainInputs): Promise<void> {
  if (!creating(olds)) return;
  const who = named("Domain", i.resourceUrn);
  const live = await p.reads.domain(i.domain);
  if (live && !isGoneStage(live.stage)) {
    if (i.adopt) ctx.log.info(`${who}: adopts ${i.domain} (stage ${live.stage}); nothing charged or changed`);
    // Not "nothing charged": it may be this resource's own order, from an earlier run interrupted before it was recorded.
    else ctx.log.warn(`${who}: ${i.domain} is in this account already (stage ${live.stage}); up takes it over and buys and changes nothing: it asks the service to replay this resource's order under its Idempotency-Key, to record what an earlier run's order charged, if there was one`);
    return;
  }
  if (i.adopt) throw new Error(adoptDomainMissing(i.domain));
  zonesInRun(ctx).expect(i.domain, i.resourceUrn ?? "", processingWaitSeconds(i) * 1000);
  p.stateOf(PLANNED_YEARS).set(i.domain, i.years);
  const action: PricedAction = i.authCode ? "transfer" : "register";
  const availability = await ctx.api().checkDomain(i.domain);
  if (action === "register" && !availability.available)
    throw new Error(`${i.domain}: is not available to register (it is registered already); nothing was charged. Choose another name, or transfer it in with authCode`);
  if (action === "transfer" && availability.available)
    throw new Error(`${i.domain}: is not registered anywhere, so it cannot be transferred in; nothing was charged. Remove authCode to register it`);
  await charge(p, ctx, i.resourceUrn, `${who}: ${action}s ${i.domain} for ${i.years} year(s)`, action, i.domain, i.years, i.maxPrice);
}

/** A Domain whose diff asks for a renewal (./diff.ts): quoted and counted like a purchase. */
export async function previewDomainDiff(p: Preflight, ctx: HostContext, olds: Props, news: Props, d: DiffResult): Promise<void> {
  if (!d.diffs.includes("renewal")) return;
  const i = news as unknown as DomainInputs;
  const years = i.renewal?.years ?? 1;
  await charge(p, ctx, i.resourceUrn, `${named("Domain", i.resourceUrn)}: renews ${String(olds.domain ?? i.domain)} for ${years} year(s)`, "renew", i.domain, years, i.maxPrice);
}

async function charge(p: Preflight, ctx: HostContext, urn: string | undefined, what: string, action: PricedAction, name: string, years: number, maxPrice: string | undefined): Promise<void> {
  // Up's own guard (price-guard.ts), on this command's cached reads: the same refusal, word for word.
  const reads = { quote: () => p.reads.quote(action, name, years), getBalance: async () => ({ ...(await p.reads.balance()), active_domains: 0 }) };
  const money = ctx.contract().money;
  const accepted = await priceGuard(reads, { action, domain: name, years, maxPrice, money });
  if (accepted?.expected) {
    ctx.log.info(await p.spend(urn ?? `${action} ${name}`, what, accepted.expected.amount, accepted.currency));
    return;
  }
  const q = await p.reads.quote(action, name, years);
  ctx.log.info(await p.spend(urn ?? `${action} ${name}`, what, parseAmount("quote.amount", q.amount, moneyDecimals(money)), String(q.currency)));
}
