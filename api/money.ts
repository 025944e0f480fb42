/**
 * Money, parsed once and exactly: one decimal type for every price, charge and balance, held as
 * integer minor units (bigint), never as a float. The pattern is strict (digits, an optional point
 * and at most the currency's decimals; no sign, exponent, blank or bare point), and anything else is
 * refused, naming the field, the value and the rule, so that a malformed amount can never read as 0,
 * as a smaller price, or be cut to fit. The quote guard (checkQuote) is pure and fails closed.
 */
import { amountPattern } from "./amount-pattern";
import { DEFAULT_CONTRACT, type MoneyContract } from "./contract";

/** An exact non-negative amount: `minor` units at `decimals` places ("12.50" at 2 is 1250n). */
export interface Amount {
  readonly minor: bigint;
  readonly decimals: number;
}

/** A refused amount or quote; `field` names what was wrong. Nothing was charged when it is thrown. */
export class MoneyError extends Error {
  override readonly name = "MoneyError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export const isMoneyError = (e: unknown): e is MoneyError => e instanceof MoneyError || (e instanceof Error && e.name === "MoneyError");

const CURRENCY = /^[A-Z]{3}$/;

const show = (v: unknown): string => (typeof v === "string" ? JSON.stringify(v) : v === undefined ? "nothing" : typeof v === "bigint" ? `${v}n` : JSON.stringify(v) ?? String(v));

/** The rule an amount must follow, in words, for messages. */
export const amountRule = (decimals: number): string =>
  decimals === 0
    ? `must be a whole amount: digits only (e.g. "12"), no sign, exponent or point`
    : `must be a decimal amount: digits, optionally a point and 1 to ${decimals} decimals (e.g. "12.50"), no sign, exponent or blank`;

/** The number of decimals amounts carry (spec, Domain: "charged: decimal amount, two decimals"; contract: money). */
export const moneyDecimals = (contract: Pick<MoneyContract, "decimals"> = DEFAULT_CONTRACT.money): number => contract.decimals;

/**
 * Parses `value` exactly, or throws a MoneyError naming `field`. A JSON number is taken when its
 * shortest decimal form follows the same pattern (12.5 is "12.5"; 1e21 and -5 are refused).
 */
export function parseAmount(field: string, value: unknown, decimals: number = moneyDecimals()): Amount {
  const text = typeof value === "number" && Number.isFinite(value) ? String(value) : value;
  const m = typeof text === "string" ? amountPattern(decimals).exec(text) : null;
  if (!m) throw new MoneyError(field, `${field}: ${show(value)} ${amountRule(decimals)}`);
  const frac = (m[2] ?? "").padEnd(decimals, "0");
  return { minor: BigInt(m[1]) * 10n ** BigInt(decimals) + (frac ? BigInt(frac) : 0n), decimals };
}

/** Whether `value` is an amount `parseAmount` takes. */
export function isAmount(value: unknown, decimals: number = moneyDecimals()): boolean {
  try {
    parseAmount("amount", value, decimals);
    return true;
  } catch {
    return false;
  }
}

/** The amount at `decimals` places; exact (a widening), so only more places are accepted. */
function widen(a: Amount, decimals: number): bigint {
  return a.minor * 10n ** BigInt(decimals - a.decimals);
}

/** -1, 0 or 1 as a is below, equal to or above b ("12.5" equals "12.50"). */
export function compareAmounts(a: Amount, b: Amount): -1 | 0 | 1 {
  const d = Math.max(a.decimals, b.decimals);
  const x = widen(a, d);
  const y = widen(b, d);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The canonical text: all decimals written ("12.50"). */
export function formatAmount(a: Amount): string {
  if (a.decimals === 0) return a.minor.toString();
  const s = a.minor.toString().padStart(a.decimals + 1, "0");
  return `${s.slice(0, -a.decimals)}.${s.slice(-a.decimals)}`;
}

/** An amount from integer minor units (the sandbox holds cents as numbers). */
export function amountFromMinor(minor: number | bigint, decimals: number = moneyDecimals()): Amount {
  if (typeof minor === "number" && !Number.isSafeInteger(minor)) throw new RangeError(`amountFromMinor: ${minor} is not a whole number of minor units`);
  const m = BigInt(minor);
  if (m < 0n) throw new RangeError(`amountFromMinor: ${minor} is negative; amounts carry no sign`);
  return { minor: m, decimals };
}

/** A currency code: three capital letters (ISO 4217 form), or a MoneyError naming `field`. */
export function parseCurrency(field: string, value: unknown): string {
  if (typeof value !== "string" || !CURRENCY.test(value)) throw new MoneyError(field, `${field}: ${show(value)} must be a currency code of three capital letters (e.g. "USD")`);
  return value;
}

/** maxPrice: an amount, optionally followed by one space and the currency it is stated in ("25.00 USD"). */
export interface MaxPrice {
  amount: Amount;
  /** Absent: the account's currency. */
  currency?: string;
}

/** The rule maxPrice follows, in words. */
export const maxPriceRule = (decimals: number): string =>
  `digits, ${decimals ? `optionally a point and 1 to ${decimals} decimals` : "no point"}, no sign or exponent, optionally followed by one space and a currency code (e.g. "25.00" or "25.00 USD")`;

/** Parses maxPrice as the program states it, or throws a MoneyError naming the field. */
export function parseMaxPrice(value: unknown, decimals: number = moneyDecimals(), field = "maxPrice"): MaxPrice {
  const rule = `must be ${maxPriceRule(decimals)}`;
  if (typeof value !== "string") throw new MoneyError(field, `${field}: ${show(value)} ${rule}`);
  const [text, currency, ...rest] = value.split(" ");
  if (rest.length || (currency !== undefined && !CURRENCY.test(currency)) || !isAmount(text, decimals)) throw new MoneyError(field, `${field}: ${show(value)} ${rule}`);
  return currency === undefined ? { amount: parseAmount(field, text, decimals) } : { amount: parseAmount(field, text, decimals), currency };
}

/** maxPrice in words, for messages. */
export const formatMaxPrice = (m: MaxPrice, accountCurrency?: string): string => `${formatAmount(m.amount)} ${m.currency ?? accountCurrency ?? ""}`.trim();

/** The purchase a quote must be for. */
export interface QuoteExpectation {
  action: string;
  domain: string;
  years: number;
  maxPrice: MaxPrice;
  /** The account's currency: what the quote must be in when maxPrice states none. */
  accountCurrency?: string;
  decimals?: number;
}

/** The fields of a quote the guard reads (the client's Quote view, field names already ours). */
export interface QuoteFields {
  action?: unknown;
  domain?: unknown;
  years?: unknown;
  amount?: unknown;
  currency?: unknown;
}

/** A quote the guard accepted: its amount exactly, and its currency. */
export interface AcceptedQuote {
  amount: Amount;
  currency: string;
}

const sameName = (a: string, b: string): boolean => a.trim().toLowerCase().replace(/\.$/, "") === b.trim().toLowerCase().replace(/\.$/, "");

/**
 * The price guard, pure and closed by default: the quote must be for this domain, this operation and
 * these years, in maxPrice's currency (or the account's, when maxPrice states none), with a
 * well-formed amount not above maxPrice. Anything else, a missing field included, throws a
 * MoneyError naming the field and the value; no money has moved when it does.
 */
export function checkQuote(quote: QuoteFields, expect: QuoteExpectation): AcceptedQuote {
  const decimals = expect.decimals ?? moneyDecimals();
  const what = `the ${expect.action} quote for ${expect.domain} (${expect.years} year(s))`;
  const refuse = (field: string, value: unknown, rule: string): never => {
    throw new MoneyError(`quote.${field}`, `${what}: quote.${field} ${show(value)} ${rule}; nothing was charged`);
  };
  if (quote.action !== expect.action) refuse("action", quote.action, `is not the operation asked for ("${expect.action}")`);
  if (typeof quote.domain !== "string" || !sameName(quote.domain, expect.domain)) refuse("domain", quote.domain, `is not the domain asked for ("${expect.domain}")`);
  if (quote.years !== expect.years) refuse("years", quote.years, `is not the term asked for (${expect.years})`);
  const wanted = expect.maxPrice.currency ?? expect.accountCurrency;
  if (wanted === undefined) refuse("currency", quote.currency, "cannot be compared: maxPrice states no currency and the account's is unknown");
  if (quote.currency !== wanted) refuse("currency", quote.currency, `is not the currency maxPrice is compared in ("${wanted}")`);
  let amount: Amount;
  try {
    amount = parseAmount("quote.amount", quote.amount, decimals);
  } catch {
    return refuse("amount", quote.amount, amountRule(decimals));
  }
  if (compareAmounts(amount, expect.maxPrice.amount) > 0)
    throw new MoneyError("maxPrice", `${expect.domain}: ${expect.action} for ${expect.years} year(s) costs ${formatAmount(amount)} ${wanted}, above maxPrice ${formatAmount(expect.maxPrice.amount)}; nothing was charged. Raise maxPrice to proceed.`);
  return { amount, currency: wanted as string };
}
