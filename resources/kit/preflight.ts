/**
 * What check finds out from the service, so that `pulumi preview` predicts `pulumi up`. The SDK's
 * dynamic provider host cannot tell a preview from an up (neither Configure nor Check says which,
 * and Create is never called at preview), so this runs in both: up meets the same failure at the
 * same point, with the same message, before anything is bought or created. Only after check's own
 * offline validation passed; every read is one per host process (preview-reads.ts).
 *
 * Here: the account (settings, then one signed read, the balance, once per process; a failure fails
 * the first check with the message any request would give, and the run with it) and what every
 * kind's predictions share (`Preflight`: the reads, the stack's running total against the balance).
 * Each kind's own prediction is its folder's preview.ts, given by its handler (`preview`,
 * `previewDiff`), and what it keeps for one command is its own (`PreflightState`, declared there: who
 * declares which zone and record, the zones' delegation, the years a Domain is bought for).
 */
import type { DnsRecord } from "../../api/views";
import { formatAmount, parseAmount, type Amount } from "../../api/money";
import type { Props } from "./props";
import type { HostContext } from "./context";
import type { DiffResult } from "./diff";
import { resourceName } from "./urn";
import { balanceTooLow } from "./preview-messages";
import { PreviewReads } from "./preview-reads";
import { containsUnknown, type CheckResult } from "./check";
import { sameJson } from "../shared/normalize";

/**
 * The key of a kind's own state for one command's predictions, declared in the kind's preview.ts:
 * `p.stateOf(KEY)` makes it on first use, one per `Preflight`. A state with a `dropViews()` method
 * forgets there what it read from the service when the command's reads are dropped (after a write).
 */
export class PreflightState<T> {
  constructor(readonly make: (p: Preflight, ctx: HostContext) => T) {}
}

const dropsViews = (s: unknown): s is { dropViews(): void } => typeof (s as { dropViews?: unknown }).dropViews === "function";

/** What the predictions of one command share: its reads, its purchases and running total, and each kind's own state. */
export class Preflight {
  readonly reads: PreviewReads;
  private account: Promise<Error | undefined> | undefined;
  private accountTold = false;
  /** Purchases predicted in this command, by resource URN (a re-check replaces its own line). */
  private readonly spent = new Map<string, { price: Amount; currency: string }>();
  private readonly kinds = new Map<PreflightState<unknown>, unknown>();
  private startBalance: ReturnType<PreviewReads["balance"]> | undefined;

  constructor(private readonly ctx: HostContext) {
    this.reads = new PreviewReads(ctx);
  }

  /** A kind's state for this command (PreflightState), made on first use. */
  stateOf<T>(key: PreflightState<T>): T {
    if (!this.kinds.has(key)) this.kinds.set(key, key.make(this, this.ctx));
    return this.kinds.get(key) as T;
  }

  dropViews(recordsOf?: string): void {
    if (recordsOf !== undefined) return this.reads.dropZoneRecords(recordsOf);
    this.reads.dropAccountViews();
    for (const s of this.kinds.values()) if (dropsViews(s)) s.dropViews();
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

  /**
   * Adds a purchase; refuses it when the stack's total would pass the balance. Returns the line to show.
   * The balance is the one the run began with, and the total counts every purchase of the run, made or
   * to make: a purchase made before a later check (the CLI creates one resource while it checks the
   * next) does not change what that check says.
   */
  async spend(urn: string, what: string, price: Amount, currency: string): Promise<string> {
    this.spent.set(urn, { price, currency });
    let total = 0n;
    for (const s of this.spent.values()) if (s.currency === currency) total += s.price.minor;
    const sum = formatAmount({ minor: total, decimals: price.decimals });
    this.startBalance ??= this.reads.balance();
    const b = await this.startBalance;
    const balance = parseAmount("balance", b.balance, price.decimals);
    if (b.currency === currency && total > balance.minor) {
      this.spent.delete(urn);
      throw new Error(balanceTooLow(sum, formatAmount(balance), currency));
    }
    return `${what}: ${formatAmount(price)} ${currency}; this stack's purchases so far ${sum} ${currency} of the balance ${formatAmount(balance)} ${b.currency}`;
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
