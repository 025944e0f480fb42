/**
 * `npm run chaos -- --cli [--ops N] [--seed S] [--json] [--verbose]`: the chaos campaign of
 * dev/chaos/run.ts (its model, its sandbox faults, its checks) through the real Pulumi CLI
 * (`npm run pulumi-cli`) instead of dev/engine/. A project whose program is
 * dev/chaos/program.ts declares the round's snapshot (written beside it as
 * snapshot.json); `pulumi up` runs it against a sandbox that injects the same faults as the engine's
 * campaign, and the CLI is interrupted once per round as a CI job's cancel or a dying runner would:
 *
 * - SIGINT once, SIGINT twice (cancel, then force once the CLI said it is cancelling), or SIGKILL
 *   of the CLI and every process below it, in turn by round;
 * - at a random point of one kind of operation the round runs (registration or transfer, renewal,
 *   WHOIS Privacy or Domain Protection purchase, record create, update or delete), timed on the
 *   sandbox's request log: after the Nth request of that kind was answered, or while the next one is
 *   held by a delay fault (the signal goes once it has arrived), never after a blind sleep. The kind
 *   is the one interrupted least so far by the round's signal (`chooseTarget`), so a campaign spreads
 *   its interruptions over every kind and signal; the plan is kept through the round's faulted runs
 *   (a run the faults stopped before the point leaves it to the next run) and widens to the next
 *   request of any of the round's kinds only in the fault-free recovery, once the planned kind has
 *   nothing left to send (`nextPlan`).
 *
 * Then the recovery docs/interrupted-runs.md prescribes: `pulumi cancel` after a SIGKILL, `pulumi
 * up` (again under the round's faults, three runs at most as in the engine's campaign, then without
 * faults until an up changes nothing or leaves nothing for the checks to find), then `pulumi refresh
 * --clear-pending-creates`. The checks of
 * dev/chaos/check.ts follow, on `pulumi stack export` against the sandbox's state and ledger, and
 * no pending operation may be left. At the end: a refresh, an up that must change nothing and send
 * no mutating request, a second refresh that must change nothing, the checks again; then `pulumi
 * destroy`, interrupted in the same way at a record delete and recovered (cancel after a SIGKILL,
 * destroy again until one exits 0 with nothing left in the stack: the CLI ends a destroy cancelled in
 * its deletes with exit code 0), after which the stack must hold nothing, no record of the campaign
 * may be left in the service's zones, and nothing may have been charged.
 *
 * `up` runs with `--skip-preview` (the preview changes nothing and would double each run's cost)
 * and `--parallel` as the engine's campaign.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ResourceState } from "../engine/state";
import { PROGRAM_ARGS_ENV } from "../engine/program-args";
import { CliStack, descendants, killTree, makeProject, requirePulumiCli, type CliRun, type StackExport } from "../pulumi-cli";
import { typeToken, type Kind } from "../../resources/kinds";
import { startSandbox, type Fault, type LocalOperator } from "../../sandbox/index";
import { compareState, doubleCharges, FindingSet } from "./check";
import { addFaults, firedFaults, noFaults, roundFaults, FAULT_KINDS, type FaultKind } from "./faults";
import { CampaignDraw, DesiredModel, OP_KINDS, seededRandom, SEEDED_ZONE, type CampaignOptions, type OpKind, type Snapshot } from "./model";
import { compiledProgram } from "../engine/program-file";
import type { Metrics } from "../bench/bench";

export const INTERRUPT_KINDS = ["SIGINT", "SIGINT twice", "SIGKILL"] as const;
export type InterruptKind = (typeof INTERRUPT_KINDS)[number];

/** What the campaign spreads its interruptions over: registrations (and transfers), renewals, the two add-on purchases, record applies. */
export const INTERRUPT_TARGETS = ["registration", "renewal", "privacy", "protection", "record"] as const;
export type InterruptTarget = (typeof INTERRUPT_TARGETS)[number];

/** Where an interruption lands: the requests of one kind of operation. */
export interface InterruptPoint {
  name: string;
  target: InterruptTarget;
  method: string;
  path: RegExp;
  /** The model's operations that send such requests. */
  ops: OpKind[];
}

export const INTERRUPT_POINTS: InterruptPoint[] = [
  { name: "registration", target: "registration", method: "POST", path: /\/domains\/register$/, ops: ["register"] },
  { name: "transfer", target: "registration", method: "POST", path: /\/domains\/transfer$/, ops: ["transfer"] },
  { name: "renewal", target: "renewal", method: "POST", path: /\/domains\/[^/]+\/renew$/, ops: ["renew"] },
  { name: "privacy", target: "privacy", method: "POST", path: /\/domains\/[^/]+\/privacy$/, ops: ["privacy"] },
  { name: "protection", target: "protection", method: "POST", path: /\/domains\/[^/]+\/protection$/, ops: ["protection"] },
  { name: "recordCreate", target: "record", method: "POST", path: /\/records$/, ops: ["recordCreate"] },
  { name: "recordUpdate", target: "record", method: "PUT", path: /\/records\/[^/]+$/, ops: ["recordUpdate"] },
  { name: "recordDelete", target: "record", method: "DELETE", path: /\/records\/[^/]+$/, ops: ["recordDelete"] },
];

/** Interruptions sent, by the kind of request they interrupted (an INTERRUPT_POINTS name) and signal. */
export type InterruptTally = Record<string, Record<InterruptKind, number>>;

export const emptyTally = (): InterruptTally =>
  Object.fromEntries(INTERRUPT_POINTS.map((p) => [p.name, Object.fromEntries(INTERRUPT_KINDS.map((k) => [k, 0]))])) as InterruptTally;

/** The tally as lines, one per kind of request: "renewal: SIGINT 1, SIGINT twice 2, SIGKILL 1 (4)". */
export const tallyLines = (t: InterruptTally): string[] =>
  Object.entries(t).map(([name, by]) => `${name}: ${INTERRUPT_KINDS.map((k) => `${k} ${by[k]}`).join(", ")} (${INTERRUPT_KINDS.reduce((n, k) => n + by[k], 0)})`);

export interface ChaosCliOptions extends CampaignOptions {
  /** The interruption of round r is interrupts[r % length]; the destroy's is the next in turn. */
  interrupts: readonly InterruptKind[];
}

export const CHAOS_CLI_DEFAULTS: ChaosCliOptions = {
  ops: 1000,
  seed: 7,
  parallel: 8,
  timeoutSeconds: 1,
  faultsPerKind: 2,
  maxRuns: 6,
  interrupts: INTERRUPT_KINDS,
};

export interface ChaosCliReport {
  ops: number;
  opsByKind: Record<OpKind, number>;
  rounds: number;
  faultsInjected: Record<FaultKind, number>;
  /** Signals sent, by interruption. */
  interrupts: Record<InterruptKind, number>;
  /** Signals sent, by the kind of request they interrupted and by signal. */
  interruptedAt: InterruptTally;
  /** Interruptions sent while their request was held by the service, rather than just after an answer. */
  interruptsInFlight: number;
  /**
   * Interrupted commands the CLI still ended with exit code 0. The Pulumi CLI (v3.274.1) does so for
   * a destroy cancelled (SIGINT once) in its deletes: it stops them and says "The resources in the
   * stack have been deleted" while some are left; so the recovery runs the destroy again until the
   * stack is empty, whatever its code.
   */
  interruptedExitedZero: number;
  /** Rounds whose runs all ended before any request of the round's kinds was left to interrupt. */
  roundsNotInterrupted: number;
  /** CLI commands run (up, cancel, refresh, destroy, stack export). */
  cliCommands: number;
  upRuns: number;
  failedUps: number;
  cancels: number;
  charges: number;
  resourcesInState: number;
  finalRefreshChanges: number;
  finalUpChanges: number;
  finalUpMutatingRequests: number;
  /** Records the destroy deleted, and runs it took. */
  destroyedRecords: number;
  destroyRuns: number;
  /** Processes of an interrupted CLI still running 60 s after it exited (then killed). */
  leftoverProcesses: number;
  doubleCharges: number;
  lostResources: number;
  stateMismatches: number;
  elapsedSeconds: number;
  /** CPU of this process and of every process it waited for (the CLI and what the CLI waited for). */
  cpuSeconds: number;
  findings: string[];
}

const LIMIT = 100_000;
const YES = ["--yes", "--non-interactive"];
/** How long a second SIGINT waits for the CLI to say it is cancelling. */
const CANCELLING_WAIT_MS = 30_000;

const DYNAMIC_TYPES = new Set((["Domain", "DnsZone", "DnsRecord", "PrivacyAddon", "Protection"] as Kind[]).map(typeToken));

/** The stack's resources of the campaign's kinds, as the checks read them. */
export function exportedResources(s: StackExport): ResourceState[] {
  return (s.deployment.resources ?? [])
    .filter((r) => DYNAMIC_TYPES.has(r.type))
    .map((r) => ({
      urn: r.urn,
      type: r.type,
      name: r.urn.slice(r.urn.lastIndexOf("::") + 2),
      id: r.id ?? "",
      custom: true,
      inputs: (r.inputs ?? {}) as ResourceState["inputs"],
      outputs: (r.outputs ?? {}) as ResourceState["outputs"],
      secretKeys: [],
      dependencies: [],
    }));
}

/** The pending operations of an export, e.g. "creating dom-3". */
export const pendingOperations = (s: StackExport): string[] => (s.deployment.pending_operations ?? []).map((p) => `${p.type} ${p.resource.urn.slice(p.resource.urn.lastIndexOf("::") + 2)}`);

const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * Changes in a command's "Resources:" summary (`+ 2 created`, `~ 1 updated`, `- 1 deleted`, ...;
 * `N unchanged` and `N errored` are not changes); undefined when it printed none.
 */
export function summaryChanges(stdout: string): number | undefined {
  const text = stdout.replace(ANSI, "");
  const at = text.lastIndexOf("\nResources:\n");
  if (at < 0) return undefined;
  let n = 0;
  for (const line of text.slice(at + "\nResources:\n".length).split("\n")) {
    if (line.trim() === "") break;
    const m = /^ {4}[^\s\d]+ ?(\d+) [a-z]/.exec(line);
    if (m) n += Number(m[1]);
  }
  return n;
}

/** CPU seconds of this process and of the children it has waited for (Linux: /proc/self/stat). */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 16 and 17 of stat(5) (cutime, cstime), here counted from field 3; clock ticks of 1/100 s.
    children = (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    // not Linux: this process only
  }
  return (own.user + own.system) / 1e6 + children;
}

const pick = <T>(random: () => number, xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Where and how one command is interrupted. */
export interface InterruptPlan {
  kind: InterruptKind;
  /** The kinds of request it may interrupt (usually one). */
  points: InterruptPoint[];
  /** Requests of those kinds answered before the signal (between answers), or before the held one. */
  after: number;
  /** Hold the next request of those kinds this long and signal once it arrived; undefined: signal just after the `after`th answer. */
  holdMs?: number;
  /** Widened to any of the round's kinds (fallbackPlan). */
  widened?: true;
}

export interface InterruptResult {
  run: CliRun;
  /** The kind of request at which the signal was sent; undefined when none was (the point was not reached). */
  firedAt?: string;
  /** When the service answers the request it held (ms since the epoch), if it held one. */
  heldUntil?: number;
  /** Processes below the CLI that outlived it by 60 s (killed then). */
  leftovers: number;
  /** Requests of the plan's kinds the service saw in the run, and how many of them it committed (a first time, not replayed). */
  seen: number;
  committed: number;
}

/**
 * Runs `pulumi <args>` and interrupts it as `plan` says, timed on the sandbox's request log (polled
 * every 5 ms, in this process). A held request is held by a delay fault put first in the sandbox's
 * list, so it is the one the next request of that kind meets.
 */
export async function interruptedCommand(stack: CliStack, op: LocalOperator, args: string[], plan: InterruptPlan): Promise<InterruptResult> {
  const marker = (p: InterruptPoint): string => `/${p.path.source}/`;
  const holds = new Map(plan.points.map((p) => [`${p.method} ${marker(p)}`, p]));
  const hold = (f: Fault): boolean => holds.has(`${f.match?.method} ${f.match?.path}`);
  const at = (e: { method: string; path: string }): InterruptPoint | undefined => plan.points.find((p) => e.method === p.method && p.path.test(e.path));
  const matching = (): number => op.requests().filter(at).length;
  const { child, done } = stack.start(args);
  let out = "";
  child.stdout!.on("data", (d: Buffer | string) => (out += String(d)));
  let armed = false;
  let fired = false;
  let firedAt: string | undefined;
  let second = false;
  let signalledAt = 0;
  let heldUntil: number | undefined;
  let seen = -1;
  let tree: number[] = [];
  const signal = (): void => {
    fired = true;
    signalledAt = Date.now();
    if (plan.kind === "SIGKILL") {
      tree = killTree(child);
      return;
    }
    tree = descendants(child.pid!);
    child.kill("SIGINT");
  };
  const tick = (): void => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (fired) {
      if (plan.kind === "SIGINT twice" && !second && (out.includes("^C received; cancelling") || Date.now() - signalledAt > CANCELLING_WAIT_MS)) {
        second = true;
        child.kill("SIGINT");
      }
      return;
    }
    if (!armed) {
      const received = op.requestsReceived().count;
      if (received === seen) return;
      seen = received;
      if (matching() < plan.after) return;
      armed = true;
      if (plan.holdMs === undefined) {
        firedAt = at(op.requests().filter(at).at(-1)!)?.name;
        return signal();
      }
      const rest = op.faults();
      op.clearFaults();
      for (const p of plan.points) op.injectFault({ kind: "delay", ms: plan.holdMs, count: 1, match: { method: p.method, path: marker(p) } });
      for (const f of rest) op.injectFault(f);
      return;
    }
    const left = op.faults().filter(hold);
    if (left.length < plan.points.length) {
      // One was taken: that request is held now; the others go.
      const taken = plan.points.find((p) => !left.some((f) => f.match?.method === p.method && f.match?.path === marker(p)));
      firedAt = taken?.name;
      const rest = op.faults().filter((f) => !hold(f));
      op.clearFaults();
      for (const f of rest) op.injectFault(f);
      heldUntil = Date.now() + plan.holdMs!;
      signal();
    }
  };
  const timer = setInterval(tick, 5);
  let run: CliRun;
  try {
    run = await done;
  } finally {
    clearInterval(timer);
    if (op.faults().some(hold)) {
      const rest = op.faults().filter((f) => !hold(f));
      op.clearFaults();
      for (const f of rest) op.injectFault(f);
    }
  }
  // What an interrupted CLI left running: given a minute to finish, then killed.
  let leftovers = tree.filter(alive);
  for (let waited = 0; leftovers.length > 0 && waited < 60_000; waited += 200) {
    await sleep(200);
    leftovers = leftovers.filter(alive);
  }
  for (const pid of leftovers) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  const log = op.requests().filter(at);
  const committed = log.filter((e) => e.mutating && !e.replayed).length;
  return { run, firedAt: fired ? firedAt : undefined, heldUntil, leftovers: leftovers.length, seen: log.length, committed };
}

/**
 * The kind of operation a round interrupted by `signal` aims at: of the kinds among `kinds`, the one
 * `signal` interrupted least so far, then the one interrupted least by any signal, then at random.
 * Undefined when `kinds` has none.
 */
export function chooseTarget(random: () => number, signal: InterruptKind, kinds: OpKind[], tally: InterruptTally): InterruptTarget | undefined {
  const count = (t: InterruptTarget, k?: InterruptKind): number =>
    INTERRUPT_POINTS.filter((p) => p.target === t).reduce((n, p) => n + (k ? (tally[p.name]?.[k] ?? 0) : INTERRUPT_KINDS.reduce((m, s) => m + (tally[p.name]?.[s] ?? 0), 0)), 0);
  const present = INTERRUPT_TARGETS.filter((t) => INTERRUPT_POINTS.some((p) => p.target === t && p.ops.some((o) => kinds.includes(o))));
  if (!present.length) return undefined;
  const score = (t: InterruptTarget): [number, number] => [count(t, signal), count(t)];
  const best = present.map(score).reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
  return pick(random, present.filter((t) => score(t)[0] === best[0] && score(t)[1] === best[1]));
}

/**
 * A plan for a command that runs operations of `kinds`: a point of one of them (of `target`'s, when
 * given and the command runs some), a random place in it.
 */
export function planInterrupt(random: () => number, kind: InterruptKind, kinds: OpKind[], timeoutSeconds: number, target?: InterruptTarget): InterruptPlan {
  const all = INTERRUPT_POINTS.filter((p) => p.ops.some((k) => kinds.includes(k)));
  const aimed = all.filter((p) => p.target === target);
  const points = aimed.length ? aimed : all;
  const point = pick(random, points.length ? points : INTERRUPT_POINTS);
  const count = kinds.filter((k) => point.ops.includes(k)).length;
  const inFlight = random() < 0.7;
  // Between answers: after the 1st to the last; held: the 1st to the last request of the kind.
  const after = inFlight ? Math.floor(random() * count) : 1 + Math.floor(random() * Math.max(1, count));
  return { kind, points: [point], after, holdMs: inFlight ? holdMs(random, timeoutSeconds) : undefined };
}

/** A hold that ends before or after the client's timeout, at random. */
const holdMs = (random: () => number, timeoutSeconds: number): number => Math.round(200 + random() * (timeoutSeconds * 1000 + 1300));

/**
 * The widened plan: the next request of any of the round's kinds, held. For the fault-free recovery
 * of a round whose planned kind has nothing left to send.
 */
export function fallbackPlan(random: () => number, plan: InterruptPlan, kinds: OpKind[], timeoutSeconds: number): InterruptPlan {
  const points = INTERRUPT_POINTS.filter((p) => p.ops.some((k) => kinds.includes(k)));
  return { kind: plan.kind, points: points.length ? points : INTERRUPT_POINTS, after: 0, holdMs: holdMs(random, timeoutSeconds), widened: true };
}

/** The same point after a run that sent `seen` of its requests without reaching it: the place left in it. */
export function carriedPlan(plan: InterruptPlan, seen: number): InterruptPlan {
  return { ...plan, after: plan.holdMs === undefined ? Math.max(1, plan.after - seen) : Math.max(0, plan.after - seen) };
}

/**
 * The plan of the next run of a round whose plan was not reached in the last run (`ran`: under
 * faults or not, and the requests of the plan's kinds it sent). The planned kind is kept while the
 * faults last, and into the fault-free recovery while requests of it are left to send (`left`: the
 * round's operations of that kind the service has not committed yet); it widens to the next request
 * of any of the round's kinds only once the faults are cleared and the kind has nothing left (or a
 * fault-free run went by without reaching it).
 */
export function nextPlan(
  random: () => number,
  plan: InterruptPlan,
  ran: { faulted: boolean; seen: number },
  next: { faulted: boolean; left: number },
  kinds: OpKind[],
  timeoutSeconds: number,
): InterruptPlan {
  if (plan.widened) return fallbackPlan(random, plan, kinds, timeoutSeconds);
  if (next.faulted || (ran.faulted && next.left > 0)) return carriedPlan(plan, ran.seen);
  return fallbackPlan(random, plan, kinds, timeoutSeconds);
}

/** The project: Pulumi.yaml, the program (chaos-program over snapshot.json) and node_modules. */
function chaosProject(): string {
  const program = compiledProgram("dev/chaos/program.ts");
  const index = [
    "// The chaos campaign's program (dev/chaos/program.ts) over the round's snapshot, written beside it.",
    'const fs = require("node:fs");',
    'const path = require("node:path");',
    `process.env[${JSON.stringify(PROGRAM_ARGS_ENV)}] = fs.readFileSync(path.join(__dirname, "snapshot.json"), "utf8");`,
    `module.exports = require(${JSON.stringify(program)});`,
    "",
  ].join("\n");
  return makeProject("chaos", { "index.js": index });
}

export async function runChaosCli(opts: ChaosCliOptions, progress: (line: string) => void = () => undefined): Promise<ChaosCliReport> {
  const started = performance.now();
  const cpuStart = cpuSeconds();
  const random = seededRandom(opts.seed);
  const cli = requirePulumiCli();
  const sandbox = await startSandbox({ port: 0, requestsPerMinute: LIMIT, processingDelaySeconds: 0 });
  const op = sandbox.operator;
  op.settings({ balance: "10000000.00" });
  const ledgerBase = op.ledger().length;
  const projectDir = chaosProject();
  const faults = noFaults();
  const found = new FindingSet();
  const interrupts = Object.fromEntries(INTERRUPT_KINDS.map((k) => [k, 0])) as Record<InterruptKind, number>;
  const interruptedAt = emptyTally();
  let interruptsInFlight = 0;
  let interruptedExitedZero = 0;
  let cliCommands = 0;
  let upRuns = 0;
  let failedUps = 0;
  let cancels = 0;
  let leftoverProcesses = 0;
  let round = 0;
  let resourcesInState = 0;
  let finalRefreshChanges = 0;
  let finalUpChanges = 0;
  let finalUpMutating = 0;
  let destroyedRecords = 0;
  let destroyRuns = 0;
  /** The service answers every request it holds by then. */
  let quietAt = 0;
  /** Where the last interruption was sent. */
  let lastInterrupt: string | undefined;
  /** The last interrupted command's requests of its plan's kinds. */
  let lastRun = { seen: 0, committed: 0 };
  let roundsNotInterrupted = 0;
  const maxDelayMs = opts.timeoutSeconds * 1000 + 1500;
  const stack = await CliStack.init({
    cli,
    projectDir,
    stack: "chaos",
    passphrase: "chaos",
    env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined },
  });
  cliCommands += 2;

  /** One CLI command; the faults that fired in it are tallied and the request log cleared. */
  const command = async (args: string[], plan?: InterruptPlan): Promise<CliRun> => {
    op.clearRequests();
    cliCommands++;
    const t = performance.now();
    let held = false;
    try {
      if (!plan) return await stack.run(args);
      const r = await interruptedCommand(stack, op, args, plan);
      leftoverProcesses += r.leftovers;
      lastRun = { seen: r.seen, committed: r.committed };
      held = r.heldUntil !== undefined;
      if (opts.verbose) progress(`  ${args[0]} ${r.firedAt ? `${plan.kind} at ${r.firedAt} #${plan.after}${held ? ` (held ${plan.holdMs} ms)` : ""}` : "not interrupted"}`);
      if (!r.firedAt) return r.run;
      lastInterrupt = r.firedAt;
      interrupts[plan.kind]++;
      interruptedAt[r.firedAt][plan.kind]++;
      if (held) interruptsInFlight++;
      if (r.run.code === 0) {
        interruptedExitedZero++;
        if (opts.verbose) progress(`    ${args[0]} exited 0 though interrupted (${plan.kind} at ${r.firedAt})`);
      }
      quietAt = Math.max(quietAt, Date.now() + maxDelayMs, r.heldUntil ?? 0);
      if (plan.kind === "SIGKILL") {
        // docs/interrupted-runs.md: a killed CLI leaves the stack locked until `pulumi cancel`.
        cliCommands++;
        cancels++;
        const cancel = await stack.run(["cancel", ...YES]);
        if (cancel.code !== 0) found.add({ stateMismatches: [`round ${round}: pulumi cancel after a SIGKILL exited ${cancel.code}: ${cancel.stderr.trim().slice(0, 200)}`] });
      }
      return r.run;
    } finally {
      const fired = firedFaults(op.requests());
      // The request held to be interrupted is the campaign's delay, not one of the sandbox's timeouts.
      if (held && fired.timeout > 0) fired.timeout--;
      addFaults(faults, fired);
      if (opts.verbose) progress(`    pulumi ${args[0]} ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
  };
  const up = async (plan?: InterruptPlan): Promise<{ ok: boolean; changes?: number; run: CliRun }> => {
    upRuns++;
    const run = await command(["up", ...YES, "--skip-preview", "--parallel", String(opts.parallel)], plan);
    const ok = run.code === 0;
    if (!ok) failedUps++;
    if (!ok && opts.verbose) progress(`    up failed: ${(run.stdout + run.stderr).split("\n").filter((l) => /error/i.test(l)).slice(0, 2).join(" | ").slice(0, 300)}`);
    return { ok, changes: summaryChanges(run.stdout), run };
  };
  const refresh = async (): Promise<number | undefined> => {
    const run = await command(["refresh", "--clear-pending-creates", ...YES, "--skip-preview"]);
    if (run.code !== 0) found.add({ stateMismatches: [`round ${round}: refresh --clear-pending-creates exited ${run.code}: ${run.stdout.split("\n").filter((l) => /error/i.test(l)).slice(0, 2).join(" | ").slice(0, 300)}`] });
    return summaryChanges(run.stdout);
  };
  const exported = async (): Promise<StackExport> => {
    cliCommands++;
    return stack.exportState();
  };
  /** The checks of the engine's campaign on the exported state, and no pending operation left. */
  const check = async (desired: Snapshot, when: string): Promise<number> => {
    const wait = quietAt - Date.now();
    if (wait > 0) await sleep(wait);
    const state = await exported();
    const resources = exportedResources(state);
    resourcesInState = resources.length;
    const ledger = op.ledger().slice(ledgerBase);
    const pending = pendingOperations(state).map((p) => `${when}: ${p} is still pending after the recovery`);
    const compared = compareState(desired, resources, op.state(), ledger);
    return found.add({ doubleCharges: doubleCharges(ledger, desired), lostResources: compared.lostResources, stateMismatches: [...compared.stateMismatches, ...pending] });
  };
  /** Whether the exported state and the service are as `desired` wants them, pending operations apart (the refresh's to clear). */
  const asDesired = async (desired: Snapshot): Promise<boolean> => {
    const wait = quietAt - Date.now();
    if (wait > 0) await sleep(wait);
    const c = compareState(desired, exportedResources(await exported()), op.state(), op.ledger().slice(ledgerBase));
    return c.lostResources.length + c.stateMismatches.length === 0;
  };
  const writeSnapshot = (s: Snapshot): void => fs.writeFileSync(path.join(projectDir, "snapshot.json"), JSON.stringify(s));

  const model = new DesiredModel(random);
  const draw = new CampaignDraw(model, opts);
  let last: Snapshot = model.snapshot();
  try {
    await stack.configSet("reseller:baseUrl", sandbox.url);
    await stack.configSet("reseller:apiKey", sandbox.credentials.key);
    await stack.configSet("reseller:apiSecret", sandbox.credentials.secret, { secret: true });
    await stack.configSet("reseller:requestsPerMinute", String(LIMIT));
    await stack.configSet("reseller:timeoutSeconds", String(opts.timeoutSeconds));
    cliCommands += 5;

    while (!draw.done) {
      const { asked: n, kinds } = draw.round(round);
      last = model.snapshot();
      writeSnapshot(last);
      const roundStart = performance.now();
      const firedBefore = { ...faults };
      const kind = opts.interrupts[round % opts.interrupts.length];
      const target = chooseTarget(random, kind, kinds, interruptedAt);
      let plan: InterruptPlan | undefined = planInterrupt(random, kind, kinds, opts.timeoutSeconds, target);
      /** The round's operations of the planned kind, less the requests of it the service committed. */
      let left = kinds.filter((k) => plan!.points.some((p) => p.ops.includes(k))).length;
      let ran: { faulted: boolean; seen: number } | undefined;
      lastInterrupt = undefined;
      /** An up, interrupted as planned until a signal was sent; the plan is kept or widened by nextPlan. */
      const planned = async (faulted: boolean): Promise<Awaited<ReturnType<typeof up>>> => {
        if (plan && ran) plan = nextPlan(random, plan, ran, { faulted, left }, kinds, opts.timeoutSeconds);
        const r = await up(plan);
        if (lastInterrupt) plan = undefined;
        else if (plan) {
          if (!plan.widened) left -= lastRun.committed;
          ran = { faulted, seen: lastRun.seen };
        }
        return r;
      };

      // Under faults: up to three runs, until one succeeds.
      for (const f of roundFaults(random, Math.max(opts.faultsPerKind, Math.round(n / 15)), opts.timeoutSeconds * 1000)) op.injectFault(f);
      let ok = false;
      for (let i = 0; i < (opts.faultedRuns ?? 3) && !ok; i++) ok = (await planned(true)).ok;
      // Without faults: up until clean (it succeeds and changes nothing, or leaves nothing for the
      // checks to find but pending operations), then refresh --clear-pending-creates.
      // A faulted run that succeeded after the interruption may have left it clean already.
      op.clearFaults();
      let clean = ok && lastInterrupt !== undefined && (await asDesired(last));
      for (let i = 0; i < opts.maxRuns && !clean; i++) {
        const r = await planned(false);
        clean = r.ok && (r.changes === 0 || (await asDesired(last)));
      }
      if (!clean) found.add({ lostResources: [`round ${round}: up did not come clean in ${opts.maxRuns} runs without faults`] });
      const interruptedRound = lastInterrupt !== undefined;
      if (interruptedRound) await refresh();
      else roundsNotInterrupted++;
      const fresh = await check(last, `round ${round}`);
      const fired = FAULT_KINDS.map((k) => `${k} ${faults[k] - firedBefore[k]}`).join(", ");
      progress(
        `round ${round}: ${draw.opsDone}/${opts.ops} ops; faults fired: ${fired}; ${interruptedRound ? `${kind} at ${lastInterrupt}` : "not interrupted"} (aimed at ${target ?? "nothing"}); ` +
          `${((performance.now() - roundStart) / 1000).toFixed(1)} s${fresh ? `; ${fresh} new finding(s)` : ""}`,
      );
      round++;
    }

    // The end: refresh to settle, a no-op up, a refresh that changes nothing, the checks again.
    const settled = (await refresh()) ?? 0;
    const again = await up();
    finalUpChanges = again.changes ?? -1;
    finalUpMutating = op.requests().filter((e) => e.mutating).length;
    if (!again.ok) found.add({ stateMismatches: [`final up failed: ${again.run.stdout.split("\n").filter((l) => /error/i.test(l)).slice(0, 2).join(" | ").slice(0, 300)}`] });
    if (finalUpChanges) found.add({ stateMismatches: [`final up: ${finalUpChanges} change(s) where none was due`] });
    if (finalUpMutating) found.add({ stateMismatches: [`final up: ${finalUpMutating} mutating request(s)`] });
    finalRefreshChanges = (await refresh()) ?? -1;
    if (finalRefreshChanges) found.add({ stateMismatches: [`second refresh: ${finalRefreshChanges} change(s)`] });
    await check(last, "final");
    const inState = resourcesInState;
    progress(`final: refresh settled ${settled} change(s), no-op up ${finalUpChanges} change(s) and ${finalUpMutating} mutating request(s), second refresh ${finalRefreshChanges} change(s)`);

    // Destroy, interrupted at a record delete, recovered by cancel (after a SIGKILL) and destroy again
    // until it succeeds and the stack holds none of the campaign's resources: an interrupted destroy
    // may exit 0 with resources left (interruptedExitedZero).
    const charges = op.ledger().length;
    const destroyKind = opts.interrupts[round % opts.interrupts.length];
    const destroyPlan = planInterrupt(random, destroyKind, last.records.map(() => "recordDelete"), opts.timeoutSeconds);
    const live = (): { zone: string; id: string }[] =>
      Object.values(op.state().zones).flatMap((z) => z.records.filter((r) => /^r\d+$/.test(r.name)).map((r) => ({ zone: z.domain, id: r.id })));
    const before = live().length;
    lastInterrupt = undefined;
    let destroyed = false;
    for (let i = 0; i < opts.maxRuns && !destroyed; i++) {
      destroyRuns++;
      const run = await command(["destroy", ...YES, "--skip-preview", "--parallel", String(opts.parallel)], i === 0 ? destroyPlan : undefined);
      const held = exportedResources(await exported()).length;
      if (opts.verbose) progress(`    destroy exited ${run.code ?? run.signal}; ${held} resource(s) left in state`);
      destroyed = run.code === 0 && held === 0;
    }
    destroyedRecords = before - live().length;
    const wait = quietAt - Date.now();
    if (wait > 0) await sleep(wait);
    const gone = await exported();
    const inStateAfter = exportedResources(gone);
    const leftInState = inStateAfter.map((r) => `${r.name} (${r.id})`);
    const leftLive = live().filter((r) => r.zone === SEEDED_ZONE || last.domains.some((d) => d.zone && d.domain === r.zone));
    const lostLive = leftLive.filter((r) => !inStateAfter.some((s) => s.id === r.id));
    if (!destroyed) found.add({ lostResources: [`destroy did not succeed in ${opts.maxRuns} runs`] });
    found.add({
      lostResources: lostLive.map((r) => `destroy: record ${r.id} of ${r.zone} is live but no longer in state`),
      stateMismatches: [...leftInState.map((r) => `destroy: ${r} is still in state`), ...pendingOperations(gone).map((p) => `destroy: ${p} is still pending`)],
      doubleCharges: op.ledger().slice(charges).map((e) => `destroy: ${e.domain} charged (${e.action})`),
    });
    progress(`destroy: ${lastInterrupt ? `${destroyKind} at ${lastInterrupt}` : "not interrupted"}, ${destroyRuns} run(s), ${destroyedRecords} record(s) deleted, ${leftLive.length} left live, ${leftInState.length} left in state`);
    if (opts.verbose) for (const l of ["interruptions by kind of request and signal:", ...tallyLines(interruptedAt).map((l) => `  ${l}`)]) progress(l);
    resourcesInState = inState;
  } finally {
    await stack.dispose();
    fs.rmSync(projectDir, { recursive: true, force: true });
    await sandbox.close();
  }

  return {
    ops: draw.opsDone,
    opsByKind: draw.opsByKind,
    rounds: round,
    faultsInjected: faults,
    interrupts,
    interruptedAt,
    interruptsInFlight,
    interruptedExitedZero,
    roundsNotInterrupted,
    cliCommands,
    upRuns,
    failedUps,
    cancels,
    charges: op.ledger().length - ledgerBase,
    resourcesInState,
    finalRefreshChanges,
    finalUpChanges,
    finalUpMutatingRequests: finalUpMutating,
    destroyedRecords,
    destroyRuns,
    leftoverProcesses,
    doubleCharges: found.all.doubleCharges.size,
    lostResources: found.all.lostResources.size,
    stateMismatches: found.all.stateMismatches.size,
    elapsedSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    cpuSeconds: Number((cpuSeconds() - cpuStart).toFixed(1)),
    findings: found.lines(20),
  };
}

/** The report as metric/value rows. */
export function cliReportMetrics(r: ChaosCliReport): Metrics {
  return {
    ops: r.ops,
    ...Object.fromEntries(OP_KINDS.map((k) => [`ops.${k}`, r.opsByKind[k]])),
    rounds: r.rounds,
    ...Object.fromEntries(FAULT_KINDS.map((k) => [`faults.${k}`, r.faultsInjected[k]])),
    ...Object.fromEntries(INTERRUPT_KINDS.map((k) => [`interrupts.${k.replace(" ", "")}`, r.interrupts[k]])),
    ...Object.fromEntries(Object.entries(r.interruptedAt).flatMap(([at, by]) => INTERRUPT_KINDS.map((k) => [`interruptedAt.${at}.${k.replace(" ", "")}`, by[k]]))),
    interruptsInFlight: r.interruptsInFlight,
    interruptedExitedZero: r.interruptedExitedZero,
    roundsNotInterrupted: r.roundsNotInterrupted,
    cliCommands: r.cliCommands,
    upRuns: r.upRuns,
    failedUps: r.failedUps,
    cancels: r.cancels,
    charges: r.charges,
    resourcesInState: r.resourcesInState,
    finalRefreshChanges: r.finalRefreshChanges,
    finalUpChanges: r.finalUpChanges,
    finalUpMutatingRequests: r.finalUpMutatingRequests,
    destroyRuns: r.destroyRuns,
    destroyedRecords: r.destroyedRecords,
    leftoverProcesses: r.leftoverProcesses,
    doubleCharges: r.doubleCharges,
    lostResources: r.lostResources,
    stateMismatches: r.stateMismatches,
    elapsedSeconds: r.elapsedSeconds,
    cpuSeconds: r.cpuSeconds,
  };
}

export const cliFailed = (r: ChaosCliReport): boolean => r.doubleCharges + r.lostResources + r.stateMismatches > 0;
