/**
 * The one wait of the product: probe until done or the deadline, on an injected clock, saying at a
 * steady interval what it waits for and how long remains. Every wait (registration, delegation, a
 * zone delete waiting for its records) goes through waitUntil; only the request loop retries.
 */
import type { Clock } from "./clock";

/** How often a wait says it is still waiting, so a CI log shows the apply is alive. */
export const PROGRESS_EVERY_MS = 30_000;

/**
 * The product's polling schedule: the delay after poll `n` (n >= 1) is 1 s doubling, capped at
 * 2 min, so polls fall at 0, 1, 3, 7, 15, 31, 63, 127, 247, 367, ... s.
 * Why: the spec states no processing time, and every poll spends the credential's rate limit
 * (60 a minute by default, shared by every resource and process using the key; the client's
 * limiter queues the rest). Doubling sees a quick registry (seconds) within a second or two; the
 * cap holds a long wait to one request every two minutes per waiting object, and a registration
 * done after ten minutes costs 12 polls (bench, `polls`). Progress lines do not depend on polls.
 */
export function pollDelay(n: number): number {
  return Math.min(120_000, 1000 * 2 ** Math.max(0, n - 1));
}

/** A fixed interval, for waits on this process's own state (no request spent per probe). */
export const every =
  (ms: number) =>
  (): number =>
    ms;

export interface WaitLog {
  info(line: string): void;
}

export interface WaitOptions<T> {
  /** Who waits, first word of each line: a domain or zone name. */
  subject: string;
  /** What is awaited; from the first probe's value when it needs it. */
  awaited: string | ((first: T) => string);
  probe: () => Promise<T>;
  done: (value: T) => boolean;
  /** The state a value shows, for the log ("stage pending"). */
  describe: (value: T) => string;
  /** Bound from the start of the wait; a last probe falls on it. */
  timeoutMs: number;
  /** Delay after poll n (1-based); the product's schedule unless said otherwise. */
  schedule?: (n: number) => number;
  clock: Clock;
  log: WaitLog;
  /** Whether a value not done is worth announcing (default: always); no line until one is. */
  announce?: (value: T) => boolean;
  progressEveryMs?: number;
}

export interface WaitResult<T> {
  /** The last value probed. */
  value: T;
  /** Whether `done` held for it (false: the deadline came first). */
  reached: boolean;
  polls: number;
  elapsedMs: number;
}

export async function waitUntil<T>(o: WaitOptions<T>): Promise<WaitResult<T>> {
  const { clock } = o;
  const schedule = o.schedule ?? pollDelay;
  const everyMs = o.progressEveryMs ?? PROGRESS_EVERY_MS;
  const start = clock.now();
  const deadline = start + Math.max(0, o.timeoutMs);
  let value = await o.probe();
  let polls = 1;
  let polledAt = start;
  let awaited: string | undefined;
  let nextLine = Infinity;
  const result = (reached: boolean): WaitResult<T> => ({ value, reached, polls, elapsedMs: clock.now() - start });
  const left = (t: number): number => Math.max(0, Math.ceil((deadline - t) / 1000));

  for (;;) {
    if (o.done(value)) return result(true);
    const t = clock.now();
    if (t >= deadline) return result(false);
    if (awaited === undefined && (o.announce?.(value) ?? true)) {
      awaited = typeof o.awaited === "string" ? o.awaited : o.awaited(value);
      o.log.info(`${o.subject}: waiting up to ${left(t)} s for ${awaited} (${o.describe(value)})`);
      nextLine = t + everyMs;
    } else if (t >= nextLine) {
      // After a poll due at the same time, so the line shows the freshest state.
      o.log.info(`${o.subject}: still waiting for ${awaited} after ${Math.round((t - start) / 1000)} s (${o.describe(value)}); ${left(t)} s left`);
      while (nextLine <= t) nextLine += everyMs;
    }
    const nextPoll = Math.min(deadline, polledAt + schedule(polls));
    await clock.sleep(Math.max(0, Math.min(nextPoll, nextLine) - t));
    if (clock.now() >= nextPoll) {
      polledAt = clock.now();
      value = await o.probe();
      polls++;
    }
  }
}
