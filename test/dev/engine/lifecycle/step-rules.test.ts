// Step rules of dev/engine/ that do not depend on what the SDK's program runner sends, moved here from
// the engine's conformance tests: the same programs and assertions, registered literally through the in-process
// harness (framework.ts) instead of a program process, with an in-process provider that behaves as the
// fixture file provider does (an object per `name` input; a change of name replaces; kind
// "delete-first" answers deleteBeforeReplace; a delete of a name in `noDelete` fails). Each test names
// the pulumi/pulumi source it mirrors (read at COMMIT). What the runner sends for each option (protect,
// dependsOn, deletedWith, aliases, ...) stays proven, through dev/engine/ and the real CLI, in
// test/pulumi-cli/conformance.test.ts.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Engine } from "../../../../dev/engine/engine";
import { dbrDependents, expectDbrDependentsApplied, expectDbrDependentsPlan } from "../fixtures/dbr-dependents";
import { COMPONENT, COMPUTED, failure, initFailure, TestStack, TYP, urnOf, type AliasOpt, type ProgramF } from "./framework";

interface Thing {
  name: string;
  /** The object's name (the `name` input); defaults to the resource name. Changing it replaces. */
  file?: string;
  body?: string;
  kind?: string;
  protect?: boolean;
  /** The resource this one's `name` input is computed from (a property dependency on `name`). */
  nameFrom?: string;
  /** The resource this one's `body` input is computed from (a property dependency on `body`). */
  bodyFrom?: string;
  dependsOn?: string[];
  deletedWith?: string;
  /** A custom resource this one is the child of. */
  parent?: string;
}

/** The fixture provider's rules, in this process; its log records creates and deletes by object name. */
function fileProvider(s: TestStack, o: { slowMs?: number } = {}): { log: string[]; noDelete: Set<string> } {
  const log: string[] = [];
  const noDelete = new Set<string>();
  s.provider.diffF = async (_u, _id, olds, news) => {
    const replaces = olds.name !== news.name ? ["name"] : [];
    const changes = replaces.length > 0 || ["body", "kind"].some((k) => olds[k] !== news[k]);
    return { changes, replaces, deleteBeforeReplace: news.kind === "delete-first" };
  };
  s.provider.createF = async (_u, inputs, preview) => {
    if (preview) return { id: "", outputs: inputs };
    log.push(`create ${String(inputs.name)}`);
    if (o.slowMs) await new Promise((r) => setTimeout(r, o.slowMs));
    log.push(`created ${String(inputs.name)}`);
    return { id: String(inputs.name), outputs: inputs };
  };
  s.provider.updateF = async (_u, id, _olds, news) => {
    log.push(`update ${id}`);
    return { outputs: news };
  };
  s.provider.deleteF = async (_u, id) => {
    log.push(`delete ${id}`);
    if (noDelete.has(id)) throw new Error(`${id} cannot be deleted now`);
  };
  return { log, noDelete };
}

const mutating = (log: string[]): string[] => log.filter((c) => /^(create|update|delete) /.test(c));

/** Registers the things one after the other, as the fixture program does. */
const program =
  (things: Thing[]): ProgramF =>
  async (m) => {
    const urns = new Map<string, { urn: string; outputs: Record<string, unknown> }>();
    for (const t of things) {
      const inputs = { name: t.file ?? t.name, body: t.body ?? "1", ...(t.kind ? { kind: t.kind } : {}) };
      const urn = (name: string): string => urns.get(name)!.urn;
      // Every input named, as the SDK sends them (an input with no entry would depend on every dependency).
      const propertyDependencies: Record<string, string[]> = {
        ...Object.fromEntries(Object.keys(inputs).map((k) => [k, []])),
        ...(t.nameFrom ? { name: [urn(t.nameFrom)] } : {}),
        ...(t.bodyFrom ? { body: [urn(t.bodyFrom)] } : {}),
      };
      const dependencies = [...(t.dependsOn ?? []), ...Object.values(propertyDependencies).flat()].map((d) => (d.startsWith("urn:") ? d : urn(d)));
      const r = await m.resource(t.name, {
        inputs,
        dependencies,
        propertyDependencies,
        ...(t.deletedWith ? { deletedWith: urn(t.deletedWith) } : {}),
        ...(t.parent ? { parent: urn(t.parent) } : {}),
        ...(t.protect !== undefined ? { protect: t.protect } : {}),
      });
      urns.set(t.name, r);
    }
  };

describe("step rules (moved from conformance.test.ts)", () => {
  test("protect refuses delete and replace; unprotected in the program, it can go (step.go DeleteStep.Apply; step_generator.go generateStepsFromDiff)", async () => {
    const s = new TestStack();
    const { log } = fileProvider(s);
    await s.up(program([{ name: "p", protect: true }, { name: "q", protect: true }]));
    log.length = 0;
    const del = await failure(s.up(program([{ name: "q", protect: true }])));
    expect(del.message).toContain("cannot be deleted because it is protected");
    const rep = await failure(s.up(program([{ name: "p", protect: true }, { name: "q", file: "q2", protect: true }])));
    expect(rep.message).toContain("unable to replace resource");
    expect(mutating(log)).toEqual([]);
    expect(s.names().sort()).toEqual(["p", "q"]);
    await s.up(program([{ name: "p" }, { name: "q" }]));
    await s.up(program([{ name: "q" }]));
    expect(mutating(log)).toEqual(["delete p"]);
  });

  test("creates run in parallel up to --parallel (step_executor.go)", async () => {
    const things = ["a", "b", "c"];
    // All three registered at once, as the SDK's runner registers resources that do not wait on each other.
    const all: ProgramF = async (m) => void (await Promise.all(things.map((n) => m.resource(n, { inputs: { name: n, body: "1" } }))));
    const wide = new TestStack({ parallel: 3 });
    const w = fileProvider(wide, { slowMs: 100 });
    await wide.up(all);
    expect(w.log.slice(0, 3).every((c) => c.startsWith("create "))).toBe(true);
    const serial = new TestStack({ parallel: 1 });
    const sl = fileProvider(serial, { slowMs: 100 });
    await serial.up(all);
    expect(sl.log).toHaveLength(6);
    for (let i = 0; i < sl.log.length; i += 2) expect(sl.log[i + 1]).toBe(sl.log[i]!.replace("create ", "created "));
    expect(new Engine({ config: {} })["opts"].parallel).toBe(4 * os.availableParallelism());
  });

  test("a failed delete fails the run and stays in state for the next one (step.go DeleteStep.Apply; step_generator.go GenerateDeletes)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "step-rules-"));
    try {
      const stateFile = path.join(dir, "dev.json");
      const s = new TestStack({ stateFile });
      const { log, noDelete } = fileProvider(s);
      await s.up(program([{ name: "b" }]));
      noDelete.add("b");
      log.length = 0;
      const err = await failure(s.up(program([{ name: "b", file: "b2" }])));
      expect(err.message).toContain("b cannot be deleted now");
      expect(mutating(log)).toEqual(["create b2", "delete b"]);
      const saved = JSON.parse(fs.readFileSync(stateFile, "utf8")) as { resources: { id: string; delete?: boolean }[] };
      expect(saved.resources.filter((r) => r.id === "b")).toEqual([expect.objectContaining({ id: "b", delete: true })]);
      noDelete.clear();
      log.length = 0;
      await s.up(program([{ name: "b", file: "b2" }]));
      expect(mutating(log)).toEqual(["delete b"]);
      expect(s.state().filter((r) => r.delete)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a failed destroy leaves the resource live in state, not marked for deletion: the next up diffs it (step.go DeleteStep.Apply sets no flag; only CreateStep.Apply marks an old half `Delete`)", async () => {
    const s = new TestStack();
    const { log, noDelete } = fileProvider(s);
    const spec = program([{ name: "d" }]);
    await s.up(spec);
    noDelete.add("d");
    log.length = 0;
    await failure(s.destroy());
    expect(mutating(log)).toEqual(["delete d"]);
    expect(s.state()).toEqual([expect.objectContaining({ id: "d" })]);
    expect(s.state()[0]?.delete).toBeUndefined();
    noDelete.clear();
    log.length = 0;
    expect((await s.up(spec)).summary).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0, same: 1 });
    expect(mutating(log)).toEqual([]);
  });

  test("a delete-before-replace whose delete fails creates nothing and leaves the old live for the next run (step_generator.go generateStepsFromDiff; step.go DeleteStep.Apply)", async () => {
    const s = new TestStack();
    const { log, noDelete } = fileProvider(s);
    await s.up(program([{ name: "c", kind: "delete-first" }]));
    noDelete.add("c");
    log.length = 0;
    const next = program([{ name: "c", file: "c2", kind: "delete-first" }]);
    await failure(s.up(next));
    expect(mutating(log)).toEqual(["delete c"]);
    expect(s.state().filter((r) => r.custom)).toEqual([expect.objectContaining({ id: "c" })]);
    expect(s.state()[0]?.delete).toBeUndefined();
    noDelete.clear();
    log.length = 0;
    await s.up(next);
    expect(mutating(log)).toEqual(["delete c", "create c2"]);
  });

  test("a dependent deleted by a delete-before-replace that the program no longer registers stays pendingReplacement until the next run (step_generator.go GenerateDeletes isOperatedOn)", async () => {
    const s = new TestStack();
    const { log } = fileProvider(s);
    await s.up(program([{ name: "a", kind: "delete-first" }, { name: "b", nameFrom: "a" }]));
    log.length = 0;
    const only = program([{ name: "a", file: "a2", kind: "delete-first" }]);
    await s.up(only);
    expect(mutating(log)).toEqual(["delete b", "delete a", "create a2"]);
    expect(s.get("b")).toMatchObject({ id: "b", pendingReplacement: true });
    log.length = 0;
    await s.up(only);
    expect(mutating(log)).toEqual([]);
    expect(s.names()).toEqual(["a"]);
  });

  test("a protected replace in preview reports the error, shows the rest of the plan and fails at the end (step_generator.go generateStepsFromDiff sawError; deployment_executor.go Execute)", async () => {
    const s = new TestStack();
    const { log } = fileProvider(s);
    await s.up(program([{ name: "p", protect: true }, { name: "y" }]));
    log.length = 0;
    const err = await failure(s.preview(program([{ name: "p", file: "p2", protect: true }, { name: "x" }])));
    expect(err.message).toContain(`unable to replace resource "${urnOf("p")}"`);
    expect(err.result.summary).toMatchObject({ replace: 1, create: 1, delete: 1 });
    expect(err.result.steps.map((x) => `${x.op} ${x.name}`).sort()).toEqual(["create x", "delete y", "replace p"]);
    expect(mutating(log)).toEqual([]);
  });

  test("dependsOn: deletes run dependents first (step_generator.go ScheduleDeletes); deletedWith: no Delete when the named resource is deleted in the same run (step.go isDeletedWith)", async () => {
    const s = new TestStack();
    const { log } = fileProvider(s);
    const things = (withY: boolean): Thing[] => [
      { name: "a" },
      { name: "b", dependsOn: ["a"] },
      { name: "c", dependsOn: ["b"] },
      { name: "x" },
      ...(withY ? [{ name: "y", deletedWith: "x" }] : []),
      { name: "z", deletedWith: "x" },
    ];
    await s.up(program(things(true)));
    expect(s.get("c")?.dependencies).toEqual([urnOf("b")]);
    log.length = 0;
    await s.up(program(things(false)));
    // x stays: y's own Delete runs.
    expect(mutating(log)).toEqual(["delete y"]);
    log.length = 0;
    await s.destroy();
    const m = mutating(log);
    expect(m.filter((c) => /^delete [abc]$/.test(c))).toEqual(["delete c", "delete b", "delete a"]);
    // z goes with x: no Delete of its own.
    expect(m.filter((c) => /^delete [xz]$/.test(c))).toEqual(["delete x"]);
    expect(m).toHaveLength(4);
  });

  test("a resource kept by a partial failure (its init errors in state) is updated, not created again, by the next preview and up, and Same after (step_generator.go hasInitErrors; step.go CreateStep.Apply)", async () => {
    // What the SDK's dynamic provider host carries in the error (id, properties, reasons) and that
    // the first up keeps it: engine.test.ts.
    const s = new TestStack();
    const { log } = fileProvider(s);
    const create = s.provider.createF!;
    s.provider.createF = async (urn, inputs, preview) => {
      if (!preview && inputs.body === "partial" && !s.get("p")) throw initFailure("p was written but did not come up", "p", { name: "p", state: "broken" }, ["did not come up"]);
      return create(urn, inputs, preview);
    };
    const spec = program([{ name: "p", body: "partial" }]);
    await failure(s.up(spec));
    expect(s.get("p")).toMatchObject({ id: "p", initErrors: ["did not come up"] });
    log.length = 0;
    const plan = await s.preview(spec);
    expect(plan.summary).toMatchObject({ update: 1, same: 0 });
    expect(mutating(log)).toEqual([]);
    const again = await s.up(spec);
    expect(again.summary).toMatchObject({ update: 1, create: 0 });
    expect(mutating(log)).toEqual(["update p"]);
    expect(s.get("p")?.initErrors).toBeUndefined();
    expect((await s.up(spec)).summary).toMatchObject({ same: 1, update: 0 });
  });

  test("a protected dependent stops a delete-before-replace before anything is deleted, in preview and in up (step_generator.go generateStepsFromDiff)", async () => {
    const s = new TestStack();
    const { log } = fileProvider(s);
    const spec = (aFile: string): ProgramF =>
      program([
        { name: "a", file: aFile, kind: "delete-first" },
        { name: "q", nameFrom: "a", protect: true },
      ]);
    await s.up(spec("a"));
    log.length = 0;
    for (const command of [() => s.preview(spec("a2")), () => s.up(spec("a2"))]) {
      const err = await failure(command());
      expect(err.message).toContain(`unable to replace resource "${urnOf("q")}" as part of replacing "${urnOf("a")}"`);
    }
    await s.settled();
    expect(mutating(log)).toEqual([]);
    expect(s.state().map((r) => r.id).sort()).toEqual(["a", "q"]);
  });

  test("a .get() resource the program no longer reads is dropped from state without a Delete (step_generator.go GenerateDeletes: external resources are not deleted)", async () => {
    const s = new TestStack();
    const { log } = fileProvider(s);
    await s.up(async (m) => {
      await m.resource("a", { inputs: { name: "a", body: "hello" } });
      await m.read("reader", "a");
    });
    expect(s.get("reader")).toMatchObject({ id: "a", external: true });
    log.length = 0;
    s.provider.reset();
    await s.up(program([{ name: "a", body: "hello" }]));
    expect(mutating(log)).toEqual([]);
    expect(s.provider.made("delete")).toEqual([]);
    expect(s.names()).toEqual(["a"]);
  });

  test("reparent or rename without an alias: create the new URN, delete the old at the end; with an alias, and a child following its aliased parent, the same resource, in preview and in up (step_generator.go getOldResource, GenerateDeletes, generateAliases, inheritedChildAlias)", async () => {
    const s = new TestStack();
    const { log } = fileProvider(s);
    type Spec = { name: string; file?: string; parent?: string; aliases?: AliasOpt[] };
    const prog =
      (groups: { name: string; aliases?: AliasOpt[] }[], things: Spec[]): ProgramF =>
      async (m) => {
        const g = new Map<string, string>();
        for (const x of groups) g.set(x.name, (await m.component(x.name, { aliases: x.aliases })).urn);
        for (const t of things) {
          await m.resource(t.name, { inputs: { name: t.file ?? t.name, body: "1" }, ...(t.parent ? { parent: g.get(t.parent) } : {}), aliases: t.aliases });
        }
      };
    await s.up(
      prog(
        [{ name: "g" }, { name: "h" }],
        [{ name: "t", file: "t1" }, { name: "r", file: "r1" }, { name: "ta" }, { name: "ra" }, { name: "c", parent: "h" }],
      ),
    );
    log.length = 0;
    const h = urnOf("h", COMPONENT);
    const after = prog(
      [{ name: "g" }, { name: "h2", aliases: [{ name: "h" }] }],
      [
        { name: "t", file: "t1", parent: "g" },
        { name: "r2", file: "r1" },
        { name: "ta", parent: "h2", aliases: [{ noParent: true }] },
        { name: "ra2", file: "ra", aliases: [{ name: "ra" }] },
        { name: "c", parent: "h2" },
      ],
    );
    const plan = await s.preview(after);
    expect(plan.summary).toMatchObject({ create: 2, delete: 2, same: 3 });
    expect(mutating(log)).toEqual([]);
    const applied = await s.up(after);
    expect(applied.summary).toMatchObject({ create: 2, delete: 2, same: 3 });
    expect(applied.steps.filter((x) => x.op === "same").map((x) => x.name)).toEqual(expect.arrayContaining(["c", "ra2", "ta"]));
    const m = mutating(log);
    expect(m.indexOf("delete t1")).toBeGreaterThan(m.indexOf("create t1"));
    expect(m.indexOf("delete r1")).toBeGreaterThan(m.indexOf("create r1"));
    expect([...m].sort()).toEqual(["create r1", "create t1", "delete r1", "delete t1"]);
    const h2 = urnOf("h2", COMPONENT);
    expect(s.state().filter((r) => r.custom).map((r) => r.urn).sort()).toEqual(
      [urnOf("t", TYP, COMPONENT), urnOf("r2"), urnOf("c", TYP, COMPONENT), urnOf("ta", TYP, COMPONENT), urnOf("ra2")].sort(),
    );
    expect(s.get("c")?.parent).toBe(h2);
    expect(s.state().map((r) => r.urn)).not.toContain(h);
  });

  test("delete-before-replace deletes first the dependents it would replace, dependents of dependents first, and recreates them when they register, in preview and in up (step_generator.go calculateDependentReplacements, generateResourceSteps recreating)", async () => {
    // The scenario and its outcome: fixtures/dbr-dependents.ts (through the SDK's runner and the real CLI: test/pulumi-cli/conformance.test.ts).
    const s = new TestStack();
    const { log } = fileProvider(s);
    const diff = s.provider.diffF!;
    s.provider.diffF = async (u, id, olds, news, ignore) => {
      const unknowns = Object.keys(news).filter((k) => news[k] === COMPUTED);
      log.push(`diff ${id}${unknowns.length ? ` unknown=${unknowns.join(",")}` : ""}`);
      return diff(u, id, olds, news, ignore);
    };
    s.provider.checkF = async (_u, olds, news) => {
      log.push(`check ${String(news.name)} olds=${Object.keys(olds).length ? String(olds.name) : "none"}`);
      return { inputs: news, failures: [] };
    };
    const spec = (aFile: string): ProgramF => program(dbrDependents(aFile));
    await s.up(spec("a"));
    for (const operation of ["preview", "up"] as const) {
      log.length = 0;
      const r = await s[operation](spec("a2"));
      expectDbrDependentsPlan(r, log);
      if (operation === "preview") expect(mutating(log)).toEqual([]);
    }
    expectDbrDependentsApplied(mutating(log), s.state());
  });

  test("a duplicate URN fails the run with its message (step_generator.go generateURN)", async () => {
    const s = new TestStack();
    fileProvider(s);
    const err = await failure(s.up(program([{ name: "a" }, { name: "a", body: "2" }])));
    await s.settled();
    expect(err.message).toMatch(/Duplicate resource URN/);
  });
});
