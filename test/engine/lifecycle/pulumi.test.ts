// Ported from pulumi/pulumi pkg/engine/lifecycletest/pulumi_test.go at the commit in framework.ts
// (COMMIT): each test names the Go test function whose steps and assertions it repeats.
import { failure, initFailure, removeSnapshots, TestStack, urnOf, type TestMonitor } from "./framework";

afterAll(removeSnapshots);

describe("pulumi_test.go", () => {
  test("TestEmptyProgramLifecycle: an empty program previews, updates, refreshes and destroys nothing", async () => {
    const s = new TestStack();
    const program = async (): Promise<void> => undefined;
    expect((await s.preview(program)).steps).toEqual([]);
    expect((await s.up(program)).steps).toEqual([]);
    expect((await s.refresh()).steps).toEqual([]);
    expect((await s.destroy()).steps).toEqual([]);
    expect(s.provider.calls).toEqual([]);
  });

  test("TestSingleResourceDiffUnavailable: a DiffUnknown answer gets the engine's diff of the inputs", async () => {
    const s = new TestStack();
    let inputs: Record<string, unknown> = { foo: "bar" };
    const program = async (m: TestMonitor): Promise<void> => void (await m.resource("resA", { inputs }));
    await s.up(program);
    expect(TestStack.steps(await s.up(program))).toEqual(["same resA"]);
    inputs = { foo: "baz" };
    expect(TestStack.steps(await s.up(program))).toEqual(["update resA"]);
    expect(s.get("resA")?.inputs).toEqual({ foo: "baz" });
  });

  test("TestCheckFailureRecord: a Check failure fails the update and records no resource", async () => {
    const s = new TestStack();
    s.provider.checkF = async () => ({ inputs: {}, failures: [{ property: "", reason: "Bad property" }] });
    const e = await failure(s.up(async (m) => void (await m.resource("resA"))));
    expect(e.result.steps.map((x) => [x.op, x.name, !!x.error])).toEqual([["create", "resA", true]]);
    expect(s.provider.made("create")).toEqual([]);
    expect(s.get("resA")).toBeUndefined();
  });

  test("TestCheckFailureInvalidPropertyRecord: the failing property and its reason are reported", async () => {
    const s = new TestStack();
    s.provider.checkF = async () => ({ inputs: {}, failures: [{ property: "someprop", reason: "field is not valid" }] });
    const e = await failure(s.up(async (m) => void (await m.resource("resA"))));
    expect(e.message).toContain("someprop");
    expect(e.message).toContain("field is not valid");
    expect(s.get("resA")).toBeUndefined();
  });

  test("TestUpdatePartialFailure: a partially failed update keeps the old inputs with the new outputs", async () => {
    const s = new TestStack();
    await s.up(async (m) => void (await m.resource("resA", { inputs: { input_prop: "old inputs" } })));
    s.provider.diffF = async () => ({ changes: true });
    s.provider.updateF = async (_u, id) => {
      throw initFailure("update failed to apply", id, { output_prop: 42 }, ["update failed to apply"]);
    };
    await failure(s.up(async (m) => void (await m.resource("resA", { inputs: { input_prop: "new inputs" } }))));
    expect(s.get("resA")).toMatchObject({ urn: urnOf("resA"), inputs: { input_prop: "old inputs" }, outputs: { output_prop: 42 } });
  });

  test("TestSingleResourceIgnoreChanges: ignoreChanges paths (nested keys, indexes, quoted keys, [*]) make Same; others Update", async () => {
    const s = new TestStack();
    const up = async (inputs: Record<string, unknown>, ignoreChanges: string[]): Promise<string[]> =>
      TestStack.steps(await s.up(async (m) => void (await m.resource("resA", { inputs, ignoreChanges }))));
    const paths = ["a", "b.c", "d", "e[0]", 'f.g["h"]'];
    expect(await up({ a: 1, b: { c: "foo" }, d: [1], e: [1], f: { g: { h: "bar" } } }, paths)).toEqual(["create resA"]);
    expect(await up({ a: 2, b: { c: "bar" }, d: [2], e: [2], f: { g: { h: "baz" } } }, paths)).toEqual(["same resA"]);
    expect(await up({ a: 3, b: { c: "qux" }, d: [3], e: [3], f: { g: { h: "qux" } } }, [])).toEqual(["update resA"]);
    expect(await up({ e: [] }, ["a", "b", "d", "e", "f"])).toEqual(["same resA"]);
    expect(await up({ e: [] }, [])).toEqual(["update resA"]);
    expect(await up({ a: 4, b: { c: "zed" }, d: [4], e: [] }, ["a", "b", "d", "e[0]", "f"])).toEqual(["same resA"]);
    expect(await up({ e: [], i: 4 }, ["a", "b", "d", "e", "f"])).toEqual(["update resA"]);
    expect(await up({ a: 3, b: ["foo", "bar"] }, [])).toEqual(["update resA"]);
    expect(await up({ a: 3, b: ["foo", "baz"] }, ["b[1]"])).toEqual(["same resA"]);
    expect(await up({ a: 3, b: ["foo", "baz"] }, ["b[*]"])).toEqual(["same resA"]);
    expect(s.get("resA")?.inputs).toEqual({ a: 3, b: ["foo", "bar"] });
  });

  test("TestIgnoreChangesInvalidPaths: a path into an added or removed element is reported, the rest still applies", async () => {
    const s = new TestStack();
    const up = (inputs: Record<string, unknown>, ignoreChanges: string[]) =>
      s.up(async (m) => void (await m.resource("resA", { inputs, ignoreChanges })));
    await up({ foo: { bar: "baz" }, qux: [{ quux: "alpha" }, { quux: "beta" }] }, []);
    s.lines.length = 0;
    await up({}, ["foo.bar"]);
    expect(s.lines.some((l) => l.includes('cannot ignore changes in added or removed elements of the path: "foo.bar"'))).toBe(true);
    await up({ qux: [{ quux: "alpha" }] }, ["qux[1].quux"]);
    expect(s.lines.some((l) => l.includes("qux[1].quux"))).toBe(true);
  });

  test("TestReplaceOnChanges (engine diff): a replaceOnChanges path replaces on a change under it, updates on a sibling's", async () => {
    const s = new TestStack();
    const up = async (inputs: Record<string, unknown>, replaceOnChanges: string[]): Promise<string[]> =>
      TestStack.steps(await s.up(async (m) => void (await m.resource("resA", { inputs, replaceOnChanges }))), { replacingDeletes: false });
    await up({ a: 1, b: { c: "x", d: "y" }, l: [1, 2] }, ["a"]);
    expect(await up({ a: 2, b: { c: "x", d: "y" }, l: [1, 2] }, ["a"])).toEqual(["replace resA"]);
    expect(await up({ a: 2, b: { c: "x", d: "z" }, l: [1, 2] }, ["b.c"])).toEqual(["update resA"]);
    expect(await up({ a: 2, b: { c: "w", d: "z" }, l: [1, 2] }, ["b.c"])).toEqual(["replace resA"]);
    expect(await up({ a: 2, b: { c: "w", d: "z" }, l: [1, 3] }, ["l[0]"])).toEqual(["update resA"]);
    expect(await up({ a: 2, b: { c: "w", d: "z" }, l: [1, 4] }, ["l[*]"])).toEqual(["replace resA"]);
    expect(await up({ a: 3, b: { c: "w", d: "z" }, l: [1, 4] }, ["*"])).toEqual(["replace resA"]);
    expect(s.provider.made("delete")).toHaveLength(4);
  });

  test("TestReplaceOnChanges (provider diff): changed keys under replaceOnChanges become replace keys; a nested path does not contain its top key", async () => {
    const s = new TestStack();
    s.provider.diffF = async (_u, _id, olds, news) => {
      const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
      return { changes: keys.length > 0, diffs: keys };
    };
    const up = async (inputs: Record<string, unknown>, replaceOnChanges: string[]): Promise<string[]> =>
      TestStack.steps(await s.up(async (m) => void (await m.resource("resA", { inputs, replaceOnChanges }))), { replacingDeletes: false });
    await up({ a: 1, b: { c: 1 } }, []);
    expect(await up({ a: 2, b: { c: 1 } }, ["a"])).toEqual(["replace resA"]);
    expect(await up({ a: 2, b: { c: 2 } }, ["b.c"])).toEqual(["update resA"]);
    expect(await up({ a: 2, b: { c: 3 } }, ["b"])).toEqual(["replace resA"]);
  });

  test("TestPendingDeleteOrder: after a failed replace the old half sits after its new half, and the retry deletes B before A", async () => {
    const s = new TestStack();
    const cloud = new Map<string, Record<string, unknown>>();
    let n = 0;
    let failB = false;
    s.provider.createF = async (urn, inputs) => {
      if (urn.includes("::resB") && failB) throw new Error("Could not create typB");
      const id = String(n++);
      cloud.set(id, inputs);
      return { id, outputs: inputs };
    };
    s.provider.deleteF = async (_u, id) => {
      for (const [other, props] of cloud) if (Object.values(props).includes(id)) throw new Error(`Can not delete ${id} used by ${other}`);
      cloud.delete(id);
    };
    s.provider.diffF = async (urn, _id, olds, news) => {
      const key = urn.endsWith("::resA") ? "foo" : "parent";
      return olds[key] !== news[key] ? { changes: true, replaces: [key] } : { changes: false };
    };
    let foo = "bar";
    const program = async (m: TestMonitor): Promise<void> => {
      const a = await m.resource("resA", { inputs: { foo } });
      await m.resource("resB", { inputs: { parent: a.id }, dependencies: [a.urn] });
    };
    await s.up(program);
    expect(s.names()).toEqual(["resA", "resB"]);
    failB = true;
    foo = "baz";
    await failure(s.up(program));
    expect(s.state().map((r) => [r.name, !!r.delete])).toEqual([["resA", false], ["resA", true], ["resB", false]]);
    failB = false;
    await s.up(program);
    expect(s.state().map((r) => [r.name, !!r.delete])).toEqual([["resA", false], ["resB", false]]);
    expect(cloud.size).toBe(2);
  });

  test("TestPendingDeleteReplacement: a B whose delete failed is pending delete; a delete-before-replace of A then replaces both and the state ends with one of each", async () => {
    const s = new TestStack();
    const cloud = new Map<string, Record<string, unknown>>();
    let n = 0;
    let failDeleteB = true;
    s.provider.createF = async (_u, inputs) => {
      const id = String(n++);
      cloud.set(id, inputs);
      return { id, outputs: inputs };
    };
    s.provider.deleteF = async (urn, id) => {
      for (const props of cloud.values()) if (Object.values(props).includes(id)) throw new Error(`Can not delete ${id}`);
      if (urn.endsWith("::resB") && failDeleteB) throw new Error("Could not delete typB");
      cloud.delete(id);
    };
    s.provider.diffF = async (urn, _id, olds, news) => {
      if (urn.endsWith("::resA")) return olds.foo !== news.foo ? { changes: true, replaces: ["foo"], deleteBeforeReplace: true } : { changes: false };
      for (const key of ["parent", "frob"]) if (olds[key] !== news[key]) return { changes: true, replaces: [key] };
      return { changes: false };
    };
    s.provider.updateF = async () => {
      throw new Error("Didn't expect update to be called");
    };
    let foo = "bar";
    let frob = "active";
    const program = async (m: TestMonitor): Promise<void> => {
      const a = await m.resource("resA", { inputs: { foo } });
      await m.resource("resB", { inputs: { parent: a.id, frob }, propertyDependencies: { parent: [a.urn] }, dependencies: [a.urn] });
    };
    await s.up(program);
    frob = "inactive";
    await failure(s.up(program));
    expect(s.state().map((r) => [r.name, !!r.delete])).toEqual([["resA", false], ["resB", false], ["resB", true]]);
    foo = "baz";
    failDeleteB = false;
    await s.up(program);
    expect(s.state().map((r) => [r.name, !!r.delete])).toEqual([["resA", false], ["resB", false]]);
    expect(cloud.size).toBe(2);
  });

  test("TestProtect: a protected replace fails (preview reports it), a protected delete fails; unprotect-and-replace in one update replaces; protecting again changes nothing else", async () => {
    const s = new TestStack();
    s.provider.diffF = async (_u, _id, olds, news) => (olds.foo !== news.foo ? { changes: true, replaces: ["foo"] } : { changes: false });
    let foo = "bar";
    let protect = true;
    let create = true;
    const program = async (m: TestMonitor): Promise<void> => {
      if (create) await m.resource("resA", { inputs: { foo }, protect });
    };
    await s.up(program);
    foo = "baz";
    const plan = await failure(s.preview(program));
    expect(plan.message).toContain(`unable to replace resource "${urnOf("resA")}"`);
    const up = await failure(s.up(program));
    expect(up.message).toContain("as it is currently marked for protection");
    create = false;
    const del = await failure(s.up(program));
    expect(del.message).toContain(`resource "${urnOf("resA")}" cannot be deleted`);
    expect(s.provider.made("delete")).toEqual([]);
    expect(s.state().map((r) => [r.id, r.protect])).toEqual([["id-1", true]]);
    // Unprotect and replace in one update: the old one is deleted, a new one created.
    create = true;
    protect = false;
    await s.up(program);
    expect(s.provider.made("delete")).toEqual(["resA"]);
    const replaced = s.get("resA")!.id;
    expect(replaced).not.toBe("id-1");
    expect(s.get("resA")?.protect ?? false).toBe(false);
    // Protect again: nothing else changes.
    protect = true;
    await s.up(program);
    expect(s.state().map((r) => [r.id, r.protect])).toEqual([[replaced, true]]);
    expect(s.provider.made("delete")).toEqual(["resA"]);
  });

  test("TestDeletedWith: deleting or replacing the target takes what is deletedWith it without a Delete of its own", async () => {
    const s = new TestStack();
    s.provider.diffF = async (_u, _id, olds, news) => (olds.foo !== news.foo ? { changes: true, replaces: ["foo"] } : { changes: false });
    let foo = "foo";
    const program = async (m: TestMonitor): Promise<void> => {
      const a = await m.resource("resA", { inputs: { foo } });
      const b = await m.resource("resB", { inputs: { foo: "b" }, deletedWith: a.urn });
      await m.resource("resC", { inputs: { foo: "c" }, deletedWith: b.urn });
    };
    await s.up(program);
    foo = "bar";
    s.provider.reset();
    await s.up(program);
    expect(s.provider.made("create")).toEqual(["resA", "resB", "resC"]);
    expect(s.provider.made("delete")).toEqual(["resA"]);
    s.provider.reset();
    await s.destroy();
    expect(s.provider.made("delete")).toEqual(["resA"]);
    expect(s.state()).toEqual([]);
  });

  test("TestAdditionalSecretOutputs: the named outputs are kept secret in state", async () => {
    const s = new TestStack();
    await s.up(async (m) => void (await m.resource("resA", { inputs: { a: "foo", b: "bar" }, additionalSecretOutputs: ["a"] })));
    expect(s.get("resA")?.secretKeys).toEqual(["a"]);
    expect(s.engine.serializedState()).toBeDefined();
  });

  test("TestOldCheckedInputsAreSent: Check, Diff, Update and Delete get the old checked inputs and the old outputs", async () => {
    const s = new TestStack();
    const seen: [string, unknown, unknown][] = [];
    s.provider.checkF = async (_u, olds, news) => {
      seen.push(["check", olds, news]);
      return { inputs: { ...news, default: "default" }, failures: [] };
    };
    s.provider.diffF = async (_u, _id, olds, news) => {
      seen.push(["diff", olds, news]);
      return {};
    };
    s.provider.createF = async (_u, inputs, preview) => ({ id: preview ? "" : "1", outputs: { ...inputs, computed: "computed" } });
    s.provider.updateF = async (_u, _id, olds, news) => {
      seen.push(["update", olds, news]);
      return { outputs: { ...news, computed: "computed" } };
    };
    s.provider.deleteF = async (_u, _id, props) => void seen.push(["delete", props, undefined]);
    let insA = { foo: "bar" };
    const program = async (m: TestMonitor): Promise<void> => void (await m.resource("resA", { inputs: insA }));
    await s.up(program);
    expect(s.get("resA")).toMatchObject({ inputs: { foo: "bar", default: "default" }, outputs: { foo: "bar", default: "default", computed: "computed" } });
    insA = { foo: "baz" };
    await s.up(program);
    expect(s.get("resA")).toMatchObject({ inputs: { foo: "baz", default: "default" }, outputs: { foo: "baz", default: "default", computed: "computed" } });
    await s.destroy();
    expect(s.state()).toEqual([]);
    const oldOuts = { foo: "bar", default: "default", computed: "computed" };
    const newIns = { foo: "baz", default: "default" };
    // Diff and Update get the old outputs (a dynamic provider has no separate old inputs argument).
    expect(seen).toEqual([
      ["check", {}, { foo: "bar" }],
      ["check", { foo: "bar", default: "default" }, { foo: "baz" }],
      ["diff", oldOuts, newIns],
      ["update", oldOuts, newIns],
      ["delete", { foo: "baz", default: "default", computed: "computed" }, undefined],
    ]);
  });

  test("TestProviderPreview: a preview creates and updates with preview calls only, and records nothing", async () => {
    const s = new TestStack();
    const previews: boolean[] = [];
    s.provider.createF = async (_u, inputs, preview) => {
      previews.push(preview);
      return { id: preview ? "" : "created-id", outputs: inputs };
    };
    let foo = "bar";
    const program = async (m: TestMonitor): Promise<void> => void (await m.resource("resA", { inputs: { foo } }));
    const plan = await s.preview(program);
    expect(TestStack.steps(plan)).toEqual(["create resA"]);
    expect(s.state()).toEqual([]);
    await s.up(program);
    foo = "baz";
    expect(TestStack.steps(await s.preview(program))).toEqual(["update resA"]);
    expect(s.provider.made("update")).toEqual([]);
    expect(s.get("resA")?.inputs).toEqual({ foo: "bar" });
    // The dynamic host has no preview support: a preview never calls Create (provider_plugin.go).
    expect(previews).toEqual([false]);
  });

  test("TestMissingRead: a .get() of an id the provider cannot find fails the update", async () => {
    const s = new TestStack();
    s.provider.readF = async () => ({ id: "", props: {}, inputs: undefined });
    const e = await failure(s.up(async (m) => void (await m.read("resA", "resA-some-id"))));
    expect(e.message).toContain("does not exist");
  });

  test("TestPersistentDiff: a provider that always reports a change gets an update every time, and preview agrees", async () => {
    const s = new TestStack();
    s.provider.diffF = async () => ({ changes: true, diffs: ["foo"] });
    const program = async (m: TestMonitor): Promise<void> => void (await m.resource("resA", { inputs: { foo: "bar" } }));
    await s.up(program);
    expect(TestStack.steps(await s.up(program))).toEqual(["update resA"]);
    expect(TestStack.steps(await s.preview(program))).toEqual(["update resA"]);
  });

  test("TestDetailedDiffReplace: a replace the provider asks for replaces, create before delete", async () => {
    const s = new TestStack();
    s.provider.diffF = async () => ({ changes: true, replaces: ["prop"] });
    const program = async (m: TestMonitor): Promise<void> => void (await m.resource("resA", { inputs: { prop: 1 } }));
    await s.up(program);
    s.provider.reset();
    expect(TestStack.steps(await s.up(program))).toEqual(["replace resA", "delete resA"]);
    expect(s.provider.calls.filter((c) => /^(create|delete)/.test(c))).toEqual(["create resA", "delete resA"]);
  });

  test("TestStackOutputsResourceError: a resource error fails the update; the resources before it are kept", async () => {
    const s = new TestStack();
    s.provider.createF = async (urn, inputs) => {
      if (urn.endsWith("::resB")) throw new Error("oh no");
      return { id: "ok", outputs: inputs };
    };
    const e = await failure(s.up(async (m) => {
      await m.resource("resA");
      await m.resource("resB");
    }));
    expect(e.message).toContain("oh no");
    expect(s.names()).toEqual(["resA"]);
  });

  test("TestProgramError: a program that fails fails the update with its message", async () => {
    const s = new TestStack();
    const e = await failure(s.up(async () => {
      throw new Error("program error");
    }));
    expect(e.result.errors[0]).toContain("program error");
  });

  test("TestDestroyWithPendingDelete (pending_delete_test.go): a destroy deletes a live resource and its pending-delete copy", async () => {
    const urn = urnOf("resA");
    const s = new TestStack({ snapshot: [{ urn, id: "1" }, { urn, id: "0", delete: true }] });
    const r = await s.destroy();
    expect(r.steps.filter((x) => x.op === "delete").map((x) => x.id).sort()).toEqual(["0", "1"]);
    expect(s.state()).toEqual([]);
  });

  test("TestUpdateWithPendingDelete (pending_delete_test.go): an up of an empty program deletes both", async () => {
    const urn = urnOf("resA");
    const s = new TestStack({ snapshot: [{ urn, id: "1" }, { urn, id: "0", delete: true }] });
    const r = await s.up(async () => undefined);
    expect(r.steps.filter((x) => x.op === "delete").map((x) => x.id).sort()).toEqual(["0", "1"]);
    expect(s.state()).toEqual([]);
  });
});
