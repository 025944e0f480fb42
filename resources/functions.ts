/**
 * Read-only functions. The dynamic provider host implements no Invoke, so these run in the program's
 * own process, with credentials from `new pulumi.Config("reseller")` (env fallback). None of them
 * changes anything or charges anything.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Availability, Balance, PricingAction, Quote, Tier, Tld } from "../provider/views";
import { createClient, readSettings, type ResellerApi } from "./api";
import { canonicalHost } from "./normalize";
import { hostNameProblem } from "./validate";

let cached: { key: string; client: ResellerApi } | undefined;

/** The program's client, built once per credential from stack config (or env). */
function programClient(): ResellerApi {
  const cfg = new pulumi.Config("reseller");
  const settings = readSettings((k) => cfg.get(k));
  const key = JSON.stringify([settings.baseUrl, settings.apiKey, settings.apiSecret, settings.contract ?? null, settings.requestsPerMinute ?? null]);
  if (cached?.key !== key) cached = { key, client: createClient(settings) };
  return cached.client;
}

function domainName(field: string, v: string): string {
  const p = hostNameProblem(v, { minLabels: 2 });
  if (p) throw new Error(`${field}: ${JSON.stringify(v)} is not a valid domain name: it ${p}`);
  return canonicalHost(v);
}

export interface GetAvailabilityArgs {
  /** Any number of names; sent in batches of 20 (the API's limit per call). */
  domains: string[];
  years?: number;
}

/** Availability and price of many names. */
export async function getAvailability(args: GetAvailabilityArgs): Promise<Availability[]> {
  const names = args.domains.map((d, i) => domainName(`domains[${i}]`, d));
  if (names.length === 0) return [];
  return programClient().checkAvailability(names, args.years ?? 1);
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
  const one = async (a: GetPricingArgs): Promise<Quote> =>
    programClient().quote({ action: a.action, domain: domainName("domain", a.domain), years: a.years ?? 1 });
  if (!Array.isArray(args)) return one(args);
  const out: Quote[] = [];
  for (const a of args) out.push(await one(a));
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
