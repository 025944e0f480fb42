/**
 * The sandbox's business logic shared by the routes and the operator: clocks, lazy stage
 * evaluation, charging with a ledger, and the views the API returns.
 */
import { VALUES, addonChargeYears } from "../api/contract";
import { STAGE, ZONE_STATUS, isActiveStage, isGoneStage, isProcessingStage, protectionStatus } from "../api/vocabulary";
import { ApiError, notFound } from "./errors";
import {
  DAY_MS,
  DNS_SERVICE_NAMESERVERS,
  REDEMPTION_AFTER_DAYS,
  TIERS,
  addYears,
  cents,
  ledgerCents,
  isoDate,
  isoTime,
  seedState,
  type DomainEntry,
  type HostEntry,
  type RecordEntry,
  type SandboxState,
  type Settings,
  type ZoneEntry,
} from "./state";

export interface Clock {
  /** Wall clock, ms: signatures, nonces, rate limit, idempotency retention. */
  now: () => number;
  /** Random bytes (auth codes). */
  random: (n: number) => Uint8Array;
}

export class SandboxCore {
  state: SandboxState;
  constructor(
    readonly clock: Clock,
    state?: SandboxState,
    settings?: Settings,
  ) {
    this.state = state ?? seedState(clock.now(), settings);
  }

  /** Business clock: wall clock plus the operator's advance. */
  bnow(): number {
    return this.clock.now() + this.state.clockOffsetMs;
  }

  get settings(): Settings {
    return this.state.settings;
  }

  /** Apply time-driven stage moves to one domain. Returns true when something changed. */
  settle(d: DomainEntry): boolean {
    const now = this.bnow();
    let changed = false;
    if ((d.stage === STAGE.pending || d.stage === STAGE.pending_transfer) && d.readyAt !== null && d.readyAt <= now) {
      d.readyAt = null;
      d.stage = this.needsKyc(d) ? STAGE.pending_kyc : STAGE.active;
      changed = true;
    }
    if (isActiveStage(d.stage) && d.expiresAt <= now) {
      d.stage = STAGE.expired;
      changed = true;
    }
    // A renewal accepted during the grace period and held for review keeps the domain renewable.
    if (d.stage === STAGE.expired && !d.pendingRenewal && this.redemptionAt(d) <= now) {
      d.stage = STAGE.redemption;
      changed = true;
    }
    return changed;
  }

  /** When an expired domain leaves its grace period for redemption (business-clock ms). */
  redemptionAt(d: DomainEntry): number {
    return d.expiresAt + REDEMPTION_AFTER_DAYS * DAY_MS;
  }

  settleAll(): boolean {
    let changed = false;
    for (const d of Object.values(this.state.domains)) changed = this.settle(d) || changed;
    return changed;
  }

  needsKyc(d: DomainEntry): boolean {
    return !d.kycDone && this.settings.kycTlds.includes(this.tldOf(d.domain)?.tld ?? "");
  }

  /** Move an order into processing: pending until the delay passes (then settled). */
  startProcessing(d: DomainEntry): void {
    d.stage = d.orderKind === "transfer" ? STAGE.pending_transfer : STAGE.pending;
    d.readyAt = this.bnow() + this.settings.processingDelaySeconds * 1000;
    this.settle(d);
  }

  tldOf(domain: string): SandboxState["tlds"][number] | undefined {
    // Longest matching suffix, so co.uk wins over uk.
    let best: SandboxState["tlds"][number] | undefined;
    for (const t of this.state.tlds) {
      if (domain.endsWith(`.${t.tld}`) && (!best || t.tld.length > best.tld.length)) best = t;
    }
    if (best && domain.slice(0, -(best.tld.length + 1)).includes(".")) return undefined; // only second-level names
    return best;
  }

  domain(name: string): DomainEntry {
    const d = Object.prototype.hasOwnProperty.call(this.state.domains, name) ? this.state.domains[name] : undefined;
    if (!d) throw notFound("domain", name);
    return d;
  }

  isAvailable(name: string): boolean {
    const d = this.state.domains[name];
    if (d && !isGoneStage(d.stage)) return false;
    return !this.isTakenElsewhere(name);
  }

  /** Names registered at another registrar: the seeded list, plus any name containing "taken". */
  isTakenElsewhere(name: string): boolean {
    return this.state.takenElsewhere.includes(name) || name.split(".")[0].includes("taken");
  }

  requireActive(d: DomainEntry, action: string): void {
    if (!isActiveStage(d.stage)) {
      throw new ApiError("domain_not_active", `${action} needs domain ${d.domain} to be active; its stage is ${d.stage}`, "domain", {
        stage: d.stage,
      });
    }
  }

  /** Remaining whole years of a domain's term (at least 1), for add-ons bought "for the rest of the term". */
  remainingYears(d: DomainEntry): number {
    return addonChargeYears(d.expiresAt, this.bnow());
  }

  /** Refuse a charge the credit does not cover; nothing is charged. */
  ensureCredit(amount: number): void {
    if (amount > this.state.account.balance) {
      throw new ApiError(
        "insufficient_credit",
        `account credit ${cents(this.state.account.balance)} ${this.state.account.currency} does not cover the price ${cents(amount)}; add credit in the reseller portal`,
        undefined,
        { required: cents(amount), balance: cents(this.state.account.balance), currency: this.state.account.currency },
      );
    }
  }

  newInvoice(): string {
    this.state.counters.invoice += 1;
    return `INV-${String(this.state.counters.invoice).padStart(6, "0")}`;
  }

  /** Debit (positive) or refund (negative) the account with one ledger entry. */
  charge(domain: string, action: string, years: number | null, amount: number, invoice: string, idempotencyKey: string | null): void {
    this.state.account.balance -= amount;
    this.state.counters.ledger += 1;
    this.state.ledger.push({
      id: `led_${this.state.counters.ledger}`,
      at: isoTime(this.bnow()),
      domain,
      action,
      years,
      amount: ledgerCents(amount),
      currency: this.state.account.currency,
      idempotency_key: idempotencyKey,
      invoice,
    });
  }

  newAuthCode(): string {
    const bytes = this.clock.random(9);
    return Buffer.from(bytes).toString("base64").replace(/\+/g, "A").replace(/\//g, "B") + "#1";
  }

  zoneDelegated(z: ZoneEntry): boolean {
    const d = this.state.domains[z.domain];
    if (!d) return false;
    const ns = [...d.nameservers].sort();
    const svc = [...DNS_SERVICE_NAMESERVERS].sort();
    return ns.length === svc.length && ns.every((n, i) => n === svc[i]);
  }

  activeDomainCount(): number {
    return Object.values(this.state.domains).filter((d) => isActiveStage(d.stage)).length;
  }

  tierView(): { tier: string; next_tier: string | null; domains_to_next_tier: number | null } {
    const n = this.activeDomainCount();
    let i = 0;
    for (let k = 0; k < TIERS.length; k++) if (n >= TIERS[k].from) i = k;
    // The account's configured tier wins when it is higher than what the count gives.
    const configured = TIERS.findIndex((t) => t.name === this.state.account.tier);
    if (configured > i) i = configured;
    const next = TIERS[i + 1];
    return { tier: TIERS[i].name, next_tier: next?.name ?? null, domains_to_next_tier: next ? Math.max(0, next.from - n) : null };
  }

  // ---- views ----

  status(d: DomainEntry): string {
    if (isActiveStage(d.stage)) return "active";
    if (isProcessingStage(d.stage)) return "pending";
    if (d.stage === STAGE.expired || d.stage === STAGE.redemption) return "expired";
    return "inactive";
  }

  domainInfo(d: DomainEntry): Record<string, unknown> {
    const z = this.state.zones[d.domain];
    const registry: string[] = [];
    if (d.locked) registry.push("clientTransferProhibited");
    if (d.protection) registry.push("clientDeleteProhibited", "clientUpdateProhibited");
    if (isProcessingStage(d.stage)) registry.push("pendingCreate");
    if (d.stage === STAGE.redemption) registry.push("redemptionPeriod");
    if (registry.length === 0) registry.push("ok");
    return {
      ...this.listEntry(d),
      created_at: isoTime(d.createdAt),
      nameservers: [...d.nameservers],
      registry_statuses: registry,
      privacy: this.privacyView(d),
      protection: this.protectionView(d),
      dns: { hosted: Boolean(z), zone_status: z ? z.status : null },
      addons: [...d.addons],
      pending_renewal: d.pendingRenewal ? { years: d.pendingRenewal.years, stage: STAGE.pending_approval } : null,
    };
  }

  listEntry(d: DomainEntry): Record<string, unknown> {
    return {
      domain: d.domain,
      status: this.status(d),
      stage: d.stage,
      expires_at: isoTime(d.expiresAt),
      expiry_date: isoDate(d.expiresAt),
      locked: d.locked,
      client_reference: d.clientReference,
    };
  }

  privacyView(d: DomainEntry): Record<string, unknown> {
    return {
      enabled: d.privacy.enabled,
      status: d.privacy.status,
      purchased: d.addons.includes(VALUES.privacyAddon),
      expires_at: d.addons.includes(VALUES.privacyAddon) ? isoTime(d.expiresAt) : null,
    };
  }

  protectionView(d: DomainEntry): { enabled: boolean; status: string } {
    return { enabled: d.protection, status: protectionStatus({ enabled: d.protection }) };
  }

  orderView(d: DomainEntry, charged: number, invoice: string, stage = d.stage): Record<string, unknown> {
    return {
      domain: d.domain,
      status: stage === d.stage ? this.status(d) : "pending",
      stage,
      expires_at: isoTime(d.expiresAt),
      expiry_date: isoDate(d.expiresAt),
      charged: cents(charged),
      currency: this.state.account.currency,
      invoice,
      balance: cents(this.state.account.balance),
      client_reference: d.clientReference,
    };
  }

  zoneView(z: ZoneEntry, withRecords: boolean): Record<string, unknown> {
    const v: Record<string, unknown> = {
      domain: z.domain,
      status: z.status,
      nameservers: [...DNS_SERVICE_NAMESERVERS],
      delegated: z.status === ZONE_STATUS.active && this.zoneDelegated(z),
      records_count: z.records.length,
    };
    if (withRecords) v.records = z.records.map(recordView);
    return v;
  }

  /** Back to the seed (keeps the settings the sandbox was started with). */
  reset(settings: Settings): void {
    this.state = seedState(this.clock.now(), settings);
  }
}

export function recordView(r: RecordEntry): Record<string, unknown> {
  return { id: r.id, type: r.type, name: r.name, content: r.content, ttl: r.ttl, priority: r.priority, extra: r.extra ? { ...r.extra } : null };
}

export function hostView(h: HostEntry): Record<string, unknown> {
  return { hostname: h.hostname, ipv4: [...h.ipv4], ipv6: [...h.ipv6] };
}

export { addYears };
