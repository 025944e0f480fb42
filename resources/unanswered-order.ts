/**
 * One policy for a paid order (register, transfer, renew, privacy or protection enable; each sent
 * with an Idempotency-Key) that got no answer. The request loop has already re-sent it under the
 * same key as often as its policy allows, and it is the only place that retries: nothing here sends
 * the order again. The service is read back instead, and what it holds decides. When it shows
 * nothing yet, the error says to run again, which sends the same key (spec, Authentication 7: a
 * retry with the same key never charges twice).
 */
import { isUnanswered } from "../provider/vocabulary";

export const RUN_AGAIN = "Run the update again: it sends the same Idempotency-Key, so the service replays the order instead of charging twice.";

/** The order's answer, or (no answer came) what the read back found applied. */
export type OrderOutcome<T, L> = { answered: T } | { unanswered: L };

/**
 * Sends a paid order once. Without an answer, `readBack` says what the service holds: a value when
 * the order shows as applied, undefined when not (or when the read fails), which throws.
 */
export async function sendPaidOrder<T, L>(what: string, send: () => Promise<T>, readBack: () => Promise<L | undefined>): Promise<OrderOutcome<T, L>> {
  try {
    return { answered: await send() };
  } catch (e) {
    if (!isUnanswered(e)) throw e;
  }
  const live = await readBack().catch(() => undefined);
  if (live === undefined) throw new Error(`${what} may have been applied but no answer came back. ${RUN_AGAIN}`);
  return { unanswered: live };
}
