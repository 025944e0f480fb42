/**
 * Read-only functions. The dynamic provider host implements no Invoke, so these run in the program's
 * own process, with credentials from `new pulumi.Config("reseller")` (env fallback), or from another
 * account's namespace given as `account`. None of them changes anything or charges anything. Each has
 * an `…Output` form taking inputs, as Pulumi's own functions do; results use camelCase like the
 * resources' outputs (fields the service adds are kept, camelCased).
 */
import * as pulumi from "@pulumi/pulumi";
import { accountFailure, createClient, DEFAULT_ACCOUNT, readSettings, type ResellerApi } from "./api";
import { canonicalHost } from "./normalize";
import { domainNameFailure, yearsFailure } from "./rules";

const cached = new Map<string, { key: string; client: ResellerApi }>();

/** The program's client for an account, built once per credential from stack config (or env). */
function programClient(account: string | undefined): ResellerApi {
  const failure = accountFailure(account);
  if (failure) throw new Error(failure);
  const ns = account ?? DEFAULT_ACCOUNT;
  const cfg = new pulumi.Config(ns);
  const settings = readSettings((k) => cfg.get(k), process.env, ns);
  const key = JSON.stringify([settings.baseUrl, settings.apiKey, settings.apiSecret, settings.contract ?? null, settings.requestsPerMinute ?? null, settings.timeoutMs ?? null]);
  let hit = cached.get(ns);
  if (hit?.key !== key) cached.set(ns, (hit = { key, client: createClient(settings) }));
  return hit.client;
}

// Arguments are checked before any call, with the resources' messages (field, value, rule).
function domainName(field: string, v: unknown): string {
  const failure = domainNameFailure(field, v);
  if (failure) throw new Error(failure);
  return canonicalHost(v as string);
}

function years(field: string, v: unknown): number {
  const failure = yearsFailure(field, v);
  if (failure) throw new Error(failure);
  return (v as number | undefined) ?? 1;
}

/** snake_case keys to camelCase, recursively: results read like the resources' outputs. */
function camel<T>(v: unknown): T {
  if (Array.isArray(v)) return v.map((x) => camel(x)) as T;
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()), camel(x)])) as T;
  return v as T;
}

/** register, renew, transfer or restore. */
export type PricingAction = "register" | "renew" | "transfer" | "restore";
const PRICING_ACTIONS: readonly PricingAction[] = ["register", "renew", "transfer", "restore"];

/** Which account a function asks: a config namespace holding its settings (default "reseller"). */
export interface AccountArgs {
  /** Config namespace of the account's settings, e.g. "reseller-eu" (environment prefix RESELLER_EU_). Default "reseller". */
  account?: string;
}

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
  /** Config namespace of the account's settings (see {@link AccountArgs}). Default "reseller". */
  account?: string;
}

/** Availability and price of many names. */
export async function getAvailability(args: GetAvailabilityArgs): Promise<AvailabilityResult[]> {
  if (!Array.isArray(args.domains)) throw new Error(`domains: ${JSON.stringify(args.domains)} is not a list of domain names`);
  const names = args.domains.map((d, i) => domainName(`domains[${i}]`, d));
  const y = years("years", args.years);
  if (names.length === 0) return [];
  return camel(await programClient(args.account).checkAvailability(names, y));
}

/** {@link getAvailability} taking inputs and giving an output. */
export function getAvailabilityOutput(args: GetAvailabilityOutputArgs): pulumi.Output<AvailabilityResult[]> {
  return pulumi.output(args).apply((a) => getAvailability(a as GetAvailabilityArgs));
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
  /** Config namespace of the account's settings (see {@link AccountArgs}). Default "reseller". */
  account?: string;
}

/** Availability and price of one name. */
export async function checkDomain(args: CheckDomainArgs): Promise<AvailabilityResult> {
  return camel(await programClient(args.account).checkDomain(domainName("domain", args.domain)));
}

/** {@link checkDomain} taking inputs and giving an output. */
export function checkDomainOutput(args: CheckDomainOutputArgs): pulumi.Output<AvailabilityResult> {
  return pulumi.output(args).apply((a) => checkDomain(a as CheckDomainArgs));
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
  /** Config namespace of the account's settings (see {@link AccountArgs}). Default "reseller". */
  account?: string;
}

/** A price quote for register, renew, transfer or restore. Quotes for several requests run in order. */
export async function getPricing(args: GetPricingArgs): Promise<PriceQuote>;
export async function getPricing(args: GetPricingArgs[]): Promise<PriceQuote[]>;
export async function getPricing(args: GetPricingArgs | GetPricingArgs[]): Promise<PriceQuote | PriceQuote[]> {
  // Every request is checked before the first quote is asked for.
  const request = (a: GetPricingArgs, at: string): { action: PricingAction; domain: string; years: number; account?: string } => {
    if (!PRICING_ACTIONS.includes(a.action)) throw new Error(`${at}action: ${JSON.stringify(a.action)} is not one of ${PRICING_ACTIONS.join(", ")}`);
    const failure = accountFailure(a.account);
    if (failure) throw new Error(`${at}${failure}`);
    return { action: a.action, domain: domainName(`${at}domain`, a.domain), years: years(`${at}years`, a.years), account: a.account };
  };
  const ask = async ({ account, ...r }: ReturnType<typeof request>): Promise<PriceQuote> => camel(await programClient(account).quote(r));
  if (!Array.isArray(args)) return ask(request(args, ""));
  const requests = args.map((a, i) => request(a, `[${i}].`));
  const out: PriceQuote[] = [];
  for (const r of requests) out.push(await ask(r));
  return out;
}

/** {@link getPricing} taking inputs and giving an output. */
export function getPricingOutput(args: GetPricingOutputArgs): pulumi.Output<PriceQuote> {
  return pulumi.output(args).apply((a) => getPricing(a as GetPricingArgs));
}

/** TLDs with their 1-year prices and limits. */
export async function getTlds(args: AccountArgs = {}): Promise<TldInfo[]> {
  return camel(await programClient(args.account).listTlds());
}

/** {@link getTlds} giving an output. */
export function getTldsOutput(args: AccountArgs = {}): pulumi.Output<TldInfo[]> {
  return pulumi.output(getTlds(args));
}

/** Account credit, currency and active domain count. */
export async function getBalance(args: AccountArgs = {}): Promise<AccountBalance> {
  return camel(await programClient(args.account).getBalance());
}

/** {@link getBalance} giving an output. */
export function getBalanceOutput(args: AccountArgs = {}): pulumi.Output<AccountBalance> {
  return pulumi.output(getBalance(args));
}

/** Pricing tier, next tier and domains needed to advance. */
export async function getTier(args: AccountArgs = {}): Promise<AccountTier> {
  return camel(await programClient(args.account).getTier());
}

/** {@link getTier} giving an output. */
export function getTierOutput(args: AccountArgs = {}): pulumi.Output<AccountTier> {
  return pulumi.output(getTier(args));
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

/** The service's Quick Setup templates, with the variables each needs. */
export async function getTemplates(args: AccountArgs = {}): Promise<TemplateInfo[]> {
  return camel(await programClient(args.account).listTemplates());
}

/** {@link getTemplates} giving an output. */
export function getTemplatesOutput(args: AccountArgs = {}): pulumi.Output<TemplateInfo[]> {
  return pulumi.output(getTemplates(args));
}
