/**
 * What check finds out from the service, so that `pulumi preview` predicts `pulumi up`. The SDK's
 * dynamic provider host cannot tell a preview from an up (neither Configure nor Check says which,
 * and Create is never called at preview), so this runs in both: up meets the same failure at the
 * same point, with the same message, before anything is bought or created. Only after check's own
 * offline validation passed; every read is one per host process (preview-reads.ts).
 *
 * - The account: settings, then one signed read (the balance), once per process; a failure fails the
 *   first check with the message any request would give, and the run with it (once per stack).
 * - Money: each register, transfer and renew is quoted, and each paid add-on priced from the contract
 *   (the API quotes none); the line says what up will charge and the stack's running total; above
 *   maxPrice, or a total above the balance, fails.
 * - Zones: declared twice, no DNS add-on, or ruled out (resources/dns-zone/preview.ts: the zone, or
 *   its first record, fails once with the fix).
 * - Adoption: "adopts" or "creates", and what up will change.
 */
import { VALUES } from "../../provider/contract";
import { recordIdentity } from "../../provider/records";
import { isGoneStage, isZoneActive } from "../../provider/vocabulary";
import type { DnsRecord, DomainInfo } from "../../provider/views";
import type { Props } from "./handler";
import type { HostContext } from "./context";
import { resourceName } from "./urn";
import { liveByTypeName, typeNameKey } from "./live-records";
import { canonicalRecord, fqdn, sameJson } from "../shared/normalize";
import { adoptDomainMissing, balanceTooLow, eppWhileProtected, recordDeclaredTwice, ttlConflict, zoneDeclaredTwice } from "./preview-messages";
import { PreviewReads, type PricedAction } from "./preview-reads";
import { addonPrice, addonPriceGuard, addonYears, priceGuard, type AddonKey } from "./price-guard";
import { formatAmount, moneyDecimals, parseAmount, type Amount } from "../../provider/money";
import { containsUnknown, type CheckResult } from "./check";
import { type DomainAddonInputs } from "../domain-addon/state";
import { type DomainInputs } from "../domain/state";
import { type RecordInputs } from "../dns-record/state";
import { type ZoneInputs } from "../dns-zone/state";
import type { Misdelegation } from "../dns-zone/delegation";
import { previewDomainRulesOutZone, previewRecordZone, previewZoneDelegation, type DelegationView } from "../dns-zone/preview";
import { DEFAULT_DELEGATION_WAIT_SECONDS } from "../dns-zone/handler";
import type { ZoneRecordsInputs } from "../zone-records/state";
import { zonesInRun } from "./zones-in-run";
import type { Kind } from "../kinds";
import { DEFAULT_WAIT_SECONDS } from "../domain/handler";

class Preflight implements DelegationView {
  readonly reads: PreviewReads;
  private account: Promise<Error | undefined> | undefined;
  private accountTold = false;
  /** Purchases predicted in this command, by resource URN (a re-check replaces its own line). */
  private readonly spent = new Map<string, { price: Amount; currency: string }>();
  /** The years each Domain this command buys is bought for, by domain (an add-on of it is charged for them). */
  readonly plannedYears = new Map<string, number>();
  readonly zoneOwners = new Map<string, string>();
  readonly recordOwners = new Map<string, string>();
  /** Zones declared with waitForDelegation that the program does not rule out: up waits for them, so their records are not refused. */
  readonly zonesWaiting = new Set<string>();
  private readonly delegation = new Map<string, Promise<Misdelegation | undefined>>();

  constructor(private readonly ctx: HostContext) {
    this.reads = new PreviewReads(ctx);
  }

  dropViews(recordsOf?: string): void {
    if (recordsOf !== undefined) return this.reads.dropZoneRecords(recordsOf);
    this.reads.dropAccountViews();
    this.delegation.clear();
  }

  /**
   * The account's failure: "report" for the first check that meets it, "told" for the later ones (they
   * go on unchecked: the run fails with the first), undefined when the account answered.
   */
  async accountFailure(): Promise<{ report: Error } | "told" | undefined> {
    this.account ??= this.reads.balance().then(
      () => undefined,
      (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
    );
    const e = await this.account;
    if (!e) return undefined;
    if (this.accountTold) return "told";
    this.accountTold = true;
    return { report: e };
  }

  /** Adds a purchase; refuses it when the stack's total would pass the balance. Returns the line to show. */
  async spend(urn: string, what: string, price: Amount, currency: string): Promise<string> {
    this.spent.set(urn, { price, currency });
    let total = 0n;
    for (const s of this.spent.values()) if (s.currency === currency) total += s.price.minor;
    const sum = formatAmount({ minor: total, decimals: price.decimals });
    const b = await this.reads.balance();
    const balance = parseAmount("balance", b.balance, price.decimals);
    if (b.currency === currency && total > balance.minor) {
      this.spent.delete(urn);
      throw new Error(balanceTooLow(sum, formatAmount(balance), currency));
    }
    return `${what}: ${formatAmount(price)} ${currency}; this stack's purchases so far ${sum} ${currency} of the balance ${formatAmount(balance)} ${b.currency}`;
  }

  /**
   * Whether `zone` can become active, from the state before this run and what the program declares:
   * its live status, the nameservers its domain has (or that the program's Domain asks for), and the
   * service's nameservers. Undefined when it is active, can become so, or cannot be told.
   */
  misdelegated(zone: string): Promise<Misdelegation | undefined> {
    // Kept per zone and per the nameservers the program's Domain sets, as known when asked: the CLI
    // checks resources in the order their registrations arrive, so a record or zone may ask before
    // the Domain's check has said them, and that answer must not stand once it has.
    const key = `${zone} ${zonesInRun(this.ctx).plannedNameservers(zone)?.join(",") ?? ""}`;
    let p = this.delegation.get(key);
    if (!p) {
      p = (async () => {
        const live = await this.reads.zone(zone);
        if (live && isZoneActive(live)) return undefined;
        const run = zonesInRun(this.ctx);
        const delegatedTo = run.plannedNameservers(zone) ? undefined : (await this.reads.domain(zone))?.nameservers;
        const service = live?.nameservers.length ? live.nameservers : await this.reads.serviceNameservers();
        return run.misdelegation(zone, delegatedTo, service);
      })();
      this.delegation.set(key, p);
    }
    return p;
  }
}

const states = new WeakMap<HostContext, Preflight>();

function preflightOf(ctx: HostContext): Preflight {
  let p = states.get(ctx);
  if (!p) states.set(ctx, (p = new Preflight(ctx)));
  return p;
}

/**
 * After a write by this host (./dispatch.ts): domains, zones and records are read again when asked;
 * with `recordsOf` (a record's write was answered), only that zone's records.
 */
export function dropPreviewReads(ctx: HostContext, recordsOf?: string): void {
  states.get(ctx)?.dropViews(recordsOf);
}

/** A DnsRecord this host created (its outputs: the record as the service answered it, canonical) or deleted: check's records of its zone follow. */
export function previewRecordWritten(ctx: HostContext, zone: string, write: { created: Props } | { deleted: string }): void {
  const reads = states.get(ctx)?.reads;
  if (!reads) return;
  if ("deleted" in write) return reads.recordDeleted(zone, write.deleted);
  const o = write.created;
  reads.recordCreated(zone, { id: String(o.recordId), type: String(o.type), name: String(o.name), content: String(o.content), ttl: Number(o.ttl), priority: (o.priority as number | null | undefined) ?? null, extra: (o.extra as DnsRecord["extra"]) ?? null });
}

/** The resource's name for a message, from its URN. */
const named = (kind: string, urn: string | undefined): string => (urn ? `${kind} "${resourceName(urn)}"` : kind);

/** Whether check was given the inputs the resource already has (the serialized provider aside). */
function unchanged(olds: Props, news: Props): boolean {
  const { __provider: _o, ...was } = olds;
  const { __provider: _n, ...now } = news;
  return sameJson(was, now);
}

/** Whether the engine will create this resource: check got no old inputs (a new resource or a replacement). */
const creating = (olds: Props): boolean => Object.keys(olds).length === 0;

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
  zonesInRun(ctx).expect(i.domain, (i.waitTimeoutSeconds ?? DEFAULT_WAIT_SECONDS) * 1000);
  p.plannedYears.set(i.domain, i.years);
  const action: PricedAction = i.authCode ? "transfer" : "register";
  const availability = await ctx.api().checkDomain(i.domain);
  if (action === "register" && !availability.available)
    throw new Error(`${i.domain}: is not available to register (it is registered already); nothing was charged. Choose another name, or transfer it in with authCode`);
  if (action === "transfer" && availability.available)
    throw new Error(`${i.domain}: is not registered anywhere, so it cannot be transferred in; nothing was charged. Remove authCode to register it`);
  await charge(p, ctx, i.resourceUrn, `${who}: ${action}s ${i.domain} for ${i.years} year(s)`, action, i.domain, i.years, i.maxPrice);
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

/** A Domain whose diff asks for a renewal (../domain/diff.ts): quoted and counted like a purchase. */
export async function previewRenewal(ctx: HostContext, olds: Props, news: Props): Promise<void> {
  if (!enabled(ctx)) return;
  const i = news as unknown as DomainInputs;
  const years = i.renewal?.years ?? 1;
  const p = preflightOf(ctx);
  await charge(p, ctx, i.resourceUrn, `${named("Domain", i.resourceUrn)}: renews ${String(olds.domain ?? i.domain)} for ${years} year(s)`, "renew", i.domain, years, i.maxPrice);
}

async function zone(p: Preflight, ctx: HostContext, olds: Props, i: ZoneInputs): Promise<void> {
  const urn = i.resourceUrn ?? "";
  const other = p.zoneOwners.get(i.domain);
  // Warned, not refused: a host process that outlives one command (tests) would remember URNs of earlier ones.
  if (other !== undefined && other !== urn) ctx.log.warn(`${named("DnsZone", urn)}: ${zoneDeclaredTwice(i.domain, resourceName(other))}`);
  p.zoneOwners.set(i.domain, urn);
  const who = named("DnsZone", i.resourceUrn);
  if (creating(olds)) {
    const live = await p.reads.zone(i.domain);
    if (live) {
      if (i.adopt) ctx.log.info(`${who}: adopts the zone ${i.domain} (${live.records_count} records, ${live.status}); nothing changed`);
      else ctx.log.warn(`${who}: the DNS zone ${i.domain} exists already; up takes it over unchanged. If another stack manages it, remove it from this program.`);
    } else {
      zonesInRun(ctx).declare(i.domain, urn, i.waitForDelegation ? (i.waitTimeoutSeconds ?? DEFAULT_DELEGATION_WAIT_SECONDS) : 0);
      const d = zonesInRun(ctx).plannedNameservers(i.domain) ? undefined : await p.reads.domain(i.domain);
      if (d) requireDnsAddon(i.domain, d);
      ctx.log.info(`${who}: ${i.adopt ? "adopt finds no zone; " : ""}creates the zone ${i.domain}`);
    }
  }
  if (!creating(olds)) return;
  await previewZoneDelegation(p, ctx, i.domain, who, { enabled: !!i.waitForDelegation, seconds: i.waitTimeoutSeconds ?? DEFAULT_DELEGATION_WAIT_SECONDS });
}

function requireDnsAddon(name: string, d: DomainInfo): void {
  if (Array.isArray(d.addons) && !d.addons.includes(VALUES.dnsAddon))
    throw new Error(`${name}: lacks the DNS Management add-on (${VALUES.dnsAddon}), which DNS hosting needs; add it in the reseller portal, then run again. Nothing was created.`);
}

async function record(p: Preflight, ctx: HostContext, olds: Props, i: RecordInputs): Promise<void> {
  const want = canonicalRecord({ type: i.type, name: i.name, content: i.content, ttl: i.ttl, priority: i.priority ?? null, extra: i.extra ?? null }, i.zone);
  const what = `${want.type} ${fqdn(want.name, i.zone)}`;
  const identity = `${i.zone} ${recordIdentity(want)}`;
  const urn = i.resourceUrn ?? "";
  const other = p.recordOwners.get(identity);
  if (other !== undefined && other !== urn) ctx.log.warn(`${named("DnsRecord", urn)}: ${recordDeclaredTwice(what, resourceName(other))}`);
  p.recordOwners.set(identity, urn);
  // A record already in state lives in a zone that was active: only a create needs the zone's delegation
  // and its live records (so a no-op up reads nothing but the account's one credential check).
  if (!creating(olds)) return;
  const declared = p.zoneOwners.get(i.zone);
  await previewRecordZone(p, ctx, i.zone);
  const who = named("DnsRecord", i.resourceUrn);
  // A zone this run creates has no live records; any other is read once, for all its records.
  const live = declared !== undefined && !(await p.reads.zone(i.zone)) ? [] : ((await p.reads.zoneRecords(i.zone)) ?? []);
  const same = liveByTypeName(live, i.zone).get(typeNameKey(want)) ?? [];
  const match = same.find(({ canonical: c }) => c.content === want.content && (c.priority ?? null) === (want.priority ?? null) && sameJson(c.extra ?? null, want.extra ?? null));
  // Live siblings with another TTL refuse the create (shared TTL); an adopted record gets the program's TTL instead.
  const sibling = same.find(({ canonical: c }) => c.ttl !== want.ttl);
  if (sibling && !(i.adopt && match)) throw new Error(ttlConflict(what, want.type, want.ttl, sibling.canonical.ttl));
  if (!i.adopt) return;
  if (match) {
    const ttl = match.canonical.ttl !== want.ttl ? `; up sets its ttl ${match.canonical.ttl} -> ${want.ttl} (shared by every ${want.type} record of the name)` : "; nothing changes";
    ctx.log.info(`${who}: adopts ${what} (record ${match.live.id})${ttl}`);
  } else if (same.length)
    ctx.log.info(`${who}: creates ${what} ${JSON.stringify(want.content)}: the live ${want.type} record(s) of the name differ (${same.map(({ canonical: c }) => JSON.stringify(c.content)).join(", ")}), and adopt takes only an identical record`);
  else ctx.log.info(`${who}: creates ${what}: adopt finds no such record in the zone`);
}

async function addon(p: Preflight, ctx: HostContext, olds: Props, kind: "PrivacyAddon" | "Protection", i: DomainAddonInputs): Promise<void> {
  if (!creating(olds)) return;
  const d = await p.reads.domain(i.domain);
  const label = kind === "PrivacyAddon" ? "WHOIS Privacy" : "Domain Protection";
  const on = kind === "PrivacyAddon" ? d?.privacy?.enabled : d?.protection?.enabled;
  const who = named(kind, i.resourceUrn);
  if (on) ctx.log.info(`${who}: ${i.adopt ? "adopts" : "takes over"} ${label} of ${i.domain} (on already); up buys nothing`);
  else if (i.adopt) throw new Error(`adopt: ${label} is not on for ${i.domain}, and adopt never buys; nothing was charged. Remove adopt to buy and enable it`);
  else await chargeAddon(p, ctx, kind === "PrivacyAddon" ? "privacy" : "protection", label, `${who}: buys ${label} for ${i.domain} for the rest of its term`, i, d);
}

/**
 * An add-on's purchase, priced from the contract's yearly price (the API quotes none) for the years
 * the service charges (addonYears: of the live term, or of the term this run buys), held against
 * maxPrice as up holds it (price-guard.ts addonPriceGuard), and counted like a quote; without a
 * stated price, said so and left out of the total.
 */
async function chargeAddon(p: Preflight, ctx: HostContext, key: AddonKey, label: string, what: string, i: DomainAddonInputs, d: DomainInfo | undefined): Promise<void> {
  const money = ctx.contract().money;
  const years = addonYears(d, p.plannedYears.get(i.domain), ctx.clock.now());
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

async function eppCode(p: Preflight, olds: Props, i: DomainAddonInputs): Promise<void> {
  if (!creating(olds)) return;
  const d = await p.reads.domain(i.domain);
  if (d?.protection?.enabled) throw new Error(eppWhileProtected(i.domain));
}

/** Check's prediction per kind (inputs canonical, zone and domain known); a kind without one predicts nothing. */
type Prediction = (p: Preflight, ctx: HostContext, olds: Props, inputs: Props) => Promise<void>;
const PREDICTIONS: Partial<Record<Kind, Prediction>> = {
  Domain: async (p, ctx, olds, i) => {
    if (typeof i.domain === "string") await previewDomainRulesOutZone(ctx, i.domain, () => p.reads.serviceNameservers());
    if (!containsUnknown([i.authCode, i.years, i.maxPrice, i.adopt])) await domain(p, ctx, olds, i as unknown as DomainInputs);
  },
  DnsZone: (p, ctx, olds, i) => zone(p, ctx, olds, i as unknown as ZoneInputs),
  DnsRecord: async (p, ctx, olds, i) => {
    if (!containsUnknown([i.type, i.name, i.content, i.priority, i.extra, i.adopt])) await record(p, ctx, olds, i as unknown as RecordInputs);
  },
  PrivacyAddon: async (p, ctx, olds, i) => {
    if (!containsUnknown([i.maxPrice, i.adopt])) await addon(p, ctx, olds, "PrivacyAddon", i as unknown as DomainAddonInputs);
  },
  Protection: async (p, ctx, olds, i) => {
    if (!containsUnknown([i.maxPrice, i.adopt])) await addon(p, ctx, olds, "Protection", i as unknown as DomainAddonInputs);
  },
  EppCode: (p, _ctx, olds, i) => eppCode(p, olds, i as unknown as DomainAddonInputs),
  // A new declaration of a zone's records: the zone must be able to become active (its other rules are its own check's).
  DnsZoneRecords: async (p, ctx, olds, i) => {
    if (creating(olds) && !Array.isArray((i as unknown as ZoneRecordsInputs).records)) await previewRecordZone(p, ctx, i.zone as string);
  },
};

/** Whether check makes these reads (reseller:preflight, default true). */
const enabled = (ctx: HostContext): boolean => ctx.preflight();

/**
 * Check's prediction for one resource, after its offline validation passed. Throws the error up
 * would meet (the engine shows a provider error for the resource); logs what up will do.
 */
export async function preflight(ctx: HostContext, kind: string, olds: Props, result: CheckResult<unknown>): Promise<CheckResult<unknown>> {
  if (!result.ok || !enabled(ctx)) return result;
  // Inputs as they were: up sends nothing for this resource, so there is nothing to predict (and a no-op
  // up or preview sends no request, not even the credential read).
  if (!creating(olds) && unchanged(olds, result.inputs as Props)) return result;
  const p = preflightOf(ctx);
  const account = await p.accountFailure();
  if (account === "told") return result;
  if (account) throw account.report;
  const inputs = result.inputs as Props;
  // Unknown until an earlier resource is created: up checks again with the values.
  if (containsUnknown(inputs.domain) || containsUnknown(inputs.zone)) return result;
  await PREDICTIONS[kind as Kind]?.(p, ctx, olds, inputs);
  return result;
}
