/**
 * Client-side pacing per credential: never more than `limit` requests in any window of
 * `windowMs` (spec Limits: "60 requests per minute by default, per credential"; how the service
 * counts is assumed in contract.rateLimit). One window per credential in the process, shared by
 * every client that uses the same base URL and API key, and kept in a small log file so a provider
 * host started later in the same command (a restart, the next step's host) counts what went before.
 *
 * The log is the user's alone and read as untrusted: it lives in a folder of the user's cache
 * created 0700 and checked for owner and mode (a link is refused), lines dated in the future are
 * ignored, a log that is not what this module writes is set aside with a warning, and no send read
 * from it holds a place for longer than its writer lives, nor past rate-log.ts's MAX_OPEN_SEND_MS
 * and one window.
 */
import { createHash } from "node:crypto";
import * as path from "node:path";
import { defaultLogDir, prepareLogFolder, removeOldLogs } from "./rate-log-folder";
import { RequestLogFile } from "./rate-log";

export interface WindowClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export interface SendWindowOptions {
  /** Requests allowed in any window. */
  limit: number;
  windowMs: number;
  /** Most requests in flight at once (contract.rateLimit.burst). */
  maxInFlight: number;
  clock: WindowClock;
  /** Append-only log of sends and answers, read at start; undefined keeps the window in memory only. */
  logFile?: string;
  /** Where a warning about the log goes (a log set aside, lines ignored). */
  warn?: (msg: string) => void;
  /** The bound of a wait for the log's lock (default LOCK_WAIT_MS), after which acquire() fails. */
  lockWaitMs?: number;
}

/** The queue a wait belongs to: how many requests wait, and in how many ms the last of them may go (Infinity: once answers in flight free places). */
export interface QueueView {
  waiting: number;
  drainMs: number;
}

/** What a waiter is told before it waits, for progress lines. */
export type WaitNotice = (ms: number, paused: boolean, queue: QueueView) => void;

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (e: unknown) => void;
  onWait?: WaitNotice;
}

/** Ms to wait before looking again when only other processes' requests in flight hold the places. */
const POLL_MS = 50;

/**
 * The log of the last requests. A request holds a place from the moment it is sent until its
 * window has passed since its answer arrived: the service saw it between the two, so dating it by
 * the answer is never early, and the next request is sent only when the oldest answer has left the
 * window. Waiters are served in arrival order by one pump. With a log file, the requests of other
 * processes on the same credential (another provider host, another CI job on this machine) count
 * too: each decision reads what they appended, under a lock, before it takes a place. Their
 * requests count by the same rule, from the send until one window after the answer. A lock that
 * cannot be taken within its bound fails every waiting request (RateLimitLogLockError, naming the
 * folder): nothing is sent without it.
 */
export class SendWindow {
  readonly limit: number;
  readonly windowMs: number;
  readonly maxInFlight: number;
  private readonly clock: WindowClock;
  /** Answer times of this process's finished requests still inside the window, ascending. */
  private done: number[] = [];
  private flying = 0;
  private paused = 0;
  private pauses = 0;
  private lastNow: number;
  private readonly queue: Waiter[] = [];
  private pumping = false;
  private released: (() => void) | undefined;
  private readonly log: RequestLogFile | undefined;
  private sent = 0;
  private readonly warn: (msg: string) => void;

  constructor(opts: SendWindowOptions) {
    if (!(opts.limit >= 1) || !(opts.windowMs > 0) || !(opts.maxInFlight >= 1)) {
      throw new RangeError("rate limiter: requestsPerMinute must be >= 1, the window > 0 and burst >= 1");
    }
    this.limit = Math.floor(opts.limit);
    this.windowMs = opts.windowMs;
    this.maxInFlight = Math.floor(opts.maxInFlight);
    this.clock = opts.clock;
    this.lastNow = opts.clock.now();
    this.warn = opts.warn ?? (() => undefined);
    if (opts.logFile) this.log = new RequestLogFile(opts.logFile, this.windowMs, this.limit, opts.warn, opts.lockWaitMs);
  }

  /** Requests of this process sent and not yet answered. */
  get inFlight(): number {
    return this.flying;
  }

  /** Requests sent through this window in this process. */
  get sentCount(): number {
    return this.sent;
  }

  /** End of the current pause (ms since epoch), 0 when never paused. */
  get pausedUntil(): number {
    return this.paused;
  }

  get pauseCount(): number {
    return this.pauses;
  }

  /** Places taken at `nowMs`, by this process and (with a log) by others: in flight plus answers inside the window. */
  used(nowMs: number): number {
    const look = () => {
      this.log?.look(nowMs);
      this.prune(nowMs);
      return this.taken();
    };
    return this.log ? this.log.locked(look) : look();
  }

  /** Places taken as last looked: in flight plus answers inside the window, ours and (with a log) the others'. */
  private taken(): number {
    return this.flying + this.done.length + (this.log ? this.log.othersInFlight + this.log.othersDone.length : 0);
  }

  /**
   * Waits for a place; resolves with the function to call when the answer (or failure) arrives.
   * Rejects with RateLimitLogLockError when the shared log's lock cannot be taken: nothing is sent.
   */
  acquire(onWait?: WaitNotice): Promise<() => void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject, onWait });
      void this.pump();
    });
  }

  /** The service said to wait (429): nothing is sent before `untilMs`. */
  pause(nowMs: number, untilMs: number): void {
    if (untilMs <= nowMs || untilMs <= this.paused) return;
    this.paused = untilMs;
    this.pauses++;
  }

  /**
   * Ms until the next request may go: 0 now, Infinity when only an answer of this process's
   * requests in flight can free a place.
   */
  private waitMs(now: number): number {
    if (now < this.paused) return this.paused - now;
    this.prune(now);
    if (this.flying >= this.maxInFlight) return Infinity;
    const othersFlying = this.log?.othersInFlight ?? 0;
    const over = this.taken() - this.limit + 1;
    if (over <= 0) return 0;
    const finished = this.finished();
    if (over <= finished.length) return finished[over - 1] + this.windowMs - now;
    // Only requests in flight hold the places: ours free one when answered; others', we look again.
    return othersFlying > 0 && this.flying === 0 ? POLL_MS : Infinity;
  }

  /** Answer times inside the window, this process's and (with a log) the others', ascending. */
  private finished(): number[] {
    const othersDone = this.log?.othersDone ?? [];
    return othersDone.length ? mergeSorted(this.done, othersDone) : this.done;
  }

  /**
   * An estimate, for the progress line, of the ms until the last of `waiting` queued requests may
   * go: each takes the place the window frees next, a place held by a request in flight or queued
   * ahead freeing one window after now or after its own turn (its answer taken as immediate).
   */
  private drainMs(now: number, waiting: number): number {
    const finished = this.finished();
    const over = this.taken() - this.limit + 1;
    const turns: number[] = [];
    for (let j = 0; j < waiting; j++) {
      const k = over - 1 + j;
      const free = k < 0 ? now : k < finished.length ? finished[k] + this.windowMs : (turns[j - this.limit] ?? now) + this.windowMs;
      turns.push(Math.max(now, this.paused, free));
    }
    return turns[waiting - 1] - now;
  }
  /**
   * One decision: with a log, under its lock (dated when the lock is held), after reading what other
   * processes appended. Every waiter the window admits now is granted under that one lock, each
   * counted before the next is judged (a request granted is in flight: it holds its place).
   */
  private async decide(): Promise<{ now: number; wait: number }> {
    const step = () => {
      const now = this.now();
      this.log?.look(now);
      let wait = this.waitMs(now);
      while (wait <= 0 && this.queue.length > 0) {
        this.grant(this.queue.shift()!, now);
        wait = this.queue.length > 0 ? this.waitMs(now) : 0;
      }
      return { now, wait };
    };
    return this.log ? this.log.lockedAsync(step) : step();
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        let now: number;
        let wait: number;
        try {
          ({ now, wait } = await this.decide());
        } catch (e) {
          // The lock is shared by every waiter: each would wait out the same bound and fail the same way.
          for (const w of this.queue.splice(0)) w.reject(e);
          break;
        }
        if (wait <= 0) continue;
        const waiting = this.queue.length;
        this.queue[0].onWait?.(wait, now < this.paused, { waiting, drainMs: waiting > 1 ? Math.max(Number.isFinite(wait) ? wait : 0, this.drainMs(now, waiting)) : wait });
        // A timer only when nothing of ours is in flight: an answer frees a place or re-dates one
        // sooner than most timers, and a timer left behind by a race would outlive the work.
        if (wait === Infinity || this.flying > 0) await new Promise<void>((r) => (this.released = r));
        else await this.clock.sleep(wait);
      }
    } finally {
      this.pumping = false;
    }
  }

  private grant(w: Waiter, now: number): void {
    this.flying++;
    this.sent++;
    const id = this.log?.sent(now);
    let open = true;
    w.resolve(() => {
      if (!open) return;
      open = false;
      const at = this.now();
      this.flying--;
      insertSorted(this.done, at);
      // Unwritten, the answer leaves our send in flight for the others while this process lives:
      // they count it longer, never shorter. The next decision fails on the same lock.
      this.log?.answered(id!, at, this.done, (e) => this.warn(`${(e as Error).message} (the answer of a request could not be logged)`));
      const r = this.released;
      this.released = undefined;
      r?.();
    });
  }

  /** The clock, with a step back (NTP, a resumed VM) taken out of every date kept, so no wait lasts the step. */
  private now(): number {
    const t = this.clock.now();
    if (t < this.lastNow) {
      const step = this.lastNow - t;
      this.done = this.done.map((d) => d - step);
      this.log?.shift(step);
      if (this.paused > t + step) this.paused -= step;
    }
    this.lastNow = t;
    return t;
  }

  private prune(now: number): void {
    let k = 0;
    while (k < this.done.length && this.done[k] + this.windowMs <= now) k++;
    if (k > 0) this.done.splice(0, k);
  }
}

function insertSorted(list: number[], t: number): void {
  let i = list.length;
  while (i > 0 && list[i - 1] > t) i--;
  list.splice(i, 0, t);
}

function mergeSorted(a: number[], b: number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) out.push(j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i++] : b[j++]);
  return out;
}

/** Waits for a place in the window, telling `onWait` before a wait; returns the release. */
export function acquire(window: SendWindow, onWait?: WaitNotice): Promise<() => void> {
  return window.acquire(onWait);
}

const registry = new Map<string, SendWindow>();

/** Registry key for a credential: a hash, so the API key is not kept in clear. */
export function credentialId(baseUrl: string, apiKey: string): string {
  return createHash("sha256").update(`${baseUrl}\n${apiKey}`, "utf8").digest("hex");
}

/** A credential's log in `dir` (default: the user's cache, rate-log-folder.ts), named by the credential's hash. */
export function defaultLogFile(baseUrl: string, apiKey: string, dir: string = defaultLogDir()): string {
  return path.join(dir, `rate-${credentialId(baseUrl, apiKey).slice(0, 32)}.log`);
}

export interface WindowForOptions {
  limit: number;
  windowMs: number;
  maxInFlight: number;
  clock: WindowClock;
  /** Folder of the log file (checked: the user's alone); null keeps the window in memory only. */
  logDir: string | null;
  /** Where warnings about the log go (a folder refused, a log set aside). */
  warn?: (msg: string) => void;
}

/**
 * The process-wide window of a credential. The first client to ask sets its limit, clock and log;
 * later clients with the same credential share it as it is. A log folder that is not the user's
 * alone is not used: the window is kept in memory, with a warning saying why.
 */
export function windowFor(baseUrl: string, apiKey: string, opts: WindowForOptions): SendWindow {
  const id = credentialId(baseUrl, apiKey);
  let w = registry.get(id);
  if (!w) {
    let logFile: string | undefined;
    if (opts.logDir !== null) {
      const refused = prepareLogFolder(opts.logDir);
      if (refused)
        opts.warn?.(
          `the rate-limit log folder ${opts.logDir} ${refused}, so it is not used: requests are paced in this process only. Use a folder of your own with mode 0700 (reseller:rateLimitDir).`,
        );
      else {
        // Once per credential and process: the logs of credentials no longer used do not pile up.
        removeOldLogs(opts.logDir);
        logFile = defaultLogFile(baseUrl, apiKey, opts.logDir);
      }
    }
    w = new SendWindow({ limit: opts.limit, windowMs: opts.windowMs, maxInFlight: opts.maxInFlight, clock: opts.clock, logFile, warn: opts.warn });
    registry.set(id, w);
  }
  return w;
}

/** Test hook: forget every window (a fresh process). */
export function resetWindows(): void {
  registry.clear();
}
