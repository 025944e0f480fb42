// Conformance: each rule of the real engine that engine/ mirrors, pinned with the fixture file
// provider through the SDK's own program runner and dynamic provider host. Each test names the
// pulumi/pulumi source it mirrors.
// Rules about engine/'s step generation alone (protect refusals, --parallel, failed deletes and
// destroys, a failed delete-before-replace, a dropped pendingReplacement dependent, a protected
// replace's preview plan, a protected dependent's refusal in preview and in up, delete order by
// dependsOn and deletedWith, the runs after a partial failure, a .get() no longer read left undeleted,
// a duplicate URN) are proven in lifecycle/step-rules.test.ts with literal
// registrations; here stay the rules whose point is what the SDK's runner and host send, and one
// runner-level proof of each resource option the SDK sends. A partial failure through the runner and
// host, kept in state: engine.test.ts (a failure ends the run).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Engine, EngineError, type EngineOptions, type RunResult } from "../../engine/engine";
import { packageRoot, startProviderHost, type ProviderHost } from "../../engine/host";
import { newUrn } from "../../engine/urn";
import { dbrDependents, expectDbrDependentsApplied, expectDbrDependentsPlan } from "./fixtures/dbr-dependents";
import { keptOpen } from "../support/kept-open";
import type { ProgramSpec } from "./fixtures/program";

// Each run starts a program process and a provider host; on a loaded 2-core machine a test of
// several runs takes minutes, not the default minute.
jest.setTimeout(300_000);

const THINGS = path.join(packageRoot(), "dist", "test", "engine", "fixtures", "things.js");
const THING = "pulumi-nodejs:dynamic/fixture:Thing";
const GROUP = "fixture:index:Group";
const urn = (qualifiedType: string, name: string): string => `urn:pulumi:dev::reseller::${qualifiedType}::${name}`;

// The SDK's dynamic provider host, one for the file (see test/support/kept-open.ts): the file has one
// directory, emptied before each test.
describe("engine conformance", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-conf-"));
  let host: ProviderHost;
  let lines: string[];
  const stateFile = (): string => path.join(dir, "state", "dev.json");
  const calls = (): string[] =>
    fs.existsSync(path.join(dir, "calls.log")) ? fs.readFileSync(path.join(dir, "calls.log"), "utf8").trim().split("\n") : [];
  const mutating = (): string[] => calls().filter((c) => /^(create|update|delete) /.test(c));
  const resetCalls = (): void => fs.rmSync(path.join(dir, "calls.log"), { force: true });
  const engine = (extra: Partial<EngineOptions> = {}): Engine =>
    new Engine({ stateFile: stateFile(), config: { "fixture:dir": dir }, log: (l) => lines.push(l), startHost: async () => keptOpen(host), ...extra });
  const run = (spec: ProgramSpec) => ({ file: THINGS, args: spec });
  const failure = async (p: Promise<RunResult>): Promise<EngineError> => {
    const e = await p.then(
      () => undefined,
      (x: unknown) => x,
    );
    if (!(e instanceof EngineError)) throw new Error(`expected the run to fail, got ${String(e)}`);
    return e;
  };
  const saved = (): { config?: Record<string, unknown>; resources: Record<string, unknown>[] } =>
    JSON.parse(fs.readFileSync(stateFile(), "utf8"));

  beforeAll(async () => {
    host = await startProviderHost();
  });
  afterAll(async () => {
    await host?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f), { recursive: true, force: true });
    lines = [];
  });

  test("URNs: root stack, parent type chain (sdk/go/common/resource/urn/urn.go New; step_generator.go generateURN); the program is the .ts source, run through the runner's own TypeScript path (pulumi-language-nodejs main.go, PULUMI_NODEJS_TYPESCRIPT); .get() of a resource the dynamic provider finds gone is kept with the asked id (step.go ReadStep.Apply; provider_plugin.go Read); preview hands dependents of an update and of a create unknown outputs (provider_plugin.go Update/Create with preview)", async () => {
    expect(newUrn("dev", "p", "a:b:C$d:e:F", "g:h:I", "n")).toBe("urn:pulumi:dev::p::a:b:C$d:e:F$g:h:I::n");
    expect(newUrn("dev", "p", "pulumi:pulumi:Stack", "g:h:I", "n")).toBe("urn:pulumi:dev::p::g:h:I::n");
    const e = engine();
    const source = path.join(packageRoot(), "test", "engine", "fixtures", "things.ts");
    const groups = [{ name: "outer" }, { name: "inner", parent: "outer" }];
    const r = await e.up({ file: source, args: { groups, things: [{ name: "t", body: "from ts", parent: "inner" }], derived: true, reader: "nothing-here" } });
    expect(r.outputs.firstSize).toBe(7);
    expect(r.outputs.derivedBody).toBe("first is 7 bytes");
    expect(mutating().sort()).toEqual(["create derived", "create t"]);
    expect(e.allResources().map((r) => r.urn)).toEqual(
      expect.arrayContaining([
        "urn:pulumi:dev::reseller::pulumi:pulumi:Stack::reseller-dev",
        urn(GROUP, "outer"),
        urn(`${GROUP}$${GROUP}`, "inner"),
        urn(`${GROUP}$${GROUP}$${THING}`, "t"),
      ]),
    );
    expect(e.resources().find((x) => x.name === "t")).toMatchObject({ parent: urn(`${GROUP}$${GROUP}`, "inner"), custom: true });

    // .get() of a resource the dynamic provider finds gone is kept with the asked id, as under the CLI:
    // a dynamic read always answers properties, and only a Read with none does not exist (step.go
    // ReadStep.Apply; provider_plugin.go Read).
    expect(r.steps.filter((s) => s.name === "reader").map((s) => [s.op, s.name, s.error])).toEqual([["read", "reader", undefined]]);
    expect(calls()).toContain("read nothing-here");
    const reader = e.resources().find((x) => x.name === "reader");
    expect(reader).toMatchObject({ id: "nothing-here", external: true });
    expect(reader?.outputs.body).toBeUndefined();
    expect(r.outputs.readBody).toBeUndefined();

    // Preview: an update hands dependents unknown outputs (checked inputs only), a create too
    // (provider_plugin.go Update/Create with preview). The same program, compiled.
    resetCalls();
    const plan = await e.preview(run({ groups, things: [{ name: "t", body: "123", parent: "inner" }], derived: true, reader: "nothing-here" }));
    expect(calls()).toContain("check derived olds=derived body=unknown");
    expect(plan.outputs.firstSize).toBeUndefined();
    expect(plan.summary).toMatchObject({ update: 2 });
    resetCalls();
    await e.preview(run({ things: [{ name: "n", body: "1" }], derived: true }));
    expect(calls()).toContain("check derived olds=derived body=unknown");
  });

  test("reparent or rename without an alias: create the new URN, delete the old at the end (step_generator.go getOldResource, GenerateDeletes); with an alias, and a child following its aliased parent, the same resource (step_generator.go generateAliases, collapseAliasToUrn, inheritedChildAlias)", async () => {
    // Without aliases: t moves under g, r is renamed r2. With aliases: ta moves under h2 (h renamed,
    // aliased), ra is renamed ra2, c follows its parent h -> h2.
    const e = engine();
    await e.up(
      run({
        groups: [{ name: "g" }, { name: "h" }],
        things: [
          { name: "t", file: "t1", body: "1" },
          { name: "r", file: "r1", body: "1" },
          { name: "ta", body: "1" },
          { name: "ra", body: "1" },
          { name: "c", body: "1", parent: "h" },
        ],
      }),
    );
    resetCalls();
    const after = run({
      groups: [{ name: "g" }, { name: "h2", aliases: [{ name: "h" }] }],
      things: [
        { name: "t", file: "t1", body: "1", parent: "g" },
        { name: "r2", file: "r1", body: "1" },
        { name: "ta", body: "1", parent: "h2", aliases: [{ parent: null }] },
        { name: "ra2", file: "ra", body: "1", aliases: [{ name: "ra" }] },
        { name: "c", body: "1", parent: "h2" },
      ],
    });
    // Its preview (the same plan, nothing changed): lifecycle/step-rules.test.ts.
    const applied = await e.up(after);
    expect(applied.summary).toMatchObject({ create: 2, delete: 2, same: 3 });
    const sameNames = applied.steps.filter((x) => x.op === "same").map((x) => x.name).sort();
    expect(sameNames).toEqual(expect.arrayContaining(["c", "ra2", "ta"]));
    const m = mutating();
    expect(m.indexOf("delete t1")).toBeGreaterThan(m.indexOf("create t1"));
    expect(m.indexOf("delete r1")).toBeGreaterThan(m.indexOf("create r1"));
    // The aliased ones saw no call that changes anything.
    expect(m.filter((c) => /^\w+ (ta|ra|c)$/.test(c))).toEqual([]);
    expect([...m].sort()).toEqual(["create r1", "create t1", "delete r1", "delete t1"]);
    // The damage a move without alias does to an object named by its inputs: the new one is deleted too.
    expect(fs.existsSync(path.join(dir, "t1"))).toBe(false);
    expect(e.resources().map((r) => r.urn).sort()).toEqual(
      [urn(`${GROUP}$${THING}`, "t"), urn(THING, "r2"), urn(`${GROUP}$${THING}`, "c"), urn(`${GROUP}$${THING}`, "ta"), urn(THING, "ra2")].sort(),
    );
  });

  // One pair of runs for six option rules and a .get(), each on resources of its own (names keep them apart).
  test("retainOnDelete, ignoreChanges, deleteBeforeReplace, a replacement's second Check, replaceOnChanges, protect sent by the runner, ReadResource (.get) of an existing resource (step.go DeleteStep.Apply, ReadStep; step_generator.go processIgnoreChanges, generateStepsFromDiff, applyReplaceOnChanges, diffResource)", async () => {
    const e = engine();
    await e.up(
      run({
        things: [
          { name: "kept", body: "1", retainOnDelete: true },
          { name: "x", body: "1" },
          { name: "i", body: "first", ignoreChanges: ["body"] },
          { name: "a", body: "1", deleteBeforeReplace: true },
          { name: "b", body: "1", kind: "delete-first", deleteBeforeReplace: false },
          { name: "k", body: "1" },
          { name: "d", body: "1", replaceOnChanges: ["body"] },
          { name: "u", body: "1", kind: "nodiff", replaceOnChanges: ["body"] },
          { name: "pr", body: "1", protect: true },
        ],
      }),
    );
    // The runner sends protect (what a protected resource refuses: lifecycle/step-rules.test.ts, among
    // them a protected dependent stopping a delete-before-replace, in preview and in up).
    expect(e.resources().find((x) => x.name === "pr")?.protect).toBe(true);
    expect(e.resources().find((x) => x.name === "x")?.protect).toBeFalsy();
    resetCalls();
    const r = await e.up(
      run({
        things: [
          { name: "x", body: "1" },
          { name: "i", body: "second", ignoreChanges: ["body"] },
          { name: "a", file: "a2", body: "1", deleteBeforeReplace: true },
          { name: "b", file: "b2", body: "1", kind: "delete-first", deleteBeforeReplace: false },
          { name: "k", file: "k2", body: "1" },
          { name: "d", body: "2", replaceOnChanges: ["body"] },
          { name: "u", body: "2", kind: "nodiff", replaceOnChanges: ["body"] },
          { name: "pr", body: "1", protect: true },
        ],
        reader: "x",
      }),
    );
    const m = mutating();
    // retainOnDelete drops from state without Delete.
    expect(r.summary.delete).toBe(1);
    expect(r.steps.find((s) => s.name === "kept")?.op).toBe("delete");
    expect(m.filter((c) => c.endsWith(" kept"))).toEqual([]);
    expect(fs.existsSync(path.join(dir, "kept"))).toBe(true);
    expect(e.resources().map((x) => x.name)).not.toContain("kept");
    // ignoreChanges takes the old input before Check.
    expect(r.steps.find((s) => s.name === "i")?.op).toBe("same");
    expect(m.filter((c) => c.endsWith(" i"))).toEqual([]);
    expect(e.resources().find((x) => x.name === "i")?.inputs.body).toBe("first");
    expect(fs.readFileSync(path.join(dir, "i"), "utf8")).toBe("first");
    // The deleteBeforeReplace option overrides the provider's answer, either way.
    expect(m.indexOf("delete a")).toBeLessThan(m.indexOf("create a2"));
    expect(m.indexOf("delete b")).toBeGreaterThan(m.indexOf("create b2"));
    // A replacement is checked again without olds.
    expect(calls().filter((c) => c.startsWith("check k2 "))).toEqual(["check k2 olds=k", "check k2 olds=none"]);
    // replaceOnChanges: none reported changed by a dynamic provider's Diff; the engine's own on DiffUnknown.
    expect(r.steps.find((s) => s.name === "d")?.op).toBe("update");
    expect(r.steps.find((s) => s.name === "u")).toMatchObject({ op: "replace", replaces: ["body"] });
    expect(r.steps.find((s) => s.name === "x")?.op).toBe("same");
    expect(r.steps.find((s) => s.name === "pr")?.op).toBe("same");
    expect(e.resources().find((x) => x.name === "pr")?.protect).toBe(true);
    // ReadResource (.get) reads through the provider and keeps an external resource (step.go ReadStep);
    // that a run without the .get() does not delete it: lifecycle/step-rules.test.ts.
    expect(r.outputs.readBody).toBe("1");
    expect(r.steps.find((s) => s.name === "reader")?.op).toBe("read");
    expect(e.resources().find((x) => x.name === "reader")).toMatchObject({ id: "x", external: true });
  });

  test("delete-before-replace deletes first the dependents it would replace, dependents of dependents first, and recreates them when they register; dependsOn and deletedWith are recorded (step_generator.go calculateDependentReplacements, generateResourceSteps recreating; 1b5949891b3c)", async () => {
    // The scenario and its outcome: fixtures/dbr-dependents.ts (in preview too: lifecycle/step-rules.test.ts).
    const spec = (aFile: string): ProgramSpec => ({ things: dbrDependents(aFile) });
    const e = engine();
    await e.up(run(spec("a")));
    // The runner sends dependsOn and deletedWith (their step rules: lifecycle/step-rules.test.ts).
    expect(e.resources().find((r) => r.name === "d")?.dependencies).toEqual([urn(THING, "a")]);
    expect(e.resources().find((r) => r.name === "e")?.deletedWith).toBe(urn(THING, "a"));
    resetCalls();
    const r = await e.up(run(spec("a2")));
    expectDbrDependentsPlan(r, calls());
    expectDbrDependentsApplied(mutating(), e.resources());
  });

  test("refresh and destroy configure the provider from the config saved at the last up, unless runProgram (deployment_executor.go; providers/registry.go); a provider host of its own per command, ended after", async () => {
    // Which config a run's host is configured with is the point here: a host of its own per run, as
    // the CLI starts one per command, each ended after.
    const started: number[] = [];
    const ownHost = { startHost: undefined, onHostStarted: (h: { pid: number }) => void started.push(h.pid) };
    const secretConfig = { "fixture:dir": dir, "fixture:token": "tok-3141-secret" };
    // The up on the file's host: its config differs from the file's only by a key the provider ignores.
    await engine({ config: secretConfig, secretConfigKeys: ["fixture:token"] }).up(run({ things: [{ name: "a", body: "1" }] }));
    expect(fs.readFileSync(stateFile(), "utf8")).not.toContain("tok-3141-secret");
    expect(saved().config?.["fixture:dir"]).toBe(dir);
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "engine-conf-other-"));
    try {
      const fromState = await engine({ config: { "fixture:dir": elsewhere }, ...ownHost }).refresh();
      expect(fromState.summary).toMatchObject({ read: 1, same: 1, delete: 0 });
      // With runProgram, today's config: the provider looks in the other directory and finds nothing.
      const today = await engine({ config: { "fixture:dir": elsewhere }, runProgram: true, ...ownHost }).refresh(run({ things: [{ name: "a", body: "1" }] }));
      expect(today.summary).toMatchObject({ read: 1, delete: 1 });
      expect(new Set(started).size).toBe(2);
      for (const pid of started) expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  test("the import option fails as it does for dynamic providers under the CLI (step.go ImportStep; PULUMI-DYNAMIC.md)", async () => {
    fs.writeFileSync(path.join(dir, "existing"), "x");
    const err = await failure(engine().up(run({ things: [{ name: "existing", body: "x", import: "existing" }] })));
    expect(err.message).toMatch(/importing existing: .*code must be a string/);
    expect(mutating()).toEqual([]);
  });
});
