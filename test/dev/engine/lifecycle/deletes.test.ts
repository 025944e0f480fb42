// Ported from pulumi/pulumi pkg/engine/lifecycletest protect_test.go, continue_on_error_test.go,
// retain_on_delete_test.go, delete_before_replace_test.go and deleted_with_replace_test.go at the
// commit in framework.ts (COMMIT): each test names the Go test function whose program, provider,
// operations and assertions it repeats. The Go snapshots hold a default provider entry with no
// counterpart here (every custom resource is dynamic, one host): their counts are one less here. Go's
// Replace and CreateReplacement steps are one "replace" step here; DeleteReplaced is "delete".
import type { RunResult } from "../../../../dev/engine/engine";
import { failure, removeSnapshots, ROOT_STACK, TestStack, urnOf, type ProgramF, type TestMonitor } from "./framework";

afterAll(removeSnapshots);

const TYP_B = "pulumi-nodejs:dynamic:typB";
type Props = Record<string, unknown>;

/** A Diff asking for a replace when `key` changed (DiffSome, ReplaceKeys), delete-before-replace or not. */
const replaceOn =
  (key: string, deleteBeforeReplace = false) =>
  async (_u: string, _id: string, olds: Props, news: Props) =>
    JSON.stringify(olds[key]) !== JSON.stringify(news[key]) ? { changes: true, replaces: [key], deleteBeforeReplace } : {};

/** A CreateF answering "created-id-N", N counting the creates from 1 (len(created)), and the URNs created. */
function countedCreates(s: TestStack): string[] {
  const created: string[] = [];
  s.provider.createF = async (urn, inputs) => {
    created.push(urn);
    return { id: `created-id-${created.length}`, outputs: inputs };
  };
  return created;
}

/** The URNs the provider was asked to delete, in order. */
function recordedDeletes(s: TestStack): string[] {
  const deleted: string[] = [];
  s.provider.deleteF = async (urn) => void deleted.push(urn);
  return deleted;
}

/** Successful steps as "op name", the deletes of replaced halves included. */
const steps = (r: RunResult): string[] => r.steps.filter((x) => !x.error).map((x) => `${x.op} ${x.name}`);

/** An update as lt.TestPlan runs one: previewed first. */
async function planUpdate(s: TestStack, program: ProgramF): Promise<RunResult> {
  await s.preview(program);
  return s.up(program);
}

describe("protect_test.go", () => {
  test("TestMultipleProtectedDeletes: both protected deletes are reported, in preview and in update", async () => {
    const s = new TestStack();
    s.provider.createF = async () => ({ id: "id", outputs: {} });
    let creating = true;
    const program = async (m: TestMonitor): Promise<void> => {
      await m.component("test", {}, ROOT_STACK);
      if (creating) {
        await m.resource("resA", { protect: true });
        await m.resource("resB", { protect: true });
      }
    };
    await s.up(program);
    expect(s.state()).toHaveLength(3);
    expect(s.state()[0]!.type).toBe(ROOT_STACK);
    creating = false;
    for (const run of [() => s.preview(program), () => s.up(program)]) {
      const e = await failure(run());
      expect(e.message).toContain('resA" cannot be deleted');
      expect(e.message).toContain('resB" cannot be deleted');
    }
  });

  test("TestProtectInheritance: children take the component's protect unless they say false", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      const resp = await m.component("parent", { protect: true }, "my_component");
      await m.resource("resA", { parent: resp.urn });
      await m.resource("resB", { parent: resp.urn, protect: false });
    });
    const [parent, resA, resB] = s.state();
    expect(s.state()).toHaveLength(3);
    expect([parent!.name, resA!.name, resB!.name]).toEqual(["parent", "resA", "resB"]);
    expect([!!parent!.protect, !!resA!.protect, !!resB!.protect]).toEqual([true, true, false]);
    expect([resA!.parent, resB!.parent]).toEqual([parent!.urn, parent!.urn]);
  });

  test("TestProtectedDeleteChainsWithDuplicateDeletedResources: a destroy fails on the protected B, the pending-delete copy of A is deleted, the live A stays", async () => {
    const s = new TestStack({ project: "test-project", stack: "test-stack" });
    const program = async (m: TestMonitor): Promise<void> => {
      const resA = await m.resource("resA");
      await m.resource("resB", { protect: true, dependencies: [resA.urn] });
    };
    await s.up(program);
    s.provider.diffF = async (urn) => (urn.endsWith("::resA") ? { changes: true, replaces: ["__replace"] } : {});
    s.provider.deleteF = async (urn) => {
      if (urn.endsWith("::resA")) throw new Error("delete error");
    };
    expect((await failure(s.up(program))).message).toContain("delete error");
    s.provider.diffF = undefined;
    s.provider.deleteF = undefined;
    const e = await failure(s.destroy());
    expect(e.message).toContain('resource "urn:pulumi:test-stack::test-project::pulumi-nodejs:dynamic:typA::resB" cannot be deleted');
    expect(s.names()).toEqual(["resA", "resB"]);
    expect(s.state().some((r) => r.delete)).toBe(false);
  });
});

describe("continue_on_error_test.go", () => {
  test("TestDestroyContinueOnError: with --continue-on-error a failed delete keeps only what it depends on", async () => {
    const s = new TestStack({ continueOnError: true });
    s.provider.deleteF = async (urn) => {
      if (urn.includes("typB")) throw new Error("intentionally failed delete");
    };
    let createResource = true;
    const program = async (m: TestMonitor): Promise<void> => {
      if (!createResource) return;
      let resp = await m.resource("unrelated1");
      await m.resource("unrelated2", { dependencies: [resp.urn] });
      resp = await m.resource("dependency");
      await m.register(TYP_B, "failing", true, { dependencies: [resp.urn] });
      await m.resource("anotherUnrelatedRes");
    };
    await s.up(program);
    expect(s.state()).toHaveLength(5);
    createResource = false;
    expect((await failure(s.up(program))).message).toContain("intentionally failed delete");
    expect(s.state().map((r) => r.urn)).toEqual([urnOf("dependency"), urnOf("failing", TYP_B)]);
  });
});

describe("retain_on_delete_test.go", () => {
  test("TestRetainOnDelete: a replace and a delete of a retained resource never call Delete", async () => {
    const s = new TestStack();
    let idCounter = 0;
    s.provider.diffF = replaceOn("foo");
    s.provider.createF = async (_u, inputs) => ({ id: `created-id-${idCounter++}`, outputs: inputs });
    const deleted = recordedDeletes(s);
    let ins: Props = { foo: "bar" };
    let createResource = true;
    const program = async (m: TestMonitor): Promise<void> => {
      if (createResource) await m.resource("resA", { inputs: ins, retainOnDelete: true });
    };
    await s.up(program);
    expect(s.state().map((r) => r.id)).toEqual(["created-id-0"]);
    ins = { foo: "baz" };
    await s.up(program);
    expect(s.state().map((r) => r.id)).toEqual(["created-id-1"]);
    createResource = false;
    await s.up(program);
    expect(s.state()).toEqual([]);
    expect(deleted).toEqual([]);
  });

  test("inheritFromParent (source_eval.go; no Go test of its own): a child of a retained component is retained", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      const p = await m.component("parent", { retainOnDelete: true });
      await m.resource("resA", { parent: p.urn });
    });
    await s.destroy();
    expect(s.provider.made("delete")).toEqual([]);
  });
});

describe("delete_before_replace_test.go", () => {
  test("TestPropertyDependenciesAdapter: a registration without property dependencies gets each property depending on all its dependencies", async () => {
    const s = new TestStack();
    const urns: Record<string, string> = {};
    await planUpdate(s, async (m) => {
      const register = async (name: string, o: Parameters<TestMonitor["resource"]>[1]): Promise<void> => {
        urns[name] = (await m.resource(name, o)).urn;
      };
      await register("A", {});
      await register("B", {});
      await register("C", { inputs: { A: "foo", B: "bar" }, dependencies: [urns.A!, urns.B!] });
      await register("D", {
        inputs: { A: "foo", B: "bar" },
        propertyDependencies: { A: [urns.B!], B: [urns.A!, urns.C!] },
        dependencies: [urns.A!, urns.B!, urns.C!],
      });
    });
    const deps = (name: string) => ({ dependencies: s.get(name)!.dependencies, propertyDependencies: s.get(name)!.propertyDependencies ?? {} });
    expect(deps("A")).toEqual({ dependencies: [], propertyDependencies: {} });
    expect(deps("B")).toEqual({ dependencies: [], propertyDependencies: {} });
    expect(deps("C")).toEqual({ dependencies: [urns.A, urns.B], propertyDependencies: { A: [urns.A, urns.B], B: [urns.A, urns.B] } });
    expect(deps("D")).toEqual({ dependencies: [urns.A, urns.B, urns.C], propertyDependencies: { A: [urns.B], B: [urns.A, urns.C] } });
  });

  test("TestExplicitDeleteBeforeReplace: the option and the provider's answer decide delete-before-replace, and a delete-before-replace replaces the dependent first", async () => {
    // Go registers an explicit provider resource (provA) first, Same in every update: there is none here.
    const s = new TestStack();
    let dbrDiff = false;
    s.provider.diffF = async (_u, _id, olds, news) => (olds.A !== news.A ? { replaces: ["A"], deleteBeforeReplace: dbrDiff } : {});
    const inputsA: Props = { A: "foo" };
    let dbrA: boolean | undefined;
    const inputsB: Props = { A: "foo" };
    const program = async (m: TestMonitor): Promise<void> => {
      const respA = await m.resource("resA", { inputs: inputsA, ...(dbrA !== undefined ? { deleteBeforeReplace: dbrA } : {}) });
      await m.resource("resB", { inputs: inputsB, dependencies: [respA.urn], propertyDependencies: { A: [respA.urn] } });
    };
    const unordered = (r: RunResult): string[] => steps(r).sort();
    const createBeforeDeleteOfA = ["delete resA", "replace resA", "same resB"];
    const deleteBeforeReplaceOfA = ["delete resB", "delete resA", "replace resA", "replace resB"];
    await planUpdate(s, program);

    inputsA.A = "bar";
    expect(unordered(await planUpdate(s, program))).toEqual(createBeforeDeleteOfA);

    dbrA = true;
    inputsA.A = "baz";
    expect(steps(await planUpdate(s, program))).toEqual(deleteBeforeReplaceOfA);

    inputsB.A = "qux";
    expect(steps(await planUpdate(s, program))).toEqual(["same resA", "replace resB", "delete resB"]);

    dbrA = undefined;
    inputsA.A = "zam";
    expect(unordered(await planUpdate(s, program))).toEqual(createBeforeDeleteOfA);

    dbrDiff = true;
    inputsA.A = "foo";
    expect(steps(await planUpdate(s, program))).toEqual(deleteBeforeReplaceOfA);

    dbrA = false;
    inputsA.A = "bar";
    expect(unordered(await planUpdate(s, program))).toEqual(createBeforeDeleteOfA);
  });

  test("TestDependencyChangeDBR: a dependent registered before the delete-before-replace, without the dependency now, is Same and not deleted", async () => {
    const s = new TestStack();
    s.provider.diffF = async (_u, _id, olds, news) => {
      if (olds.A !== news.A) return { replaces: ["A"], deleteBeforeReplace: true };
      if (olds.B !== news.B) return { changes: true };
      return {};
    };
    s.provider.createF = async (_u, inputs) => ({ id: "created-id", outputs: inputs });
    const inputsA: Props = { A: "foo" };
    const inputsB: Props = { A: "foo" };
    await planUpdate(s, async (m) => {
      const resp = await m.resource("resA", { inputs: inputsA });
      await m.resource("resB", { inputs: inputsB, dependencies: [resp.urn], propertyDependencies: { A: [resp.urn] } });
    });
    inputsA.A = "bar";
    const r = await planUpdate(s, async (m) => {
      await m.resource("resB", { inputs: inputsB });
      await m.resource("resA", { inputs: inputsA });
    });
    expect(r.steps.length).toBeGreaterThan(0);
    const opsOfB = r.steps.filter((x) => x.name === "resB").map((x) => x.op);
    expect(opsOfB).toContain("same");
    expect(opsOfB).not.toContain("delete");
  });

  test("TestDBRProtect: a protected dependent stops the delete-before-replace; unprotected in the snapshot, the update succeeds", async () => {
    const s0 = new TestStack();
    s0.provider.diffF = async (_u, _id, olds, news) => {
      if (olds.A !== news.A) return { replaces: ["A"], deleteBeforeReplace: true };
      if (olds.B !== news.B) return { changes: true };
      return {};
    };
    s0.provider.createF = async (_u, inputs) => ({ id: "created-id", outputs: inputs });
    const inputsA: Props = { A: "foo" };
    const inputsB: Props = { A: "foo" };
    const program = async (m: TestMonitor): Promise<void> => {
      const respA = await m.resource("resA", { inputs: inputsA });
      await m.resource("resB", { inputs: inputsB, dependencies: [respA.urn], propertyDependencies: { A: [respA.urn] }, protect: true });
    };
    await s0.up(program);
    expect(s0.state()).toHaveLength(2);

    inputsA.A = "bar";
    const e = await failure(s0.fork().up(program));
    const urn = (name: string): string => urnOf(name);
    expect(e.message).toContain(`unable to replace resource "${urn("resB")}" as part of replacing "${urn("resA")}" as it is currently marked for protection.`);

    expect(s0.state()[1]!.protect).toBe(true);
    const s = s0.fork((entries) => entries.map((r) => (r.name === "resB" ? { ...r, protect: false } : r)));
    await s.up(program);
    expect(s.state()).toHaveLength(2);
  });

  test("TestDBRReplaceOnChanges: a dependent with replaceOnChanges on the input it takes is deleted before the resource it depends on", async () => {
    const s = new TestStack();
    s.provider.diffF = async (urn) => (urn.endsWith("::resA") ? { replaces: ["value"], deleteBeforeReplace: true } : {});
    s.provider.createF = async (_u, inputs) => ({ id: "created-id", outputs: inputs });
    const inputsA: Props = { value: "foo" };
    const program = async (m: TestMonitor): Promise<void> => {
      const respA = await m.resource("resA", { inputs: inputsA });
      await m.resource("resB", {
        inputs: { value: respA.outputs.value },
        dependencies: [respA.urn],
        propertyDependencies: { value: [respA.urn] },
        replaceOnChanges: ["value"],
      });
    };
    await s.up(program);
    expect(s.state()).toHaveLength(2);
    inputsA.value = "bar";
    const done = steps(await s.up(program));
    expect(done).toContain("delete resA");
    expect(done).toContain("delete resB");
    expect(done.indexOf("delete resB")).toBeLessThan(done.indexOf("delete resA"));
    expect(s.state()).toHaveLength(2);
  });
});

describe("deleted_with_replace_test.go", () => {
  /** T (foo from `ins`) and what is deletedWith it; `dbr` the provider's delete-before-replace. */
  function deletedWithStack(dbr: boolean): { s: TestStack; created: string[]; deleted: string[] } {
    const s = new TestStack();
    s.provider.diffF = replaceOn("foo", dbr);
    return { s, created: countedCreates(s), deleted: recordedDeletes(s) };
  }

  /**
   * The programs of three Go tests: T, and D with `fixed` inputs, deletedWith T from the start or
   * only from the second update, which changes T's foo so that T is replaced.
   */
  async function replaceTAndD(dbr: boolean, linkFromStart: boolean): Promise<{ s: TestStack; deleted: string[]; urnT: string }> {
    const { s, created, deleted } = deletedWithStack(dbr);
    const ins: Props = { foo: "bar" };
    let linkD = linkFromStart;
    const program = async (m: TestMonitor): Promise<void> => {
      const respT = await m.resource("resT", { inputs: ins });
      await m.resource("resD", { inputs: { fixed: "property" }, ...(linkD ? { deletedWith: respT.urn } : {}) });
    };
    await s.up(program);
    expect(s.state()).toHaveLength(2);
    expect([created.length, deleted.length]).toEqual([2, 0]);
    const [urnT, urnD] = s.state().map((r) => r.urn);
    linkD = true;
    ins.foo = "baz";
    await s.up(program);
    expect(s.state().map((r) => [r.urn, r.id])).toEqual([
      [urnT, "created-id-3"],
      [urnD, "created-id-4"],
    ]);
    expect(created).toHaveLength(4);
    return { s, deleted, urnT: urnT! };
  }

  test("TestDeletedWithDependentReplacedOnDeleteBeforeReplace: D deletedWith T is replaced with it; only T gets a Delete", async () => {
    const { deleted, urnT } = await replaceTAndD(true, true);
    expect(deleted).toEqual([urnT]);
  });

  test("TestDeletedWithTransitiveChain: D2 deletedWith D deletedWith T are all replaced; only T gets a Delete", async () => {
    const { s, created, deleted } = deletedWithStack(true);
    const ins: Props = { foo: "bar" };
    const program = async (m: TestMonitor): Promise<void> => {
      const respT = await m.resource("resT", { inputs: ins });
      const respD = await m.resource("resD", { inputs: { fixed: "property" }, deletedWith: respT.urn });
      await m.resource("resD2", { inputs: { fixed2: "property" }, deletedWith: respD.urn });
    };
    await s.up(program);
    expect(s.state()).toHaveLength(3);
    expect([created.length, deleted.length]).toEqual([3, 0]);
    const urns = s.state().map((r) => r.urn);
    ins.foo = "baz";
    await s.up(program);
    expect(s.state().map((r) => [r.urn, r.id])).toEqual([
      [urns[0], "created-id-4"],
      [urns[1], "created-id-5"],
      [urns[2], "created-id-6"],
    ]);
    expect(created).toHaveLength(6);
    expect(deleted).toEqual([urns[0]]);
  });

  test("TestDeletedWithDependentReplacedOnCreateBeforeDelete: create-before-delete replaces D with T; only T gets a Delete", async () => {
    const { deleted, urnT } = await replaceTAndD(false, true);
    expect(deleted).toEqual([urnT]);
  });

  test("TestDeletedWithAddedSameStepAsReplace: deletedWith added in the update that replaces T replaces D too", async () => {
    const { s, urnT } = await replaceTAndD(true, false);
    expect(s.state()[1]!.deletedWith).toBe(urnT);
  });

  test("TestDeletedWithProtectedDependentBlocksReplace: a protected D deletedWith T stops T's delete-before-replace", async () => {
    const s = new TestStack();
    s.provider.diffF = replaceOn("foo", true);
    s.provider.createF = async (_u, inputs) => ({ id: "created-id", outputs: inputs });
    const ins: Props = { foo: "bar" };
    const program = async (m: TestMonitor): Promise<void> => {
      const respT = await m.resource("resT", { inputs: ins });
      await m.resource("resD", { inputs: { fixed: "property" }, deletedWith: respT.urn, protect: true });
    };
    await s.up(program);
    expect(s.state()).toHaveLength(2);
    ins.foo = "baz";
    expect((await failure(s.up(program))).message).toContain("marked for protection");
  });

  test("inheritFromParent (source_eval.go; no Go test of its own): a child of a component deletedWith X is deletedWith X", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      const a = await m.resource("resA");
      const p = await m.component("comp", { deletedWith: a.urn });
      await m.resource("resB", { parent: p.urn });
    });
    expect(s.get("resB")?.deletedWith).toBe(urnOf("resA"));
  });
});
