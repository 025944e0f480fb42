/**
 * Client-side rate limit: a token bucket per credential, shared by every client in the process
 * that uses the same base URL and API key (the service counts per credential, spec Limits).
 */
import { createHash } from "node:crypto";

const MINUTE_MS = 60_000;

/**
 * Token bucket with reservations: each request takes a token at once and is told how long to
 * wait before its token is due, so concurrent callers queue in arrival order. A pause (after a
 * 429 from the service) stops refilling until the given time.
 */
export class TokenBucket {
  private tokens: number;
  /** Time up to which tokens have been credited; later than now while paused. */
  private last: number;
  private paused = 0;
  private pauses = 0;

  constructor(
    readonly requestsPerMinute: number,
    readonly capacity: number,
    nowMs: number,
  ) {
    if (!(requestsPerMinute > 0) || !(capacity >= 1)) throw new RangeError("rate limiter: requestsPerMinute must be > 0 and burst >= 1");
    this.tokens = capacity;
    this.last = nowMs;
  }

  private get msPerToken(): number {
    return MINUTE_MS / this.requestsPerMinute;
  }

  private refill(nowMs: number): void {
    // Outside a pause `last` is a reading of the clock: a later, smaller reading means the clock
    // was stepped back (NTP, a resumed VM). Start over from it instead of waiting out the step.
    if (nowMs < this.last && this.last > this.paused) this.last = nowMs;
    if (nowMs <= this.last) return;
    this.tokens = Math.min(this.capacity, this.tokens + (nowMs - this.last) / this.msPerToken);
    this.last = nowMs;
  }

  /** Takes a token; returns ms until it may be used (0: now). */
  reserve(nowMs: number): number {
    this.refill(nowMs);
    this.tokens -= 1;
    const due = this.last + Math.max(0, -this.tokens) * this.msPerToken;
    return Math.max(0, Math.ceil(due - nowMs));
  }

  /**
   * Stops handing out tokens before `untilMs` (the service said to wait), then one token at once
   * and the steady rate, no burst. Outstanding reservations are void: their waiters queue again.
   */
  pause(nowMs: number, untilMs: number): void {
    this.refill(nowMs);
    if (untilMs <= this.last) return;
    this.paused = Math.max(this.paused, untilMs);
    this.pauses++;
    this.tokens = 1;
    this.last = untilMs;
  }

  /** How many pauses began so far; a waiter compares it before and after sleeping. */
  get pauseCount(): number {
    return this.pauses;
  }

  /** End of the current pause (ms since epoch), 0 when never paused. */
  get pausedUntil(): number {
    return this.paused;
  }

  /** Whole tokens available at `nowMs` without waiting (for display and tests). */
  available(nowMs: number): number {
    this.refill(nowMs);
    return Math.max(0, Math.floor(this.tokens));
  }
}

export interface AcquireHooks {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Called before each wait, with whether the wait comes from a service-imposed pause. */
  onWait?: (ms: number, paused: boolean) => void;
}

/** Waits until the bucket lets one request through. */
export async function acquire(bucket: TokenBucket, hooks: AcquireHooks): Promise<void> {
  for (;;) {
    const start = hooks.now();
    const pauses = bucket.pauseCount;
    const wait = bucket.reserve(start);
    if (wait === 0) return;
    hooks.onWait?.(wait, bucket.pausedUntil > start);
    await hooks.sleep(wait);
    // A pause that began while we slept voids the reservation: queue again behind it.
    if (bucket.pauseCount === pauses) return;
  }
}

const registry = new Map<string, TokenBucket>();

/** Registry key for a credential: a hash, so the API key is not kept in clear. */
export function credentialId(baseUrl: string, apiKey: string): string {
  return createHash("sha256").update(`${baseUrl}\n${apiKey}`, "utf8").digest("hex");
}

/**
 * The process-wide bucket of a credential. The first client to ask sets its rate and burst;
 * later clients with the same credential share it as it is.
 */
export function bucketFor(baseUrl: string, apiKey: string, requestsPerMinute: number, burst: number, nowMs: number): TokenBucket {
  const id = credentialId(baseUrl, apiKey);
  let b = registry.get(id);
  if (!b) {
    b = new TokenBucket(requestsPerMinute, burst, nowMs);
    registry.set(id, b);
  }
  return b;
}
