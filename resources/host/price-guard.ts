/**
 * The price guard of every paid order (register, transfer, renew): asks the service for a quote and
 * refuses, before any money moves, unless the quote is well formed, for this purchase, in maxPrice's
 * currency and not above it (provider/money.ts checkQuote, which fails closed). Preview calls it too,
 * so a plan never shows an order that up would refuse.
 */
import { isResponseShapeError } from "../../provider/errors";
import { checkQuote, moneyDecimals, MoneyError, parseMaxPrice, type AcceptedQuote } from "../../provider/money";
import type { MoneyContract } from "../../provider/contract";
import type { ResellerApi } from "../shared/api";

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
 * The accepted quote, or undefined when no maxPrice is set (nothing is asked then). Throws a
 * MoneyError naming the field and the value on any refusal.
 */
export async function priceGuard(api: Pick<ResellerApi, "quote" | "getBalance">, req: PriceGuardRequest): Promise<AcceptedQuote | undefined> {
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
  return checkQuote(quote, { action: req.action, domain: req.domain, years: req.years, maxPrice, accountCurrency, decimals });
}
