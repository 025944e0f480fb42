/**
 * One policy for a paid order (register, transfer, renew, privacy or protection enable; each sent
 * with an Idempotency-Key) whose charge is unknown: no answer came (the request loop has already
 * re-sent it under the same key as often as its policy allows), the answer cannot be read (wrong
 * shape, truncated, not JSON, a malformed amount), or it was neither a success nor a refusal (a 5xx,
 * a 3xx redirect, which is never followed). Such an order "may have been charged"; nothing here
 * sends it again. The service is read back instead, and what it holds decides. "Nothing charged" is
 * said only when an answer proves it (a refusal, 4xx).
 */
import { isResellerApiError, isResponseShapeError } from "../../api/errors";
import { formatAmount, isMoneyError, moneyDecimals, parseAmount, parseCurrency } from "../../api/money";
import type { MoneyContract } from "../../api/contract";
import { isCancelledBeforeSending, isUnanswered } from "../../api/vocabulary";
import type { Charge, HeldAcceptedPrice } from "./charge-check";
import type { HostContext } from "./context";

export const RUN_AGAIN = "Run the update again: it sends the same Idempotency-Key, so the service replays the order instead of charging twice.";

/**
 * Why a paid call's failure leaves its charge unknown, in words, or undefined when the failure
 * proves the order was not taken (a refusal with a 4xx code, or a request that never left). Any
 * other status is unknown: a 3xx to a POST may follow an applied order ("done, look there").
 */
export function chargeUnknown(e: unknown): string | undefined {
  if (isUnanswered(e)) return `no answer came back (${e instanceof Error && "reason" in e ? String(e.reason) : "connection lost"})`;
  if (isResponseShapeError(e)) return `its answer could not be read (${e.endpoint} answered ${e.status} with an unexpected body at ${e.fieldPath})`;
  if (isMoneyError(e)) return `its answer could not be read (${e.message})`;
  if (isResellerApiError(e) && !isRefusal(e.status)) return `the service answered ${e.status} ${e.code}`;
  return undefined;
}

/** A 4xx: the service refused the order, so it was not taken. */
const isRefusal = (status: number): boolean => status >= 400 && status < 500;

/** The order's answer, or (its charge unknown) what the read back found applied, and why it is unconfirmed. */
export type OrderOutcome<T, L> = { answered: T } | { unconfirmed: L; reason: string };

/**
 * Sends a paid order once. When its charge is unknown (chargeUnknown), `readBack` says what the
 * service holds: a value when the order shows as applied, undefined when not (or when the read
 * fails), which throws "may have been charged" with what to do.
 */
export async function sendPaidOrder<T, L>(what: string, send: () => Promise<T>, readBack: () => Promise<L | undefined>): Promise<OrderOutcome<T, L>> {
  let reason: string | undefined;
  try {
    return { answered: await send() };
  } catch (e) {
    reason = chargeUnknown(e);
    if (reason === undefined) throw e;
  }
  let cancelled = false;
  const live = await readBack().catch((e: unknown) => void (cancelled = isCancelledBeforeSending(e)));
  if (live === undefined)
    throw new Error(`${what} may have been charged: ${reason}, and ${cancelled ? "the command was cancelled before the service could be asked whether it applied it" : "the service does not show it applied yet"}. ${RUN_AGAIN}`);
  return { unconfirmed: live, reason };
}

export type { Charge };

/** The charge fields a paid order's answer carries: stated for a Domain order, assumed for an add-on's (contract: views.addonOrder). */
export interface ChargeAnswer {
  charged?: string;
  currency?: string;
  invoice?: string | null;
}

/**
 * What an order's answer says it charged, parsed once by the one money type. A malformed amount or
 * currency throws a MoneyError: the answer cannot be read, so inside a paid call its charge counts
 * as unknown (chargeUnknown). An answer that states no charge at all reads as null (not known).
 */
export function chargeOf(o: ChargeAnswer, money: Pick<MoneyContract, "decimals">): Charge {
  if (o.charged === undefined && o.currency === undefined) return { charged: null, currency: null, invoice: o.invoice ?? null };
  return { charged: formatAmount(parseAmount("charged", o.charged, moneyDecimals(money))), currency: parseCurrency("currency", o.currency), invoice: o.invoice ?? null };
}

/** "12.00 USD (invoice INV-1)", or what is known of it. */
export const showCharge = (c: Charge): string =>
  c.charged === null ? "an amount its answer does not state (the account's invoices have it)" : `${c.charged} ${c.currency}${c.invoice ? ` (invoice ${c.invoice})` : ""}`;

/** A paid order whose charge is unknown (its answer lost or unreadable, the service showing it applied), kept in state for the next up. */
export interface UnconfirmedBase {
  operation: string;
  /** The Idempotency-Key it was sent with: the next up sends it again under this key, a replay, never a new order. */
  idempotencyKey: string;
  /** Why it is unconfirmed, for the next run's message. */
  reason: string;
  /** When it was sent (ISO 8601): past the service's retention of keys a re-send is no replay, so none is sent. */
  placedAt?: string;
  /** What it was accepted at before it was sent (maxPrice set): its replayed charge is held against it (./charge-check.ts). */
  accepted?: HeldAcceptedPrice;
}

/** Said after an order is kept unconfirmed. */
export const KEPT_UNCONFIRMED =
  "It is kept in state as an unconfirmed order: the next `pulumi up` asks the service for it again under the same Idempotency-Key (answered with a replay of the order, never a second charge) and records what it charged.";

/**
 * Asks again for an order an earlier run left unconfirmed (`o`), under its own key: the service
 * replays its answer, so what it charged is known and nothing is bought again. Returns the charge
 * when confirmed; `o` with the new reason when its charge is still unknown (it stays unconfirmed);
 * nothing when the service will not replay it (refused: the inputs changed since, or the service no
 * longer keeps the answer) or when the service's retention of keys has passed since it was sent, in
 * which case no request is made: past it, a re-send would be a new order. It was applied all the
 * same (the caller read it so), and the account's invoices say what it cost.
 */
export async function confirmByReplay<O extends UnconfirmedBase>(ctx: HostContext, what: string, o: O, send: () => Promise<Charge>): Promise<{ charge: Charge } | { unconfirmed: O } | undefined> {
  const retention = ctx.contract().idempotency.retentionSeconds;
  const placed = o.placedAt === undefined ? NaN : Date.parse(o.placedAt);
  if (ctx.clock.now() - placed > retention * 1000) {
    ctx.log.warn(
      `${what} cannot be confirmed any more: it was sent at ${o.placedAt}, and the service keeps an order's answer for ${retention} s (contract: idempotency.retentionSeconds), so asking again would be a new order; none was sent. It was applied, once; the account's invoices say what it cost.`,
    );
    return undefined;
  }
  try {
    const charge = await send();
    ctx.log.info(`${what} is confirmed: it charged ${showCharge(charge)}; the service replayed its answer to the same Idempotency-Key, nothing was bought again`);
    return { charge };
  } catch (e) {
    const reason = chargeUnknown(e);
    if (reason !== undefined) return { unconfirmed: { ...o, reason } };
    ctx.log.warn(`${what} cannot be confirmed: the service would not replay its answer (${e instanceof Error ? e.message : String(e)}). It was applied, and charged once; the account's invoices say what it cost. Nothing was bought again.`);
    return undefined;
  }
}
