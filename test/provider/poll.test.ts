/** pollDomain with a fake clock: backoff schedule, deadline, waiting stages are states. */
import { pollDelay, pollDomain } from "../../provider/poll";
import type { DomainInfo } from "../../provider/views";

function fakeDomain(stageAt: (t: number) => string) {
  let t = 0;
  const calls: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
    calls,
    client: {
      getDomain: async (domain: string): Promise<DomainInfo> => {
        calls.push(t);
        return { domain, status: "ok", stage: stageAt(t) };
      },
    },
  };
}

describe("pollDomain", () => {
  it("a registration approved after 10 minutes costs at most 12 polls", async () => {
    const f = fakeDomain((t) => (t >= 600_000 ? "active" : "pending_approval"));
    const r = await pollDomain(f.client, "example.com", { until: ["active"], deadlineMs: 3_600_000, now: f.now, sleep: f.sleep });
    expect(r.reached).toBe(true);
    expect(r.info.stage).toBe("active");
    expect(r.polls).toBeLessThanOrEqual(12);
    expect(r.polls).toBe(f.calls.length);
    expect(f.calls.slice(0, 9)).toEqual([0, 1000, 3000, 7000, 15000, 31000, 63000, 127000, 247000]);
  });

  it("at the deadline returns the waiting state, not an error", async () => {
    const f = fakeDomain(() => "pending_kyc");
    const seen: number[] = [];
    const r = await pollDomain(f.client, "example.com", {
      until: ["active"],
      deadlineMs: 10_000,
      now: f.now,
      sleep: f.sleep,
      onPoll: (e) => seen.push(e.elapsedMs),
    });
    expect(r).toMatchObject({ reached: false, info: { stage: "pending_kyc" } });
    // Polls at 0, 1, 3, 7 s and one last at the deadline (10 s), never later.
    expect(seen).toEqual([0, 1000, 3000, 7000, 10000]);
  });

  it("stops early on a stage that waiting will not change (with a list of stages)", async () => {
    const f = fakeDomain(() => "failed");
    const r = await pollDomain(f.client, "example.com", { until: ["active"], deadlineMs: 60_000, now: f.now, sleep: f.sleep });
    expect(r).toMatchObject({ reached: false, polls: 1, info: { stage: "failed" } });
  });

  it("accepts a predicate", async () => {
    const f = fakeDomain((t) => (t >= 3000 ? "active" : "pending"));
    const r = await pollDomain(f.client, "example.com", { until: (i) => i.stage === "active", deadlineMs: 60_000, now: f.now, sleep: f.sleep });
    expect(r).toMatchObject({ reached: true, polls: 3 });
  });

  it("pollDelay doubles and caps", () => {
    expect([1, 2, 3, 8, 9, 20].map((n) => pollDelay(n, 1000, 2, 120_000))).toEqual([1000, 2000, 4000, 120_000, 120_000, 120_000]);
  });
});
