/**
 * The price guard of every paid order, before any money moves. A register, transfer or renew asks
 * the service for a quote and refuses unless the quote is well formed, for this purchase, in
 * maxPrice's currency and not above it (api/money.ts checkQuote, which fails closed). An add-on
 * (the API quotes none) is held against the contract's yearly price, when reseller:contract states
 * one. Preview calls both, so a plan never shows an order that up would refuse. What each returns is
 * what the purchase's answer is held against afterwards (./charge-check.ts).
 */
import { addonChargeYears, type MoneyContract } from "../../api/contract";
import { isResponseShapeError } from "../../api/errors";
import { amountFromMinor, checkQuote, compareAmounts, formatAmount, moneyDecimals, MoneyError, parseAmount, parseMaxPrice, type Amount } from "../../api/money";
import type { DomainInfo } from "../../api/views";
import type { ResellerApi } from "../shared/api";
import type { AcceptedPrice } from "./charge-check";

export type PaidAction = "register" | "transfer" | "renew";

export interface PriceGuardRequest {
  action: PaidAction;
  domain: string;
  years: number;
  /** As the program states it ("25.00" or "25.00 USD"); undefined: no guard. */
  maxPrice: string | undefined;
  money?: MoneyContract;
}

/**
 * The accepted price (maxPrice, and the quote as the expected price), or undefined when no maxPrice
 * is set (nothing is asked then). Throws a MoneyError naming the field and the value on any refusal.
 */
export async function priceGuard(api: Pick<ResellerApi, "quote" | "getBalance">, req: PriceGuardRequest): Promise<AcceptedPrice | undefined> {
  if (req.maxPrice === undefined) return undefined;
  const decimals = moneyDecimals(req.money);
  const maxPrice = parseMaxPrice(req.maxPrice, decimals);
  let quote: Awaited<ReturnType<ResellerApi["quote"]>>;
  try {
    quote = await api.quote({ action: req.action, domain: req.domain, years: req.years });
  } catch (e) {
    // A quote that cannot be read refuses like a wrong one: fail closed, said as the guard's own refusal.
    if (!isResponseShapeError(e)) throw e;
    throw new MoneyError("quote", `the ${req.action} quote for ${req.domain} (${req.years} year(s)) could not be read: ${e.endpoint} answered ${e.status} with an unexpected body at ${e.fieldPath}; nothing was charged`);
  }
  // Without a stated currency, maxPrice is in the account's (spec: purchases are paid from the account's credit).
  const accountCurrency = maxPrice.currency === undefined ? (await api.getBalance()).currency : undefined;
  const accepted = checkQuote(quote, { action: req.action, domain: req.domain, years: req.years, maxPrice, accountCurrency, decimals });
  return { maxPrice: maxPrice.amount, currency: accepted.currency, expected: { amount: accepted.amount, source: "the quote" } };
}

/**
 * The ceiling alone, for a purchase whose quote is not known: an order of an earlier run, interrupted
 * before it recorded what it was accepted at, whose answer the service replays now. In maxPrice's
 * currency, or the account's when it states none; undefined when no maxPrice is set.
 */
export async function ceilingOnly(api: Pick<ResellerApi, "getBalance">, maxPrice: string | undefined, money: MoneyContract): Promise<AcceptedPrice | undefined> {
  if (maxPrice === undefined) return undefined;
  const m = parseMaxPrice(maxPrice, moneyDecimals(money));
  return { maxPrice: m.amount, currency: m.currency ?? (await api.getBalance()).currency };
}

/** An add-on's key in the contract's price list (money.addonPricesPerYear). */
export type AddonKey = keyof MoneyContract["addonPricesPerYear"];

/**
 * The years an add-on bought at `nowMs` is charged for (addonChargeYears, the rule the sandbox
 * charges by): of the live domain's term, counted to its expiry timestamp (expires_at) when stated,
 * to the start of its expiry date otherwise; of the term this run buys (`planned`) when there is no
 * live domain; else one. The date alone would count a year short when the add-on is bought on the
 * term's anniversary before the hour it was registered at.
 */
export function addonYears(live: Pick<DomainInfo, "expires_at" | "expiry_date"> | undefined, planned: number | undefined, nowMs: number): number {
  const at = live?.expires_at ? Date.parse(live.expires_at) : NaN;
  const expiry = !Number.isNaN(at) ? at : live?.expiry_date ? Date.parse(`${live.expiry_date.slice(0, 10)}T00:00:00Z`) : NaN;
  return Number.isNaN(expiry) ? (planned ?? 1) : addonChargeYears(expiry, nowMs);
}

/** An add-on's price from the contract: its yearly price and the total for `years`; undefined when the contract states none. */
export function addonPrice(money: MoneyContract, key: AddonKey, years: number): { unit: Amount; total: Amount } | undefined {
  const perYear = money.addonPricesPerYear[key];
  if (!perYear) return undefined;
  const decimals = moneyDecimals(money);
  const unit = parseAmount(`money.addonPricesPerYear.${key}`, perYear, decimals);
  return { unit, total: amountFromMinor(unit.minor * BigInt(years), decimals) };
}

export interface AddonGuardRequest {
  key: AddonKey;
  /** "WHOIS Privacy", for messages. */
  label: string;
  domain: string;
  /** The years the purchase is charged for (addonYears). */
  years: number;
  /** As the program states it; undefined: no guard. */
  maxPrice: string | undefined;
  money: MoneyContract;
}

/**
 * An add-on's guard: maxPrice must be in the account's currency (add-ons are paid from its credit,
 * and the contract prices them in it), and the contract's price for the years charged, when it states
 * one, must not be above it. Returns what the purchase's answer is held against, or undefined when no
 * maxPrice is set. Throws a MoneyError naming the field and the value on any refusal.
 */
export async function addonPriceGuard(api: Pick<ResellerApi, "getBalance">, req: AddonGuardRequest): Promise<AcceptedPrice | undefined> {
  if (req.maxPrice === undefined) return undefined;
  const decimals = moneyDecimals(req.money);
  const maxPrice = parseMaxPrice(req.maxPrice, decimals);
  const { currency } = await api.getBalance();
  if (maxPrice.currency !== undefined && maxPrice.currency !== currency)
    throw new MoneyError("maxPrice", `maxPrice: ${JSON.stringify(req.maxPrice)} is stated in ${maxPrice.currency}, but ${req.label} is paid from the account's credit, in ${currency}; nothing was charged. State maxPrice in ${currency}.`);
  const price = addonPrice(req.money, req.key, req.years);
  if (!price) return { maxPrice: maxPrice.amount, currency };
  if (compareAmounts(price.total, maxPrice.amount) > 0)
    throw new MoneyError(
      "maxPrice",
      `${req.domain}: ${req.label} for ${req.years} year(s) costs ${formatAmount(price.total)} ${currency} at the contract's price (money.addonPricesPerYear.${req.key}, ${formatAmount(price.unit)} a year), above maxPrice ${formatAmount(maxPrice.amount)}; nothing was charged. Raise maxPrice to proceed.`,
    );
  return { maxPrice: maxPrice.amount, currency, expected: { amount: price.total, source: "the contract's price" } };
}
