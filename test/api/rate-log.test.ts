/**
 * The shared rate-limit log between processes (api/rate-log.ts), through two SendWindows on one
 * log file (what two provider hosts on one credential are) on a virtual clock:
 * - another process's request counts from its send until one window after its answer, however long
 *   it is in flight (the service counts it when it arrives, somewhere between the two);
 * - the log's lock fails closed: held by a live process, a decision waits a bounded time and then
 *   fails every waiting request, naming the folder; a lock that cannot be made fails at once; nothing
 *   is ever decided without it. A lock left by a dead process is taken over at once.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ManualClock } from "../../api/clock";
import { SendWindow } from "../../api/rate-limiter";
import { MAX_OPEN_SEND_MS, RateLimitLogLockError } from "../../api/rate-log";

const MIN = 60_000;
const START = 1_000_000;
/** One turn of the event loop: the answers of a turn are logged together at its end (api/rate-log.ts `answered`). */
const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rate-log-"));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A window on the log `file`, as a provider host of its own builds it. */
const windowOn = (file: string, clock: ManualClock, limit = 1, lockWaitMs?: number) => new SendWindow({ limit, windowMs: MIN, maxInFlight: 10, clock, logFile: file, lockWaitMs });

/** A tag as another process writes it in the log and its lock: base-36 pid and a random part. */
const tagOf = (pid: number): string => `${pid.toString(36)}-0badc0de`;

/** The pid of a process that has exited (its pid is not reused in the moment this test runs). */
const deadPid = (): number => Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);

describe("another process's request counts until its answer arrives", () => {
  it("in flight for 90 s, it holds its place past one window from its send, and for one window after its answer", async () => {
    const clock = new ManualClock({ start: START, autoAdvance: true });
    const file = path.join(tmp, "rate.log");
    const slow = windowOn(file, clock);
    const other = windowOn(file, clock);
    const answer = await slow.acquire(); // sent at START; the service may see it at any moment until its answer
    void clock.sleep(90_000).then(answer);
    await other.acquire();
    // Counted for one window after its send only, the other process sent at START + 60 s while the
    // slow request was still on its way: the service, seeing both within a minute, answers 429.
    expect(clock.now()).toBe(START + 90_000 + MIN);
  });

  it("a send of a live writer never answered (a planted line) is taken as answered MAX_OPEN_SEND_MS after it", async () => {
    const clock = new ManualClock({ start: START, autoAdvance: true });
    const file = path.join(tmp, "rate.log");
    fs.writeFileSync(file, `s ${tagOf(process.ppid)}.0 ${START}\n`, { mode: 0o600 });
    await windowOn(file, clock).acquire();
    expect(clock.now()).toBe(START + MAX_OPEN_SEND_MS + MIN);
  });

  it("a send of a writer that has stopped is taken as answered when that is seen", async () => {
    const clock = new ManualClock({ start: START, autoAdvance: true });
    const file = path.join(tmp, "rate.log");
    fs.writeFileSync(file, `s ${tagOf(deadPid())}.0 ${START}\n`, { mode: 0o600 });
    clock.advance(5000);
    await windowOn(file, clock).acquire();
    expect(clock.now()).toBe(START + 5000 + MIN);
  });
});

describe("the log's lock fails closed", () => {
  it("held by a live process: after the bounded wait, every waiting request fails naming the lock and its folder; nothing is decided", async () => {
    const clock = new ManualClock({ start: START, autoAdvance: true });
    const file = path.join(tmp, "rate.log");
    const lock = `${file}.lock`;
    // The parent of this test's process lives as long as the test does.
    fs.writeFileSync(lock, `${tagOf(process.ppid)}\n`, { mode: 0o600 });
    const w = windowOn(file, clock, 60, 300);
    const results = await Promise.allSettled([w.acquire(), w.acquire()]);
    for (const r of results) {
      expect(r.status).toBe("rejected");
      const e = (r as PromiseRejectedResult).reason as RateLimitLogLockError;
      expect(e).toBeInstanceOf(RateLimitLogLockError);
      expect(e.message).toContain(`the shared rate-limit log's lock rate.log.lock in the folder ${tmp} could not be taken within 300 ms: process ${process.ppid} holds it and is running`);
      expect(e.message).toContain("the request was not sent");
      expect(e.lockFile).toBe(lock);
    }
    // Without the lock nothing was taken, written or removed: the holder's lock is still its own.
    expect(w.sentCount).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.readFileSync(lock, "utf8")).toBe(`${tagOf(process.ppid)}\n`);
    // Once the holder lets go, the same window decides again.
    fs.unlinkSync(lock);
    (await w.acquire())();
    expect(w.sentCount).toBe(1);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it("a lock that cannot be made (the folder cannot hold files) fails at once, naming the folder", async () => {
    const clock = new ManualClock({ start: START, autoAdvance: true });
    // A file where the folder should be: nothing can be created in it, whoever runs the test (root too).
    const notAFolder = path.join(tmp, "not-a-folder");
    fs.writeFileSync(notAFolder, "");
    const w = windowOn(path.join(notAFolder, "rate.log"), clock, 60, 60_000);
    // At once: a wait of the 60-second bound would outlast the test's own timeout (5 s).
    const e = await w.acquire().then(
      () => undefined,
      (err: unknown) => err as RateLimitLogLockError,
    );
    expect(e).toBeInstanceOf(RateLimitLogLockError);
    expect(e!.message).toMatch(/^the shared rate-limit log's lock rate\.log\.lock in the folder (.*) cannot be created \((EEXIST|ENOTDIR)\); the request was not sent/);
    expect(e!.message).toContain(`in the folder ${notAFolder} `);
    expect(w.sentCount).toBe(0);
  });

  it("a lock left by a process that has stopped is taken over at once, and released", async () => {
    const clock = new ManualClock({ start: START, autoAdvance: true });
    const file = path.join(tmp, "rate.log");
    const lock = `${file}.lock`;
    fs.writeFileSync(lock, `${tagOf(deadPid())}\n`, { mode: 0o600 });
    const w = windowOn(file, clock, 60, 60_000);
    (await w.acquire())();
    expect(w.sentCount).toBe(1);
    await nextTurn(); // an answer is logged with the others of its turn of the event loop
    expect(fs.readFileSync(file, "utf8")).toMatch(/^s \S+ \d+\na \S+ \d+\n$/);
    expect(fs.readdirSync(tmp).sort()).toEqual(["rate.log"]);
  });
});
