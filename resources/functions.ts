/**
 * Read-only functions. The dynamic provider host implements no Invoke, so these run in the program's
 * own process, with credentials from `new pulumi.Config("reseller")` (env fallback). None of them
 * changes anything or charges anything.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Availability, Balance, PricingAction, Quote, Tier, Tld } from "../provider/views";
import { createClient, readSettings, type ResellerApi } from "./api";
import { canonicalHost } from "./normalize";
import { domainNameFailure, yearsFailure } from "./validate";

let cached: { key: string; client: ResellerApi } | undefined;

/** The program's client, built once per credential from stack config (or env). */
function programClient(): ResellerApi {
  const cfg = new pulumi.Config("reseller");
  const settings = readSettings((k) => cfg.get(k));
  const key = JSON.stringify([settings.baseUrl, settings.apiKey, settings.apiSecret, settings.contract ?? null, settings.requestsPerMinute ?? null]);
  if (cached?.key !== key) cached = { key, client: createClient(settings) };
  return cached.client;
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

const PRICING_ACTIONS: readonly PricingAction[] = ["register", "renew", "transfer", "restore"];

export interface GetAvailabilityArgs {
  /** Any number of names; sent in batches of 20 (the API's limit per call). */
  domains: string[];
  years?: number;
}

/** Availability and price of many names. */
export async function getAvailability(args: GetAvailabilityArgs): Promise<Availability[]> {
  if (!Array.isArray(args.domains)) throw new Error(`domains: ${JSON.stringify(args.domains)} is not a list of domain names`);
  const names = args.domains.map((d, i) => domainName(`domains[${i}]`, d));
  const y = years("years", args.years);
  if (names.length === 0) return [];
  return programClient().checkAvailability(names, y);
}

/** Availability and price of one name. */
export async function checkDomain(args: { domain: string }): Promise<Availability> {
  return programClient().checkDomain(domainName("domain", args.domain));
}

export interface GetPricingArgs {
  action: PricingAction;
  domain: string;
  years?: number;
}

/** A price quote for register, renew, transfer or restore. Quotes for several requests run in order. */
export async function getPricing(args: GetPricingArgs): Promise<Quote>;
export async function getPricing(args: GetPricingArgs[]): Promise<Quote[]>;
export async function getPricing(args: GetPricingArgs | GetPricingArgs[]): Promise<Quote | Quote[]> {
  // Every request is checked before the first quote is asked for.
  const request = (a: GetPricingArgs, at: string): GetPricingArgs & { years: number } => {
    if (!PRICING_ACTIONS.includes(a.action)) throw new Error(`${at}action: ${JSON.stringify(a.action)} is not one of ${PRICING_ACTIONS.join(", ")}`);
    return { action: a.action, domain: domainName(`${at}domain`, a.domain), years: years(`${at}years`, a.years) };
  };
  if (!Array.isArray(args)) return programClient().quote(request(args, ""));
  const requests = args.map((a, i) => request(a, `[${i}].`));
  const out: Quote[] = [];
  for (const r of requests) out.push(await programClient().quote(r));
  return out;
}

/** TLDs with their 1-year prices and limits. */
export async function getTlds(): Promise<Tld[]> {
  return programClient().listTlds();
}

/** Account credit, currency and active domain count. */
export async function getBalance(): Promise<Balance> {
  return programClient().getBalance();
}

/** Pricing tier, next tier and domains needed to advance. */
export async function getTier(): Promise<Tier> {
  return programClient().getTier();
}
