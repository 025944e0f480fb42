/**
 * `npm run chaos -- --cli`: a small campaign through the real Pulumi CLI (needs `npm run build` and
 * the CLI `npm run pulumi-cli` builds): two rounds and the destroy, the CLI interrupted in each
 * (SIGINT twice, SIGKILL of the CLI and everything below it, then SIGINT once in the destroy's
 * deletes) at a point timed on the sandbox's request log, under the engine campaign's faults, each
 * round recovered as docs/interrupted-runs.md says; then the final refresh, no-op up and refresh, and
 * the destroy recovered. It must end with no double charge, nothing lost and no state mismatch. The
 * pieces the campaign reads the CLI by (its summary, its export) and its planning are tested on fixed
 * text and as pure functions.
 *
 * Sized for the facts, not for a sweep (about 14 heavy CLI commands: up, refresh, destroy; it was 24
 * with three rounds of up to three faulted runs and an up to confirm each round): two faulted runs at
 * most per round, one or two faults of each kind, a round clean once its up leaves nothing for the
 * checks to find (that no up would change more is the final no-op up's to prove). What the CLI does at
 * each kind of request and signal is proven one command per fact in test/pulumi-cli/interrupted*.test.ts
 * (SIGINT once, twice and SIGKILL at a registration; at an add-on, a record, a renewal; in an up's
 * deletes), what the provider does under each fault kind and a host kill by the engine's campaign
 * (run.test.ts) and the resources' lifecycle tests. The long campaign is `npm run chaos -- --cli`
 * (1,000 operations, 20 rounds: history/).
 */
import { parseChaosArgs } from "../../../dev/chaos/run";
import {
  carriedPlan,
  CHAOS_CLI_DEFAULTS,
  chooseTarget,
  cliFailed,
  emptyTally,
  exportedResources,
  fallbackPlan,
  INTERRUPT_KINDS,
  INTERRUPT_POINTS,
  INTERRUPT_TARGETS,
  nextPlan,
  pendingOperations,
  planInterrupt,
  runChaosCli,
  summaryChanges,
  tallyLines,
  type ChaosCliReport,
  type InterruptPlan,
} from "../../../dev/chaos/cli";
import { FAULT_KINDS } from "../../../dev/chaos/faults";
import { DesiredModel, seededRandom } from "../../../dev/chaos/model";
import { BENCH_REGISTRANT } from "../../support/registrant";
import type { StackExport } from "../../../dev/pulumi-cli";
import { typeToken } from "../../../resources/kinds";
import { FOREIGN_AUTH_CODE } from "../../../sandbox/state";

describe("a campaign of 14 operations through the Pulumi CLI, interrupted in every round and in the destroy", () => {
  let report: ChaosCliReport;
  const lines: string[] = [];
  beforeAll(async () => {
    // Seed 7, two rounds of seven operations: SIGINT twice, then SIGKILL; the destroy is interrupted
    // by SIGINT once (a cancel the CLI ends with exit code 0). Larger campaigns are `npm run chaos --
    // --cli`'s job.
    const options = { ...CHAOS_CLI_DEFAULTS, seed: 7, ops: 14, opsPerRound: 7, faultedRuns: 2, faultsPerKind: 1, interrupts: ["SIGINT twice", "SIGKILL", "SIGINT"] as const };
    report = await runChaosCli(options, (l) => lines.push(l));
  }, 1_200_000);

  test("every kind of interruption was sent, in flight and under every fault kind, so the run was not vacuous", () => {
    expect(report.rounds).toBe(2);
    expect(report.ops).toBe(14);
    for (const k of INTERRUPT_KINDS) expect(report.interrupts[k]).toBeGreaterThan(0);
    // The tally by kind of request and signal adds up to the signals sent.
    for (const k of INTERRUPT_KINDS) expect(Object.values(report.interruptedAt).reduce((n, by) => n + by[k], 0)).toBe(report.interrupts[k]);
    expect(report.interruptsInFlight).toBeGreaterThan(0);
    expect(report.cancels).toBe(report.interrupts.SIGKILL);
    for (const k of FAULT_KINDS) expect(report.faultsInjected[k]).toBeGreaterThan(0);
    expect(report.failedUps).toBeGreaterThan(0);
    expect(report.charges).toBeGreaterThan(0);
    expect(report.destroyedRecords).toBeGreaterThan(0);
    expect(lines.some((l) => l.startsWith("final:"))).toBe(true);
    expect(lines.some((l) => /^destroy: SIGINT at recordDelete/.test(l))).toBe(true);
    // Every process an interrupted CLI started ended with it (or within a minute of it).
    expect(report.leftoverProcesses).toBe(0);
  });

  test("no double charge, nothing lost, no state mismatch after the documented recovery; the final up changed nothing", () => {
    expect(report.findings).toEqual([]);
    expect({ doubleCharges: report.doubleCharges, lostResources: report.lostResources, stateMismatches: report.stateMismatches }).toEqual({ doubleCharges: 0, lostResources: 0, stateMismatches: 0 });
    expect(report.finalUpChanges).toBe(0);
    expect(report.finalUpMutatingRequests).toBe(0);
    expect(report.finalRefreshChanges).toBe(0);
    expect(cliFailed(report)).toBe(false);
  });

  test("neither the report nor the progress lines carry the transfer code or the registrant's e-mail", () => {
    const text = JSON.stringify(report) + lines.join("\n");
    expect(text).not.toContain(FOREIGN_AUTH_CODE);
    expect(text).not.toContain(BENCH_REGISTRANT.email);
  });
});

describe("how the campaign reads the CLI", () => {
  test("summaryChanges: the changes of the last Resources: block; unchanged and errored are not changes", () => {
    const out = (body: string) => `Updating (chaos):\n  ...\n\nResources:\n${body}\nDuration: 3s\n`;
    expect(summaryChanges(out("    + 2 created\n    ~ 1 updated\n    - 1 deleted\n    4 changes. 7 unchanged\n"))).toBe(4);
    expect(summaryChanges(out("    +-1 replaced\n    3 unchanged\n"))).toBe(1);
    expect(summaryChanges(out("    9 unchanged\n    2 errored\n"))).toBe(0);
    expect(summaryChanges(out("    \u001b[32m+ 3 created\u001b[0m\n"))).toBe(3);
    expect(summaryChanges("error: the stack is currently locked by 1 lock(s)\n")).toBeUndefined();
  });

  const urn = (kind: Parameters<typeof typeToken>[0], name: string) => `urn:pulumi:chaos::chaos::${typeToken(kind)}::${name}`;
  const exported: StackExport = {
    version: 3,
    deployment: {
      resources: [
        { urn: "urn:pulumi:chaos::chaos::pulumi:pulumi:Stack::chaos-chaos", type: "pulumi:pulumi:Stack" },
        { urn: "urn:pulumi:chaos::chaos::pulumi:providers:pulumi-nodejs::default", type: "pulumi:providers:pulumi-nodejs", custom: true, id: "p1" },
        { urn: urn("Domain", "dom-1"), type: typeToken("Domain"), custom: true, id: "chaos-1.com", outputs: { charged: "12.00" } },
        { urn: urn("DnsRecord", "rec-2"), type: typeToken("DnsRecord"), custom: true, id: "rec_9", outputs: { recordId: "rec_9" } },
      ],
      pending_operations: [{ type: "creating", resource: { urn: urn("PrivacyAddon", "dom-1-privacy"), type: typeToken("PrivacyAddon") } }],
    },
  };

  test("the export's resources of the campaign's kinds, named as the checks name them; its pending operations", () => {
    expect(exportedResources(exported).map((r) => [r.name, r.id, r.outputs])).toEqual([
      ["dom-1", "chaos-1.com", { charged: "12.00" }],
      ["rec-2", "rec_9", { recordId: "rec_9" }],
    ]);
    expect(pendingOperations(exported)).toEqual(["creating dom-1-privacy"]);
  });

  test("an interruption lands on one of the round's kinds of operation; a widened plan takes any of them, held", () => {
    const random = seededRandom(3);
    for (let i = 0; i < 50; i++) {
      const plan = planInterrupt(random, "SIGKILL", ["renew", "renew", "recordDelete"], 1);
      expect(plan.points).toHaveLength(1);
      expect(["renewal", "recordDelete"]).toContain(plan.points[0].name);
      if (plan.holdMs === undefined) expect(plan.after).toBeGreaterThanOrEqual(1);
      else expect(plan.holdMs).toBeGreaterThanOrEqual(200);
      const later = fallbackPlan(random, plan, ["renew", "recordDelete"], 1);
      expect(later).toMatchObject({ kind: "SIGKILL", after: 0 });
      expect(later.points.map((p) => p.name).sort()).toEqual(["recordDelete", "renewal"]);
      expect(later.holdMs).toBeGreaterThanOrEqual(200);
    }
  });

  const renewals = INTERRUPT_POINTS.filter((p) => p.name === "renewal");
  const kinds = ["renew", "renew", "renew", "privacy", "recordCreate", "recordUpdate"] as const;

  test("a plan not reached in a faulted run is kept for the next run, at the place left in its kind", () => {
    const random = seededRandom(5);
    const held: InterruptPlan = { kind: "SIGINT twice", points: renewals, after: 2, holdMs: 900 };
    // The faults stopped the run after one renewal: the next faulted run holds its second.
    expect(nextPlan(random, held, { faulted: true, seen: 1 }, { faulted: true, left: 2 }, [...kinds], 1)).toEqual({ ...held, after: 1 });
    // A run that sent none leaves it as it was; one that sent more than the place holds the next.
    expect(nextPlan(random, held, { faulted: true, seen: 0 }, { faulted: true, left: 3 }, [...kinds], 1)).toEqual(held);
    expect(carriedPlan(held, 5)).toEqual({ ...held, after: 0 });
    // Between answers: never before the first answer of the next run.
    const between: InterruptPlan = { kind: "SIGKILL", points: renewals, after: 3 };
    expect(nextPlan(random, between, { faulted: true, seen: 2 }, { faulted: true, left: 1 }, [...kinds], 1)).toEqual({ ...between, after: 1 });
    expect(carriedPlan(between, 7)).toEqual({ ...between, after: 1 });
    // Still kept however many renewals the faulted runs committed: the faults are not cleared yet.
    expect(nextPlan(random, held, { faulted: true, seen: 3 }, { faulted: true, left: 0 }, [...kinds], 1).points).toEqual(renewals);
  });

  test("a plan widens to any of the round's kinds only once the faults are cleared and its kind has nothing left", () => {
    const random = seededRandom(6);
    const held: InterruptPlan = { kind: "SIGKILL", points: renewals, after: 1, holdMs: 700 };
    // Into the fault-free recovery with renewals left: kept.
    expect(nextPlan(random, held, { faulted: true, seen: 1 }, { faulted: false, left: 1 }, [...kinds], 1)).toEqual({ ...held, after: 0 });
    // Into it with every renewal committed: widened, held, same signal.
    const wide = nextPlan(random, held, { faulted: true, seen: 3 }, { faulted: false, left: 0 }, [...kinds], 1);
    expect(wide).toMatchObject({ kind: "SIGKILL", after: 0, widened: true });
    expect(wide.points.map((p) => p.name).sort()).toEqual(["privacy", "recordCreate", "recordUpdate", "renewal"]);
    expect(wide.holdMs).toBeGreaterThanOrEqual(200);
    // A fault-free run that went by without reaching it: widened whatever the count says.
    expect(nextPlan(random, held, { faulted: false, seen: 0 }, { faulted: false, left: 2 }, [...kinds], 1).widened).toBe(true);
    // Once widened, it stays wide.
    expect(nextPlan(random, wide, { faulted: false, seen: 0 }, { faulted: false, left: 5 }, [...kinds], 1).widened).toBe(true);
  });

  test("a round aims at the kind its signal interrupted least; it names only kinds the round runs", () => {
    const random = seededRandom(8);
    const tally = emptyTally();
    tally.renewal.SIGKILL = 2;
    tally.privacy.SIGKILL = 1;
    tally.recordUpdate.SIGINT = 4;
    for (let i = 0; i < 20; i++) {
      expect(chooseTarget(random, "SIGKILL", ["renew", "privacy", "recordCreate"], tally)).toBe("record");
      expect(chooseTarget(random, "SIGKILL", ["renew", "privacy"], tally)).toBe("privacy");
      // Ties on the signal go to the kind interrupted least by any signal.
      expect(chooseTarget(random, "SIGINT twice", ["renew", "recordUpdate", "transfer"], tally)).toBe("registration");
      const plan = planInterrupt(random, "SIGINT", ["register", "transfer", "renew"], 1, "registration");
      expect(["registration", "transfer"]).toContain(plan.points[0].name);
    }
    expect(chooseTarget(random, "SIGINT", [], tally)).toBeUndefined();
    expect(tallyLines(tally)).toContain("renewal: SIGINT 0, SIGINT twice 0, SIGKILL 2 (2)");
  });

  test("over the 20 rounds of a 1,000-operation campaign, every kind is aimed at several times, by every signal", () => {
    const random = seededRandom(7);
    const model = new DesiredModel(random);
    const tally = emptyTally();
    for (let round = 0; round < 20; round++) {
      const signal = INTERRUPT_KINDS[round % INTERRUPT_KINDS.length];
      const roundKinds = model.round(round, 50);
      const target = chooseTarget(random, signal, roundKinds, tally);
      // As if each plan was reached at its kind.
      tally[planInterrupt(random, signal, roundKinds, 1, target).points[0].name][signal]++;
    }
    for (const t of INTERRUPT_TARGETS) {
      const points = INTERRUPT_POINTS.filter((p) => p.target === t).map((p) => tally[p.name]);
      for (const k of INTERRUPT_KINDS) expect(points.reduce((n, by) => n + by[k], 0)).toBeGreaterThanOrEqual(1);
      expect(points.reduce((n, by) => n + INTERRUPT_KINDS.reduce((m, k) => m + by[k], 0), 0)).toBeGreaterThanOrEqual(3);
    }
  });

  test("--cli selects the campaign through the CLI", () => {
    expect(parseChaosArgs(["--cli", "--ops", "1000"])).toMatchObject({ cli: true, options: { ops: 1000 } });
    expect(parseChaosArgs([]).cli).toBe(false);
  });
});
