/**
 * Client-side pacing per credential: never more than `limit` requests in any window of
 * `windowMs` (spec Limits: "60 requests per minute by default, per credential"; how the service
 * counts is assumed in contract.rateLimit). One window per credential in the process, shared by
 * every client that uses the same base URL and API key, and kept in a small log file so a provider
 * host started later in the same command (a restart, the next step's host) counts what went before.
 */
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

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
}

/** What a waiter is told before it waits, for progress lines. */
export type WaitNotice = (ms: number, paused: boolean) => void;

interface Waiter {
  resolve: (release: () => void) => void;
  onWait?: WaitNotice;
}

/**
 * The log of the last requests. A request holds a place from the moment it is sent until its
 * window has passed since its answer arrived: the service saw it between the two, so dating it by
 * the answer is never early, and the next request is sent only when the oldest answer has left the
 * window. Waiters are served in arrival order by one pump.
 */
export class SendWindow {
  readonly limit: number;
  readonly windowMs: number;
  readonly maxInFlight: number;
  private readonly clock: WindowClock;
  /** Answer times of finished requests still inside the window, ascending. */
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

  constructor(opts: SendWindowOptions) {
    if (!(opts.limit >= 1) || !(opts.windowMs > 0) || !(opts.maxInFlight >= 1)) {
      throw new RangeError("rate limiter: requestsPerMinute must be >= 1, the window > 0 and burst >= 1");
    }
    this.limit = Math.floor(opts.limit);
    this.windowMs = opts.windowMs;
    this.maxInFlight = Math.floor(opts.maxInFlight);
    this.clock = opts.clock;
    this.lastNow = opts.clock.now();
    if (opts.logFile) {
      this.log = new RequestLogFile(opts.logFile, this.windowMs, this.limit);
      for (const t of this.log.load(this.lastNow)) this.insertDone(t);
    }
  }

  /** Requests sent and not yet answered. */
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

  /** Places taken at `nowMs`: requests in flight plus answers inside the window. */
  used(nowMs: number): number {
    this.prune(nowMs);
    return this.flying + this.done.length;
  }

  /** Waits for a place; resolves with the function to call when the answer (or failure) arrives. */
  acquire(onWait?: WaitNotice): Promise<() => void> {
    return new Promise((resolve) => {
      this.queue.push({ resolve, onWait });
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
   * Ms until the next request may go: 0 now, Infinity when only an answer of a request in flight
   * can free a place.
   */
  private waitMs(now: number): number {
    if (now < this.paused) return this.paused - now;
    this.prune(now);
    if (this.flying >= this.maxInFlight) return Infinity;
    const over = this.flying + this.done.length - this.limit + 1;
    if (over <= 0) return 0;
    if (over > this.done.length) return Infinity;
    return this.done[over - 1] + this.windowMs - now;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const now = this.now();
        const wait = this.waitMs(now);
        if (wait <= 0) {
          this.grant(this.queue.shift()!, now);
          continue;
        }
        this.queue[0].onWait?.(wait, now < this.paused);
        // A timer only when nothing is in flight: an answer frees a place or re-dates one sooner
        // than most timers, and a timer left behind by a race would outlive the work.
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
      this.insertDone(at);
      this.log?.answered(id!, at);
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

  private insertDone(t: number): void {
    let i = this.done.length;
    while (i > 0 && this.done[i - 1] > t) i--;
    this.done.splice(i, 0, t);
  }
}

/**
 * The window's log on disk: one line per send (`s <id> <ms>`) and per answer (`a <id> <ms>`),
 * appended; rewritten with only what is still inside the window once it has grown. A host that
 * starts later reads it: answers inside the window count as they are, and a send with no answer
 * (its host stopped with the request in flight) counts as answered at the moment of reading.
 * Holds no key or secret: the file is named by a hash of base URL and API key.
 */
export class RequestLogFile {
  private fd: number | undefined;
  private lines = 0;
  private seq = 0;
  private readonly tag = `${process.pid.toString(36)}.${randomBytes(4).toString("hex")}`;
  private open = new Map<string, number>();
  private answers: number[] = [];

  constructor(
    readonly file: string,
    private readonly windowMs: number,
    private readonly limit: number,
  ) {}

  /** Answer times inside the window at `nowMs` from an earlier host's log; sends left unanswered count as answered now. */
  load(nowMs: number): number[] {
    let text = "";
    try {
      text = fs.readFileSync(this.file, "utf8");
    } catch {
      return [];
    }
    const sends = new Map<string, number>();
    const out: number[] = [];
    for (const line of text.split("\n")) {
      const [kind, id, ms] = line.split(" ");
      const t = Number(ms);
      if (!id || !Number.isFinite(t)) continue;
      if (kind === "s") sends.set(id, t);
      else if (kind === "a") {
        sends.delete(id);
        out.push(t);
      }
    }
    for (const t of sends.values()) if (t + this.windowMs > nowMs) out.push(Math.max(t, nowMs));
    const kept = out.filter((t) => t + this.windowMs > nowMs).sort((a, b) => a - b);
    this.answers = kept.slice();
    return kept;
  }

  sent(ms: number): string {
    const id = `${this.tag}.${(this.seq++).toString(36)}`;
    this.open.set(id, ms);
    this.append(`s ${id} ${ms}\n`);
    return id;
  }

  answered(id: string, ms: number): void {
    this.open.delete(id);
    this.answers.push(ms);
    this.append(`a ${id} ${ms}\n`);
    if (this.lines > Math.min(2 * this.limit, 8192) + 256) this.compact(ms);
  }

  private append(line: string): void {
    try {
      if (this.fd === undefined) {
        fs.mkdirSync(path.dirname(this.file), { recursive: true });
        this.fd = fs.openSync(this.file, "a", 0o600);
      }
      fs.writeSync(this.fd, line);
      this.lines++;
    } catch {
      // Pacing in memory still holds for this host; only a later host would count less.
      this.closeFd();
    }
  }

  /** Rewrites the log with what is still inside the window (atomic rename), so it stays small. */
  private compact(nowMs: number): void {
    // Only the newest `limit` answers can hold a place.
    this.answers = this.answers.filter((t) => t + this.windowMs > nowMs).slice(-this.limit);
    const body = [
      ...this.answers.map((t, i) => `a c${i}.${this.tag} ${t}\n`),
      ...[...this.open].map(([id, t]) => `s ${id} ${t}\n`),
    ].join("");
    try {
      const tmp = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, body, { mode: 0o600 });
      this.closeFd();
      fs.renameSync(tmp, this.file);
      this.lines = this.answers.length + this.open.size;
    } catch {
      this.closeFd();
    }
  }

  private closeFd(): void {
    if (this.fd !== undefined) {
      try {
        fs.closeSync(this.fd);
      } catch {
        // already closed
      }
    }
    this.fd = undefined;
  }
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

/** Where a credential's log lives by default: the OS temp directory, named by the credential's hash. */
export function defaultLogFile(baseUrl: string, apiKey: string, dir: string = os.tmpdir()): string {
  return path.join(dir, `reseller-pulumi-rate-${credentialId(baseUrl, apiKey).slice(0, 32)}.log`);
}

export interface WindowForOptions {
  limit: number;
  windowMs: number;
  maxInFlight: number;
  clock: WindowClock;
  /** Directory of the log file; null keeps the window in memory only. */
  logDir: string | null;
}

/**
 * The process-wide window of a credential. The first client to ask sets its limit, clock and log;
 * later clients with the same credential share it as it is.
 */
export function windowFor(baseUrl: string, apiKey: string, opts: WindowForOptions): SendWindow {
  const id = credentialId(baseUrl, apiKey);
  let w = registry.get(id);
  if (!w) {
    w = new SendWindow({
      limit: opts.limit,
      windowMs: opts.windowMs,
      maxInFlight: opts.maxInFlight,
      clock: opts.clock,
      logFile: opts.logDir === null ? undefined : defaultLogFile(baseUrl, apiKey, opts.logDir),
    });
    registry.set(id, w);
  }
  return w;
}

/** Test hook: forget every window (a fresh process). */
export function resetWindows(): void {
  registry.clear();
}
