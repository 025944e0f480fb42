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
  currency: string;
}

export interface AvailabilityResult {
  /** The name, ASCII, lower case. */
  domain: string;
  available: boolean;
  /** The registration price, when the service gives one. */
  pricing?: Price | null;
}

export interface PriceQuote {
  action: string;
  domain?: string;
  years?: number;
  /** Decimal string. */
  amount: string;
  currency: string;
}

export interface TldInfo {
  /** e.g. "com", "co.uk". */
  tld: string;
  /** 1-year prices, decimal strings. */
  registerPrice: string;
  renewPrice: string;
  transferPrice: string;
  currency?: string;
  minYears?: number;
  maxYears?: number;
  /** Whether new orders wait for identity verification (stage pending_kyc). */
  kycRequired?: boolean;
}

export interface AccountBalance {
  /** Decimal string. */
  balance: string;
  currency: string;
  activeDomains: number;
}

export interface AccountTier {
  tier: string;
  nextTier: string | null;
  domainsToNextTier: number | null;
}

export interface GetAvailabilityArgs extends AccountArgs {
  /** Any number of names; sent in batches of 20 (the API's limit per call). */
  domains: string[];
  years?: number;
}

export interface GetAvailabilityOutputArgs {
  domains: pulumi.Input<pulumi.Input<string>[]>;
  years?: pulumi.Input<number>;
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

export function getAvailabilityOutput(args: GetAvailabilityOutputArgs): pulumi.Output<AvailabilityResult[]> {
  return pulumi.output(args).apply((a) => getAvailability(a as GetAvailabilityArgs));
}

export interface CheckDomainArgs extends AccountArgs {
  domain: string;
}

export interface CheckDomainOutputArgs {
  domain: pulumi.Input<string>;
  account?: string;
}

/** Availability and price of one name. */
export async function checkDomain(args: CheckDomainArgs): Promise<AvailabilityResult> {
  return camel(await programClient(args.account).checkDomain(domainName("domain", args.domain)));
}

export function checkDomainOutput(args: CheckDomainOutputArgs): pulumi.Output<AvailabilityResult> {
  return pulumi.output(args).apply((a) => checkDomain(a as CheckDomainArgs));
}

export interface GetPricingArgs extends AccountArgs {
  action: PricingAction;
  domain: string;
  years?: number;
}

export interface GetPricingOutputArgs {
  action: pulumi.Input<PricingAction>;
  domain: pulumi.Input<string>;
  years?: pulumi.Input<number>;
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

export function getPricingOutput(args: GetPricingOutputArgs): pulumi.Output<PriceQuote> {
  return pulumi.output(args).apply((a) => getPricing(a as GetPricingArgs));
}

/** TLDs with their 1-year prices and limits. */
export async function getTlds(args: AccountArgs = {}): Promise<TldInfo[]> {
  return camel(await programClient(args.account).listTlds());
}

export function getTldsOutput(args: AccountArgs = {}): pulumi.Output<TldInfo[]> {
  return pulumi.output(getTlds(args));
}

/** Account credit, currency and active domain count. */
export async function getBalance(args: AccountArgs = {}): Promise<AccountBalance> {
  return camel(await programClient(args.account).getBalance());
}

export function getBalanceOutput(args: AccountArgs = {}): pulumi.Output<AccountBalance> {
  return pulumi.output(getBalance(args));
}

/** Pricing tier, next tier and domains needed to advance. */
export async function getTier(args: AccountArgs = {}): Promise<AccountTier> {
  return camel(await programClient(args.account).getTier());
}

export function getTierOutput(args: AccountArgs = {}): pulumi.Output<AccountTier> {
  return pulumi.output(getTier(args));
}

export interface TemplateInfo {
  /** The id ZoneTemplate's `templateId` takes. */
  id: string;
  name?: string;
  description?: string;
  /** Names of the variables the template needs (ZoneTemplate's `variables`). */
  variables: string[];
}

/** The service's Quick Setup templates, with the variables each needs. */
export async function getTemplates(args: AccountArgs = {}): Promise<TemplateInfo[]> {
  return camel(await programClient(args.account).listTemplates());
}

export function getTemplatesOutput(args: AccountArgs = {}): pulumi.Output<TemplateInfo[]> {
  return pulumi.output(getTemplates(args));
}
