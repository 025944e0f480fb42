/**
 * PrivacyAddon's and Protection's prediction at preview (called by ../kit/preflight.ts, in preview
 * and up alike): an add-on on already is adopted or taken over; one to buy is priced from the
 * contract (the API quotes none), held against maxPrice and counted in the stack's total.
 */
import { formatAmount } from "../../api/money";
import type { DomainInfo } from "../../api/views";
import type { HostContext } from "../kit/context";
import type { Props } from "../kit/handler";
import { containsUnknown } from "../kit/check";
import { creating, named, type Prediction, type Preflight } from "../kit/preflight";
import { addonPrice, addonPriceGuard, addonYears, type AddonKey } from "../kit/price-guard";
import { plannedYears } from "../domain/preview";
import type { DomainAddonInputs } from "./state";

/** An add-on as its handler names it (./handler.ts): its class, its name in messages, its price's key. */
interface AddonNames {
  kind: "PrivacyAddon" | "Protection";
  label: string;
  operation: AddonKey & ("privacy" | "protection");
}

/** The prediction of one add-on kind. */
export function previewAddon(a: AddonNames): Prediction {
  return async (p, ctx, olds, i) => {
    if (!containsUnknown([i.maxPrice, i.adopt])) await addon(p, ctx, olds, a, i as unknown as DomainAddonInputs);
  };
}

async function addon(p: Preflight, ctx: HostContext, olds: Props, { kind, label, operation }: AddonNames, i: DomainAddonInputs): Promise<void> {
  if (!creating(olds)) return;
  const d = await p.reads.domain(i.domain);
  const who = named(kind, i.resourceUrn);
  if (d?.[operation]?.enabled) ctx.log.info(`${who}: ${i.adopt ? "adopts" : "takes over"} ${label} of ${i.domain} (on already); up buys nothing`);
  else if (i.adopt) throw new Error(`adopt: ${label} is not on for ${i.domain}, and adopt never buys; nothing was charged. Remove adopt to buy and enable it`);
  else await chargeAddon(p, ctx, operation, label, `${who}: buys ${label} for ${i.domain} for the rest of its term`, i, d);
}

/**
 * An add-on's purchase, priced from the contract's yearly price (the API quotes none) for the years
 * the service charges (addonYears: of the live term, or of the term this run buys), held against
 * maxPrice as up holds it (price-guard.ts addonPriceGuard), and counted like a quote; without a
 * stated price, said so and left out of the total.
 */
async function chargeAddon(p: Preflight, ctx: HostContext, key: AddonKey, label: string, what: string, i: DomainAddonInputs, d: DomainInfo | undefined): Promise<void> {
  const money = ctx.contract().money;
  const years = addonYears(d, plannedYears(p, i.domain), ctx.clock.now());
  const reads = { getBalance: async () => ({ ...(await p.reads.balance()), active_domains: 0 }) };
  await addonPriceGuard(reads, { key, label, domain: i.domain, years, maxPrice: i.maxPrice, money });
  const price = addonPrice(money, key, years);
  if (!price) {
    ctx.log.info(`${what}; the API quotes no price for add-ons and reseller:contract states none (money.addonPricesPerYear.${key}), so it is not in the stack's total`);
    return;
  }
  const { currency } = await p.reads.balance();
  ctx.log.info(await p.spend(i.resourceUrn ?? `${key} ${i.domain}`, `${what}, ${years} year(s) at ${formatAmount(price.unit)} ${currency} a year (the price reseller:contract states)`, price.total, currency));
}
