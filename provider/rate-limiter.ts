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

/** Ms to wait before looking again when only other processes' requests in flight hold the places. */
const POLL_MS = 50;

/**
 * The log of the last requests. A request holds a place from the moment it is sent until its
 * window has passed since its answer arrived: the service saw it between the two, so dating it by
 * the answer is never early, and the next request is sent only when the oldest answer has left the
 * window. Waiters are served in arrival order by one pump. With a log file, the requests of other
 * processes on the same credential (another provider host, another CI job on this machine) count
 * too: each decision reads what they appended, under a lock, before it takes a place.
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

  constructor(opts: SendWindowOptions) {
    if (!(opts.limit >= 1) || !(opts.windowMs > 0) || !(opts.maxInFlight >= 1)) {
      throw new RangeError("rate limiter: requestsPerMinute must be >= 1, the window > 0 and burst >= 1");
    }
    this.limit = Math.floor(opts.limit);
    this.windowMs = opts.windowMs;
    this.maxInFlight = Math.floor(opts.maxInFlight);
    this.clock = opts.clock;
    this.lastNow = opts.clock.now();
    if (opts.logFile) this.log = new RequestLogFile(opts.logFile, this.windowMs, this.limit);
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
      return this.flying + this.done.length + (this.log ? this.log.othersInFlight + this.log.othersDone.length : 0);
    };
    return this.log ? this.log.locked(look) : look();
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
   * Ms until the next request may go: 0 now, Infinity when only an answer of this process's
   * requests in flight can free a place.
   */
  private waitMs(now: number): number {
    if (now < this.paused) return this.paused - now;
    this.prune(now);
    if (this.flying >= this.maxInFlight) return Infinity;
    const othersFlying = this.log?.othersInFlight ?? 0;
    const othersDone = this.log?.othersDone ?? [];
    const over = this.flying + othersFlying + this.done.length + othersDone.length - this.limit + 1;
    if (over <= 0) return 0;
    const finished = othersDone.length ? mergeSorted(this.done, othersDone) : this.done;
    if (over <= finished.length) return finished[over - 1] + this.windowMs - now;
    // Only requests in flight hold the places: ours free one when answered; others', we look again.
    return othersFlying > 0 && this.flying === 0 ? POLL_MS : Infinity;
  }

  /** One decision: with a log, under its lock, after reading what other processes appended. */
  private decide(now: number): number {
    const step = (): number => {
      this.log?.look(now);
      const wait = this.waitMs(now);
      if (wait <= 0) this.grant(this.queue.shift()!, now);
      return wait;
    };
    return this.log ? this.log.locked(step) : step();
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const now = this.now();
        const wait = this.decide(now);
        if (wait <= 0) continue;
        this.queue[0].onWait?.(wait, now < this.paused);
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
      this.log?.locked(() => this.log!.answered(id!, at, this.done));
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

/** A process's tag in the log: its pid (so a dead writer is recognised) and a random part. */
const pidOfTag = (id: string): number => Number.parseInt(id.split("-")[0], 36);

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A short synchronous wait while another process holds the log's lock (for microseconds). */
const sleepSync = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** An unanswered send of a live process older than this counts as answered then (no attempt lasts so long). */
const STALE_SEND_MS = 120_000;

/**
 * A credential's log on disk, shared by the processes of this machine that use the credential: one
 * line per send (`s <id> <ms>`) and per answer (`a <id> <ms>`), appended under a lock file, and
 * rewritten with only what is still inside the window once it has grown. Each process reads what
 * the others appended before each decision. A send with no answer counts as in flight while its
 * writer lives; when the writer is gone (a provider host stopped with the request in flight) it
 * counts as answered when that is noticed. Holds no key or secret: the file is named by a hash of
 * base URL and API key.
 */
export class RequestLogFile {
  private lines = 0;
  /**
   * Lines at which the log is rewritten: at least twice what the last rewrite kept, so rewrites
   * stay amortized when more than `limit` requests fit in the window (a lifted limit); a fixed
   * threshold below what a rewrite keeps rewrote the whole log after every answer.
   */
  private compactAt: number;
  private seq = 0;
  readonly tag = `${process.pid.toString(36)}-${randomBytes(4).toString("hex")}`;
  private readonly ownOpen = new Map<string, number>();
  /** Where reading stopped, and in which file (a rewrite replaces the file). */
  private offset = 0;
  private ino = -1;
  private readonly othersOpen = new Map<string, number>();
  /** Other processes' answers inside the window, ascending, with their ids (kept on a rewrite). */
  private othersAnswers: { id: string; t: number }[] = [];

  constructor(
    readonly file: string,
    private readonly windowMs: number,
    private readonly limit: number,
  ) {
    this.compactAt = this.rewriteThreshold(0);
  }

  /** Rewrite once the log holds twice what a rewrite kept, and never below twice the limit (at most 8,192). */
  private rewriteThreshold(kept: number): number {
    return Math.max(Math.min(2 * this.limit, 8192), 2 * kept) + 256;
  }

  get othersInFlight(): number {
    return this.othersOpen.size;
  }

  get othersDone(): number[] {
    return this.othersAnswers.map((a) => a.t);
  }

  /** Runs `fn` holding the log's lock; without a lock (none can be made) it runs all the same. */
  locked<T>(fn: () => T): T {
    const lock = `${this.file}.lock`;
    let held = false;
    for (let i = 0; i < 500 && !held; i++) {
      try {
        fs.mkdirSync(path.dirname(this.file), { recursive: true });
        fs.closeSync(fs.openSync(lock, "wx", 0o600));
        held = true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") break;
        try {
          // A lock is held for microseconds; one older than a second was left by a killed process.
          if (Date.now() - fs.statSync(lock).mtimeMs > 1000) fs.unlinkSync(lock);
        } catch {
          // gone meanwhile
        }
        sleepSync(1);
      }
    }
    try {
      return fn();
    } finally {
      if (held) {
        try {
          fs.unlinkSync(lock);
        } catch {
          // removed as stale by another process
        }
      }
    }
  }

  /** Reads what other processes appended since the last look (all of it after a rewrite), and settles their sends. */
  look(nowMs: number): void {
    let st: fs.Stats;
    try {
      st = fs.statSync(this.file);
    } catch {
      return;
    }
    if (st.ino !== this.ino || st.size < this.offset) {
      this.ino = st.ino;
      this.offset = 0;
      this.othersOpen.clear();
      this.othersAnswers = [];
    }
    if (st.size > this.offset) {
      const buf = Buffer.alloc(st.size - this.offset);
      const fd = fs.openSync(this.file, "r");
      let n = 0;
      try {
        n = fs.readSync(fd, buf, 0, buf.length, this.offset);
      } finally {
        fs.closeSync(fd);
      }
      const text = buf.subarray(0, n).toString("utf8");
      const end = text.lastIndexOf("\n") + 1;
      this.offset += Buffer.byteLength(text.slice(0, end));
      for (const line of text.slice(0, end).split("\n")) this.read(line);
    }
    for (const [id, t] of this.othersOpen) {
      const stale = t + STALE_SEND_MS <= nowMs;
      if (stale || !isAlive(pidOfTag(id))) {
        this.othersOpen.delete(id);
        this.addAnswer(id, stale ? t + STALE_SEND_MS : Math.max(t, nowMs));
      }
    }
    const cut = nowMs - this.windowMs;
    if (this.othersAnswers.length && this.othersAnswers[0].t <= cut) this.othersAnswers = this.othersAnswers.filter((a) => a.t > cut);
  }

  private read(line: string): void {
    const [kind, id, ms] = line.split(" ");
    const t = Number(ms);
    if (!id || !Number.isFinite(t) || id.startsWith(`${this.tag}.`)) return;
    if (kind === "s") this.othersOpen.set(id, t);
    else if (kind === "a") {
      this.othersOpen.delete(id);
      this.addAnswer(id, t);
    }
  }

  private addAnswer(id: string, t: number): void {
    const list = this.othersAnswers;
    let i = list.length;
    while (i > 0 && list[i - 1].t > t) i--;
    list.splice(i, 0, { id, t });
  }

  /** A clock stepped back by `step` ms: dates of others' requests move with it. */
  shift(step: number): void {
    this.othersAnswers = this.othersAnswers.map((a) => ({ id: a.id, t: a.t - step }));
    for (const [id, t] of this.othersOpen) this.othersOpen.set(id, t - step);
  }

  /** Called under the lock, when a place was taken. */
  sent(ms: number): string {
    const id = `${this.tag}.${(this.seq++).toString(36)}`;
    this.ownOpen.set(id, ms);
    this.append(`s ${id} ${ms}\n`);
    return id;
  }

  /** Called under the lock, with this process's answers inside the window. */
  answered(id: string, ms: number, ownDone: number[]): void {
    this.ownOpen.delete(id);
    this.append(`a ${id} ${ms}\n`);
    if (this.lines > this.compactAt) this.compact(ms, ownDone);
  }

  /** Appends under the lock (open, write, close: a rewrite by another process may replace the file). */
  private append(line: string): void {
    try {
      let before: fs.Stats | undefined;
      try {
        before = fs.statSync(this.file);
      } catch {
        fs.mkdirSync(path.dirname(this.file), { recursive: true });
      }
      fs.appendFileSync(this.file, line, { mode: 0o600 });
      // Our own line needs no reading back: skip it when we were up to date with that file.
      if (before && before.ino === this.ino && before.size === this.offset) this.offset += Buffer.byteLength(line);
      this.lines++;
    } catch {
      // Pacing in memory still holds for this process; only others would count less.
    }
  }

  /** Rewrites the log with what is still inside the window (atomic rename), so it stays small. */
  private compact(nowMs: number, ownDone: number[]): void {
    const cut = nowMs - this.windowMs;
    // Only the newest `limit` answers can hold a place.
    const own = ownDone.filter((t) => t > cut).slice(-this.limit);
    const body = [
      ...own.map((t, i) => `a ${this.tag}.c${i}-${this.seq} ${t}\n`),
      ...[...this.ownOpen].map(([id, t]) => `s ${id} ${t}\n`),
      ...this.othersAnswers.filter((a) => a.t > cut).map((a) => `a ${a.id} ${a.t}\n`),
      ...[...this.othersOpen].map(([id, t]) => `s ${id} ${t}\n`),
    ].join("");
    try {
      const tmp = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, body, { mode: 0o600 });
      fs.renameSync(tmp, this.file);
      const st = fs.statSync(this.file);
      this.ino = st.ino;
      this.offset = st.size;
      this.lines = own.length + this.ownOpen.size + this.othersAnswers.length + this.othersOpen.size;
      this.compactAt = this.rewriteThreshold(this.lines);
    } catch {
      // The log stays long; it is still read correctly.
    }
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
