/**
 * One policy for a paid order (register, transfer, renew, privacy or protection enable; each sent
 * with an Idempotency-Key) whose charge is unknown: no answer came (the request loop has already
 * re-sent it under the same key as often as its policy allows), the answer cannot be read (wrong
 * shape, truncated, not JSON, a malformed amount), or the service failed (5xx). Such an order "may
 * have been charged"; nothing here sends it again. The service is read back instead, and what it
 * holds decides. "Nothing charged" is said only when an answer proves it (a refusal, 4xx).
 */
import { isResellerApiError, isResponseShapeError } from "../provider/errors";
import { isMoneyError } from "../provider/money";
import { isUnanswered } from "../provider/vocabulary";

export const RUN_AGAIN = "Run the update again: it sends the same Idempotency-Key, so the service replays the order instead of charging twice.";

/**
 * Why a paid call's failure leaves its charge unknown, in words, or undefined when the failure
 * proves the order was not taken (a refusal with a 4xx code, or a request that never left).
 */
export function chargeUnknown(e: unknown): string | undefined {
  if (isUnanswered(e)) return `no answer came back (${e instanceof Error && "reason" in e ? String(e.reason) : "connection lost"})`;
  if (isResponseShapeError(e)) return `its answer could not be read (${e.endpoint} answered ${e.status} with an unexpected body at ${e.fieldPath})`;
  if (isMoneyError(e)) return `its answer could not be read (${e.message})`;
  if (isResellerApiError(e) && e.status >= 500) return `the service answered ${e.status} ${e.code}`;
  return undefined;
}

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
  const live = await readBack().catch(() => undefined);
  if (live === undefined) throw new Error(`${what} may have been charged: ${reason}, and the service does not show it applied yet. ${RUN_AGAIN}`);
  return { unconfirmed: live, reason };
}
