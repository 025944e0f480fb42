/**
 * Pacing: the send window on a virtual clock, its log across a restart, and the real client against
 * the sandbox (which counts per sliding window) at the real default of 60 a minute on a virtual clock.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ManualClock } from "../../api/clock";
import { ResellerClient } from "../../api/client";
import { credentialId, defaultLogFile, resetWindows, SendWindow, windowFor } from "../../api/rate-limiter";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { atMs, maxInWindow } from "../support/request-log";

const MIN = 60_000;

/** Takes a place and answers at once; returns when the place was granted. */
async function send(w: SendWindow, clock: ManualClock, answerAfterMs = 0): Promise<number> {
  const release = await w.acquire();
  const at = clock.now();
  if (answerAfterMs) setImmediate(() => {
    clock.advance(answerAfterMs);
    release();
  });
  else release();
  return at;
}

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rate-"));
  resetWindows();
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("SendWindow (virtual clock)", () => {
  it("from a cold start lets the whole limit go at once, then each place frees a window after its answer", async () => {
    const clock = new ManualClock({ start: 0, autoAdvance: true });
    const w = new SendWindow({ limit: 60, windowMs: MIN, maxInFlight: 1000, clock });
    const times: number[] = [];
    for (let i = 0; i < 130; i++) times.push(await send(w, clock));
    expect(times.slice(0, 60).every((t) => t === 0)).toBe(true);
    expect(times.slice(60, 120).every((t) => t === MIN)).toBe(true);
    expect(times.slice(120)).toEqual(Array(10).fill(2 * MIN));
    expect(maxInWindow(times, MIN)).toBe(60);
  });

  it("dates a request by its answer, so a slow answer keeps its place longer", async () => {
    const clock = new ManualClock({ start: 0, autoAdvance: true });
    const w = new SendWindow({ limit: 2, windowMs: MIN, maxInFlight: 10, clock });
    await send(w, clock, 5000); // answered at 5 s
    await new Promise((r) => setImmediate(r));
    await send(w, clock);
    expect(await send(w, clock)).toBe(MIN + 5000);
  });

  it("holds at most maxInFlight requests in flight", async () => {
    const clock = new ManualClock({ start: 0, autoAdvance: true });
    const w = new SendWindow({ limit: 100, windowMs: MIN, maxInFlight: 2, clock });
    const a = await w.acquire();
    await w.acquire();
    let third = false;
    const p = w.acquire().then((r) => {
      third = true;
      return r;
    });
    await new Promise((r) => setImmediate(r));
    expect(third).toBe(false);
    expect(w.inFlight).toBe(2);
    a();
    (await p)();
    expect(third).toBe(true);
  });

  it("a pause (429) holds every request until it ends", async () => {
    const clock = new ManualClock({ start: 0, autoAdvance: true });
    const w = new SendWindow({ limit: 60, windowMs: MIN, maxInFlight: 10, clock });
    await send(w, clock);
    w.pause(0, 30_000);
    const waits: [number, boolean][] = [];
    const release = await w.acquire((ms, paused) => waits.push([ms, paused]));
    release();
    expect(clock.now()).toBe(30_000);
    expect(waits).toEqual([[30_000, true]]);
  });

  it("a clock stepped back (NTP, a resumed VM) does not make the next request wait out the step", async () => {
    let t = 1_200_000;
    const sleeps: number[] = [];
    const sleep = async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    };
    const w = new SendWindow({ limit: 2, windowMs: MIN, maxInFlight: 10, clock: { now: () => t, sleep } });
    (await w.acquire())();
    (await w.acquire())();
    t = 0; // twenty minutes earlier by the clock
    (await w.acquire())();
    // One window's wait, not twenty minutes and a window.
    expect(sleeps).toEqual([MIN]);
  });

  it("refuses a nonsensical configuration", () => {
    const clock = new ManualClock({ start: 0, autoAdvance: true });
    expect(() => new SendWindow({ limit: 0, windowMs: MIN, maxInFlight: 1, clock })).toThrow(RangeError);
    expect(() => new SendWindow({ limit: 1, windowMs: MIN, maxInFlight: 0, clock })).toThrow(RangeError);
  });
});

describe("the log across a restart of the process", () => {
  it("a window started later reads what the earlier one sent, requests in flight included", async () => {
    const clock = new ManualClock({ start: 1_000_000, autoAdvance: true });
    const file = path.join(tmp, "w.log");
    const a = new SendWindow({ limit: 60, windowMs: MIN, maxInFlight: 100, clock, logFile: file });
    for (let i = 0; i < 45; i++) await send(a, clock);
    await a.acquire(); // in flight when its process stops: never answered
    await a.acquire();
    clock.advance(10_000);
    // A new process (the next provider host of the same command) on the same log.
    const b = new SendWindow({ limit: 60, windowMs: MIN, maxInFlight: 100, clock, logFile: file });
    expect(b.used(clock.now())).toBe(47);
    const times: number[] = [];
    for (let i = 0; i < 20; i++) times.push(await send(b, clock));
    expect(times.slice(0, 13).every((t) => t === 1_010_000)).toBe(true);
    // The 14th waits for the first answers of the earlier process to leave the window.
    expect(times[13]).toBe(1_000_000 + MIN);
    expect(times.slice(13)).toEqual(Array(7).fill(1_000_000 + MIN));
  });

  it("the log is named by a hash and holds no key; it stays small", async () => {
    const file = defaultLogFile("http://127.0.0.1:9", "key-SECRET-ish", tmp);
    expect(path.basename(file)).toContain(credentialId("http://127.0.0.1:9", "key-SECRET-ish").slice(0, 32));
    expect(file).not.toContain("key-SECRET-ish");
    const clock = new ManualClock({ start: 0, autoAdvance: true });
    const w = windowFor("http://127.0.0.1:9", "key-SECRET-ish", { limit: 10, windowMs: 1000, maxInFlight: 10, clock, logDir: tmp });
    for (let i = 0; i < 1000; i++) await send(w, clock);
    const text = fs.readFileSync(file, "utf8");
    expect(text).not.toContain("key-SECRET-ish");
    expect(text.split("\n").length).toBeLessThan(600);
  });

  it("with more requests inside the window than a rewrite keeps (a lifted limit), rewrites stay few", async () => {
    // 12,000 requests in one minute at a limit of a million: every answer stays inside the window.
    const clock = new ManualClock({ start: 0 });
    const file = path.join(tmp, "lifted.log");
    const w = new SendWindow({ limit: 1_000_000, windowMs: MIN, maxInFlight: 100, clock, logFile: file });
    let rewrites = 0;
    let ino = -1;
    for (let i = 0; i < 12_000; i++) {
      await send(w, clock);
      // Each rewrite renames a new file into place (inode numbers may be reused, never at once).
      const now = fs.statSync(file).ino;
      if (ino !== -1 && now !== ino) rewrites++;
      ino = now;
    }
    // A threshold fixed below what a rewrite keeps (8,448 lines) rewrote the whole log after each
    // of the last 3,000 or so answers.
    expect(rewrites).toBeLessThan(8);
    expect(w.used(clock.now())).toBe(12_000);
  });
});

describe("the client against the sandbox at the real default (60 a minute), on a virtual clock", () => {
  let sb: SandboxHandle;
  afterEach(async () => sb?.close());

  const client = (clock: ManualClock, logDir: string | null) =>
    new ResellerClient({ baseUrl: sb.url, apiKey: sb.credentials.key, apiSecret: sb.credentials.secret, now: clock.now, sleep: clock.sleep, rateLimitLogDir: logDir });

  it("300 requests from 16 workers: no 429, never more than 60 in a window, within 2 % of the physical minimum", async () => {
    const clock = new ManualClock({ start: Date.parse("2026-01-01T00:00:00Z"), autoAdvance: true });
    sb = await startSandbox({ port: 0, now: clock.now, processingDelaySeconds: 0 });
    const c = client(clock, null);
    let statuses429 = 0;
    const started = clock.now();
    let next = 0;
    const worker = async () => {
      while (next < 300) {
        next++;
        await c.getDomain("demo-reseller.com");
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const elapsed = clock.now() - started;
    await c.close();
    const log = sb.operator.requests();
    statuses429 = log.filter((e) => e.status === 429).length;
    expect(log).toHaveLength(300);
    expect(statuses429).toBe(0);
    expect(maxInWindow(log.map(atMs), MIN)).toBe(60);
    // The sandbox admits 60 per sliding minute: the 300th can go no sooner than 4 minutes after the first.
    const physicalMinimum = 4 * MIN;
    expect(elapsed).toBeGreaterThanOrEqual(physicalMinimum);
    expect(elapsed).toBeLessThanOrEqual(physicalMinimum * 1.02);
  });

  it("a second client process of the same command (new window, same log) draws no 429", async () => {
    const clock = new ManualClock({ start: Date.parse("2026-01-01T00:00:00Z"), autoAdvance: true });
    sb = await startSandbox({ port: 0, now: clock.now, processingDelaySeconds: 0 });
    const first = client(clock, tmp);
    await Promise.all(Array.from({ length: 45 }, () => first.getDomain("demo-reseller.com")));
    await first.close();
    clock.advance(5000);
    resetWindows(); // what a new provider host starts with
    const second = client(clock, tmp);
    await Promise.all(Array.from({ length: 45 }, () => second.getDomain("demo-reseller.com")));
    await second.close();
    const log = sb.operator.requests();
    expect(log.filter((e) => e.status === 429)).toHaveLength(0);
    expect(maxInWindow(log.map(atMs), MIN)).toBe(60);
    expect(log).toHaveLength(90);
  });

  it("without the log (memory only) the second process would draw 429s: the log is what prevents them", async () => {
    const clock = new ManualClock({ start: Date.parse("2026-01-01T00:00:00Z"), autoAdvance: true });
    sb = await startSandbox({ port: 0, now: clock.now, processingDelaySeconds: 0 });
    const first = client(clock, null);
    await Promise.all(Array.from({ length: 45 }, () => first.getDomain("demo-reseller.com")));
    await first.close();
    resetWindows();
    const second = client(clock, null);
    await Promise.all(Array.from({ length: 45 }, () => second.getDomain("demo-reseller.com")));
    await second.close();
    expect(sb.operator.requests().filter((e) => e.status === 429).length).toBeGreaterThan(0);
  });
});
