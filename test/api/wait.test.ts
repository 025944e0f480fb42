/**
 * The one wait helper on virtual time: bounded, logged at a steady interval with what remains, never
 * sleeping past its deadline; and the registration wait against the sandbox on that time.
 */
import { ManualClock, type Clock } from "../../api/clock";
import type { ResellerClient } from "../../api/client";
import { deriveIdempotencyKey } from "../../api/idempotency";
import { PROGRESS_EVERY_MS, pollDelay, waitUntil, type WaitOptions } from "../../api/wait";
import { waitForRegistry } from "../../api/waits";
import type { SandboxHandle } from "../../sandbox/index";
import { sandboxOnClock } from "../support/sandbox-on-clock";

/** A clock that records, for each sleep, the time it would wake at. */
function recording(clock: ManualClock): Clock & { wakes: number[] } {
  const wakes: number[] = [];
  return { now: clock.now, sleep: (ms) => (wakes.push(clock.now() + ms), clock.sleep(ms)), wakes };
}

/** A wait whose probe returns the poll's number and records when it ran. */
function counting(clock: Clock, over: Partial<WaitOptions<number>> = {}) {
  const probes: number[] = [];
  const lines: string[] = [];
  const opts: WaitOptions<number> = {
    subject: "shop.example",
    awaited: "delegation to ns1.x, ns2.x",
    probe: async () => (probes.push(clock.now()), probes.length),
    done: () => false,
    describe: (n) => `poll ${n}`,
    timeoutMs: 10_000,
    clock,
    log: { info: (l) => lines.push(l) },
    ...over,
  };
  return { opts, probes, lines };
}

describe("ManualClock", () => {
  it("wakes a sleeper only when time is moved past it, in order", async () => {
    const clock = new ManualClock({ start: 100 });
    const woke: string[] = [];
    void clock.sleep(50).then(() => woke.push("b"));
    void clock.sleep(20).then(() => woke.push("a"));
    clock.advance(19);
    await Promise.resolve();
    expect(woke).toEqual([]);
    clock.advance(40);
    await Promise.resolve();
    expect(woke).toEqual(["a", "b"]);
    expect(clock.now()).toBe(159);
  });

  it("runUntilIdle moves time to each wake-up until nothing sleeps", async () => {
    const clock = new ManualClock();
    const seen: number[] = [];
    void (async () => {
      for (const ms of [5, 10, 1000]) {
        await clock.sleep(ms);
        seen.push(clock.now());
      }
    })();
    await clock.runUntilIdle();
    expect(seen).toEqual([5, 15, 1015]);
    expect(clock.sleepers).toBe(0);
  });
});

describe("waitUntil", () => {
  it("is bounded: stops at the deadline with reached=false, polls counted, a last poll on the deadline", async () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const c = recording(clock);
    const w = counting(c);
    const result = waitUntil(w.opts);
    await clock.runUntilIdle();
    expect(await result).toEqual({ value: 5, reached: false, polls: 5, elapsedMs: 10_000 });
    expect(w.probes.map((t) => t - 1_000_000)).toEqual([0, 1000, 3000, 7000, 10_000]);
  });

  it("never sleeps past the deadline, whatever the schedule asks", async () => {
    const clock = new ManualClock();
    const c = recording(clock);
    const w = counting(c, { timeoutMs: 95_000, schedule: () => 60_000 });
    const result = waitUntil(w.opts);
    await clock.runUntilIdle();
    expect((await result).elapsedMs).toBe(95_000);
    expect(Math.max(...c.wakes)).toBe(95_000);
    expect(w.probes).toEqual([0, 60_000, 95_000]);
  });

  it("says it waits, then at a steady interval what it saw last and what remains, whatever the polls", async () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const w = counting(clock, { timeoutMs: 300_000 });
    const result = waitUntil(w.opts);
    await clock.runUntilIdle();
    expect(PROGRESS_EVERY_MS).toBe(30_000);
    // Polls at 0, 1, 3, 7, 15, 31, 63, 127, 247 s and the deadline (300 s); lines every 30 s.
    expect(w.probes.map((t) => (t - 1_000_000) / 1000)).toEqual([0, 1, 3, 7, 15, 31, 63, 127, 247, 300]);
    const still = (after: number, poll: number) => `shop.example: still waiting for delegation to ns1.x, ns2.x after ${after} s (poll ${poll}); ${300 - after} s left`;
    expect(w.lines).toEqual([
      "shop.example: waiting up to 300 s for delegation to ns1.x, ns2.x (poll 1)",
      still(30, 5),
      still(60, 6),
      still(90, 7),
      still(120, 7),
      still(150, 8),
      still(180, 8),
      still(210, 8),
      still(240, 8),
      still(270, 9),
    ]);
    expect(await result).toMatchObject({ reached: false, polls: 10 });
  });

  it("ends at the first poll that is done: nothing more is probed, slept or logged", async () => {
    const clock = new ManualClock();
    const w = counting(clock, { done: (n) => n === 4, timeoutMs: 60_000 });
    const result = waitUntil(w.opts);
    await clock.runUntilIdle();
    expect(await result).toEqual({ value: 4, reached: true, polls: 4, elapsedMs: 7000 });
    expect(w.lines).toHaveLength(1);
    expect(clock.sleepers).toBe(0);
  });

  it("done at once: one poll, no line", async () => {
    const clock = new ManualClock();
    const w = counting(clock, { done: () => true });
    expect(await waitUntil(w.opts)).toEqual({ value: 1, reached: true, polls: 1, elapsedMs: 0 });
    expect(w.lines).toEqual([]);
  });

  it("says nothing until a state is worth announcing, then keeps its steady interval from there", async () => {
    const clock = new ManualClock();
    const w = counting(clock, { schedule: () => 10_000, timeoutMs: 100_000, announce: (n) => n >= 3 });
    const result = waitUntil(w.opts);
    await clock.runUntilIdle();
    await result;
    expect(w.lines).toEqual([
      "shop.example: waiting up to 80 s for delegation to ns1.x, ns2.x (poll 3)",
      "shop.example: still waiting for delegation to ns1.x, ns2.x after 50 s (poll 6); 50 s left",
      "shop.example: still waiting for delegation to ns1.x, ns2.x after 80 s (poll 9); 20 s left",
    ]);
  });

  it("the product's schedule doubles from 1 s and caps at 2 minutes", () => {
    expect([1, 2, 3, 7, 8, 9, 50].map(pollDelay)).toEqual([1000, 2000, 4000, 64_000, 120_000, 120_000, 120_000]);
  });
});

describe("waitForRegistry against the sandbox, on virtual time", () => {
  let sandbox: SandboxHandle;
  let client: ResellerClient;
  let clock: ManualClock;
  const contact = { name: "Wait Test", email: "wait@example.test", phone: "+441234567890", address_line_1: "1 Test Road", city: "London", state: "", postal_code: "E1 6AN", country: "GB" };

  beforeEach(async () => {
    // Sandbox, client and wait on one clock that moves by itself to the next wake-up: the
    // registry's five minutes pass without waiting for them (the test would time out otherwise).
    clock = new ManualClock({ start: Date.parse("2026-01-01T00:00:00Z"), autoAdvance: true });
    ({ sandbox, client } = await sandboxOnClock(clock, 600, 300));
  });
  afterEach(async () => {
    await client.close();
    await sandbox.close();
  });

  async function order(domain: string): Promise<void> {
    const o = await client.register({ domain, years: 1, contacts: { registrant: contact } }, { idempotencyKey: deriveIdempotencyKey(`urn:test::${domain}`, "register", domain) });
    expect(o.stage).toBe("pending");
    sandbox.operator.clearRequests();
  }
  const getTimes = () => {
    const gets = sandbox.operator.requests().filter((e) => e.method === "GET");
    return gets.map((e) => (Date.parse(e.at) - Date.parse(gets[0].at)) / 1000);
  };

  test("a registration processed in 5 minutes: seen active at the poll after, every poll logged by the service", async () => {
    await order("slow-registry.com");
    const lines: string[] = [];
    const r = await waitForRegistry(client, "slow-registry.com", 600, { clock, log: { info: (l) => lines.push(l), warn: (l) => lines.push(l) } });
    expect(r).toMatchObject({ reached: true, polls: 10, value: { stage: "active" } });
    expect(getTimes()).toEqual([0, 1, 3, 7, 15, 31, 63, 127, 247, 367]);
    expect(lines[0]).toBe("slow-registry.com: waiting up to 600 s for the registry to finish (stage pending)");
    expect(lines).toHaveLength(1 + 12); // and one every 30 s until 360 s
    expect(lines.at(-1)).toBe("slow-registry.com: still waiting for the registry to finish after 360 s (stage pending); 240 s left");
  });

  test("bounded: at the deadline the stage is a state, with a warning that refresh follows it", async () => {
    await order("bounded.com");
    const warnings: string[] = [];
    const r = await waitForRegistry(client, "bounded.com", 120, { clock, log: { info: () => undefined, warn: (l) => warnings.push(l) } });
    expect(r).toMatchObject({ reached: false, polls: 8, elapsedMs: 120_000, value: { stage: "pending" } });
    expect(getTimes()).toEqual([0, 1, 3, 7, 15, 31, 63, 120]);
    expect(warnings).toEqual(["bounded.com: still in stage pending after 120 s; the next refresh will follow it"]);
  });

  test("the registry refuses the order while the wait polls: the next poll ends the wait in stage failed", async () => {
    await order("refused.com");
    // The back office refuses the order 20 s into the wait, before the poll that follows.
    const start = clock.now();
    const api = {
      getDomain: (domain: string) => {
        if (clock.now() - start >= 20_000 && sandbox.operator.state().domains[domain]?.stage === "pending") sandbox.operator.fail(domain);
        return client.getDomain(domain);
      },
    };
    const r = await waitForRegistry(api, "refused.com", 600, { clock, log: { info: () => undefined, warn: () => undefined } });
    expect(r).toMatchObject({ reached: true, polls: 6, value: { stage: "failed" } });
    expect(getTimes().at(-1)).toBe(31);
  });
});
