/**
 * `npm run chaos -- --cli`: a small campaign through the real Pulumi CLI (needs `npm run build` and
 * the CLI `npm run pulumi-cli` builds): three rounds, the CLI interrupted in each (SIGINT once,
 * SIGINT twice, SIGKILL of the CLI and everything below it) at a point timed on the sandbox's
 * request log, under the engine campaign's faults, each round recovered as docs/interrupted-runs.md
 * says; then the final refresh, no-op up and refresh, and a destroy interrupted and recovered. It
 * must end with no double charge, nothing lost and no state mismatch. The pieces the campaign reads
 * the CLI by (its summary, its export) are tested on fixed text.
 */
import { parseChaosArgs } from "../../bench/chaos";
import { CHAOS_CLI_DEFAULTS, cliFailed, exportedResources, fallbackPlan, INTERRUPT_KINDS, pendingOperations, planInterrupt, runChaosCli, summaryChanges, type ChaosCliReport } from "../../bench/chaos-cli";
import { FAULT_KINDS } from "../../bench/chaos-faults";
import { seededRandom } from "../../bench/chaos-model";
import { BENCH_REGISTRANT } from "../../bench/registrant";
import type { StackExport } from "../../pulumi-cli";
import { typeToken } from "../../resources/kinds";
import { FOREIGN_AUTH_CODE } from "../../sandbox/state";

describe("a campaign of 21 operations through the Pulumi CLI, interrupted in every round", () => {
  let report: ChaosCliReport;
  const lines: string[] = [];
  beforeAll(async () => {
    // Seed 7, three rounds of seven operations: SIGINT, SIGINT twice, SIGKILL in turn; the destroy
    // is interrupted by SIGINT. Larger campaigns are `npm run chaos -- --cli`'s job.
    report = await runChaosCli({ ...CHAOS_CLI_DEFAULTS, ops: 21, opsPerRound: 7 }, (l) => lines.push(l));
  }, 1_200_000);

  test("every kind of interruption was sent, in flight and under every fault kind, so the run was not vacuous", () => {
    expect(report.rounds).toBe(3);
    expect(report.ops).toBe(21);
    for (const k of INTERRUPT_KINDS) expect(report.interrupts[k]).toBeGreaterThan(0);
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

  test("an interruption lands on one of the round's kinds of operation; a plan not reached falls back to any of them, held", () => {
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

  test("--cli selects the campaign through the CLI", () => {
    expect(parseChaosArgs(["--cli", "--ops", "1000"])).toMatchObject({ cli: true, options: { ops: 1000 } });
    expect(parseChaosArgs([]).cli).toBe(false);
  });
});
