// Ported from pulumi/pulumi pkg/engine/lifecycletest pulumi_test.go and pending_delete_test.go at the
// commit in framework.ts (COMMIT): each test names the Go test function whose program, provider,
// operations and assertions it repeats. A Go lt.TestPlan step previews its operation before running
// it (`planStep`); a step with ExpectFailure stops at a failing preview. The Go snapshots hold a
// default provider entry that has no counterpart here (every custom resource is dynamic, one host),
// so their resource counts are one less here where a provider was loaded.
import { diffPaths, formatPath } from "../../../../dev/engine/property-path";
import type { RunResult } from "../../../../dev/engine/engine";
import type { DiffResult } from "../../../../dev/engine/host";
import { COMPUTED, failure, initFailure, removeSnapshots, ROOT_STACK, secret, TestStack, urnOf, type ProgramF, type TestMonitor } from "./framework";

afterAll(removeSnapshots);

const TYP_B = "pulumi-nodejs:dynamic:typB";

/** A Diff replacing on `key`, its detailed diff saying so (DiffUpdateReplace, InputDiff). */
const replaceDiff = (key: string, deleteBeforeReplace = false): Partial<DiffResult> => ({
  changes: true,
  replaces: [key],
  detailedDiff: { [key]: { kind: "updateReplace" } },
  deleteBeforeReplace,
});

type Op = "update" | "refresh" | "destroy";

function run(s: TestStack, op: Op, program: ProgramF, preview: boolean): Promise<RunResult> {
  if (op === "update") return preview ? s.preview(program) : s.up(program);
  return op === "refresh" ? s.refresh({ preview }) : s.destroy({ preview });
}

/** One lt.TestStep: the operation's preview (unless skipPreview), then the operation itself. */
async function planStep(s: TestStack, op: Op, program: ProgramF, o: { skipPreview?: boolean } = {}): Promise<RunResult> {
  if (!o.skipPreview) await run(s, op, program, true);
  return run(s, op, program, false);
}

/**
 * lt.MakeBasicLifecycleSteps(t, resCount): update (creates or reads only), refresh (sames), update
 * (sames), refresh (sames), destroy (deletes), refresh (nothing); each previewed first, each followed
 * by a count of the resources in state.
 */
async function basicLifecycle(s: TestStack, program: ProgramF, resCount: number): Promise<void> {
  const ops = (r: RunResult): string[] => r.steps.map((x) => x.op);
  const only = (r: RunResult, allowed: string[]): void => {
    for (const op of ops(r)) expect(allowed).toContain(op);
  };
  only(await planStep(s, "update", program), ["create", "read"]);
  expect(s.state()).toHaveLength(resCount);
  only(await planStep(s, "refresh", program), ["same"]);
  expect(s.state()).toHaveLength(resCount);
  only(await planStep(s, "update", program), ["same", "read"]);
  expect(s.state()).toHaveLength(resCount);
  only(await planStep(s, "refresh", program), ["same"]);
  expect(s.state()).toHaveLength(resCount);
  only(await planStep(s, "destroy", program), ["delete"]);
  expect(s.state()).toHaveLength(0);
  expect((await planStep(s, "refresh", program)).steps).toEqual([]);
  expect(s.state()).toHaveLength(0);
}

/** An update whose program registers resA and returns RegisterResource's error (assert.Error there). */
async function failedRegistration(s: TestStack): Promise<{ e: Error; registerError: unknown }> {
  let registerError: unknown;
  const e = await failure(
    s.up(async (m) => {
      registerError = await m.resource("resA").then(
        () => undefined,
        (x: unknown) => x,
      );
      throw registerError;
    }),
  );
  await s.settled();
  return { e, registerError };
}

describe("pulumi_test.go", () => {
  test("TestEmptyProgramLifecycle: MakeBasicLifecycleSteps with no resource", async () => {
    const s = new TestStack();
    await basicLifecycle(s, async () => undefined, 0);
    expect(s.provider.calls).toEqual([]);
  });

  test("TestComponentOutputs: a component's outputs are never returned by RegisterResource, over MakeBasicLifecycleSteps", async () => {
    const s = new TestStack();
    const returned: unknown[] = [];
    await basicLifecycle(
      s,
      async (m) => {
        const res = await m.component("resA", {}, "component");
        returned.push(res.outputs);
        await m.registerOutputs(res.urn, { foo: "bar" });
      },
      1,
    );
    expect(returned.length).toBeGreaterThan(0);
    for (const outputs of returned) expect(outputs).toEqual({});
  });

  test("TestCheckFailureRecord: an error from Check fails the update with its message; RegisterResource fails", async () => {
    const s = new TestStack();
    s.provider.checkF = async () => {
      throw new Error("oh no, check had an error");
    };
    const { e, registerError } = await failedRegistration(s);
    expect(registerError).toBeInstanceOf(Error);
    expect(e.message).toContain("oh no, check had an error");
    expect(s.provider.made("create")).toEqual([]);
  });

  test("TestCheckFailureInvalidPropertyRecord: a Check failure for a property reports it; RegisterResource fails", async () => {
    const s = new TestStack();
    s.provider.checkF = async () => ({ inputs: {}, failures: [{ property: "someprop", reason: "field is not valid" }] });
    const { e, registerError } = await failedRegistration(s);
    expect(registerError).toBeInstanceOf(Error);
    // The property is named with its reason, and nothing is made (also the whole-engine proof of a
    // check failure: the SDK's host reports failures over gRPC in host.test.ts).
    expect(e.message).toContain("someprop: field is not valid");
    expect(s.provider.made("create")).toEqual([]);
  });

  test("TestUpdatePartialFailure: a partially failed Update keeps the old inputs with the new outputs", async () => {
    const resURN = urnOf("resA");
    const s = new TestStack({ snapshot: [{ urn: resURN, id: "1", inputs: { input_prop: "old inputs" }, outputs: { output_prop: 1 } }] });
    s.provider.diffF = async () => ({ changes: true });
    s.provider.updateF = async (_u, id) => {
      throw initFailure("update failed to apply", id, { output_prop: 42 }, ["update failed to apply"]);
    };
    const e = await failure(s.up(async (m) => void (await m.resource("resA", { inputs: { input_prop: "new inputs" } }))));
    expect(e.result.steps.map((x) => [x.op, x.urn])).toEqual([["update", resURN]]);
    const r = s.get("resA")!;
    expect(r.inputs).toEqual({ input_prop: "old inputs" });
    expect(r.outputs).toEqual({ output_prop: 42 });
  });

  test("TestSingleResourceIgnoreChanges: ignored paths give Same, the ignore list reaches Diff and Update", async () => {
    const s = new TestStack();
    let expectedIgnoreChanges: string[] = [];
    const seen: { op: string; ignoreChanges: readonly string[]; expected: string[] }[] = [];
    s.provider.diffF = async (_u, _id, _o, _n, ignoreChanges) => {
      seen.push({ op: "diff", ignoreChanges, expected: expectedIgnoreChanges });
      return {};
    };
    s.provider.updateF = async (_u, _id, _o, news, ignoreChanges) => {
      seen.push({ op: "update", ignoreChanges, expected: expectedIgnoreChanges });
      return { outputs: news };
    };
    const updateProgramWithProps = async (props: Record<string, unknown>, ignoreChanges: string[], allowedOp: string): Promise<void> => {
      expectedIgnoreChanges = ignoreChanges;
      const r = await planStep(s, "update", async (m) => void (await m.resource("resA", { inputs: props, ignoreChanges })));
      expect(TestStack.steps(r)).toEqual([`${allowedOp} resA`]);
    };
    const paths = ["a", "b.c", "d", "e[0]", 'f.g["h"]'];
    await updateProgramWithProps({ a: 1, b: { c: "foo" }, d: [1], e: [1], f: { g: { h: "bar" } } }, paths, "create");
    await updateProgramWithProps({ a: 2, b: { c: "bar" }, d: [2], e: [2], f: { g: { h: "baz" } } }, paths, "same");
    await updateProgramWithProps({ a: 3, b: { c: "qux" }, d: [3], e: [3], f: { g: { h: "qux" } } }, [], "update");
    await updateProgramWithProps({ e: [] }, ["a", "b", "d", "e", "f"], "same");
    await updateProgramWithProps({ e: [] }, [], "update");
    await updateProgramWithProps({ a: 4, b: { c: "zed" }, d: [4], e: [] }, ["a", "b", "d", "e[0]", "f"], "same");
    await updateProgramWithProps({ e: [], i: 4 }, ["a", "b", "d", "e", "f"], "update");
    await updateProgramWithProps({ a: 3, b: ["foo", "bar"] }, [], "update");
    await updateProgramWithProps({ a: 3, b: ["foo", "baz"] }, ["b[1]"], "same");
    await updateProgramWithProps({ a: 3, b: ["foo", "baz"] }, ["b[*]"], "same");
    await updateProgramWithProps({ a: 3, b: secret(["foo", "bar"]) }, [], "same");
    await updateProgramWithProps({ a: 3, b: secret(["foo", "baz"]) }, ["b[1]"], "same");
    expect(seen.some((x) => x.op === "diff")).toBe(true);
    expect(seen.some((x) => x.op === "update")).toBe(true);
    for (const x of seen) expect(x.ignoreChanges).toEqual(x.expected);
  });

  test("TestIgnoreChangesInvalidPaths: ignoring a path into an added or removed element changes nothing and fails nothing", async () => {
    const s0 = new TestStack();
    await s0.up(async (m) => void (await m.resource("resA", { inputs: { foo: { bar: "baz" }, qux: ["zed"] } })));
    const cases: [Record<string, unknown>, string[], Record<string, unknown>][] = [
      [{}, ["foo.bar"], {}],
      [{ qux: [] }, ["qux[0]"], { qux: [] }],
      [{}, ["qux[0]"], {}],
      [{ qux: ["zed", "zob"] }, ["qux[1]"], { qux: ["zed", "zob"] }],
    ];
    for (const [inputs, ignoreChanges, expected] of cases) {
      // Each update starts from the first update's snapshot, as there.
      const s = s0.fork();
      let outputs: unknown;
      await s.up(async (m) => void (outputs = (await m.resource("resA", { inputs, ignoreChanges })).outputs));
      expect(outputs).toEqual(expected);
      // processIgnoreChanges says so, as an info diagnostic.
      expect(s.lines.some((l) => l.includes("cannot ignore changes in added or removed elements of the path"))).toBe(true);
    }
  });

  /** replaceOnChangesTest: the same updates with the provider's own Diff, and with none (the engine's). */
  async function replaceOnChangesTest(providerDiff: boolean): Promise<void> {
    const s = new TestStack();
    s.provider.createF = async (_u, inputs) => ({ id: "id123", outputs: inputs });
    if (providerDiff) {
      // 42 is a special value: the provider's Diff treats it as the old value, so it makes no change.
      s.provider.diffF = async (_u, _id, olds, news) => {
        const n = Object.fromEntries(Object.entries(news).map(([k, v]) => [k, v === 42 ? olds[k] : v]));
        const paths = diffPaths(olds, n);
        if (paths.length === 0) return { changes: false };
        return {
          changes: true,
          diffs: [...new Set(paths.map((p) => String(p[0])))],
          detailedDiff: Object.fromEntries(paths.map((p) => [formatPath(p), { kind: "update" as const }])),
        };
      };
    }
    const replaceOps = ["replace", "delete"];
    const updateProgramWithProps = async (props: Record<string, unknown>, replaceOnChanges: string[], allowed: string[]): Promise<void> => {
      const r = await planStep(s, "update", async (m) => void (await m.resource("resA", { inputs: props, replaceOnChanges })));
      expect(r.steps.length).toBeGreaterThan(0);
      for (const st of r.steps) expect(allowed).toContain(st.op);
    };
    await updateProgramWithProps({ a: 1, b: { c: "foo" } }, ["a", "b.c"], ["create"]);
    await updateProgramWithProps({ a: 2, b: { c: "foo" } }, ["a"], replaceOps);
    await updateProgramWithProps({ a: 2, b: { c: "bar" } }, ["b.c"], replaceOps);
    await updateProgramWithProps({ a: 3, b: { c: "baz" } }, ["*"], replaceOps);
    await updateProgramWithProps({ a: 4, b: { c: "qux" } }, [], ["update"]);
    await updateProgramWithProps({ a: 42, b: { c: "qux" } }, ["a"], providerDiff ? ["same"] : replaceOps);
    expect(s.provider.made("delete")).toHaveLength(providerDiff ? 3 : 4);
  }

  test("TestReplaceOnChanges/provider diff", () => replaceOnChangesTest(true));
  test("TestReplaceOnChanges/engine diff", () => replaceOnChangesTest(false));

  test("TestPersistentDiff (its first half): a provider Diff that always says DiffSome previews an update with no input change", async () => {
    const s = new TestStack();
    s.provider.diffF = async () => ({ changes: true });
    const program = async (m: TestMonitor): Promise<void> => void (await m.resource("resA", { inputs: {} }));
    await s.up(program);
    expect(TestStack.steps(await s.preview(program))).toEqual(["update resA"]);
  });

  test("TestDetailedDiffReplace: a detailed diff entry of kind AddReplace alone makes a replace", async () => {
    const s = new TestStack();
    s.provider.diffF = async () => ({ changes: true, detailedDiff: { prop: { kind: "addReplace" } } });
    const program = async (m: TestMonitor): Promise<void> => void (await m.resource("resA", { inputs: {} }));
    await s.up(program);
    expect(TestStack.steps(await s.preview(program), { replacingDeletes: false })).toEqual(["replace resA"]);
  });

  test("TestMissingRead: a Read that finds nothing fails ReadResource and the run, in preview", async () => {
    const s = new TestStack();
    s.provider.readF = async () => ({ id: "", props: undefined, inputs: undefined });
    let readError: unknown;
    // ExpectFailure without SkipPreview: the preview fails, and the plan goes no further.
    await failure(
      s.preview(async (m) => {
        readError = await m.read("resA", "resA-some-id").then(
          () => undefined,
          (x: unknown) => x,
        );
      }),
    );
    await s.settled();
    expect(readError).toBeInstanceOf(Error);
  });

  test("TestProviderPreview (differs: no preview Create/Update here): the inputs, unknowns and all, come back as outputs in preview and update", async () => {
    const s = new TestStack();
    const previews: boolean[] = [];
    s.provider.createF = async (_u, inputs, preview) => {
      previews.push(preview);
      return { id: "created-id", outputs: inputs };
    };
    let preview = true;
    const returned: [Record<string, unknown>, Record<string, unknown>][] = [];
    const program = async (m: TestMonitor): Promise<void> => {
      const computed = preview ? COMPUTED : "alpha";
      const ins = { foo: "bar", baz: { a: 42, b: computed }, qux: [computed, 24], zed: computed };
      returned.push([(await m.resource("resA", { inputs: ins })).outputs, ins]);
    };
    preview = true;
    await s.preview(program);
    preview = false;
    await s.up(program);
    preview = true;
    await s.preview(program);
    expect(returned).toHaveLength(3);
    for (const [outputs, ins] of returned) expect(outputs).toEqual(ins);
    // Go: sawPreview in both previews. The dynamic provider host has no preview support, so the engine
    // answers a preview with the inputs itself and never calls Create or Update (provider_plugin.go).
    expect(previews).toEqual([false]);
  });

  test("TestProtect: protected replace fails (preview goes on), protected delete fails, unprotect-and-replace replaces, protect again changes nothing, an unprotected state entry is replaced", async () => {
    const s0 = new TestStack();
    let idCounter = 0;
    let deleteCounter = 0;
    s0.provider.diffF = async (_u, _id, olds, news) => (olds.foo !== news.foo ? { changes: true, replaces: ["foo"] } : {});
    s0.provider.createF = async (_u, inputs) => ({ id: `created-id-${idCounter++}`, outputs: inputs });
    s0.provider.deleteF = async () => void deleteCounter++;
    let ins: Record<string, unknown> = { foo: "bar" };
    let shouldProtect = true;
    let createResource = true;
    let expectError = false;
    let returned = false;
    const program = async (m: TestMonitor): Promise<void> => {
      if (!createResource) return;
      await m.resource("resA", { inputs: ins, protect: shouldProtect });
      returned = true;
    };
    const state = (s: TestStack): [string, boolean][] => s.state().map((r) => [r.id, !!r.protect]);
    const resA = urnOf("resA");

    await s0.up(program);
    expect(state(s0)).toEqual([["created-id-0", true]]);
    expect(deleteCounter).toBe(0);

    // A preview of a replace reports the error, goes on, and fails at the end.
    ins = { foo: "baz" };
    const plan = await failure(s0.preview(program));
    expect(plan.message).toContain(`unable to replace resource "${resA}"`);
    expect(plan.message).toContain("as it is currently marked for protection");

    // An update bails: RegisterResource does not return.
    expectError = true;
    returned = false;
    await failure(s0.up(program));
    expect(returned).toBe(!expectError);
    expect(state(s0)).toEqual([["created-id-0", true]]);
    expect(deleteCounter).toBe(0);

    createResource = false;
    const del = await failure(s0.up(program));
    expect(del.message).toContain(`resource "${resA}" cannot be deleted`);
    expect(state(s0)).toEqual([["created-id-0", true]]);
    expect(deleteCounter).toBe(0);

    // Unprotect and replace in one update. (Go: created-id-2, its preview above having called the
    // provider's preview Create; the dynamic host has none, so the count here is one less.)
    expectError = false;
    createResource = true;
    shouldProtect = false;
    await s0.up(program);
    expect(state(s0)).toEqual([["created-id-1", false]]);
    expect(deleteCounter).toBe(1);

    shouldProtect = true;
    await s0.up(program);
    expect(state(s0)).toEqual([["created-id-1", true]]);
    expect(deleteCounter).toBe(1);

    // The snapshot edited to unprotect the resource: the program's protect does not stop the replace.
    const s = s0.fork((entries) => entries.map((r) => ({ ...r, protect: false })));
    ins = { foo: "daz" };
    await s.up(program);
    expect(state(s)).toEqual([["created-id-2", true]]);
    expect(deleteCounter).toBe(2);
  });

  test("TestDeletedWith: a replace of all three deletes only the top one; an empty program deletes all with one Delete", async () => {
    const s = new TestStack();
    let idCounter = 0;
    const topURN = urnOf("resA");
    const wrongDeletes: string[] = [];
    s.provider.diffF = async (_u, _id, olds, news) => (olds.foo !== news.foo ? { changes: true, replaces: ["foo"] } : {});
    s.provider.createF = async (_u, inputs) => ({ id: `created-id-${idCounter++}`, outputs: inputs });
    s.provider.deleteF = async (urn) => void (urn !== topURN && wrongDeletes.push(urn));
    let ins: Record<string, unknown> = { foo: "bar" };
    let createResource = true;
    const program = async (m: TestMonitor): Promise<void> => {
      if (!createResource) return;
      const a = await m.resource("resA", { inputs: ins });
      const b = await m.resource("resB", { inputs: ins, deletedWith: a.urn });
      await m.resource("resC", { inputs: ins, deletedWith: b.urn });
    };
    await s.up(program);
    expect(s.state().map((r) => r.id)).toEqual(["created-id-0", "created-id-1", "created-id-2"]);
    ins = { foo: "baz" };
    await s.up(program);
    expect(s.state().map((r) => r.id)).toEqual(["created-id-3", "created-id-4", "created-id-5"]);
    createResource = false;
    await s.up(program);
    expect(s.state()).toEqual([]);
    expect(wrongDeletes).toEqual([]);
    expect(s.provider.made("delete")).toEqual(["resA", "resA"]);
  });

  test("TestPendingDeleteOrder: after a failed replace the old half sits after its new half, and the retry succeeds", async () => {
    const s = new TestStack();
    const cloudState = new Map<string, Record<string, unknown>>();
    let failCreationOfTypB = false;
    const updates: string[] = [];
    s.provider.createF = async (urn, inputs, preview) => {
      if (urn.includes("typB") && failCreationOfTypB) throw new Error("Could not create typB");
      const id = String(cloudState.size);
      if (!preview) cloudState.set(id, inputs);
      return { id, outputs: inputs };
    };
    s.provider.deleteF = async (_u, id) => {
      for (const [other, res] of cloudState) for (const v of Object.values(res)) if (v === id) throw new Error(`Can not delete ${id} used by ${other}`);
      cloudState.delete(id);
    };
    s.provider.diffF = async (urn, _id, olds, news) => {
      if (urn.includes("typA") && olds.foo !== news.foo) return replaceDiff("foo");
      if (urn.includes("typB") && olds.parent !== news.parent) return replaceDiff("parent");
      return {};
    };
    s.provider.updateF = async (urn) => {
      updates.push(urn);
      return { outputs: {} };
    };
    let ins: Record<string, unknown> = { foo: "bar" };
    let returnedB = false;
    const program = async (m: TestMonitor): Promise<void> => {
      const a = await m.resource("resA", { inputs: ins });
      await m.register(TYP_B, "resB", true, { inputs: { parent: a.id }, dependencies: [a.urn] });
      returnedB = true;
    };
    await s.up(program);
    expect(s.state()).toHaveLength(2);

    failCreationOfTypB = true;
    ins = { foo: "baz" };
    returnedB = false;
    await failure(s.up(program));
    expect(returnedB).toBe(false);
    expect(s.state().map((r) => [r.type, !!r.delete])).toEqual([
      ["pulumi-nodejs:dynamic:typA", false],
      ["pulumi-nodejs:dynamic:typA", true],
      [TYP_B, false],
    ]);

    failCreationOfTypB = false;
    await s.up(program);
    expect(s.state()).toHaveLength(2);
    expect(updates).toEqual([]);
  });

  test("TestPendingDeleteReplacement: a B whose delete failed is pending delete; a delete-before-replace of A then leaves one of each", async () => {
    const s = new TestStack();
    let cloudID = 0;
    const cloudState = new Map<string, Record<string, unknown>>();
    let failDeletionOfTypB = true;
    const updates: string[] = [];
    s.provider.createF = async (_u, inputs, preview) => {
      let id = "";
      if (!preview) {
        id = String(cloudID++);
        cloudState.set(id, inputs);
      }
      return { id, outputs: inputs };
    };
    s.provider.deleteF = async (urn, id) => {
      for (const res of cloudState.values()) for (const v of Object.values(res)) if (v === id) throw new Error(`Can not delete ${id}`);
      if (urn.includes("typB") && failDeletionOfTypB) throw new Error("Could not delete typB");
      cloudState.delete(id);
    };
    s.provider.diffF = async (urn, _id, olds, news) => {
      if (urn.includes("typA") && olds.foo !== news.foo) return replaceDiff("foo", true);
      if (urn.includes("typB")) {
        for (const key of ["parent", "frob"]) {
          if (olds[key] !== news[key]) return replaceDiff(key);
        }
      }
      return {};
    };
    s.provider.updateF = async (urn) => {
      updates.push(urn);
      return { outputs: {} };
    };
    let insA: Record<string, unknown> = { foo: "bar" };
    let inB = "active";
    const program = async (m: TestMonitor): Promise<void> => {
      const a = await m.resource("resA", { inputs: insA });
      await m.register(TYP_B, "resB", true, { inputs: { parent: a.id, frob: inB }, propertyDependencies: { parent: [a.urn] }, dependencies: [a.urn] });
    };
    await s.up(program);
    expect(s.state()).toHaveLength(2);

    inB = "inactive";
    await failure(s.up(program));
    expect(s.state().map((r) => [r.type, !!r.delete])).toEqual([
      ["pulumi-nodejs:dynamic:typA", false],
      [TYP_B, false],
      [TYP_B, true],
    ]);

    insA = { foo: "baz" };
    failDeletionOfTypB = false;
    await s.up(program);
    expect(s.state().map((r) => [r.type, !!r.delete])).toEqual([
      ["pulumi-nodejs:dynamic:typA", false],
      [TYP_B, false],
    ]);
    expect(updates).toEqual([]);
  });

  test("TestOldCheckedInputsAreSent: Check gets the old checked inputs; Diff, Update and Delete the old outputs", async () => {
    const s = new TestStack();
    let firstUpdate = true;
    const seen: [string, unknown, unknown][] = [];
    s.provider.checkF = async (_u, olds, news) => {
      seen.push(["check", olds, news]);
      return { inputs: { ...news, default: "default" }, failures: [] };
    };
    s.provider.diffF = async (_u, _id, olds, news) => {
      seen.push(["diff", olds, news]);
      return {};
    };
    s.provider.createF = async (_u, inputs, preview) => ({ id: preview ? "" : "1", outputs: { ...inputs, computed: preview ? COMPUTED : "computed" } });
    s.provider.updateF = async (_u, _id, olds, news) => {
      seen.push(["update", olds, news]);
      return { outputs: { ...news, computed: "computed" } };
    };
    s.provider.deleteF = async (_u, _id, props) => void seen.push(["delete", props, undefined]);
    let insA: Record<string, unknown> = { foo: "bar" };
    const program = async (m: TestMonitor): Promise<void> => void (await m.resource("resA", { inputs: insA }));
    await s.up(program);
    expect(s.state()).toHaveLength(1);
    expect(s.get("resA")).toMatchObject({ type: "pulumi-nodejs:dynamic:typA", inputs: { foo: "bar", default: "default" }, outputs: { foo: "bar", default: "default", computed: "computed" } });
    insA = { foo: "baz" };
    firstUpdate = false;
    await s.up(program);
    expect(firstUpdate).toBe(false);
    expect(s.get("resA")?.inputs).toEqual({ foo: "baz", default: "default" });
    expect(s.get("resA")?.outputs).toEqual({ foo: "baz", default: "default", computed: "computed" });
    await s.destroy();
    expect(s.state()).toEqual([]);
    const oldOuts = { foo: "bar", default: "default", computed: "computed" };
    const newIns = { foo: "baz", default: "default" };
    // Go's Diff and Update also get the old inputs ({foo: bar, default: default}): a dynamic provider's
    // Diff, Update and Delete take the old outputs only (the Node SDK's dynamic provider protocol).
    expect(seen).toEqual([
      ["check", {}, { foo: "bar" }],
      ["check", { foo: "bar", default: "default" }, { foo: "baz" }],
      ["diff", oldOuts, newIns],
      ["update", oldOuts, newIns],
      ["delete", { foo: "baz", default: "default", computed: "computed" }, undefined],
    ]);
  });

  /** The root stack's outputs in state, as validateSnapshot reads them (the stack first). */
  const stackOutputs = (s: TestStack, count: number): Record<string, unknown> => {
    expect(s.state()).toHaveLength(count);
    expect(s.state()[0]!.type).toBe(ROOT_STACK);
    return s.state()[0]!.outputs;
  };

  test("TestStackOutputsProgramError: a failed program replaces the stack outputs it registered and keeps the others", async () => {
    const s = new TestStack();
    let step = 0;
    const program = async (m: TestMonitor): Promise<void> => {
      const resp = await m.component("test", {}, ROOT_STACK);
      const val = `step ${step}`;
      const outputs = step === 0 || step === 3 ? { first: val, second: val } : step === 1 ? { first: val } : {};
      await m.registerOutputs(resp.urn, outputs);
      if (step === 1 || step === 2) throw new Error("program error");
    };
    await s.up(program);
    expect(stackOutputs(s, 1)).toEqual({ first: "step 0", second: "step 0" });
    step = 1;
    expect((await failure(s.up(program))).message).toContain("program error");
    expect(stackOutputs(s, 1)).toEqual({ first: "step 1", second: "step 0" });
    step = 2;
    expect((await failure(s.up(program))).message).toContain("program error");
    expect(stackOutputs(s, 1)).toEqual({ first: "step 1", second: "step 0" });
    step = 3;
    await s.up(program);
    expect(stackOutputs(s, 1)).toEqual({ first: "step 3", second: "step 3" });
  });

  test("TestStackOutputsResourceError: a failed resource keeps the old stack outputs unless new ones were registered", async () => {
    const s = new TestStack();
    s.provider.createF = async () => {
      throw new Error("oh no");
    };
    let step = 0;
    let returned = false;
    const program = async (m: TestMonitor): Promise<void> => {
      const resp = await m.component("test", {}, ROOT_STACK);
      const val = `step ${step}`;
      if (step === 0 || step === 3) await m.registerOutputs(resp.urn, { first: val, second: val });
      if (step === 1) {
        await m.resource("resA");
        returned = true;
      }
      if (step === 2) {
        await m.registerOutputs(resp.urn, { first: val, second: val });
        await m.resource("resA");
        returned = true;
      }
    };
    await s.up(program);
    expect(stackOutputs(s, 1)).toEqual({ first: "step 0", second: "step 0" });
    // Go counts 2 resources after steps 1 and 2: the stack and the default provider loaded for resA.
    step = 1;
    expect((await failure(s.up(program))).message).toContain("oh no");
    expect(stackOutputs(s, 1)).toEqual({ first: "step 0", second: "step 0" });
    step = 2;
    expect((await failure(s.up(program))).message).toContain("oh no");
    expect(stackOutputs(s, 1)).toEqual({ first: "step 2", second: "step 2" });
    step = 3;
    await s.up(program);
    expect(stackOutputs(s, 1)).toEqual({ first: "step 3", second: "step 3" });
    expect(returned).toBe(false);
  });

  test("TestProgramError: a program error after resA keeps resA and resB in state", async () => {
    const s = new TestStack();
    let returnError = false;
    const program = async (m: TestMonitor): Promise<void> => {
      await m.resource("resA");
      if (returnError) throw new Error("program error");
      await m.resource("resB");
    };
    await s.up(program);
    expect(s.names()).toEqual(["resA", "resB"]);
    returnError = true;
    const e = await failure(s.up(program));
    expect(e.message).toContain("program error");
    expect(s.names()).toEqual(["resA", "resB"]);
  });

  test("TestResourceError: a failed Create fails the update with its message; RegisterResource does not return", async () => {
    const s = new TestStack();
    s.provider.createF = async () => {
      throw new Error("create failed intentionally");
    };
    let returned = false;
    const e = await failure(
      s.up(async (m) => {
        await m.resource("resA");
        returned = true;
      }),
    );
    expect(e.message).toContain("create failed intentionally");
    await s.settled();
    expect(returned).toBe(false);
  });
});

describe("pending_delete_test.go", () => {
  const pendingSnapshot = () => [
    { urn: urnOf("resA"), id: "1" },
    { urn: urnOf("resA"), id: "0", delete: true },
  ];
  const deletedIds = (r: RunResult): string[] => r.steps.filter((x) => x.op === "delete" && !x.error).map((x) => x.id!).sort();

  test("TestDestroyWithPendingDelete: an update of an empty program deletes the live copy and the one pending delete, once each", async () => {
    const s = new TestStack({ snapshot: pendingSnapshot() });
    const r = await planStep(s, "update", async () => undefined);
    expect(deletedIds(r)).toEqual(["0", "1"]);
    expect(s.state()).toEqual([]);
  });

  test("TestUpdateWithPendingDelete: a destroy deletes the live copy and the one pending delete, once each", async () => {
    const s = new TestStack({ snapshot: pendingSnapshot() });
    const r = await planStep(s, "destroy", async () => undefined);
    expect(deletedIds(r)).toEqual(["0", "1"]);
    expect(s.state()).toEqual([]);
  });
});
