// Ported from pulumi/pulumi pkg/engine/lifecycletest/refresh_test.go at the commit in framework.ts
// (COMMIT): each test names the Go test function whose steps and assertions it repeats.
import { removeSnapshots, TestStack, urnOf, type TestMonitor } from "./framework";

afterAll(removeSnapshots);

describe("refresh_test.go", () => {
  test("TestParallelRefresh: a chain of four dependent resources is read in parallel and keeps its order in state", async () => {
    const s = new TestStack();
    let inFlight = 0;
    let most = 0;
    s.provider.readF = async (_u, id, inputs, state) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      return { id, props: state, inputs };
    };
    // Each depends on the one before it, as in the Go test; the state order must survive the refresh.
    await s.up(async (m) => {
      let prev: string | undefined;
      for (const n of ["resA", "resB", "resC", "resD"]) prev = (await m.resource(n, { inputs: { n }, dependencies: prev ? [prev] : [] })).urn;
    });
    expect(s.names()).toEqual(["resA", "resB", "resC", "resD"]);
    const r = await s.refresh();
    expect(r.steps.map((x) => x.op)).toEqual(["same", "same", "same", "same"]);
    expect(s.provider.made("read").sort()).toEqual(["resA", "resB", "resC", "resD"]);
    expect(most).toBeGreaterThan(1);
    expect(s.names()).toEqual(["resA", "resB", "resC", "resD"]);
  });

  test("TestRefreshBasics: a refresh takes what the provider reads (updates) and drops what it finds gone (deletes)", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      for (const n of ["resA", "resB", "resC"]) await m.resource(n, { inputs: { v: n } });
    });
    s.provider.readF = async (urn, id, inputs, state) => {
      if (urn.endsWith("::resB")) return { id: "", props: {}, inputs: undefined };
      if (urn.endsWith("::resC")) return { id, props: { ...state, v: "drifted" }, inputs };
      return { id, props: state, inputs };
    };
    // The provider's Diff, from the state read to the inputs in state, classifies each (RefreshStep).
    s.provider.diffF = async (_u, _id, olds, news) => ({ changes: olds.v !== news.v, diffs: olds.v !== news.v ? ["v"] : [] });
    const r = await s.refresh();
    expect(r.steps.map((x) => `${x.op} ${x.name}`).sort()).toEqual(["delete resB", "same resA", "update resC"]);
    expect(s.names()).toEqual(["resA", "resC"]);
    expect(s.get("resC")?.outputs).toEqual({ v: "drifted" });
    expect(s.get("resC")?.inputs).toEqual({ v: "resC" });
  });

  test("TestRefreshWithDelete: a resource found gone is removed from state", async () => {
    const s = new TestStack();
    await s.up(async (m) => void (await m.resource("resA")));
    s.provider.readF = async () => ({ id: "", props: {}, inputs: undefined });
    await s.refresh();
    expect(s.state()).toEqual([]);
  });

  const goneWith = async (edge: "dependencies" | "propertyDependencies" | "deletedWith"): Promise<TestStack> => {
    const s = new TestStack();
    await s.up(async (m) => {
      const a = await m.resource("resA");
      const opts =
        edge === "dependencies" ? { dependencies: [a.urn] } : edge === "propertyDependencies" ? { inputs: { x: a.id }, propertyDependencies: { x: [a.urn] } } : { deletedWith: a.urn };
      await m.resource("resB", opts);
    });
    s.provider.readF = async (urn, id, inputs, state) => (urn.endsWith("::resA") ? { id: "", props: {}, inputs: undefined } : { id, props: state, inputs });
    await s.refresh();
    return s;
  };

  test("TestRefreshDeleteDependencies: a dependency on a resource found gone is removed", async () => {
    const s = await goneWith("dependencies");
    expect(s.names()).toEqual(["resB"]);
    expect(s.get("resB")?.dependencies).toEqual([]);
  });

  test("TestRefreshDeletePropertyDependencies: a property dependency on a resource found gone is removed", async () => {
    const s = await goneWith("propertyDependencies");
    expect(s.names()).toEqual(["resB"]);
    expect(s.get("resB")?.propertyDependencies ?? {}).toEqual({});
  });

  test("TestRefreshDeleteDeletedWith: deletedWith a resource found gone is cleared", async () => {
    const s = await goneWith("deletedWith");
    expect(s.names()).toEqual(["resB"]);
    expect(s.get("resB")?.deletedWith).toBeUndefined();
  });

  test("TestRefreshDeleteParent: a child whose parent is found gone loses its parent", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      const a = await m.resource("resA");
      await m.resource("resB", { parent: a.urn });
    });
    s.provider.readF = async (urn, id, inputs, state) => (urn.endsWith("::resA") ? { id: "", props: {}, inputs: undefined } : { id, props: state, inputs });
    await s.refresh();
    expect(s.names()).toEqual(["resB"]);
    expect(s.get("resB")?.parent).toBeUndefined();
  });

  test("TestRefreshStepWillPersistUpdatedIDs: an id the Read returns replaces the one in state, and the init errors are cleared", async () => {
    const outputs = { foo: "bar" };
    const s = new TestStack({ snapshot: [{ urn: urnOf("resA"), id: "myid", outputs, initErrors: ["Resource failed to initialize"] }] });
    s.provider.readF = async () => ({ id: "mynewid", props: outputs, inputs: {} });
    await s.refresh();
    expect(s.state().map((r) => [r.urn, r.id, r.initErrors ?? []])).toEqual([[urnOf("resA"), "mynewid", []]]);
  });

  test("TestRefreshPreservesInputsWhenReadReturnsNoInputs: inputs stay when the Read gives none", async () => {
    const s = new TestStack();
    await s.up(async (m) => void (await m.resource("resA", { inputs: { foo: "bar" } })));
    s.provider.readF = async (_u, id) => ({ id, props: { foo: "bar", out: 1 }, inputs: undefined });
    await s.refresh();
    expect(s.get("resA")).toMatchObject({ inputs: { foo: "bar" }, outputs: { foo: "bar", out: 1 } });
  });

  test("TestRefreshInitFailure: a failed Read fails the refresh and leaves the state as it was", async () => {
    const s = new TestStack();
    await s.up(async (m) => void (await m.resource("resA", { inputs: { foo: "bar" } })));
    s.provider.readF = async () => {
      throw new Error("read failed");
    };
    await expect(s.refresh()).rejects.toThrow("read failed");
    expect(s.get("resA")).toMatchObject({ inputs: { foo: "bar" }, outputs: { foo: "bar" } });
  });

  test("TestExternalRefresh: a .get() resource is refreshed by its Read too", async () => {
    const s = new TestStack();
    s.provider.readF = async (_u, id) => ({ id, props: { v: 1 }, inputs: {} });
    await s.up(async (m: TestMonitor) => void (await m.read("resA", "ext-id")));
    s.provider.reset();
    s.provider.readF = async (_u, id) => ({ id, props: { v: 2 }, inputs: {} });
    await s.refresh();
    expect(s.provider.made("read")).toEqual(["resA"]);
    expect(s.get("resA")).toMatchObject({ external: true, outputs: { v: 2 } });
  });

  test("TestExternalRefreshDoesNotCallDiff: a refresh of a .get() resource reads it and never calls Diff", async () => {
    const s = new TestStack();
    let readCall = 0;
    // The Go Read returns no id; the read id is returned here, as a dynamic provider's read does.
    s.provider.readF = async (_u, id) => ({ id, props: { o1: ++readCall }, inputs: {} });
    await s.up(async (m: TestMonitor) => void (await m.read("resA", "resA-some-id")));
    await s.refresh();
    expect(s.provider.made("diff")).toEqual([]);
    expect(s.get("resA")).toMatchObject({ external: true, outputs: { o1: 2 } });
  });

  test("TestRefreshUpdateWithDeletedResource: a refresh then an up recreates what was found gone", async () => {
    const s = new TestStack();
    const program = async (m: TestMonitor): Promise<void> => void (await m.resource("resA"));
    await s.up(program);
    s.provider.readF = async () => ({ id: "", props: {}, inputs: undefined });
    await s.refresh();
    s.provider.readF = undefined;
    s.provider.reset();
    expect(TestStack.steps(await s.up(program))).toEqual(["create resA"]);
  });

  test("TestRefreshWithPendingOperations (pulumi_test.go): a refresh keeps a pending-delete copy and refreshes the live one", async () => {
    const urn = urnOf("resA");
    const s = new TestStack({ snapshot: [{ urn, id: "1" }, { urn, id: "0", delete: true }] });
    await s.refresh();
    expect(s.state().map((r) => [r.id, !!r.delete])).toEqual([["1", false], ["0", true]]);
  });
});
