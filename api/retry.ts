/**
 * Retry policy as pure functions: which failures may be retried for which kind of request, how
 * long to wait (exponential backoff with full jitter, capped), and how to read Retry-After.
 */

/**
 * How a request may be repeated.
 * - safe: GET, PUT, DELETE, read-only POSTs, and POSTs carrying an Idempotency-Key (same key on
 *   every attempt): repeating cannot apply a change twice.
 * - creating: a POST without Idempotency-Key that creates something; repeating it after it may
 *   have reached the service could create it twice.
 */
export type RequestSafety = "safe" | "creating";

/** What went wrong with one attempt. */
export type AttemptFailure =
  /** No connection was made, so nothing was sent (refused, unknown host, connect timeout). */
  | { kind: "not-sent"; reason: string }
  /** Refused on this side before anything was written (a header value or URL the HTTP stack rejects): repeating cannot help. */
  | { kind: "local"; reason: string }
  /** The connection failed after the request may have been written. */
  | { kind: "network"; reason: string }
  /** No whole answer within the attempt's deadline (headers and body). */
  | { kind: "timeout"; reason: string }
  /** An answer came but was larger than the contract's maxResponseBytes, so it was not read. */
  | { kind: "oversized"; reason: string }
  /** The service answered with this status. */
  | { kind: "status"; status: number };

/** Statuses after which a safe request is repeated. 429 is handled for every request (the service applied nothing). */
const RETRY_STATUSES = new Set([408, 425, 500, 502, 503, 504]);

/** Whether the attempt may be repeated. */
export function shouldRetry(failure: AttemptFailure, safety: RequestSafety): boolean {
  if (failure.kind === "local") return false;
  if (failure.kind === "not-sent") return true;
  if (failure.kind === "status" && failure.status === 429) return true;
  if (safety === "creating") return false;
  if (failure.kind === "status") return RETRY_STATUSES.has(failure.status);
  return true;
}

/** Whether a failed creating request may have been applied (so the caller must read back and reconcile). */
export function outcomeUnknown(failure: AttemptFailure, safety: RequestSafety): boolean {
  if (safety !== "creating") return false;
  if (failure.kind === "network" || failure.kind === "timeout" || failure.kind === "oversized") return true;
  // A 303 after a POST classically means "done, look there": a redirect may follow an applied create.
  return failure.kind === "status" && (failure.status >= 500 || (failure.status >= 300 && failure.status < 400));
}

export interface BackoffOptions {
  /** Upper bound of the first delay, ms. */
  baseMs: number;
  /** Cap of any delay, ms. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 8000 };

/**
 * Delay before retry number `attempt` (0 for the first retry): full jitter, a uniform draw in
 * [0, min(maxMs, baseMs * 2^attempt)). `random` returns a number in [0, 1).
 */
export function retryDelay(attempt: number, random: () => number, opts: BackoffOptions = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, attempt));
  return Math.floor(random() * ceiling);
}

/**
 * Retry-After as ms from `nowMs`: delta seconds ("120", "1.5") or an HTTP date. Capped at `capMs`;
 * undefined when absent or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | undefined | null, nowMs: number, capMs: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  const v = value.trim();
  if (v === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.min(capMs, Math.ceil(Number(v) * 1000));
  // HTTP dates name the month ("Wed, 21 Oct 2015 07:28:00 GMT"); Date.parse would also take "-5".
  const at = /[A-Za-z]{3}/.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.min(capMs, Math.max(0, at - nowMs));
}
