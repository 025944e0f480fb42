/**
 * A credential's request log on disk (the shared part of provider/rate-limiter.ts's window), read
 * as untrusted input: strict lines, no future dates, no links, nothing bigger than it can be, and
 * anything else set aside with a warning rather than believed or fatal.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { ownedPrivately } from "./rate-log-folder";

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

/**
 * A line dated later than this past our clock is ignored: the writers share this machine's clock,
 * so only a planted or broken line is in the future (60 such lines once stalled every request for
 * 11 minutes).
 */
export const FUTURE_SKEW_MS = 2000;

/** Far more than any log this module keeps (a rewrite keeps one window); a bigger one was not written by it. */
export const MAX_LOG_BYTES = 16 * 1024 * 1024;

/** `s|a <pid base 36>-<8 hex>.<seq> <ms>`: exactly what sent(), answered() and compact() write. */
const LINE = /^([sa]) ([0-9a-z]{1,14}-[0-9a-f]{8}\.[0-9a-z-]{1,40}) (\d{1,16})$/;

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const READ_FLAGS = fs.constants.O_RDONLY | NOFOLLOW;
const APPEND_FLAGS = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | NOFOLLOW;

/** Why a file at the log's name is not a log of ours, or undefined. */
function notOurs(st: fs.Stats): string | undefined {
  if (st.isSymbolicLink()) return "is a symbolic link";
  if (!st.isFile()) return "is not a regular file";
  if (st.size > MAX_LOG_BYTES) return `holds ${st.size} bytes, more than a log ever keeps (${MAX_LOG_BYTES})`;
  return ownedPrivately(st);
}

/**
 * One line per send (`s <id> <ms>`) and per answer (`a <id> <ms>`), appended under a lock file,
 * and rewritten with only what is still inside the window once it has grown. Each process reads
 * what the others appended before each decision. A send with no answer counts as in flight while
 * its writer lives, for one window at most (the service counts a request when it arrives, so after
 * a window it holds no place there either); when the writer is gone (a provider host stopped with
 * the request in flight) it counts as answered when that is noticed. No date is taken as later
 * than the moment it is read, so no line, even a planted one, holds a place longer than one
 * window. Holds no key or secret: the file is named by a hash of base URL and API key.
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
  private warnedFuture = false;

  constructor(
    readonly file: string,
    private readonly windowMs: number,
    private readonly limit: number,
    private readonly warn: (msg: string) => void = () => undefined,
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
        fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
        fs.closeSync(fs.openSync(lock, "wx", 0o600));
        held = true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") break;
        try {
          // A lock is held for microseconds; one older than a second was left by a killed process,
          // and one dated in the future was planted (it would never age).
          if (Math.abs(Date.now() - fs.lstatSync(lock).mtimeMs) > 1000) fs.unlinkSync(lock);
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

  /**
   * Moves the file out of the way (renaming a link renames the link, not its target) and starts
   * afresh: pacing goes on from this process's own requests until others log again.
   */
  private setAside(reason: string): void {
    const aside = `${this.file}.corrupt-${Date.now()}`;
    let where: string;
    try {
      fs.renameSync(this.file, aside);
      where = `set aside as ${aside}`;
    } catch (e) {
      where = `could not be set aside (${(e as NodeJS.ErrnoException).code ?? e}); it is not read`;
    }
    this.warn(`the shared rate-limit log ${this.file} ${reason}; ${where}. Pacing goes on from this process's own requests.`);
    this.ino = -1;
    this.offset = 0;
    this.othersOpen.clear();
    this.othersAnswers = [];
  }

  /** Reads what other processes appended since the last look (all of it after a rewrite), and settles their sends. */
  look(nowMs: number): void {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(this.file);
    } catch {
      return;
    }
    const bad = notOurs(st);
    if (bad) return this.setAside(bad);
    if (st.ino !== this.ino || st.size < this.offset) {
      this.ino = st.ino;
      this.offset = 0;
      this.othersOpen.clear();
      this.othersAnswers = [];
    }
    if (st.size > this.offset) {
      const buf = Buffer.alloc(st.size - this.offset);
      let n = 0;
      try {
        const fd = fs.openSync(this.file, READ_FLAGS);
        try {
          n = fs.readSync(fd, buf, 0, buf.length, this.offset);
        } finally {
          fs.closeSync(fd);
        }
      } catch (e) {
        return this.setAside(`cannot be read (${(e as NodeJS.ErrnoException).code ?? e})`);
      }
      const text = buf.subarray(0, n).toString("utf8");
      const end = text.lastIndexOf("\n") + 1;
      const lines = text.slice(0, end).split("\n");
      lines.pop();
      const wrong = lines.findIndex((l) => !LINE.test(l));
      if (wrong >= 0) return this.setAside(`holds a line that is not a send or an answer of this module (${JSON.stringify(lines[wrong].slice(0, 40))})`);
      this.offset += Buffer.byteLength(text.slice(0, end));
      let future = 0;
      for (const line of lines) if (!this.read(line, nowMs)) future++;
      if (future && !this.warnedFuture) {
        this.warnedFuture = true;
        this.warn(`the shared rate-limit log ${this.file} holds ${future} line(s) dated more than ${FUTURE_SKEW_MS} ms in the future; they are ignored`);
      }
    }
    for (const [id, t] of this.othersOpen) {
      if (t + this.windowMs <= nowMs) this.othersOpen.delete(id); // out of the service's window too
      else if (!isAlive(pidOfTag(id))) {
        this.othersOpen.delete(id);
        this.addAnswer(id, nowMs);
      }
    }
    const cut = nowMs - this.windowMs;
    if (this.othersAnswers.length && this.othersAnswers[0].t <= cut) this.othersAnswers = this.othersAnswers.filter((a) => a.t > cut);
  }

  /** Takes one well-formed line; false when it is dated in the future (not believed). Within the skew it is dated now. */
  private read(line: string, nowMs: number): boolean {
    const [kind, id, ms] = line.split(" ");
    if (Number(ms) > nowMs + FUTURE_SKEW_MS) return false;
    const t = Math.min(Number(ms), nowMs);
    if (id.startsWith(`${this.tag}.`)) return true;
    if (kind === "s") this.othersOpen.set(id, t);
    else {
      this.othersOpen.delete(id);
      this.addAnswer(id, t);
    }
    return true;
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

  /** Appends under the lock (open, write, close: a rewrite by another process may replace the file); never through a link. */
  private append(line: string): void {
    try {
      let before: fs.Stats | undefined;
      try {
        before = fs.lstatSync(this.file);
      } catch {
        fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      }
      const bad = before && notOurs(before);
      if (bad) {
        this.setAside(bad);
        before = undefined;
      }
      const fd = fs.openSync(this.file, APPEND_FLAGS, 0o600);
      try {
        fs.writeSync(fd, line);
      } finally {
        fs.closeSync(fd);
      }
      // Our own line needs no reading back: skip it when we were up to date with that file.
      if (before && before.ino === this.ino && before.size === this.offset) this.offset += Buffer.byteLength(line);
      this.lines++;
    } catch {
      // Pacing in memory still holds for this process; only others would count less.
    }
  }

  /** Rewrites the log with what is still inside the window (atomic rename of a fresh file), so it stays small. */
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
      try {
        fs.unlinkSync(tmp);
      } catch {
        // none left over
      }
      const fd = fs.openSync(tmp, "wx", 0o600);
      try {
        fs.writeFileSync(fd, body);
      } finally {
        fs.closeSync(fd);
      }
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
