/**
 * Read-only functions. The dynamic provider host implements no Invoke, so these run in the program's
 * own process, with credentials from `new pulumi.Config("reseller")` (env fallback), or from another
 * account's namespace named by `{ provider }` in the options. None of them changes anything or
 * charges anything. Each has an `…Output` form taking inputs and options, as Pulumi's own functions
 * do; results use camelCase like the resources' outputs (fields the service adds are kept, camelCased).
 */
import * as pulumi from "@pulumi/pulumi";
import { PRICING_ACTIONS } from "../../api/shapes";
import {
  accountOf,
  camelKeys,
  domainName,
  failingInOneLine,
  outputArgs,
  programClient,
  years,
} from "./invoke";
import type { AccountArgs, ResellerInvokeOptions, ResellerInvokeOutputOptions } from "./invoke-options";

export type { AccountArgs, ResellerInvokeOptions, ResellerInvokeOutputOptions } from "./invoke-options";

/** register, renew, transfer or restore. */
export type PricingAction = "register" | "renew" | "transfer" | "restore";
// Spelled out for the API reference; the one list (api/shapes.ts) must agree both ways, or this does not compile.
const _sameActions: [PricingAction, (typeof PRICING_ACTIONS)[number]] extends [(typeof PRICING_ACTIONS)[number], PricingAction] ? true : never = true;
void _sameActions;

/** A price as the service states it. */
export interface Price {
  /** Decimal string, e.g. "12.50". */
  amount: string;
  /** ISO 4217 code, e.g. "USD". */
  currency: string;
}

/** Whether a name can be registered, and at what price. */
export interface AvailabilityResult {
  /** The name, ASCII, lower case. */
  domain: string;
  /** True when the name can be registered now. */
  available: boolean;
  /** The registration price, when the service gives one. */
  pricing?: Price | null;
}

/** The service's quote for one action on one name. */
export interface PriceQuote {
  /** What the quote is for: register, renew, transfer or restore. */
  action: string;
  /** The name quoted (ASCII), when the service repeats it. */
  domain?: string;
  /** The term quoted, in years. */
  years?: number;
  /** Decimal string. */
  amount: string;
  /** ISO 4217 code, e.g. "USD". */
  currency: string;
}

/** A top-level domain the account can sell, with its 1-year prices and limits. */
export interface TldInfo {
  /** e.g. "com", "co.uk". */
  tld: string;
  /** 1-year prices, decimal strings. */
  registerPrice: string;
  /** 1-year renewal price, decimal string. */
  renewPrice: string;
  /** 1-year transfer price, decimal string. */
  transferPrice: string;
  /** ISO 4217 code of the prices. */
  currency?: string;
  /** Shortest registration term, in years. */
  minYears?: number;
  /** Longest registration term, in years. */
  maxYears?: number;
  /** Whether new orders wait for identity verification (stage pending_kyc). */
  kycRequired?: boolean;
}

/** The account's credit. */
export interface AccountBalance {
  /** Credit left, decimal string. */
  balance: string;
  /** ISO 4217 code of the balance. */
  currency: string;
  /** Domains the account holds that are active. */
  activeDomains: number;
}

/** The account's pricing tier and what the next one takes. */
export interface AccountTier {
  /** The current tier's name. */
  tier: string;
  /** The next tier's name; null at the top tier. */
  nextTier: string | null;
  /** Active domains still needed to reach `nextTier`; null at the top tier. */
  domainsToNextTier: number | null;
}

/** Arguments of {@link getAvailability}. */
export interface GetAvailabilityArgs extends AccountArgs {
  /** Any number of names; sent in batches of 20 (the API's limit per call). */
  domains: string[];
  /** Registration term the prices are for, in years (default 1). */
  years?: number;
}

/** Arguments of {@link getAvailabilityOutput}: those of {@link getAvailability}, as inputs. */
export interface GetAvailabilityOutputArgs {
  /** Any number of names; sent in batches of 20 (the API's limit per call). */
  domains: pulumi.Input<pulumi.Input<string>[]>;
  /** Registration term the prices are for, in years (default 1). */
  years?: pulumi.Input<number>;
  /**
   * Config namespace of the account's settings (see {@link AccountArgs}). Default "reseller".
   * @deprecated Pass `{ provider }` as the options.
   */
  account?: pulumi.Input<string>;
}

/**
 * Availability and price of many names.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * export = async () => {
 *   const results = await reseller.getAvailability({ domains: ["shop.example", "shop.test"], years: 1 });
 *   return { free: results.filter((r) => r.available).map((r) => `${r.domain}: ${r.pricing?.amount} ${r.pricing?.currency}`) };
 * };
 * ```
 */
export async function getAvailability(args: GetAvailabilityArgs, opts?: ResellerInvokeOptions): Promise<AvailabilityResult[]> {
  return failingInOneLine(async () => {
    if (!Array.isArray(args.domains)) throw new Error(`domains: ${JSON.stringify(args.domains)} is not a list of domain names`);
    const names = args.domains.map((d, i) => domainName(`domains[${i}]`, d));
    const y = years("years", args.years);
    if (names.length === 0) return [];
    return camelKeys(await programClient(accountOf(args, opts)).checkAvailability(names, y));
  });
}

/**
 * {@link getAvailability} taking inputs and giving an output.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * const results = reseller.getAvailabilityOutput({ domains: ["shop.example", "shop.test"] });
 *
 * export const free = results.apply((rs) => rs.filter((r) => r.available).map((r) => r.domain));
 * ```
 */
export function getAvailabilityOutput(args: GetAvailabilityOutputArgs, opts?: ResellerInvokeOutputOptions): pulumi.Output<AvailabilityResult[]> {
  return outputArgs(args, opts).apply((a) => getAvailability(a as GetAvailabilityArgs, opts));
}

/** Arguments of {@link checkDomain}. */
export interface CheckDomainArgs extends AccountArgs {
  /** The name to check; an IDN may be given in Unicode. */
  domain: string;
}

/** Arguments of {@link checkDomainOutput}: those of {@link checkDomain}, as inputs. */
export interface CheckDomainOutputArgs {
  /** The name to check; an IDN may be given in Unicode. */
  domain: pulumi.Input<string>;
  /**
   * Config namespace of the account's settings (see {@link AccountArgs}). Default "reseller".
   * @deprecated Pass `{ provider }` as the options.
   */
  account?: pulumi.Input<string>;
}

/**
 * Availability and price of one name.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * export = async () => {
 *   const shop = await reseller.checkDomain({ domain: "shop.example" });
 *   return { available: shop.available, price: shop.pricing?.amount };
 * };
 * ```
 */
export async function checkDomain(args: CheckDomainArgs, opts?: ResellerInvokeOptions): Promise<AvailabilityResult> {
  return failingInOneLine(async () => {
    return camelKeys(await programClient(accountOf(args, opts)).checkDomain(domainName("domain", args.domain)));
  });
}

/**
 * {@link checkDomain} taking inputs and giving an output.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * export const available = reseller.checkDomainOutput({ domain: "shop.example" }).available;
 * ```
 */
export function checkDomainOutput(args: CheckDomainOutputArgs, opts?: ResellerInvokeOutputOptions): pulumi.Output<AvailabilityResult> {
  return outputArgs(args, opts).apply((a) => checkDomain(a as CheckDomainArgs, opts));
}

/** Arguments of {@link getPricing}. */
export interface GetPricingArgs extends AccountArgs {
  /** What to price: register, renew, transfer or restore. */
  action: PricingAction;
  /** The name to price; an IDN may be given in Unicode. */
  domain: string;
  /** Term in years (default 1). */
  years?: number;
}

/** Arguments of {@link getPricingOutput}: those of {@link getPricing}, as inputs. */
export interface GetPricingOutputArgs {
  /** What to price: register, renew, transfer or restore. */
  action: pulumi.Input<PricingAction>;
  /** The name to price; an IDN may be given in Unicode. */
  domain: pulumi.Input<string>;
  /** Term in years (default 1). */
  years?: pulumi.Input<number>;
  /**
   * Config namespace of the account's settings (see {@link AccountArgs}). Default "reseller".
   * @deprecated Pass `{ provider }` as the options.
   */
  account?: pulumi.Input<string>;
}

/**
 * A price quote for register, renew, transfer or restore. Quotes for several requests run in order.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * export = async () => {
 *   const renew = await reseller.getPricing({ action: "renew", domain: "shop.example", years: 2 });
 *   return { renewal: `${renew.amount} ${renew.currency} for ${renew.years} year(s)` };
 * };
 * ```
 */
export async function getPricing(args: GetPricingArgs, opts?: ResellerInvokeOptions): Promise<PriceQuote>;
/** Quotes for several requests, asked in order. */
export async function getPricing(args: GetPricingArgs[], opts?: ResellerInvokeOptions): Promise<PriceQuote[]>;
export async function getPricing(args: GetPricingArgs | GetPricingArgs[], opts?: ResellerInvokeOptions): Promise<PriceQuote | PriceQuote[]> {
  return failingInOneLine(async () => {
    // Every request is checked before the first quote is asked for.
    const request = (a: GetPricingArgs, at: string): { action: PricingAction; domain: string; years: number; account?: string } => {
      if (!PRICING_ACTIONS.includes(a.action)) throw new Error(`${at}action: ${JSON.stringify(a.action)} is not one of ${PRICING_ACTIONS.join(", ")}`);
      const account = accountOf(a, opts, at);
      return { action: a.action, domain: domainName(`${at}domain`, a.domain), years: years(`${at}years`, a.years), account };
    };
    const ask = async ({ account, ...r }: ReturnType<typeof request>): Promise<PriceQuote> => camelKeys(await programClient(account).quote(r));
    if (!Array.isArray(args)) return ask(request(args, ""));
    const requests = args.map((a, i) => request(a, `[${i}].`));
    const out: PriceQuote[] = [];
    for (const r of requests) out.push(await ask(r));
    return out;
  });
}

/**
 * {@link getPricing} taking inputs and giving an output.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as pulumi from "@pulumi/pulumi";
 * import * as reseller from "reseller-pulumi";
 *
 * const domain = new pulumi.Config().require("domain");
 *
 * export const renewPrice = reseller.getPricingOutput({ action: "renew", domain }).amount;
 * ```
 */
export function getPricingOutput(args: GetPricingOutputArgs, opts?: ResellerInvokeOutputOptions): pulumi.Output<PriceQuote> {
  return outputArgs(args, opts).apply((a) => getPricing(a as GetPricingArgs, opts));
}

/**
 * TLDs with their 1-year prices and limits.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * export = async () => {
 *   const tlds = await reseller.getTlds();
 *   return { withoutKyc: tlds.filter((t) => !t.kycRequired).map((t) => `.${t.tld} ${t.registerPrice} ${t.currency}`) };
 * };
 * ```
 */
export async function getTlds(args: AccountArgs = {}, opts?: ResellerInvokeOptions): Promise<TldInfo[]> {
  return failingInOneLine(async () => {
    return camelKeys(await programClient(accountOf(args, opts)).listTlds());
  });
}

/**
 * {@link getTlds} giving an output.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * export const tlds = reseller.getTldsOutput().apply((ts) => ts.map((t) => t.tld));
 * ```
 */
export function getTldsOutput(args: AccountArgs = {}, opts?: ResellerInvokeOutputOptions): pulumi.Output<TldInfo[]> {
  return outputArgs(args, opts).apply((a) => getTlds(a, opts));
}

/**
 * Account credit, currency and active domain count.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * export = async () => {
 *   const { balance, currency } = await reseller.getBalance();
 *   return { credit: `${balance} ${currency}` };
 * };
 * ```
 */
export async function getBalance(args: AccountArgs = {}, opts?: ResellerInvokeOptions): Promise<AccountBalance> {
  return failingInOneLine(async () => {
    return camelKeys(await programClient(accountOf(args, opts)).getBalance());
  });
}

/**
 * {@link getBalance} giving an output.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * export const balance = reseller.getBalanceOutput().balance;
 * ```
 */
export function getBalanceOutput(args: AccountArgs = {}, opts?: ResellerInvokeOutputOptions): pulumi.Output<AccountBalance> {
  return outputArgs(args, opts).apply((a) => getBalance(a, opts));
}

/**
 * Pricing tier, next tier and domains needed to advance.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * export = async () => {
 *   const { tier, nextTier, domainsToNextTier } = await reseller.getTier();
 *   return { tier, next: `${nextTier} in ${domainsToNextTier} domain(s)` };
 * };
 * ```
 */
export async function getTier(args: AccountArgs = {}, opts?: ResellerInvokeOptions): Promise<AccountTier> {
  return failingInOneLine(async () => {
    return camelKeys(await programClient(accountOf(args, opts)).getTier());
  });
}

/**
 * {@link getTier} giving an output.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * export const tier = reseller.getTierOutput().tier;
 * ```
 */
export function getTierOutput(args: AccountArgs = {}, opts?: ResellerInvokeOutputOptions): pulumi.Output<AccountTier> {
  return outputArgs(args, opts).apply((a) => getTier(a, opts));
}

/** A Quick Setup template of the service. */
export interface TemplateInfo {
  /** The id ZoneTemplate's `templateId` takes. */
  id: string;
  /** Display name. */
  name?: string;
  /** What the template sets up. */
  description?: string;
  /** Names of the variables the template needs (ZoneTemplate's `variables`). */
  variables: string[];
}

/**
 * The service's Quick Setup templates, with the variables each needs.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * export = async () => {
 *   const templates = await reseller.getTemplates();
 *   return { templates: templates.map((t) => `${t.id} (${t.variables.join(", ")})`) };
 * };
 * ```
 */
export async function getTemplates(args: AccountArgs = {}, opts?: ResellerInvokeOptions): Promise<TemplateInfo[]> {
  return failingInOneLine(async () => {
    return camelKeys(await programClient(accountOf(args, opts)).listTemplates());
  });
}

/**
 * {@link getTemplates} giving an output.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * // The ids a ZoneTemplate's templateId takes.
 * export const templateIds = reseller.getTemplatesOutput().apply((ts) => ts.map((t) => t.id));
 * ```
 */
export function getTemplatesOutput(args: AccountArgs = {}, opts?: ResellerInvokeOutputOptions): pulumi.Output<TemplateInfo[]> {
  return outputArgs(args, opts).apply((a) => getTemplates(a, opts));
}
