/**
 * What check finds out from the service, so that `pulumi preview` predicts `pulumi up`. The SDK's
 * dynamic provider host cannot tell a preview from an up (neither Configure nor Check says which,
 * and Create is never called at preview), so this runs in both: up meets the same failure at the
 * same point, with the same message, before anything is bought or created. Only after check's own
 * offline validation passed; every read is one per host process (preview-reads.ts).
 *
 * Here: the account (settings, then one signed read, the balance, once per process; a failure fails
 * the first check with the message any request would give, and the run with it) and what the
 * predictions share (`Preflight`: the reads, the stack's running total against the balance, who
 * declares which zone and record, the delegation). Each kind's own prediction is its folder's
 * preview.ts, given by its handler (`preview`, `previewDiff`): money (each register, transfer and
 * renew quoted, each paid add-on priced from the contract; above maxPrice, or a total above the
 * balance, fails), zones (declared twice, no DNS add-on, ruled out), adoption ("adopts" or
 * "creates", and what up will change).
 */
import { isZoneActive } from "../../api/vocabulary";
import type { DnsRecord } from "../../api/views";
import { formatAmount, parseAmount, type Amount } from "../../api/money";
import type { Props } from "./handler";
import type { HostContext } from "./context";
import type { DiffResult } from "./diff";
import { resourceName } from "./urn";
import { balanceTooLow } from "./preview-messages";
import { PreviewReads } from "./preview-reads";
import { containsUnknown, type CheckResult } from "./check";
import { sameJson } from "../shared/normalize";
import { zonesInRun } from "./zones-in-run";
import type { Misdelegation } from "../dns-zone/delegation";
import type { DelegationView } from "../dns-zone/preview";

/** What the predictions of one command share: its reads, its purchases and running total, who declares which zone and record. */
export class Preflight implements DelegationView {
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

/** A record this host created (as the service answered it: a handler's recordWrites) or deleted: check's records of its zone follow. */
export function previewRecordWritten(ctx: HostContext, zone: string, write: { created: DnsRecord } | { deleted: string }): void {
  const reads = states.get(ctx)?.reads;
  if (!reads) return;
  if ("deleted" in write) return reads.recordDeleted(zone, write.deleted);
  reads.recordCreated(zone, write.created);
}

/** The resource's name for a message, from its URN. */
export const named = (kind: string, urn: string | undefined): string => (urn ? `${kind} "${resourceName(urn)}"` : kind);

/** Whether check was given the inputs the resource already has (the serialized provider aside). */
function unchanged(olds: Props, news: Props): boolean {
  const { __provider: _o, ...was } = olds;
  const { __provider: _n, ...now } = news;
  return sameJson(was, now);
}

/** Whether the engine will create this resource: check got no old inputs (a new resource or a replacement). */
export const creating = (olds: Props): boolean => Object.keys(olds).length === 0;

/**
 * A kind's prediction at check (its folder's preview.ts), after its offline validation passed, with
 * its inputs canonical and zone and domain known: it logs what up will do and throws the error up
 * would meet.
 */
export type Prediction = (p: Preflight, ctx: HostContext, olds: Props, inputs: Props) => Promise<void>;
/** A kind's prediction at diff, for what only the diff decides (a Domain's renewal). */
export type DiffPrediction = (p: Preflight, ctx: HostContext, olds: Props, news: Props, d: DiffResult) => Promise<void>;

/** Whether check makes these reads (reseller:preflight, default true). */
const enabled = (ctx: HostContext): boolean => ctx.preflight();

/**
 * Check's prediction for one resource, after its offline validation passed. Throws the error up
 * would meet (the engine shows a provider error for the resource); logs what up will do.
 */
export async function preflight(ctx: HostContext, predict: Prediction | undefined, olds: Props, result: CheckResult<unknown>): Promise<CheckResult<unknown>> {
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
  await predict?.(p, ctx, olds, inputs);
  return result;
}

/** The kind's prediction at diff (a renewal is decided there, and priced as a purchase). */
export async function previewDiff(ctx: HostContext, predict: DiffPrediction | undefined, olds: Props, news: Props, d: DiffResult): Promise<void> {
  if (predict && enabled(ctx)) await predict(preflightOf(ctx), ctx, olds, news, d);
}
