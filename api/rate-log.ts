/**
 * A credential's request log on disk (the shared part of api/rate-limiter.ts's window), read
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
 * How long a decision waits for the log's lock before it fails (RateLimitLogLockError). A holder
 * keeps it for the microseconds of one read and one append; ten seconds covers a holder descheduled
 * on a loaded machine many times over. Waiting longer, or going on without the lock, is not done:
 * two processes deciding at once both take the last place, and the service answers 429.
 */
export const LOCK_WAIT_MS = 10_000;

/**
 * How long a send with no answer, of a writer still alive, holds its place at most before it is
 * taken as answered then. An honest send is answered (or given up) within its attempt's deadline
 * (reseller:timeoutSeconds, 30 s by default); this bound is for a line planted or left by a process
 * whose pid was reused, which would otherwise hold a place for as long as that process lives.
 */
export const MAX_OPEN_SEND_MS = 10 * 60_000;

/**
 * How old a lock may be before it is taken as abandoned, whoever its pid names. A holder keeps it for
 * the microseconds of one read and one append, so a lock this old was left: by a process killed while
 * holding it whose pid another process has since taken (a pid is no proof of life), or restored from
 * a cache with the rest of the folder. Below LOCK_WAIT_MS, so a decision waiting for it takes it over
 * rather than failing. Taking over a lock a live holder still held (descheduled for seconds) costs at
 * most one request over the limit, which the service answers 429 and the client retries.
 */
export const LOCK_STALE_MS = 5_000;

/** The lock file's content: the holder's tag, so a lock left by a process that died is recognised. */
const LOCK_CONTENT = /^([0-9a-z]{1,14}-[0-9a-f]{8})\n$/;

/**
 * The log's lock could not be taken within the bound: nothing was sent (the request would have been
 * paced without knowing what the other processes on the credential send). Names the lock file and
 * its folder, and the process holding it.
 */
export class RateLimitLogLockError extends Error {
  override readonly name = "RateLimitLogLockError";
  constructor(
    readonly lockFile: string,
    readonly reason: string,
  ) {
    super(
      `the shared rate-limit log's lock ${path.basename(lockFile)} in the folder ${path.dirname(lockFile)} ${reason}; the request was not sent, so nothing reached the service. ` +
        "The folder is shared by every process of this user on the credential (reseller:rateLimitDir): if none of them is running, remove that lock file; if the folder is not writable, make it so (mode 0700) or choose another folder that all of them use.",
    );
  }
}

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
 * what the others appended before each decision, under the lock (which fails closed:
 * RateLimitLogLockError after LOCK_WAIT_MS, never a decision without it).
 *
 * Another process's request holds a place from its send until one window after its answer, as this
 * process's own do (rate-limiter.ts): the service counts a request when it arrives, which is some
 * time between the send and the answer, so only the answer bounds it. A send with no answer counts
 * as in flight while its writer lives, however long (a slow request sent more than a window ago may
 * arrive at the service now); when the writer is gone (a provider host stopped with the request in
 * flight) it counts as answered when that is noticed; after MAX_OPEN_SEND_MS it counts as answered
 * then (a planted line, a reused pid). No date is taken as later than the moment it is read. Holds
 * no key or secret: the file is named by a hash of base URL and API key.
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
    /** The bound of a wait for the lock. */
    private readonly lockWaitMs: number = LOCK_WAIT_MS,
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

  /** Whether this object holds the lock now (a decision inside another runs under the same). */
  private holding = false;

  /**
   * Runs `fn` holding the log's lock, waiting for it synchronously (the lock is held for
   * microseconds); throws RateLimitLogLockError, without running `fn`, when it cannot be taken within
   * `lockWaitMs`.
   */
  locked<T>(fn: () => T): T {
    if (this.holding) return fn();
    const deadline = Date.now() + this.lockWaitMs;
    while (!this.takeLock(deadline)) sleepSync(1);
    return this.runHolding(fn);
  }

  /** As locked(), but waits without blocking the event loop (answers of this process's requests go on meanwhile). */
  async lockedAsync<T>(fn: () => T): Promise<T> {
    if (this.holding) return fn();
    const deadline = Date.now() + this.lockWaitMs;
    // The first tries a millisecond apart (a holder keeps it for microseconds), then off the event loop.
    for (let i = 0; !this.takeLock(deadline); i++) {
      if (i < 20) sleepSync(1);
      else await new Promise((r) => setTimeout(r, 2));
    }
    return this.runHolding(fn);
  }

  /** One try at the lock: true when taken, false to try again, or RateLimitLogLockError once waiting cannot help or `deadline` has passed. */
  private takeLock(deadline: number): boolean {
    const refused = this.tryLock();
    if (refused === undefined) return true;
    if (refused.final) throw new RateLimitLogLockError(`${this.file}.lock`, refused.why);
    if (Date.now() >= deadline) throw new RateLimitLogLockError(`${this.file}.lock`, `could not be taken within ${this.lockWaitMs} ms: ${refused.why}`);
    return false;
  }

  private runHolding<T>(fn: () => T): T {
    const lock = `${this.file}.lock`;
    this.holding = true;
    try {
      this.writeAnswers();
      return fn();
    } finally {
      this.holding = false;
      try {
        // Only our own lock is removed: one taken from us as stale (it cannot be while we live) stays its holder's.
        if (fs.readFileSync(lock, "utf8") === `${this.tag}\n`) fs.unlinkSync(lock);
      } catch {
        // gone already
      }
    }
  }

  /**
   * One try at the lock: created whole (a temporary file holding our tag, linked to the lock's name,
   * which fails when it exists). A lock whose holder is dead, older than LOCK_STALE_MS or dated in the
   * future (whatever its pid), or that holds no tag of this module (a planted or broken file), is stale
   * and removed; one held by a live process within that age is waited for. Returns
   * undefined when taken, else why not (`final` when waiting cannot help: the folder is not writable).
   */
  private tryLock(): { why: string; final: boolean } | undefined {
    const lock = `${this.file}.lock`;
    const tmp = `${lock}.${process.pid}.tmp`;
    // The common case first: the folder is there and no temporary file was left (a failed call
    // throws, which costs more than the write: one per request made this the log's main cost).
    if (!this.writeTmp(tmp))
      try {
        fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
        try {
          fs.unlinkSync(tmp);
        } catch {
          // none left over
        }
        fs.writeFileSync(tmp, `${this.tag}\n`, { mode: 0o600, flag: "wx" });
      } catch (e) {
        return { why: `cannot be created (${(e as NodeJS.ErrnoException).code ?? e})`, final: true };
      }
    try {
      fs.linkSync(tmp, lock);
      return undefined;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") return { why: `cannot be created (${code ?? e})`, final: true };
    } finally {
      try {
        fs.unlinkSync(tmp);
      } catch {
        // gone
      }
    }
    let content: string;
    let ageMs: number;
    try {
      const st = fs.lstatSync(lock);
      content = st.isFile() && st.size < 64 ? fs.readFileSync(lock, "utf8") : "";
      ageMs = Date.now() - st.mtimeMs;
    } catch {
      return { why: "was just released", final: false };
    }
    const holder = LOCK_CONTENT.exec(content)?.[1];
    const pid = holder === undefined ? NaN : pidOfTag(holder);
    // Within this process no other object is inside its lock while this code runs (one thread).
    const alive = holder !== undefined && pid !== process.pid && isAlive(pid);
    // A live pid is believed only for a lock of the age a holder keeps it; dated in the future, never.
    const abandoned = ageMs > LOCK_STALE_MS || ageMs < -FUTURE_SKEW_MS;
    if (alive && !abandoned) return { why: `process ${pid} holds it and is running`, final: false };
    this.removeStale(lock, content);
    if (alive) this.warn(`the shared rate-limit log's lock ${lock} named process ${pid}, which is running, but was ${ageMs < 0 ? "dated in the future" : `${Math.round(ageMs / 1000)} s old`}, and a holder keeps it for microseconds: it was left by a process that stopped (its pid since reused) and is taken over`);
    return { why: holder === undefined ? "it held no lock of this module" : alive ? `its holder (process ${pid}) left it ${Math.round(ageMs / 1000)} s ago` : `its holder (process ${pid}) had stopped`, final: false };
  }

  /** The lock's temporary file, made new (never through a file or link found there); false when that failed, for any reason. */
  private writeTmp(tmp: string): boolean {
    try {
      fs.writeFileSync(tmp, `${this.tag}\n`, { mode: 0o600, flag: "wx" });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Removes a stale lock: moved aside first (only one remover's move succeeds), then checked to be
   * the stale one; a lock taken meanwhile by a live process and moved by mistake is put back.
   */
  private removeStale(lock: string, staleContent: string): void {
    const aside = `${lock}.${process.pid}.stale`;
    try {
      fs.renameSync(lock, aside);
    } catch {
      return; // removed by another process
    }
    try {
      if (fs.readFileSync(aside, "utf8") !== staleContent) fs.linkSync(aside, lock);
    } catch {
      // Put back failed: a third process took the lock meanwhile; the holder we moved keeps going.
    }
    try {
      fs.unlinkSync(aside);
    } catch {
      // gone
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
      // In flight until its answer, however long: the service counts it when it arrives, which may be now.
      if (t + MAX_OPEN_SEND_MS <= nowMs) {
        this.othersOpen.delete(id);
        this.addAnswer(id, t + MAX_OPEN_SEND_MS);
      } else if (!isAlive(pidOfTag(id))) {
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

  /** Answers not yet written, with this process's answers inside the window as of the last. */
  private unwritten: { lines: string; count: number; last: number; ownDone: number[] } | undefined;

  /**
   * An answer of this process's, written under the lock with the others that arrive in the same
   * turn of the event loop: at the next decision (which holds the lock already) or, failing one,
   * at the next turn. Until it is written the others count the send as in flight, which holds its
   * place at least as long as the answer would: later, never sooner. A lock that cannot be taken
   * for it goes to `failed` (the send stays in flight for the others while this process lives).
   */
  answered(id: string, ms: number, ownDone: number[], failed: (e: unknown) => void): void {
    this.ownOpen.delete(id);
    const line = `a ${id} ${ms}\n`;
    if (this.unwritten) {
      this.unwritten.lines += line;
      this.unwritten.count++;
      this.unwritten.last = Math.max(this.unwritten.last, ms);
      this.unwritten.ownDone = ownDone;
      return;
    }
    this.unwritten = { lines: line, count: 1, last: ms, ownDone };
    setImmediate(() => {
      if (!this.unwritten) return;
      try {
        this.locked(() => undefined);
      } catch (e) {
        failed(e);
      }
    });
  }

  /** Writes the answers held back (answered()); under the lock. */
  private writeAnswers(): void {
    const u = this.unwritten;
    if (!u) return;
    this.unwritten = undefined;
    this.append(u.lines, u.count);
    if (this.lines > this.compactAt) this.compact(u.last, u.ownDone);
  }

  /** Appends under the lock (open, write, close: a rewrite by another process may replace the file); never through a link. */
  private append(line: string, count = 1): void {
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
      this.lines += count;
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
