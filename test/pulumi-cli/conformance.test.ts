/**
 * dev/engine/ against the real CLI: each scenario of dev/engine/'s conformance runs, operation by operation,
 * through dev/engine/ and through `pulumi` (a stack of its own in one local backend; the same fixture
 * program, test/dev/engine/fixtures/things.ts, given its spec the same way; the fixture provider logging
 * its calls to a directory of each side's own), and after each operation the two are compared by
 * (test/support/engine-vs-cli.ts):
 * - the step kinds, per resource (dev/engine/'s RunResult steps; the CLI's `preview --json` steps or the
 *   steps its `up|refresh --json` events started);
 * - the provider calls, each object's in order (steps of different resources run in parallel in both,
 *   up to --parallel 8 on this machine: across objects they compare as sets; an order across
 *   objects that a rule fixes is asserted on both logs);
 * - whether the operation failed, and (at the end) the final state: dev/engine/'s state against
 *   `pulumi stack export`.
 * What differs and is not normalised away is listed in dev/engine/README.md, "Where dev/engine/ differs from
 * the CLI". Rules that cannot run through a CLI (literal registrations, an in-process provider
 * answering what a test needs) stay proven against dev/engine/ alone: test/dev/engine/lifecycle/.
 * Every process start is one CLI command and one dev/engine/ operation, so rules whose objects stay
 * apart share a program and its operations (moves, resource options and the delete-before-replace
 * dependents: two ups): 9 heavy CLI commands where there were 13, the same rules compared.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Engine, EngineError, type RunResult } from "../../dev/engine/engine";
import { packageRoot } from "../../dev/engine/host";
import { PROGRAM_ARGS_ENV } from "../../dev/engine/program-args";
import { newUrn } from "../../dev/engine/urn";
import { CliStack, makeProject, requirePulumiCli, type CliRun, type StackExport } from "../../dev/pulumi-cli";
import { dbrDependents, expectDbrDependentsApplied, expectDbrDependentsPlan } from "../dev/engine/fixtures/dbr-dependents";
import type { ProgramSpec } from "../dev/engine/fixtures/program";
import { callsByObject, cliErrors, cliState, cliStepKinds, engineState, engineStepKinds, type StepKinds } from "../support/engine-vs-cli";

// Each operation runs twice (a program process and a provider host under each engine, the CLI too).
jest.setTimeout(600_000);

const THINGS = path.join(packageRoot(), "dist", "test", "dev", "engine", "fixtures", "things.js");
const THING = "pulumi-nodejs:dynamic/fixture:Thing";
const GROUP = "fixture:index:Group";

let cli: CliStack;
let projectDir: string;
beforeAll(async () => {
  // The project's program is the fixture program itself; its spec comes in the environment, as dev/engine/ passes it.
  projectDir = makeProject("reseller", { "index.js": `module.exports = require(${JSON.stringify(THINGS)});\n` });
  cli = await CliStack.init({ cli: requirePulumiCli(), projectDir, stack: "conformance" });
});
afterAll(async () => {
  await cli?.dispose();
  if (projectDir) fs.rmSync(projectDir, { recursive: true, force: true });
});

type Kind = "up" | "preview" | "refresh";
interface Side {
  steps: StepKinds;
  /** The fixture provider's calls, in the order made. */
  calls: string[];
  failed: boolean;
}
interface Compared {
  engine: Side & { result: RunResult; error?: EngineError };
  cli: Side & { run: CliRun };
}
const MUTATING = /^(create|update|delete) /;

/** One scenario: a stack of its own on each side (the same name), and a fixture directory of each side's own. */
class Scenario {
  readonly engineDir = fs.mkdtempSync(path.join(os.tmpdir(), "conform-engine-"));
  readonly cliDir = fs.mkdtempSync(path.join(os.tmpdir(), "conform-cli-"));
  private config: { engine: Record<string, string>; cli: Record<string, string> };
  private readonly secretKeys: string[] = [];
  private engineNow?: Engine;
  /** The provider hosts dev/engine/ started, one per operation, as the CLI starts one per command. */
  readonly hostPids: number[] = [];

  constructor(readonly stack: string) {
    this.config = { engine: { "fixture:dir": this.engineDir }, cli: { "fixture:dir": this.cliDir } };
  }

  private stateFile(): string {
    return path.join(this.engineDir, "state", `${this.stack}.json`);
  }

  static async start(stack: string): Promise<Scenario> {
    const s = new Scenario(stack);
    await cli.must(["stack", "init", stack]);
    await s.setConfig("fixture:dir", { engine: s.engineDir, cli: s.cliDir });
    return s;
  }

  /** `pulumi config set` on the CLI's stack; the engine's config for its next runs. */
  async setConfig(key: string, value: { engine: string; cli: string }, opts: { secret?: boolean } = {}): Promise<void> {
    await cli.must(["config", "set", "--stack", this.stack, ...(opts.secret ? ["--secret"] : []), key], { stdin: value.cli });
    this.config.engine[key] = value.engine;
    this.config.cli[key] = value.cli;
    if (opts.secret) this.secretKeys.push(key);
  }

  /** Where the provider logs: the directory its configuration names. */
  private callsOf(dir: string): string[] {
    const file = path.join(dir, "calls.log");
    if (!fs.existsSync(file)) return [];
    const lines = fs.readFileSync(file, "utf8").trim().split("\n").filter(Boolean);
    fs.rmSync(file);
    return lines;
  }

  /**
   * Runs one operation through dev/engine/, then through the CLI, and compares their step kinds, their
   * provider calls and whether they failed. `engineProgram` runs another form of the same program on
   * dev/engine/'s side (the .ts source).
   */
  async op(kind: Kind, spec?: ProgramSpec, opts: { runProgram?: boolean; engineProgram?: string } = {}): Promise<Compared> {
    const program = spec ? { file: opts.engineProgram ?? THINGS, args: spec } : undefined;
    this.engineNow = new Engine({
      stateFile: this.stateFile(),
      config: { ...this.config.engine },
      secretConfigKeys: this.secretKeys,
      stack: this.stack,
      runProgram: opts.runProgram,
      log: () => undefined,
      onHostStarted: (h) => void this.hostPids.push(h.pid),
    });
    let result: RunResult;
    let error: EngineError | undefined;
    try {
      result = kind === "up" ? await this.engineNow.up(program!) : kind === "preview" ? await this.engineNow.preview(program!) : await this.engineNow.refresh(program);
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      error = e;
      result = e.result;
    }
    // The provider logs where it is configured to: after a change of fixture:dir, there.
    const engineCalls = [...new Set([this.engineDir, this.config.engine["fixture:dir"]])].flatMap((d) => this.callsOf(d));

    const args = {
      up: ["up", "--yes", "--skip-preview", "--json"],
      preview: ["preview", "--json"],
      refresh: ["refresh", "--yes", "--skip-preview", "--json", ...(opts.runProgram ? ["--run-program"] : [])],
    }[kind];
    const run = await cli.run([...args, "--stack", this.stack, "--non-interactive"], { env: { [PROGRAM_ARGS_ENV]: JSON.stringify(spec ?? {}) } });
    const cliCalls = [...new Set([this.cliDir, this.config.cli["fixture:dir"]])].flatMap((d) => this.callsOf(d));

    const compared: Compared = {
      engine: { steps: engineStepKinds(result.steps), calls: engineCalls, failed: !!error, result, error },
      cli: { steps: cliStepKinds(run), calls: cliCalls, failed: run.code !== 0, run },
    };
    if (kind === "refresh" && opts.runProgram) {
      // Listed in dev/engine/README.md: with --run-program the CLI answers each registration with a Same
      // step of its own after the resource's refresh step; dev/engine/ answers it from the state, no step.
      for (const [urn, ops] of Object.entries(compared.cli.steps)) {
        expect(ops).toContain("same");
        compared.cli.steps[urn] = ops.filter((o, i) => o !== "same" || ops.indexOf("same") !== i);
      }
    }
    const view = (s: Side) => ({ steps: s.steps, calls: callsByObject(s.calls), failed: s.failed });
    expect({ operation: kind, ...view(compared.cli) }).toEqual({ operation: kind, ...view(compared.engine) });
    return compared;
  }

  /**
   * The final states, compared: dev/engine/'s and `pulumi stack export`'s. Returns the CLI's.
   * `stackOutputsDiffer`: the root stack's outputs are left out, a difference listed in dev/engine/README.md.
   */
  async compareStates(opts: { stackOutputsDiffer?: boolean } = {}): Promise<ReturnType<typeof cliState>> {
    const exported = JSON.parse((await cli.must(["stack", "export", "--stack", this.stack])).stdout) as StackExport;
    const fromCli = cliState(exported);
    const fromEngine = engineState(new Engine({ stateFile: this.stateFile(), config: {}, stack: this.stack }).allResources());
    const shown = (state: typeof fromCli) =>
      opts.stackOutputsDiffer ? state.map((r) => (r.type === "pulumi:pulumi:Stack" ? { urn: r.urn, type: r.type, custom: r.custom } : r)) : state;
    expect(shown(fromCli)).toEqual(shown(fromEngine));
    return fromCli;
  }

  /** Each side's mutating calls, for an order a rule fixes across objects. */
  static mutating(c: Compared): { engine: string[]; cli: string[] } {
    return { engine: c.engine.calls.filter((l) => MUTATING.test(l)), cli: c.cli.calls.filter((l) => MUTATING.test(l)) };
  }

  dispose(): void {
    fs.rmSync(this.engineDir, { recursive: true, force: true });
    fs.rmSync(this.cliDir, { recursive: true, force: true });
  }
}

const urnIn = (stack: string) => (qualifiedType: string, name: string): string => `urn:pulumi:${stack}::reseller::${qualifiedType}::${name}`;
const opOf = (c: Compared, urn: string): string[] | undefined => c.cli.steps[urn];

test("URNs of the root stack's children and of a parent type chain; .get() of a resource the provider finds gone kept with the asked id; preview hands dependents of an update and of a create unknown outputs", async () => {
  const s = await Scenario.start("urns");
  const urn = urnIn("urns");
  try {
    const groups = [{ name: "outer" }, { name: "inner", parent: "outer" }];
    // dev/engine/ runs the .ts source through the runner's own TypeScript path; the CLI the compiled program.
    const source = path.join(packageRoot(), "test", "dev", "engine", "fixtures", "things.ts");
    const up = await s.op("up", { groups, things: [{ name: "t", body: "from ts", parent: "inner" }], derived: true, reader: "nothing-here" }, { engineProgram: source });
    expect(up.engine.result.outputs).toMatchObject({ firstSize: 7, derivedBody: "first is 7 bytes" });
    expect(opOf(up, urn(THING, "reader"))).toEqual(["read"]);
    const state = await s.compareStates();
    // dev/engine/'s URN rule (sdk/go/common/resource/urn/urn.go New): the root stack left out of children's types.
    expect(newUrn("urns", "reseller", "pulumi:pulumi:Stack", THING, "reader")).toBe(urn(THING, "reader"));
    expect(newUrn("urns", "reseller", `${GROUP}$${GROUP}`, THING, "t")).toBe(urn(`${GROUP}$${GROUP}$${THING}`, "t"));
    expect(state.map((r) => r.urn)).toEqual(
      expect.arrayContaining([
        "urn:pulumi:urns::reseller::pulumi:pulumi:Stack::reseller-urns",
        urn(GROUP, "outer"),
        urn(`${GROUP}$${GROUP}`, "inner"),
        urn(`${GROUP}$${GROUP}$${THING}`, "t"),
      ]),
    );
    expect(state.find((r) => r.urn === urn(`${GROUP}$${GROUP}$${THING}`, "t"))?.parent).toBe(urn(`${GROUP}$${GROUP}`, "inner"));
    // Kept with the asked id and no body: a dynamic Read always answers properties (step.go ReadStep.Apply).
    expect(state.find((r) => r.urn === urn(THING, "reader"))).toMatchObject({ id: "nothing-here", external: true });
    expect(state.find((r) => r.urn === urn(THING, "reader"))?.outputs?.body).toBeUndefined();

    // Preview: an update hands its dependent unknown outputs (provider_plugin.go Update with preview), a create too.
    const update = await s.op("preview", { groups, things: [{ name: "t", body: "123", parent: "inner" }], derived: true, reader: "nothing-here" });
    expect(update.cli.calls).toContain("check derived olds=derived body=unknown");
    const create = await s.op("preview", { things: [{ name: "n", body: "1" }], derived: true });
    expect(create.cli.calls).toContain("check derived olds=derived body=unknown");
  } finally {
    s.dispose();
  }
});

/**
 * Three rule sets in one program, so the CLI and dev/engine/ each run two ups for them all: moves
 * (reparent, rename, aliases), resource options, and the delete-before-replace dependents
 * (test/dev/engine/fixtures/dbr-dependents.ts: a to p). Each object has a name of its own; every
 * assertion below names its objects, and an order across objects is asserted among them only.
 */
describe("moves, resource options and delete-before-replace dependents, two ups", () => {
  const urn = urnIn("rules");
  const only = (steps: StepKinds, names: string[]): StepKinds => Object.fromEntries(Object.entries(steps).filter(([u]) => names.includes(u.slice(u.lastIndexOf("::") + 2))));
  const nameOf = (u: string): string => u.slice(u.lastIndexOf("::") + 2);
  let s: Scenario;
  let moved: Compared;
  let before: ReturnType<typeof cliState>;
  let after: ReturnType<typeof cliState>;
  beforeAll(async () => {
    s = await Scenario.start("rules");
    await s.op("up", {
      groups: [{ name: "g" }, { name: "h" }],
      things: [
        // Moves.
        { name: "t", file: "t1", body: "1" },
        { name: "r", file: "r1", body: "1" },
        { name: "ta", body: "1" },
        { name: "ra", body: "1" },
        { name: "child", body: "1", parent: "h" },
        // Options.
        { name: "kept", body: "1", retainOnDelete: true },
        { name: "x", body: "1" },
        { name: "i", body: "first", ignoreChanges: ["body"] },
        { name: "dbr-on", body: "1", deleteBeforeReplace: true },
        { name: "dbr-off", body: "1", kind: "delete-first", deleteBeforeReplace: false },
        { name: "k", body: "1" },
        { name: "roc", body: "1", replaceOnChanges: ["body"] },
        { name: "u", body: "1", kind: "nodiff", replaceOnChanges: ["body"] },
        { name: "pr", body: "1", protect: true },
        ...dbrDependents("a"),
      ],
    });
    before = await s.compareStates();
    moved = await s.op("up", {
      groups: [{ name: "g" }, { name: "h2", aliases: [{ name: "h" }] }],
      things: [
        { name: "t", file: "t1", body: "1", parent: "g" },
        { name: "r2", file: "r1", body: "1" },
        { name: "ta", body: "1", parent: "h2", aliases: [{ parent: null }] },
        { name: "ra2", file: "ra", body: "1", aliases: [{ name: "ra" }] },
        { name: "child", body: "1", parent: "h2" },
        { name: "x", body: "1" },
        { name: "i", body: "second", ignoreChanges: ["body"] },
        { name: "dbr-on", file: "dbr-on2", body: "1", deleteBeforeReplace: true },
        { name: "dbr-off", file: "dbr-off2", body: "1", kind: "delete-first", deleteBeforeReplace: false },
        { name: "k", file: "k2", body: "1" },
        { name: "roc", body: "2", replaceOnChanges: ["body"] },
        { name: "u", body: "2", kind: "nodiff", replaceOnChanges: ["body"] },
        { name: "pr", body: "1", protect: true },
        ...dbrDependents("a2"),
      ],
      reader: "x",
    });
    after = await s.compareStates();
  });
  afterAll(() => s?.dispose());

  test("reparent or rename without an alias: create the new URN, delete the old at the end; with an alias, and a child following its aliased parent, the same resource", () => {
    expect(only(moved.cli.steps, ["child", "t", "ta", "r", "r2", "ra2"])).toEqual({
      [urn(GROUP + "$" + THING, "child")]: ["same"],
      [urn(GROUP + "$" + THING, "t")]: ["create"],
      [urn(GROUP + "$" + THING, "ta")]: ["same"],
      [urn(THING, "r")]: ["delete"],
      [urn(THING, "r2")]: ["create"],
      [urn(THING, "ra2")]: ["same"],
      [urn(THING, "t")]: ["delete"],
    });
    // Across objects: each old URN's delete comes after the create of the new one (at the end).
    for (const m of Object.values(Scenario.mutating(moved))) {
      expect(m.indexOf("delete t1")).toBeGreaterThan(m.indexOf("create t1"));
      expect(m.indexOf("delete r1")).toBeGreaterThan(m.indexOf("create r1"));
    }
    expect(after.filter((r) => r.custom && ["child", "t", "ta", "r", "r2", "ra", "ra2"].includes(nameOf(r.urn))).map((r) => r.urn)).toEqual(
      [urn(`${GROUP}$${THING}`, "child"), urn(`${GROUP}$${THING}`, "t"), urn(`${GROUP}$${THING}`, "ta"), urn(THING, "r2"), urn(THING, "ra2")].sort(),
    );
    // The damage a move without alias does to an object named by its inputs: the new one is deleted too.
    expect(fs.existsSync(path.join(s.cliDir, "t1"))).toBe(false);
  });

  test("retainOnDelete, ignoreChanges, deleteBeforeReplace either way, a replacement's second Check, replaceOnChanges, protect, ReadResource (.get) of an existing resource", () => {
    expect(only(moved.cli.steps, ["dbr-on", "dbr-off", "roc", "i", "k", "kept", "pr", "reader", "u", "x"])).toEqual({
      [urn(THING, "dbr-off")]: ["delete", "replace"],
      [urn(THING, "dbr-on")]: ["delete", "replace"],
      [urn(THING, "i")]: ["same"],
      [urn(THING, "k")]: ["delete", "replace"],
      [urn(THING, "kept")]: ["delete"],
      [urn(THING, "pr")]: ["same"],
      [urn(THING, "reader")]: ["read"],
      [urn(THING, "roc")]: ["update"],
      [urn(THING, "u")]: ["delete", "replace"],
      [urn(THING, "x")]: ["same"],
    });
    for (const m of Object.values(Scenario.mutating(moved))) {
      // retainOnDelete: no Delete call; the deleteBeforeReplace option overrides the provider, either way.
      expect(m.filter((c) => c.endsWith(" kept"))).toEqual([]);
      expect(m.indexOf("delete dbr-on")).toBeLessThan(m.indexOf("create dbr-on2"));
      expect(m.indexOf("delete dbr-off")).toBeGreaterThan(m.indexOf("create dbr-off2"));
    }
    // A replacement is checked again without olds.
    expect(moved.cli.calls.filter((c) => c.startsWith("check k2 "))).toEqual(["check k2 olds=k", "check k2 olds=none"]);
    expect(fs.existsSync(path.join(s.cliDir, "kept"))).toBe(true);
    const of = (name: string) => after.find((x) => x.urn === urn(THING, name));
    expect(of("kept")).toBeUndefined();
    expect(of("i")?.inputs?.body).toBe("first");
    expect(of("pr")?.protect).toBe(true);
    expect(of("reader")).toMatchObject({ id: "x", external: true, outputs: { body: "1" } });
  });

  test("delete-before-replace deletes first the dependents it would replace, dependents of dependents first, and recreates them when they register; dependsOn and deletedWith are recorded", () => {
    // The scenario and its outcome: test/dev/engine/fixtures/dbr-dependents.ts.
    expect(before.find((r) => r.urn === urn(THING, "d"))?.dependencies).toEqual([urn(THING, "a")]);
    expect(before.find((r) => r.urn === urn(THING, "e"))?.deletedWith).toBe(urn(THING, "a"));
    expectDbrDependentsPlan(moved.engine.result, moved.cli.calls);
    const names = after.filter((x) => x.urn.includes(THING)).map((x) => ({ name: nameOf(x.urn), pendingReplacement: x.pendingReplacement }));
    for (const m of Object.values(Scenario.mutating(moved))) expectDbrDependentsApplied(m, names);
  });
});

test("refresh configures the provider from the config saved at the last up, unless --run-program; a secret config value stays sealed", async () => {
  const s = await Scenario.start("refresh");
  const elsewhere = { engine: fs.mkdtempSync(path.join(os.tmpdir(), "conform-engine-other-")), cli: fs.mkdtempSync(path.join(os.tmpdir(), "conform-cli-other-")) };
  try {
    await s.setConfig("fixture:token", { engine: "tok-3141-secret", cli: "tok-3141-secret" }, { secret: true });
    const spec = { things: [{ name: "a", body: "1" }] };
    await s.op("up", spec);
    // Today's config names another directory, where nothing is.
    await s.setConfig("fixture:dir", elsewhere);
    const fromState = await s.op("refresh");
    expect(fromState.cli.calls).toEqual(["read a", "diff a"]);
    expect(fromState.cli.steps).toEqual({ [urnIn("refresh")(THING, "a")]: ["same"] });
    // With --run-program, today's config: the provider looks in the other directory and finds nothing.
    const today = await s.op("refresh", spec, { runProgram: true });
    expect(today.cli.steps).toEqual({ [urnIn("refresh")(THING, "a")]: ["delete"] });
    // Listed in dev/engine/README.md: the CLI's stack outputs are the program's, run after a's refresh
    // (a gone, its size undefined); dev/engine/'s are the program's, run before (a's size from the state).
    const state = await s.compareStates({ stackOutputsDiffer: true });
    expect(state.find((r) => r.type === "pulumi:pulumi:Stack")?.outputs).toBeUndefined();
    expect(state.filter((r) => r.custom)).toEqual([]);
    const exported = (await cli.must(["stack", "export", "--stack", "refresh"])).stdout;
    expect(exported).not.toContain("tok-3141-secret");
    expect(fs.readFileSync(path.join(s.engineDir, "state", "refresh.json"), "utf8")).not.toContain("tok-3141-secret");
    // dev/engine/ started a provider host of its own per command, as the CLI does, each ended after.
    expect(new Set(s.hostPids).size).toBe(3);
    for (const pid of s.hostPids) expect(() => process.kill(pid, 0)).toThrow();
  } finally {
    s.dispose();
    for (const d of Object.values(elsewhere)) fs.rmSync(d, { recursive: true, force: true });
  }
});

test("the import option fails for a dynamic provider, and nothing is created", async () => {
  const s = await Scenario.start("import");
  try {
    fs.writeFileSync(path.join(s.engineDir, "existing"), "x");
    fs.writeFileSync(path.join(s.cliDir, "existing"), "x");
    const r = await s.op("up", { things: [{ name: "existing", body: "x", import: "existing" }] });
    expect(r.engine.error?.message).toMatch(/importing existing: .*code must be a string/);
    expect(cliErrors(r.cli.run)).toMatch(/code must be a string/);
    expect(Scenario.mutating(r)).toEqual({ engine: [], cli: [] });
    await s.compareStates();
  } finally {
    s.dispose();
  }
});
