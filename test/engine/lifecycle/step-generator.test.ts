// Ported from pulumi/pulumi pkg/engine/lifecycletest/step_generator_test.go and alias_test.go at the
// commit in framework.ts (COMMIT): each test names the Go test function whose steps and assertions it repeats.
import { COMPONENT, failure, initFailure, removeSnapshots, TestStack, TYP, urnOf, type TestMonitor } from "./framework";

afterAll(removeSnapshots);

describe("step_generator_test.go", () => {
  test("TestDuplicateURN: two registrations of one URN fail the update", async () => {
    const s = new TestStack();
    const e = await failure(s.up(async (m) => {
      await m.resource("resA");
      await m.resource("resA");
    }));
    expect(e.message).toContain(`Duplicate resource URN '${urnOf("resA")}'`);
  });

  test("TestDuplicateAlias: a resource registered under a URN another claimed through an alias fails the update", async () => {
    const s = new TestStack();
    await s.up(async (m) => void (await m.resource("resA")));
    s.provider.reset();
    const e = await failure(s.up(async (m) => {
      await m.resource("resB", { aliases: [{ urn: urnOf("resA") }] });
      await m.resource("resA");
    }));
    expect(e.message).toContain(`Duplicate resource URN '${urnOf("resA")}' conflicting with alias on resource with URN '${urnOf("resB")}'`);
    expect(s.state().filter((r) => r.id === s.state()[0]?.id)).toHaveLength(1);
  });

  test("TestReadReplaceStep: a .get() by another id over a managed resource deletes the managed object", async () => {
    const s = new TestStack();
    await s.up(async (m) => void (await m.resource("resA")));
    const managed = s.get("resA")!.id;
    s.provider.reset();
    await s.up(async (m) => void (await m.read("resA", "read-id")));
    expect(s.provider.made("delete")).toEqual(["resA"]);
    expect(s.state().map((r) => [r.urn, r.id, !!r.external])).toEqual([[urnOf("resA"), "read-id", true]]);
    expect(managed).not.toBe("read-id");
  });

  test("TestRelinquishStep: a .get() by the managed resource's own id relinquishes it without a Delete", async () => {
    const s = new TestStack();
    await s.up(async (m) => void (await m.resource("resA")));
    const id = s.get("resA")!.id;
    s.provider.reset();
    await s.up(async (m) => void (await m.read("resA", id)));
    expect(s.provider.made("delete")).toEqual([]);
    expect(s.state().map((r) => [r.id, !!r.external])).toEqual([[id, true]]);
  });

  test("TestTakeOwnershipStep: declaring as managed what was read with .get() creates it", async () => {
    const s = new TestStack();
    await s.up(async (m) => void (await m.read("resA", "my-resource-id")));
    expect(s.get("resA")?.external).toBe(true);
    s.provider.reset();
    const r = await s.up(async (m) => void (await m.resource("resA")));
    expect(TestStack.steps(r)).toEqual(["create resA"]);
    expect(s.provider.made("delete")).toEqual([]);
    expect(s.state().map((x) => [x.urn, !!x.external])).toEqual([[urnOf("resA"), false]]);
  });

  test("TestInitErrorsStep: a resource left with init errors gets an Update on the next run, even unchanged", async () => {
    const s = new TestStack();
    s.provider.createF = async (_u, inputs) => {
      throw initFailure("init failed", "id-1", inputs, ["init failed"]);
    };
    const program = async (m: TestMonitor): Promise<void> => void (await m.resource("resA", { inputs: { foo: "bar" } }));
    await failure(s.up(program));
    expect(s.get("resA")).toMatchObject({ id: "id-1", initErrors: ["init failed"] });
    s.provider.reset();
    const r = await s.up(program);
    expect(TestStack.steps(r)).toEqual(["update resA"]);
    expect(s.get("resA")?.initErrors).toBeUndefined();
  });

  test("TestInitErrorsIgnoreChanges: an ignored change on a resource with init errors still updates it", async () => {
    const s = new TestStack();
    s.provider.createF = async (_u, inputs) => {
      throw initFailure("init failed", "id-1", inputs, ["init failed"]);
    };
    await failure(s.up(async (m) => void (await m.resource("resA", { inputs: { foo: "bar" }, ignoreChanges: ["foo"] }))));
    const r = await s.up(async (m) => void (await m.resource("resA", { inputs: { foo: "baz" }, ignoreChanges: ["foo"] })));
    expect(TestStack.steps(r)).toEqual(["update resA"]);
    expect(s.get("resA")?.inputs).toEqual({ foo: "bar" });
  });

  test("TestReadNilOutputs: a Read that finds nothing fails the .get()", async () => {
    const s = new TestStack();
    s.provider.readF = async () => ({ id: "", props: {}, inputs: undefined });
    const e = await failure(s.up(async (m) => void (await m.read("resA", "some-id"))));
    expect(e.message).toContain("does not exist");
    expect(s.state()).toEqual([]);
  });

  test("TestSecretMasked: an output the provider returns in plain text for a secret input is secret in state, sealed in the state text", async () => {
    const s = new TestStack();
    const secret = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "s3cret-value" };
    // As in the Go test, the provider returns the value in plain text: the engine must still mark it secret.
    s.provider.createF = async () => ({ id: "id", outputs: { shh: "s3cret-value" } });
    await s.up(async (m) => void (await m.resource("resA", { inputs: { shh: secret } })));
    expect(s.get("resA")?.outputs.shh).toBe("s3cret-value");
    expect(s.get("resA")?.secretKeys).toEqual(["shh"]);
    expect(s.get("resA")?.inputs.shh).toBe("s3cret-value");
    expect(s.engine.serializedState()).not.toContain("s3cret-value");
  });
});

describe("alias_test.go", () => {
  test("TestAliases: a rename with an alias is the same resource (no create, no delete)", async () => {
    const s = new TestStack();
    await s.up(async (m) => void (await m.resource("resA", { inputs: { x: 1 } })));
    s.provider.reset();
    const r = await s.up(async (m) => void (await m.resource("resB", { inputs: { x: 1 }, aliases: [{ name: "resA" }] })));
    expect(TestStack.steps(r)).toEqual(["same resB"]);
    expect(s.provider.made("create")).toEqual([]);
    expect(s.provider.made("delete")).toEqual([]);
    expect(s.names()).toEqual(["resB"]);
  });

  test("TestAliasURNs: an alias given as a whole URN claims the old state", async () => {
    const s = new TestStack();
    await s.up(async (m) => void (await m.resource("resA")));
    const r = await s.up(async (m) => void (await m.resource("resB", { aliases: [{ urn: urnOf("resA") }] })));
    expect(TestStack.steps(r)).toEqual(["same resB"]);
  });

  test("TestDuplicatesDueToAliases: two resources claiming one old state through aliases fail the update", async () => {
    const s = new TestStack();
    await s.up(async (m) => void (await m.resource("resA")));
    const e = await failure(s.up(async (m) => {
      await m.resource("resB", { aliases: [{ urn: urnOf("resA") }] });
      await m.resource("resC", { aliases: [{ urn: urnOf("resA") }] });
    }));
    expect(e.message).toContain("Duplicate resource alias");
  });

  test("TestParentAlias: a child follows its parent's alias (inherited child alias)", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      const p = await m.component("parent");
      await m.resource("parent-child", { parent: p.urn });
    });
    s.provider.reset();
    const r = await s.up(async (m) => {
      const p = await m.component("renamed", { aliases: [{ name: "parent" }] });
      await m.resource("renamed-child", { parent: p.urn });
    });
    expect(TestStack.steps(r)).toEqual(["same renamed-child"]);
    expect(s.provider.made("delete")).toEqual([]);
    expect(s.get("renamed-child")?.urn).toBe(urnOf("renamed-child", TYP, COMPONENT));
  });

  test("TestEmptyParentAlias: an alias with no parent moves a resource under a component without a replace", async () => {
    const s = new TestStack();
    await s.up(async (m) => void (await m.resource("resA")));
    const r = await s.up(async (m) => {
      const p = await m.component("comp");
      await m.resource("resA", { parent: p.urn, aliases: [{ noParent: true }] });
    });
    expect(TestStack.steps(r)).toEqual(["same resA"]);
    expect(s.get("resA")?.urn).toBe(urnOf("resA", TYP, COMPONENT));
  });

  test("TestCorrectResourceChosen: a resource's own URN wins over an alias to another old resource, and the state stays whole", async () => {
    const s = new TestStack();
    s.provider.createF = async (_u, inputs) => ({ id: "created-id", outputs: inputs });
    await s.up(async (m) => {
      const a = await m.resource("resA");
      await m.resource("resB", { parent: a.urn });
      await m.resource("resB");
    });
    expect(s.state().map((r) => r.urn)).toEqual([urnOf("resA"), urnOf("resB", TYP, TYP), urnOf("resB")]);
    await s.up(async (m) => {
      const a = await m.resource("resA");
      await m.resource("resB", { aliases: [{ parent: a.urn }] });
    });
    // The unparented resB keeps its own state; the parented one, claimed by nobody, is deleted.
    expect(s.state().map((r) => r.urn)).toEqual([urnOf("resA"), urnOf("resB")]);
  });

  test("TestAliasesInDependenciesAreNormalized: a dependent's old dependency on an aliased URN follows the rename", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      const a = await m.resource("resA");
      await m.resource("resB", { dependencies: [a.urn] });
    });
    s.provider.reset();
    await s.up(async (m) => {
      const a = await m.resource("resA2", { aliases: [{ name: "resA" }] });
      await m.resource("resB", { dependencies: [a.urn] });
    });
    expect(s.get("resB")?.dependencies).toEqual([urnOf("resA2")]);
    expect(s.provider.made("delete")).toEqual([]);
  });

  test("TestComponentToCustomUpdate: a component turned custom with a type alias, then back, keeps one resA of the right kind", async () => {
    const s = new TestStack();
    s.provider.createF = async (_u, inputs, preview) => ({ id: preview ? "" : "1", outputs: inputs });
    s.provider.diffF = async () => ({});
    const insA = { foo: "bar" };
    await s.up(async (m) => void (await m.component("resA", { inputs: insA }, "prog::myType")));
    expect(s.state().map((r) => [r.type, r.custom])).toEqual([["prog::myType", false]]);
    await s.up(async (m) => void (await m.resource("resA", { inputs: insA, aliases: [{ type: "prog::myType" }] })));
    expect(s.state().map((r) => [r.type, r.custom])).toEqual([[TYP, true]]);
    await s.up(async (m) => void (await m.component("resA", { inputs: insA, aliases: [{ type: TYP }] }, "prog::myType")));
    expect(s.state().map((r) => [r.type, r.custom])).toEqual([["prog::myType", false]]);
  });
});
