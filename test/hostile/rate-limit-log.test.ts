/**
 * The shared rate-limit log, attacked: lines planted in the future or inside the skew, sends of a
 * live process that never end, a lock planted, held by a live process or left under a pid since reused, a log that is a link, a corrupt or oversized log, and a log folder
 * that is a link, open to others or someone else's. Each through the real client against the
 * sandbox on a virtual clock, with a paid call (register) as the request: it goes within one
 * window (or MAX_OPEN_SEND_MS and a window), is charged once, and every refusal says so in a
 * warning; a lock it cannot take fails it, sending nothing.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ManualClock } from "../../api/clock";
import { ResellerClient } from "../../api/client";
import { defaultLogFile, resetWindows } from "../../api/rate-limiter";
import { FUTURE_SKEW_MS, LOCK_STALE_MS, LOCK_WAIT_MS, MAX_LOG_BYTES, MAX_OPEN_SEND_MS } from "../../api/rate-log";
import { defaultLogDir, LOG_MAX_AGE_MS, ownedPrivately, prepareLogFolder } from "../../api/rate-log-folder";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { atMs } from "../support/request-log";
import { CONTACT } from "../sandbox/signed-fetch";

const WINDOW_MS = 60_000;
const START = Date.parse("2026-03-01T00:00:00Z");
/** One turn of the event loop: the answers of a turn are logged together at its end (api/rate-log.ts `answered`). */
const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

let tmp: string;
let sb: SandboxHandle;
let clock: ManualClock;
let warnings: string[];
const clients: ResellerClient[] = [];

beforeEach(async () => {
  resetWindows();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "hostile-rate-"));
  clock = new ManualClock({ start: START, autoAdvance: true });
  sb = await startSandbox({ port: 0, now: clock.now, processingDelaySeconds: 0 });
  warnings = [];
});

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await sb.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A client on the virtual clock whose log folder is `logDir` (undefined: the default). */
function client(logDir?: string): ResellerClient {
  const c = new ResellerClient({
    baseUrl: sb.url,
    apiKey: sb.credentials.key,
    apiSecret: sb.credentials.secret,
    now: clock.now,
    sleep: clock.sleep,
    logger: { warn: (m) => warnings.push(m) },
    ...(logDir === undefined ? {} : { rateLimitLogDir: logDir }),
  });
  clients.push(c);
  return c;
}

/** A paid call; returns when the service saw it (virtual ms after START) and what it charged for the domain. */
async function register(c: ResellerClient, domain: string): Promise<{ sentAfterMs: number; charges: number }> {
  const order = await c.register({ domain, years: 1, contacts: { registrant: CONTACT } }, { idempotencyKey: `hostile-${domain}` });
  expect(order.domain).toBe(domain);
  const seen = sb.operator.requests().filter((r) => r.path.endsWith("/domains/register"));
  expect(seen).toHaveLength(1);
  return { sentAfterMs: atMs(seen[0]) - START, charges: sb.operator.ledger().filter((e) => e.domain === domain).length };
}

/** A folder of the user's alone, and the credential's log file in it. */
function logFolder(): { dir: string; file: string } {
  const dir = path.join(tmp, "logs");
  fs.mkdirSync(dir, { mode: 0o700 });
  return { dir, file: defaultLogFile(sb.url, sb.credentials.key, dir) };
}

const lines = (n: number, kind: "s" | "a", tag: string, ms: number): string => Array.from({ length: n }, (_, i) => `${kind} ${tag}.${i} ${ms}\n`).join("");
/** A tag as another process writes it; base 36 pid. */
const tagOf = (pid: number): string => `${pid.toString(36)}-0badc0de`;

test("60 answers planted 11 minutes in the future are ignored, with a warning: the paid call goes at once, charged once", async () => {
  const { dir, file } = logFolder();
  fs.writeFileSync(file, lines(60, "a", tagOf(999_999), START + 11 * 60_000), { mode: 0o600 });
  expect(await register(client(dir), "planted-future.com")).toEqual({ sentAfterMs: 0, charges: 1 });
  expect(warnings).toEqual([expect.stringMatching(new RegExp(`holds 60 line\\(s\\) dated more than ${FUTURE_SKEW_MS} ms in the future; they are ignored`))]);
});

test("lines inside the skew are dated now; never-ending sends of a live process hold a request for MAX_OPEN_SEND_MS and one window, no longer", async () => {
  const { dir, file } = logFolder();
  // Believed (within the skew, a live writer: this very process under another tag). The answers,
  // dated now, fill the window for one minute; the sends stay in flight (a request counts until its
  // answer arrives, however long) until MAX_OPEN_SEND_MS, then count as answered then.
  fs.writeFileSync(file, lines(60, "a", tagOf(process.pid), START + FUTURE_SKEW_MS / 2) + lines(60, "s", tagOf(process.pid), START), { mode: 0o600 });
  expect(await register(client(dir), "planted-skew.com")).toEqual({ sentAfterMs: MAX_OPEN_SEND_MS + WINDOW_MS, charges: 1 });
  expect(warnings).toEqual([]);
});

test("a lock a live process keeps taking afresh fails the call after LOCK_WAIT_MS, naming the folder: nothing is sent, nothing charged", async () => {
  const { dir, file } = logFolder();
  const lock = `${file}.lock`;
  // A live process that holds the lock again and again (each lock new, so never of an abandoned age; each whole, by a rename).
  const holder = spawn(process.execPath, ["-e", `const fs=require("fs");const t=process.pid.toString(36)+"-0badc0de\\n";const take=()=>{fs.writeFileSync(${JSON.stringify(lock + ".held")},t,{mode:0o600});fs.renameSync(${JSON.stringify(lock + ".held")},${JSON.stringify(lock)});};take();setInterval(take,100);`], { stdio: "ignore" });
  try {
    while (!fs.existsSync(lock)) await new Promise((r) => setTimeout(r, 20));
    const c = client(dir);
    await expect(c.register({ domain: "planted-live-lock.com", years: 1, contacts: { registrant: CONTACT } }, { idempotencyKey: "hostile-live-lock" })).rejects.toThrow(
      `the shared rate-limit log's lock ${path.basename(lock)} in the folder ${dir} could not be taken within ${LOCK_WAIT_MS} ms: process ${holder.pid} holds it and is running; the request was not sent`,
    );
    expect(sb.operator.requests()).toEqual([]);
    expect(sb.operator.ledger().filter((e) => e.domain === "planted-live-lock.com")).toEqual([]);
  } finally {
    holder.kill("SIGKILL");
  }
}, 30_000);

test("a lock left by a stopped process whose pid a live process took since (dated LOCK_STALE_MS ago and more) is taken over: the call goes at once, with a warning", async () => {
  const { dir, file } = logFolder();
  const lock = `${file}.lock`;
  // The parent of this test's process lives as long as the test does: the pid is alive, the lock is not.
  fs.writeFileSync(lock, `${tagOf(process.ppid)}\n`, { mode: 0o600 });
  const before = new Date(Date.now() - LOCK_STALE_MS - 1000);
  fs.utimesSync(lock, before, before);
  // Judged by its pid alone, it blocked every request of the credential (after LOCK_WAIT_MS each) until removed by hand.
  expect(await register(client(dir), "reused-pid-lock.com")).toEqual({ sentAfterMs: 0, charges: 1 });
  expect(fs.existsSync(lock)).toBe(false);
  expect(warnings).toEqual([expect.stringMatching(new RegExp(`lock .*\\.lock named process ${process.ppid}, which is running, but was \\d+ s old, and a holder keeps it for microseconds: it was left by a process that stopped \\(its pid since reused\\) and is taken over$`))]);
});

test("a lock of a live process dated in the future is never believed: taken over at once", async () => {
  const { dir, file } = logFolder();
  const lock = `${file}.lock`;
  fs.writeFileSync(lock, `${tagOf(process.ppid)}\n`, { mode: 0o600 });
  const inAnHour = new Date(Date.now() + 3_600_000);
  fs.utimesSync(lock, inAnHour, inAnHour);
  expect(await register(client(dir), "future-live-lock.com")).toEqual({ sentAfterMs: 0, charges: 1 });
  expect(warnings).toEqual([expect.stringMatching(/was dated in the future, and a holder keeps it for microseconds/)]);
});

test("a lock file planted with no holder in it (empty, dated in the future) is taken as stale: the call goes at once", async () => {
  const { dir, file } = logFolder();
  const lock = `${file}.lock`;
  fs.writeFileSync(lock, "", { mode: 0o600 });
  const inAnHour = new Date(Date.now() + 3_600_000);
  fs.utimesSync(lock, inAnHour, inAnHour);
  expect(await register(client(dir), "planted-lock.com")).toEqual({ sentAfterMs: 0, charges: 1 });
  // Believed, it was never released: every decision would wait out LOCK_WAIT_MS and fail.
  await nextTurn(); // an answer is logged with the others of its turn of the event loop
  expect(fs.existsSync(lock)).toBe(false);
  expect(fs.readFileSync(file, "utf8")).toMatch(/^s \S+ \d+\na \S+ \d+\n$/);
});

test("a log that is a link is set aside, never written through, with a warning", async () => {
  const { dir, file } = logFolder();
  const target = path.join(tmp, "someone-elses.txt");
  fs.writeFileSync(target, "not a log\n");
  fs.symlinkSync(target, file);
  expect(await register(client(dir), "planted-link.com")).toEqual({ sentAfterMs: 0, charges: 1 });
  expect(fs.readFileSync(target, "utf8")).toBe("not a log\n");
  expect(warnings).toEqual([expect.stringMatching(/rate-limit log .* is a symbolic link; set aside as .*\.corrupt-\d+\. Pacing goes on/)]);
  // The log in its place is a fresh file of ours with this call's send and answer.
  const st = fs.lstatSync(file);
  expect([st.isFile(), st.mode & 0o777]).toEqual([true, 0o600]);
  await nextTurn();
  expect(fs.readFileSync(file, "utf8")).toMatch(/^s \S+ \d+\na \S+ \d+\n$/);
});

test("a corrupt log and an oversized one are set aside with a warning naming what is wrong", async () => {
  const { dir, file } = logFolder();
  fs.writeFileSync(file, `${lines(3, "a", tagOf(999_999), START)}s 1-0badc0de.9 9999999999999999999999\ngarbage\n`, { mode: 0o600 });
  const c = client(dir);
  expect(await register(c, "corrupt-log.com")).toEqual({ sentAfterMs: 0, charges: 1 });
  expect(warnings).toEqual([expect.stringMatching(/holds a line that is not a send or an answer of this module \("s 1-0badc0de\.9 9{22}"\); set aside as .*\.corrupt-\d+/)]);
  expect(fs.readdirSync(dir).filter((f) => f.includes(".corrupt-"))).toHaveLength(1);

  // A sparse file past the size bound (costs no disk).
  fs.truncateSync(file, MAX_LOG_BYTES + 1);
  await c.ping();
  expect(warnings[1]).toMatch(new RegExp(`holds ${MAX_LOG_BYTES + 1} bytes, more than a log ever keeps`));
  expect(fs.readdirSync(dir).filter((f) => f.includes(".corrupt-"))).toHaveLength(2);
});

describe("the log folder", () => {
  test("by default under the user's cache folder, created 0700 (whatever the umask), the log 0600", async () => {
    const cache = path.join(tmp, "cache");
    const saved = process.env.XDG_CACHE_HOME;
    const umask = process.umask(0);
    process.env.XDG_CACHE_HOME = cache;
    try {
      const dir = path.join(cache, "reseller-pulumi", "rate-limit");
      expect(defaultLogDir()).toBe(dir);
      await register(client(), "default-folder.com");
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(defaultLogFile(sb.url, sb.credentials.key, dir)).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(umask);
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
    expect(warnings).toEqual([]);
  });

  test("each platform's cache folder; a relative XDG_CACHE_HOME is ignored, as the XDG spec asks", () => {
    const home = path.join(path.sep, "home", "u");
    expect(defaultLogDir({ XDG_CACHE_HOME: path.join(path.sep, "c") }, "linux", home)).toBe(path.join(path.sep, "c", "reseller-pulumi", "rate-limit"));
    expect(defaultLogDir({ XDG_CACHE_HOME: "rel" }, "linux", home)).toBe(path.join(home, ".cache", "reseller-pulumi", "rate-limit"));
    expect(defaultLogDir({}, "darwin", home)).toBe(path.join(home, "Library", "Caches", "reseller-pulumi", "rate-limit"));
    expect(defaultLogDir({ LOCALAPPDATA: path.join(path.sep, "L") }, "win32", home)).toBe(path.join(path.sep, "L", "reseller-pulumi", "rate-limit"));
  });

  test.each([
    ["a link to a folder", (dir: string) => (fs.mkdirSync(`${dir}-real`, { mode: 0o700 }), fs.symlinkSync(`${dir}-real`, dir)), /is a symbolic link/],
    ["open to other users", (dir: string) => (fs.mkdirSync(dir), fs.chmodSync(dir, 0o777)), /is open to other users \(mode 0777; it must be 0700\)/],
    ["a file", (dir: string) => fs.writeFileSync(dir, ""), /is not a folder/],
  ])("%s is refused with a warning: pacing stays in memory, nothing is written there", async (_what, make, why) => {
    const dir = path.join(tmp, "refused");
    make(dir);
    expect(await register(client(dir), "refused-folder.com")).toEqual({ sentAfterMs: 0, charges: 1 });
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`rate-limit log folder ${dir} ${why.source}, so it is not used: requests are paced in this process only`))]);
    const real = fs.existsSync(`${dir}-real`) ? `${dir}-real` : dir;
    if (fs.statSync(real).isDirectory()) expect(fs.readdirSync(real)).toEqual([]);
  });

  test("someone else's folder is refused", () => {
    const dir = path.join(tmp, "theirs");
    fs.mkdirSync(dir, { mode: 0o700 });
    const uid = process.getuid!();
    if (uid === 0) {
      // As root the folder can really be given away.
      fs.chownSync(dir, 4242, 4242);
      expect(prepareLogFolder(dir)).toBe("belongs to user 4242, not to this user (0)");
    } else {
      const st = fs.statSync(dir);
      expect(ownedPrivately(Object.assign(Object.create(Object.getPrototypeOf(st)), st, { uid: uid + 1 }))).toBe(`belongs to user ${uid + 1}, not to this user (${uid})`);
    }
    expect(prepareLogFolder(path.join(tmp, "mine"))).toBeUndefined();
  });
});

test("logs not written for longer than LOG_MAX_AGE_MS are removed when a client starts on the folder; newer ones, and files not ours, stay", async () => {
  const { dir, file } = logFolder();
  const realNow = Date.now();
  const ageOf = (name: string, ms: number) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, "", { mode: 0o600 });
    fs.utimesSync(p, (realNow - ms) / 1000, (realNow - ms) / 1000);
    return name;
  };
  const old = LOG_MAX_AGE_MS + 3600_000;
  const stale = [
    ageOf(`rate-${"a".repeat(32)}.log`, old),
    ageOf(`rate-${"b".repeat(32)}.log.corrupt-1700000000000`, old),
    ageOf(`rate-${"c".repeat(32)}.log.lock`, old),
    ageOf(`rate-${"d".repeat(32)}.log.4242.tmp`, old),
    ageOf(`rate-${"d".repeat(32)}.log.lock.4242.tmp`, old),
    ageOf(`rate-${"d".repeat(32)}.log.lock.4242.stale`, old),
  ];
  const kept = [ageOf(`rate-${"e".repeat(32)}.log`, LOG_MAX_AGE_MS - 3600_000), ageOf("notes.txt", old), ageOf(`rate-${"f".repeat(31)}.log`, old)];
  expect(await register(client(dir), "sweep.com")).toEqual({ sentAfterMs: 0, charges: 1 });
  const left = fs.readdirSync(dir);
  for (const name of stale) expect(left).not.toContain(name);
  expect(left.sort()).toEqual([...kept, path.basename(file)].sort());
  expect(warnings).toEqual([]);
});
