/**
 * `npm run chaos [-- --ops N] [--json] [--seed S]`: N money operations (register, transfer, renew,
 * privacy, protection) and record changes, driven in rounds by the Engine (dev/engine/engine.ts) through
 * the SDK's provider host against a sandbox that injects faults: 5xx answers, connections dropped
 * after the commit, delays past the client's timeout, 429 storms, and the provider host killed
 * mid-apply (the same `up` is then run again until it converges).
 *
 * After each round the faults are cleared and `up` is run until clean (a run that succeeds and
 * changes nothing, or leaves nothing for the checks to find); then the sandbox's ledger and state
 * are checked against the program and the engine's state (dev/chaos/check.ts). At the end: a
 * refresh (only what one resource does to another may change: Protection locks its Domain, a
 * renewal moves the privacy term's end), an `up` that must change nothing and send no mutating
 * request, a second refresh that must change nothing, and the checks once more. Reports
 * doubleCharges, lostResources and stateMismatches (distinct findings over all checks) and exits 1
 * when any is not 0. With --json the last line is one JSON object. With --cli the same campaign runs
 * through the real Pulumi CLI, which is interrupted in every round (dev/chaos/cli.ts).
 */
import type { Step } from "../engine/display";
import { Engine, EngineError, type Program, type RunResult } from "../engine/engine";
import { typeToken } from "../../resources/kinds";
import { startSandbox } from "../../sandbox/index";
import { addFaults, firedFaults, HostKiller, noFaults, roundFaults, FAULT_KINDS, type FaultKind } from "./faults";
import { compareState, doubleCharges, FindingSet } from "./check";
import { CHAOS_CLI_DEFAULTS, cliFailed, cliReportMetrics, runChaosCli } from "./cli";
import { CampaignDraw, DesiredModel, OP_KINDS, seededRandom, type CampaignOptions, type OpKind, type Snapshot } from "./model";
import { formatTable, type Metrics } from "../bench/bench";
import { compiledProgram } from "../engine/program-file";

/** The program declaring a snapshot of the desired state, the snapshot as its arguments. */
const chaosProgram = (s: Snapshot): Program => ({ file: compiledProgram("dev/chaos/program.ts"), args: s });

export interface ChaosOptions extends CampaignOptions {
  /** The host is killed in every round whose number modulo this is 1 (1: never), in the first run under faults that commits enough changes. */
  killEvery: number;
}

export const CHAOS_DEFAULTS: ChaosOptions = { ops: 1000, seed: 7, parallel: 8, timeoutSeconds: 1, faultsPerKind: 2, killEvery: 2, maxRuns: 6 };

export interface ChaosReport {
  ops: number;
  opsByKind: Record<OpKind, number>;
  rounds: number;
  doubleCharges: number;
  lostResources: number;
  stateMismatches: number;
  faultsInjected: Record<FaultKind, number>;
  hostKills: number;
  upRuns: number;
  failedUps: number;
  charges: number;
  finalRefreshChanges: number;
  finalUpChanges: number;
  finalUpMutatingRequests: number;
  resourcesInState: number;
  elapsedSeconds: number;
  /** The first findings, to say what went wrong. */
  findings: string[];
}

const LIMIT = 100_000;

const changes = (r: RunResult): number => r.summary.create + r.summary.update + r.summary.replace + r.summary.delete;

/**
 * A change the first refresh may show because another resource caused it: Protection locks its
 * domain (lock and registry statuses of the Domain), a renewal moves the end of the privacy term
 * (the PrivacyAddon's expiresAt). `up` does not re-read resources it does not change, as Pulumi's.
 * Refresh classifies a read through the provider's Diff against the inputs (step.go, RefreshStep),
 * so such output-only drift is normally written to state as "same"; this allows for a Diff that
 * reports it.
 */
function sideEffect(desired: Snapshot, step: Step): boolean {
  const only = (...keys: string[]) => step.op === "update" && step.diffs.every((d) => keys.includes(d));
  const domain = desired.domains.find((d) => step.name === d.res || step.name === `${d.res}-privacy`);
  if (!domain) return false;
  if (step.type === typeToken("Domain")) return domain.protection && only("~registryStatuses", "~locked");
  if (step.type === typeToken("PrivacyAddon")) return domain.renewals > 0 && only("~expiresAt");
  return false;
}

export async function runChaos(opts: ChaosOptions, progress: (line: string) => void = () => undefined): Promise<ChaosReport> {
  const started = performance.now();
  const random = seededRandom(opts.seed);
  const sandbox = await startSandbox({ port: 0, requestsPerMinute: LIMIT, processingDelaySeconds: 0 });
  const op = sandbox.operator;
  op.settings({ balance: "10000000.00" });
  const ledgerBase = op.ledger().length;
  const killer = new HostKiller(op);
  const engine = new Engine({
    config: {
      "reseller:baseUrl": sandbox.url,
      "reseller:apiKey": sandbox.credentials.key,
      "reseller:apiSecret": sandbox.credentials.secret,
      "reseller:requestsPerMinute": String(LIMIT),
      "reseller:timeoutSeconds": String(opts.timeoutSeconds),
    },
    secretConfigKeys: ["reseller:apiSecret"],
    passphrase: "chaos",
    parallel: opts.parallel,
    log: () => undefined,
    onHostStarted: killer.onHostStarted,
    host: { env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined } },
  });
  const model = new DesiredModel(random);
  const draw = new CampaignDraw(model, opts);
  const faults = noFaults();
  const found = new FindingSet();
  let upRuns = 0;
  let failedUps = 0;
  let round = 0;

  /** One engine run; the faults that fired in it are tallied and the request log cleared. */
  const run = async <T>(what: () => Promise<T>): Promise<T> => {
    op.clearRequests();
    try {
      return await what();
    } finally {
      addFaults(faults, firedFaults(op.requests()));
    }
  };
  const up = async (program: Program): Promise<RunResult | undefined> => {
    upRuns++;
    const t = performance.now();
    const took = (): string => `${((performance.now() - t) / 1000).toFixed(1)} s`;
    try {
      const r = await run(() => engine.up(program));
      if (opts.verbose) progress(`  up ${took()}: ${JSON.stringify(r.summary)}`);
      return r;
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      failedUps++;
      if (opts.verbose) progress(`  up failed ${took()}: ${e.result.errors.slice(0, 2).join(" | ").slice(0, 300)}`);
      return undefined;
    }
  };
  /** Whether the state and the service are as `desired` wants them: no lost resource, no state mismatch. */
  const asDesired = (desired: Snapshot): boolean => {
    const c = compareState(desired, engine.resources(), op.state(), op.ledger().slice(ledgerBase));
    return c.lostResources.length + c.stateMismatches.length === 0;
  };
  const check = (desired: Snapshot): number => {
    const ledger = op.ledger().slice(ledgerBase);
    const live = op.state();
    return found.add({ doubleCharges: doubleCharges(ledger, desired), ...compareState(desired, engine.resources(), live, ledger) });
  };

  let last: Snapshot = model.snapshot();
  let finalRefreshChanges = 0;
  let finalUpChanges = 0;
  let finalUpMutating = 0;
  try {
    while (!draw.done) {
      const { asked: n, kinds } = draw.round(round);
      last = model.snapshot();
      const program = chaosProgram(last);
      const roundStart = performance.now();
      const killsBefore = killer.kills;
      const firedBefore = { ...faults };

      // Under faults: up to three runs, until one succeeds. In a kill round the host is killed once,
      // in the first of them that commits `threshold` changes (a run the faults stop before it writes
      // anything, e.g. at check's balance read, leaves the killer armed for the next).
      for (const f of roundFaults(random, Math.max(opts.faultsPerKind, Math.round(n / 15)), opts.timeoutSeconds * 1000)) op.injectFault(f);
      const kill = round % opts.killEvery === 1;
      const threshold = kill ? 1 + Math.floor(random() * Math.max(1, Math.min(8, kinds.length / 2))) : 0;
      let ok = false;
      for (let i = 0; i < (opts.faultedRuns ?? 3) && !ok; i++) {
        if (kill && killer.kills === killsBefore) killer.arm(threshold);
        ok = (await up(program)) !== undefined;
        killer.disarm();
      }
      // Without faults: run until clean, i.e. a run succeeds and either changes nothing or leaves the
      // state and the service as the checks want them (a renewal target raised by two years takes two
      // runs: each due renewal adds the policy's one year). That no run would change anything more is
      // the final no-op up's to prove. A faulted run that succeeded may have left it clean already.
      op.clearFaults();
      let clean = ok && asDesired(last);
      for (let i = 0; i < opts.maxRuns && !clean; i++) {
        const r = await up(program);
        clean = r !== undefined && (changes(r) === 0 || asDesired(last));
      }
      if (!clean) found.add({ lostResources: [`round ${round}: up did not come clean in ${opts.maxRuns} runs without faults`] });
      const fresh = check(last);
      const fired = FAULT_KINDS.map((k) => `${k} ${faults[k] - firedBefore[k]}`).join(", ");
      progress(
        `round ${round}: ${draw.opsDone}/${opts.ops} ops; faults fired: ${fired}; host kills ${killer.kills - killsBefore}; ` +
          `${((performance.now() - roundStart) / 1000).toFixed(1)} s${fresh ? `; ${fresh} new finding(s)` : ""}`,
      );
      round++;
    }

    // The end: refresh to settle, a no-op up, a refresh that changes nothing, the checks again.
    const settled = await run(() => engine.refresh());
    for (const s of settled.steps.filter((x) => x.op !== "same" && !sideEffect(last, x))) {
      found.add({ stateMismatches: [`final refresh: ${s.name} ${s.op} ${s.diffs.join(" ")}`] });
    }
    const again = await run(() => engine.up(chaosProgram(last)));
    const noopLog = op.requests();
    finalUpChanges = changes(again);
    finalUpMutating = noopLog.filter((e) => e.mutating).length;
    if (finalUpChanges) found.add({ stateMismatches: [`final up: ${finalUpChanges} change(s) where none was due`] });
    if (finalUpMutating) found.add({ stateMismatches: [`final up: ${finalUpMutating} mutating request(s)`] });
    const second = await run(() => engine.refresh());
    finalRefreshChanges = second.steps.filter((x) => x.op !== "same").length;
    for (const s of second.steps.filter((x) => x.op !== "same")) found.add({ stateMismatches: [`second refresh: ${s.name} ${s.op} ${s.diffs.join(" ")}`] });
    check(last);
    progress(`final: refresh settled ${settled.steps.filter((x) => x.op !== "same").length} change(s), no-op up ${finalUpChanges} change(s) and ${finalUpMutating} mutating request(s), second refresh ${finalRefreshChanges} change(s)`);
  } finally {
    killer.disarm();
    await sandbox.close();
  }

  return {
    ops: draw.opsDone,
    opsByKind: draw.opsByKind,
    rounds: round,
    doubleCharges: found.all.doubleCharges.size,
    lostResources: found.all.lostResources.size,
    stateMismatches: found.all.stateMismatches.size,
    faultsInjected: faults,
    hostKills: killer.kills,
    upRuns,
    failedUps,
    charges: op.ledger().length - ledgerBase,
    finalRefreshChanges,
    finalUpChanges,
    finalUpMutatingRequests: finalUpMutating,
    resourcesInState: engine.resources().length,
    elapsedSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    findings: found.lines(20),
  };
}

export interface ChaosArgs {
  json: boolean;
  /** Through the real Pulumi CLI (dev/chaos/cli.ts) instead of dev/engine/. */
  cli: boolean;
  options: ChaosOptions;
}

const USAGE = "usage: npm run chaos -- [--cli] [--ops N] [--seed S] [--json] [--verbose]";

export function parseChaosArgs(argv: string[]): ChaosArgs {
  const args: ChaosArgs = { json: false, cli: false, options: { ...CHAOS_DEFAULTS } };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (name: string): number => {
      const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
      const n = Number(v);
      if (v === undefined || !Number.isInteger(n) || n < 1) throw new Error(`${name} needs a positive integer (got ${v === undefined ? "nothing" : JSON.stringify(v)}); ${USAGE}`);
      return n;
    };
    if (a === "--json") args.json = true;
    else if (a === "--cli") args.cli = true;
    else if (a === "--ops" || a.startsWith("--ops=")) args.options.ops = value("--ops");
    else if (a === "--seed" || a.startsWith("--seed=")) args.options.seed = value("--seed");
    else if (a === "--verbose") args.options.verbose = true;
    else throw new Error(`unknown option ${JSON.stringify(a)}; ${USAGE}`);
  }
  return args;
}

/** The report as metric/value rows. */
export function reportMetrics(r: ChaosReport): Metrics {
  return {
    ops: r.ops,
    ...Object.fromEntries(OP_KINDS.map((k) => [`ops.${k}`, r.opsByKind[k]])),
    rounds: r.rounds,
    ...Object.fromEntries(FAULT_KINDS.map((k) => [`faults.${k}`, r.faultsInjected[k]])),
    hostKills: r.hostKills,
    upRuns: r.upRuns,
    failedUps: r.failedUps,
    charges: r.charges,
    resourcesInState: r.resourcesInState,
    finalRefreshChanges: r.finalRefreshChanges,
    finalUpChanges: r.finalUpChanges,
    finalUpMutatingRequests: r.finalUpMutatingRequests,
    doubleCharges: r.doubleCharges,
    lostResources: r.lostResources,
    stateMismatches: r.stateMismatches,
    elapsedSeconds: r.elapsedSeconds,
  };
}

export const failed = (r: ChaosReport): boolean => r.doubleCharges + r.lostResources + r.stateMismatches > 0;

export async function main(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const args = parseChaosArgs(argv);
  if (args.cli) {
    const { ops, seed, verbose } = args.options;
    out(`chaos through the Pulumi CLI: ${ops} operations, seed ${seed}`);
    const report = await runChaosCli({ ...CHAOS_CLI_DEFAULTS, ops, seed, verbose }, (l) => out(`  ${l}`));
    out(formatTable([{ name: "chaos-cli", metrics: cliReportMetrics(report) }]));
    for (const f of report.findings) out(`finding: ${f}`);
    if (args.json) out(JSON.stringify(report));
    return cliFailed(report) ? 1 : 0;
  }
  out(`chaos: ${args.options.ops} operations, seed ${args.options.seed}`);
  const report = await runChaos(args.options, (l) => out(`  ${l}`));
  out(formatTable([{ name: "chaos", metrics: reportMetrics(report) }]));
  for (const f of report.findings) out(`finding: ${f}`);
  if (args.json) out(JSON.stringify(report));
  return failed(report) ? 1 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exitCode = 1;
    },
  );
}
