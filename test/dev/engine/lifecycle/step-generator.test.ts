// Ported from pulumi/pulumi pkg/engine/lifecycletest/step_generator_test.go at the commit in
// framework.ts (COMMIT): each test names the Go test function whose program, provider, operations
// and assertions it repeats (lt.NewTestBuilder's RunUpdate: one update, no preview). The Go snapshots
// hold a default provider entry with no counterpart here: their counts are one less here.
import { failure, integrityProblems, removeSnapshots, secret, TestStack, urnOf, type TestMonitor } from "./framework";

afterAll(removeSnapshots);

/** The only resource in state, checked whole (VerifyIntegrity) and by URN and external flag. */
function expectOne(s: TestStack, external: boolean): void {
  expect(integrityProblems(s.state())).toEqual([]);
  expect(s.state().map((r) => [r.urn, !!r.external])).toEqual([[urnOf("resA"), external]]);
}

/** A call's error, or undefined when it answered. */
const errorOf = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe("step_generator_test.go", () => {
  test("TestDuplicateURN: a second registration of a URN, and a read of it, fail; so does the update", async () => {
    const s = new TestStack();
    const errors: unknown[] = [];
    await failure(
      s.up(async (m) => {
        await m.resource("resA");
        errors.push(await errorOf(m.resource("resA")));
        errors.push(await errorOf(m.read("resA", "id")));
      }),
    );
    await s.settled();
    expect(errors).toHaveLength(2);
    for (const e of errors) expect(e).toBeInstanceOf(Error);
  });

  test("TestDuplicateAlias: two resources aliased to one old URN fail the update", async () => {
    const s = new TestStack();
    const resURN = urnOf("resA");
    await s.up(async (m) => void (await m.resource("resA")));
    let second: unknown;
    await failure(
      s.up(async (m) => {
        await m.resource("resB", { aliases: [{ urn: resURN }] });
        second = await errorOf(m.resource("resC", { aliases: [{ urn: resURN }] }));
      }),
    );
    await s.settled();
    expect(second).toBeInstanceOf(Error);
  });

  test("TestSecretMasked: an output the provider returns in plain text for a secret input is secret in state", async () => {
    const s = new TestStack();
    s.provider.createF = async () => ({ id: "id", outputs: { shouldBeSecret: "bar" } });
    await s.up(async (m) => void (await m.resource("resA", { inputs: { shouldBeSecret: secret("bar") } })));
    expect(s.get("resA")?.outputs).toEqual({ shouldBeSecret: "bar" });
    expect(s.get("resA")?.secretKeys).toEqual(["shouldBeSecret"]);
    // Not asserted there: the state text holds it sealed.
    expect(JSON.parse(s.engine.serializedState()).resources[0].outputs.shouldBeSecret).not.toBe("bar");
  });

  test("TestReadReplaceStep: a .get() by another id over a managed resource leaves one external resA", async () => {
    const s = new TestStack();
    s.provider.createF = async (_u, inputs) => ({ id: "created-id", outputs: inputs });
    await s.up(async (m) => void (await m.resource("resA")));
    expectOne(s, false);
    // Outputs and no id: the ReadStep keeps the id asked for.
    s.provider.readF = async () => ({ id: "", props: {}, inputs: undefined });
    await s.up(async (m) => void (await m.read("resA", "read-id")));
    expectOne(s, true);
    // Not asserted there: the managed one was deleted (ReadReplacementStep, then GenerateDeletes).
    expect(s.provider.made("delete")).toEqual(["resA"]);
  });

  test("TestRelinquishStep: a .get() by the managed resource's own id relinquishes it", async () => {
    const resourceID = "my-resource-id";
    const s = new TestStack();
    s.provider.createF = async (_u, inputs) => ({ id: resourceID, outputs: inputs });
    await s.up(async (m) => void (await m.resource("resA")));
    expectOne(s, false);
    s.provider.readF = async () => ({ id: "", props: {}, inputs: undefined });
    await s.up(async (m) => void (await m.read("resA", resourceID)));
    expectOne(s, true);
    expect(s.provider.made("delete")).toEqual([]);
  });

  test("TestTakeOwnershipStep: declaring as managed what was read with .get() makes it managed", async () => {
    const s = new TestStack();
    s.provider.readF = async () => ({ id: "", props: {}, inputs: undefined });
    await s.up(async (m) => void (await m.read("resA", "my-resource-id")));
    expectOne(s, true);
    s.provider.createF = async (_u, inputs) => ({ id: "my-resource-id", outputs: inputs });
    await s.up(async (m) => void (await m.resource("resA")));
    expectOne(s, false);
  });

  /** The snapshot of TestInitErrorsStep and TestInitErrorsIgnoreChanges, the default provider left out. */
  const initErrorsSnapshot = () => [
    {
      urn: urnOf("resA"),
      id: "my-resource-id",
      initErrors: ['errors should yield an empty update to "continue" awaiting initialization.'],
      inputs: {},
      outputs: {},
    },
  ];

  test("TestInitErrorsStep: an unchanged resource with init errors gets an update that clears them", async () => {
    const s = new TestStack({ snapshot: initErrorsSnapshot() });
    s.provider.createF = async (_u, inputs) => ({ id: "my-resource-id", outputs: inputs });
    await s.up(async (m) => void (await m.resource("resA")));
    expect(integrityProblems(s.state())).toEqual([]);
    expect(s.state().map((r) => r.urn)).toEqual([urnOf("resA")]);
    expect(s.get("resA")?.initErrors ?? []).toEqual([]);
  });

  test("TestInitErrorsIgnoreChanges: the update of a resource with init errors gets its ignoreChanges", async () => {
    const s = new TestStack({ snapshot: initErrorsSnapshot() });
    s.provider.createF = async (_u, inputs) => ({ id: "my-resource-id", outputs: inputs });
    s.provider.updateF = async (_u, _id, olds, _news, ignoreChanges) => {
      if (ignoreChanges.length === 0) throw new Error("expected ignoreChanges");
      return { outputs: olds };
    };
    // Go asserts nothing more: an Update without the ignore list would fail this update.
    const r = await s.up(async (m) => void (await m.resource("resA", { ignoreChanges: ["property"] })));
    expect(TestStack.steps(r)).toEqual(["update resA"]);
  });

  test("TestReadNilOutputs: a Read that finds nothing fails the update; ReadResource does not return", async () => {
    const resourceID = "my-resource-id";
    const s = new TestStack();
    s.provider.readF = async () => ({ id: "", props: undefined, inputs: undefined });
    let returned = false;
    const e = await failure(
      s.up(async (m: TestMonitor) => {
        await m.read("resA", resourceID);
        returned = true;
      }),
    );
    expect(e.message).toContain(`resource '${resourceID}' does not exist`);
    await s.settled();
    expect(returned).toBe(false);
  });
});
