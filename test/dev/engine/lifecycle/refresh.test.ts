// Ported from pulumi/pulumi pkg/engine/lifecycletest/refresh_test.go at the commit in framework.ts
// (COMMIT): each test names the Go test function whose program, provider, operations and assertions
// it repeats. A Go lt.TestPlan step previews its operation first. The Go snapshots hold a default
// provider entry with no counterpart here: their counts are one less here.
import type { RunResult } from "../../../../dev/engine/engine";
import type { ResourceState } from "../../../../dev/engine/state";
import { initFailure, removeSnapshots, TestStack, urnOf, type ProgramF, type SnapshotEntry, type TestMonitor } from "./framework";

afterAll(removeSnapshots);

/** ReadResponse{}: no id, no outputs. */
const GONE = { id: "", props: undefined, inputs: undefined };

/** An update as lt.TestPlan runs one: previewed first. */
async function planUpdate(s: TestStack, program: ProgramF): Promise<RunResult> {
  await s.preview(program);
  return s.up(program);
}

/** A refresh as lt.TestPlan runs one: previewed first. */
async function planRefresh(s: TestStack): Promise<RunResult> {
  await s.refresh({ preview: true });
  return s.refresh();
}

/**
 * The snapshot of validateRefreshBasicsCombination and validateRefreshDeleteCombination: A, B
 * depending on A, C on A and B, then pending deletes of A (ids 3 and 4) and of C (id 5).
 */
function refreshSnapshot(): SnapshotEntry[] {
  const [urnA, urnB, urnC] = ["resA", "resB", "resC"].map((n) => urnOf(n));
  const entry = (urn: string, id: string, del: boolean, ...dependencies: string[]): SnapshotEntry => ({
    urn,
    id,
    inputs: {},
    outputs: {},
    dependencies,
    ...(del ? { delete: true } : {}),
  });
  return [entry(urnA!, "0", false), entry(urnB!, "1", false, urnA!), entry(urnC!, "2", false, urnA!, urnB!), entry(urnA!, "3", true), entry(urnA!, "4", true), entry(urnC!, "5", true, urnA!, urnB!)];
}

/** A state entry as the snapshot wrote it, for comparison with one read back. */
const asState = (e: SnapshotEntry): Partial<ResourceState> => ({ urn: e.urn, id: e.id, inputs: e.inputs, outputs: e.outputs, dependencies: e.dependencies, ...(e.delete ? { delete: true } : {}) });

describe("refresh_test.go", () => {
  test("TestParallelRefresh: a chain of four dependent resources keeps its order through a refresh at --parallel 4", async () => {
    const s = new TestStack({ parallel: 4 });
    let inFlight = 0;
    let most = 0;
    s.provider.readF = async (_u, id, inputs, state) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      return { id, props: state, inputs: inputs ?? {} };
    };
    await planUpdate(s, async (m) => {
      const respA = await m.resource("resA");
      const respB = await m.resource("resB", { dependencies: [respA.urn] });
      const respC = await m.resource("resC", { dependencies: [respB.urn] });
      await m.resource("resD", { dependencies: [respC.urn] });
    });
    expect(s.names()).toEqual(["resA", "resB", "resC", "resD"]);
    await planRefresh(s);
    expect(s.names()).toEqual(["resA", "resB", "resC", "resD"]);
    // Not asserted there: the reads did overlap.
    expect(most).toBeGreaterThan(1);
  });

  test("TestExternalRefresh: a .get() resource stays external through a refresh", async () => {
    const s = new TestStack();
    const program = async (m: TestMonitor): Promise<void> => void (await m.read("resA", "resA-some-id"));
    await planUpdate(s, program);
    expect(s.state().map((r) => [r.name, !!r.external])).toEqual([["resA", true]]);
    await planRefresh(s);
    expect(s.state().map((r) => [r.name, !!r.external])).toEqual([["resA", true]]);
  });

  test("TestExternalRefreshDoesNotCallDiff: a refresh of a .get() resource never calls Diff", async () => {
    const s = new TestStack();
    let readCall = 0;
    // No id: the ReadStep keeps the one asked for; the refresh takes the resource for gone.
    s.provider.readF = async () => ({ id: "", props: { o1: ++readCall }, inputs: undefined });
    let diffCalled = false;
    s.provider.diffF = async () => {
      diffCalled = true;
      return {};
    };
    await planUpdate(s, async (m) => void (await m.read("resA", "resA-some-id")));
    await planRefresh(s);
    expect(diffCalled).toBe(false);
  });

  test("TestRefreshInitFailure: a Read that answers clears the init errors; a Read that partially fails keeps its own and the refresh succeeds", async () => {
    const [resURN, res2URN] = [urnOf("resA"), urnOf("resB")];
    const res2Outputs = { foo: "bar" };
    const old: SnapshotEntry[] = [
      { urn: resURN, id: "0", initErrors: ["Resource failed to initialize"] },
      { urn: res2URN, id: "1" },
    ];
    let refreshShouldFail = false;
    const s = new TestStack({ snapshot: old });
    s.provider.readF = async (urn, id) => {
      if (refreshShouldFail && urn === resURN) throw initFailure("init failed", id, {}, ["Refresh reports continued to fail to initialize"]);
      if (urn === res2URN) return { id, props: res2Outputs, inputs: undefined };
      return { id, props: {}, inputs: undefined };
    };
    const check = (t: TestStack, initErrors: string[]): void => {
      expect(t.state().map((r) => r.urn)).toEqual([resURN, res2URN]);
      expect(t.get("resA")?.initErrors ?? []).toEqual(initErrors);
      expect(t.get("resA")?.id).toBe("0");
      expect(t.get("resB")?.outputs).toEqual(res2Outputs);
      expect(t.get("resB")?.id).toBe("1");
    };
    await planRefresh(s);
    check(s, []);

    refreshShouldFail = true;
    const again = new TestStack({ snapshot: old, provider: s.provider });
    await again.refresh();
    check(again, ["Refresh reports continued to fail to initialize"]);
    expect(again.lines.some((l) => l.includes("Refreshed resource is in an unhealthy state"))).toBe(true);
  });

  for (const parallel of [1, 4]) {
    test(`TestRefreshWithDelete/parallel-${parallel}: a resource whose Read finds nothing leaves the state`, async () => {
      const s = new TestStack({ parallel });
      s.provider.readF = async () => GONE;
      await planUpdate(s, async (m) => void (await m.resource("resA")));
      await planRefresh(s);
      expect(s.state()).toEqual([]);
    });
  }

  test("TestRefreshDeleteDependencies (the untargeted validateRefreshDeleteCombination): what the gone resources leave behind loses its references to them", async () => {
    const old = refreshSnapshot();
    const s = new TestStack({ snapshot: old });
    s.provider.readF = async (_u, id, inputs, state) => (id === "0" || id === "4" ? GONE : { id, props: state, inputs });
    const r = await planRefresh(s);
    expect(r.steps.length).toBeGreaterThan(0);
    const urnB = urnOf("resB");
    expect(s.state().map((x) => x.id)).toEqual(["1", "2", "3", "5"]);
    expect(s.state().find((x) => x.id === "1")).toMatchObject({ urn: urnB, dependencies: [] });
    expect(s.state().find((x) => x.id === "2")).toMatchObject({ urn: urnOf("resC"), dependencies: [urnB] });
    // 3 and 5 are as they were: A (3) is before 5 in state, so 5 still depends on A and B.
    expect(s.state().find((x) => x.id === "3")).toMatchObject(asState(old[3]!));
    expect(s.state().find((x) => x.id === "5")).toMatchObject(asState(old[5]!));
  });

  test("TestRefreshDeletePropertyDependencies: a property dependency on a resource found gone is removed", async () => {
    const s = new TestStack();
    s.provider.readF = async (urn, id) => (urn.endsWith("::resA") ? GONE : { id, props: {}, inputs: undefined });
    await planUpdate(s, async (m) => {
      const resA = await m.resource("resA");
      await m.resource("resB", { propertyDependencies: { propB1: [resA.urn] } });
    });
    expect(s.names()).toEqual(["resA", "resB"]);
    expect(s.get("resB")?.propertyDependencies?.propB1?.[0]).toBe(urnOf("resA"));
    await planRefresh(s);
    expect(s.names()).toEqual(["resB"]);
    expect(s.get("resB")?.propertyDependencies ?? {}).toEqual({});
  });

  test("TestRefreshDeleteDeletedWith: deletedWith a resource found gone is cleared", async () => {
    const s = new TestStack();
    s.provider.readF = async (urn, id) => (urn.endsWith("::resA") ? GONE : { id, props: {}, inputs: undefined });
    await planUpdate(s, async (m) => {
      const resA = await m.resource("resA");
      await m.resource("resB", { deletedWith: resA.urn });
    });
    expect(s.names()).toEqual(["resA", "resB"]);
    expect(s.get("resB")?.deletedWith).toBe(urnOf("resA"));
    await planRefresh(s);
    expect(s.names()).toEqual(["resB"]);
    expect(s.get("resB")?.deletedWith).toBeUndefined();
  });

  test("TestRefreshBasics (the untargeted validateRefreshBasicsCombination): each resource takes what its Read answers; Same or Update by its inputs; what answers nothing goes", async () => {
    const old = refreshSnapshot();
    const newStates: Record<string, { props: Record<string, unknown>; inputs: Record<string, unknown> } | undefined> = {
      "0": { props: {}, inputs: {} },
      "3": { props: {}, inputs: {} },
      "1": { props: { foo: "bar" }, inputs: {} },
      "4": { props: { baz: "qux", oof: "zab" }, inputs: { oof: "zab" } },
      "2": undefined,
      "5": undefined,
    };
    const s = new TestStack({ snapshot: old });
    const asked: string[] = [];
    s.provider.readF = async (_u, id) => {
      asked.push(id);
      const n = newStates[id];
      return { id, props: n?.props, inputs: n?.inputs };
    };
    const r = await planRefresh(s);
    expect(asked.sort()).toEqual(["0", "0", "1", "1", "2", "2", "3", "3", "4", "4", "5", "5"]);
    const resultOps = Object.fromEntries(r.steps.map((x) => [x.id, x.op]));
    expect(resultOps).toEqual({ "0": "same", "1": "same", "2": "delete", "3": "same", "4": "update", "5": "delete" });
    const expected = old
      .filter((e) => newStates[e.id!])
      .map((e) => ({ ...asState(e), inputs: newStates[e.id!]!.inputs, outputs: newStates[e.id!]!.props }));
    expect(s.state().map((x) => asState(x as SnapshotEntry))).toEqual(expected);
  });

  test("TestRefreshStepWillPersistUpdatedIDs: an id the Read returns replaces the one in state, and the init errors are cleared", async () => {
    const outputs = { foo: "bar" };
    const s = new TestStack({ snapshot: [{ urn: urnOf("resA"), id: "myid", inputs: {}, outputs, initErrors: ["Resource failed to initialize"] }] });
    s.provider.readF = async () => ({ id: "mynewid", props: outputs, inputs: {} });
    await s.refresh();
    expect(s.state().map((r) => [r.urn, r.id, r.initErrors ?? []])).toEqual([[urnOf("resA"), "mynewid", []]]);
  });

  test("TestRefreshUpdateWithDeletedResource (up --refresh as a refresh, then the up): a resource found gone is not deleted again and the state ends empty", async () => {
    const s = new TestStack({ snapshot: [{ urn: urnOf("resA"), id: "myid" }] });
    s.provider.readF = async () => GONE;
    const program = async (): Promise<void> => undefined;
    await s.refresh({ preview: true });
    await s.preview(program);
    await s.refresh();
    await s.up(program);
    expect(s.state()).toEqual([]);
    expect(s.provider.made("delete")).toEqual([]);
  });

  test("TestRefreshDeleteParent: a child whose parent is found gone stays, without its parent", async () => {
    const s = new TestStack();
    s.provider.readF = async (urn, id) => (urn.endsWith("::resA") ? GONE : { id, props: {}, inputs: {} });
    await s.up(async (m) => {
      const resp = await m.resource("resA");
      await m.resource("resB", { parent: resp.urn });
    });
    expect(s.state()).toHaveLength(2);
    await s.refresh();
    expect(s.state()).toHaveLength(1);
    // Not asserted there: the parent reference went with it (undangleParentResources).
    expect(s.get("resB")?.parent).toBeUndefined();
  });

  test("TestRefreshPreservesInputsWhenReadReturnsNoInputs: after an update, a Read without inputs keeps the updated inputs", async () => {
    const urnA = urnOf("resA");
    const s = new TestStack({
      snapshot: [{ urn: urnA, id: "resA-id", inputs: { inputProp: "oldInputValue" }, outputs: { inputProp: "oldInputValue", outputProp: "oldOutputValue" } }],
    });
    s.provider.diffF = async (_u, _id, olds, news) => ({ changes: olds.inputProp !== news.inputProp });
    s.provider.readF = async (_u, id) => ({ id, props: { inputProp: "newInputValue", outputProp: "newOutputValue" }, inputs: undefined });
    s.provider.updateF = async (_u, _id, _olds, news) => ({
      outputs: { inputProp: news.inputProp, outputProp: String(news.inputProp).replaceAll("Input", "Output") },
    });
    const updatedInputs = { inputProp: "updatedInputValue" };
    await planUpdate(s, async (m) => void (await m.resource("resA", { inputs: updatedInputs })));
    await planRefresh(s);
    expect(s.state()).toHaveLength(1);
    expect(s.get("resA")?.inputs).toEqual(updatedInputs);
  });
});
