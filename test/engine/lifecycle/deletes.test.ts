// Ported from pulumi/pulumi pkg/engine/lifecycletest protect_test.go, retain_on_delete_test.go,
// delete_before_replace_test.go, deleted_with_replace_test.go and destroy_test.go at the commit in
// framework.ts (COMMIT): each test names the Go test function whose steps and assertions it repeats.
import { failure, removeSnapshots, TestStack, urnOf, type TestMonitor } from "./framework";

afterAll(removeSnapshots);

const replaceOn = (key: string) => async (_u: string, _id: string, olds: Record<string, unknown>, news: Record<string, unknown>) =>
  olds[key] !== news[key] ? { changes: true, replaces: [key] } : { changes: false };

describe("protect_test.go", () => {
  test("TestMultipleProtectedDeletes: every protected delete is reported, in preview and in update", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      await m.resource("resA", { protect: true });
      await m.resource("resB", { protect: true });
    });
    for (const run of [() => s.preview(async () => undefined), () => s.up(async () => undefined)]) {
      const e = await failure(run());
      expect(e.message).toContain(`"${urnOf("resA")}" cannot be deleted`);
      expect(e.message).toContain(`"${urnOf("resB")}" cannot be deleted`);
    }
    expect(s.names()).toEqual(["resA", "resB"]);
  });

  test("TestProtectInheritance: a child without protect of its own takes its parent's; one that says false is not", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      const p = await m.component("parent", { protect: true });
      await m.resource("resA", { parent: p.urn });
      await m.resource("resB", { parent: p.urn, protect: false });
    });
    expect(s.state().map((r) => [r.name, !!r.protect])).toEqual([["parent", true], ["resA", true], ["resB", false]]);
  });

  test("TestProtectedDeleteChainsWithDuplicateDeletedResources: a protected delete skips what it depends on, not the copy of it pending delete", async () => {
    const s = new TestStack();
    const program = async (m: TestMonitor): Promise<void> => {
      const a = await m.resource("resA");
      await m.resource("resB", { protect: true, dependencies: [a.urn] });
    };
    await s.up(program);
    // A replace of A whose delete fails leaves two copies of A, the old one pending delete.
    s.provider.diffF = async (urn) => (urn.endsWith("::resA") ? { changes: true, replaces: ["__replace"] } : {});
    s.provider.deleteF = async (urn) => {
      if (urn.endsWith("::resA")) throw new Error("delete error");
    };
    expect((await failure(s.up(program))).message).toContain("delete error");
    expect(s.state().map((r) => [r.name, !!r.delete])).toEqual([["resA", false], ["resA", true], ["resB", false]]);
    const live = s.get("resA")!.id;
    s.provider.diffF = undefined;
    s.provider.deleteF = undefined;
    s.provider.reset();
    const e = await failure(s.destroy());
    expect(e.message).toContain(`resource "${urnOf("resB")}" cannot be deleted`);
    expect(s.provider.made("delete")).toEqual(["resA"]);
    expect(s.state().map((r) => [r.name, r.id, !!r.delete])).toEqual([["resA", live, false], ["resB", s.get("resB")!.id, false]]);
  });
});

describe("continue_on_error_test.go", () => {
  test("TestDestroyContinueOnError, without --continue-on-error (step_executor.go cancelDueToError): a failed delete cancels the later deletes", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      const u1 = await m.resource("unrelated1");
      await m.resource("unrelated2", { dependencies: [u1.urn] });
      const d = await m.resource("dependency");
      await m.resource("failing", { dependencies: [d.urn] });
      await m.resource("anotherUnrelatedRes");
    });
    s.provider.deleteF = async (urn) => {
      if (urn.endsWith("::failing")) throw new Error("intentionally failed delete");
    };
    s.provider.reset();
    const e = await failure(s.up(async () => undefined));
    expect(e.message).toContain("intentionally failed delete");
    // The first antichain (unrelated2, failing, anotherUnrelatedRes) ran; the second did not start.
    expect(s.provider.made("delete").sort()).toEqual(["anotherUnrelatedRes", "failing", "unrelated2"]);
    expect(s.names()).toEqual(["unrelated1", "dependency", "failing"]);
  });
});

describe("retain_on_delete_test.go", () => {
  test("TestRetainOnDelete: a replace and a delete of a retained resource make no Delete call", async () => {
    const s = new TestStack();
    s.provider.diffF = replaceOn("foo");
    let foo = "bar";
    let create = true;
    const program = async (m: TestMonitor): Promise<void> => {
      if (create) await m.resource("resA", { inputs: { foo }, retainOnDelete: true });
    };
    await s.up(program);
    foo = "baz";
    await s.up(program);
    expect(s.provider.made("create")).toEqual(["resA", "resA"]);
    create = false;
    await s.up(program);
    expect(s.provider.made("delete")).toEqual([]);
    expect(s.state()).toEqual([]);
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

describe("destroy_test.go", () => {
  test("TestDestroyWithPendingDelete (pending_delete_test.go) beside a protected resource: the pending-delete copy is still deleted", async () => {
    const urn = urnOf("resA");
    const s = new TestStack({ snapshot: [{ urn: urnOf("resB"), id: "b", protect: true }, { urn, id: "1" }, { urn, id: "0", delete: true }] });
    await failure(s.destroy());
    expect(s.provider.made("delete")).toEqual(["resA", "resA"]);
    expect(s.state().map((r) => [r.name, r.id])).toEqual([["resB", "b"]]);
  });
});

describe("delete_before_replace_test.go", () => {
  test("TestDeleteBeforeReplace: a provider's delete-before-replace deletes the old first, then creates", async () => {
    const s = new TestStack();
    s.provider.diffF = async (u, id, o, n) => ({ ...(await replaceOn("foo")(u, id, o, n)), deleteBeforeReplace: true });
    let foo = "bar";
    const program = async (m: TestMonitor): Promise<void> => void (await m.resource("resA", { inputs: { foo } }));
    await s.up(program);
    s.provider.reset();
    foo = "baz";
    await s.up(program);
    expect(s.provider.calls.filter((c) => /^(create|delete)/.test(c))).toEqual(["delete resA", "create resA"]);
  });

  test("TestExplicitDeleteBeforeReplace: the resource option asks for delete-before-replace whatever the provider says", async () => {
    const s = new TestStack();
    s.provider.diffF = replaceOn("foo");
    let foo = "bar";
    const program = async (m: TestMonitor): Promise<void> => void (await m.resource("resA", { inputs: { foo }, deleteBeforeReplace: true }));
    await s.up(program);
    s.provider.reset();
    foo = "baz";
    await s.up(program);
    expect(s.provider.calls.filter((c) => /^(create|delete)/.test(c))).toEqual(["delete resA", "create resA"]);
  });

  test("TestDependencyChangeDBR: a dependent whose input comes from the replaced resource is deleted before it and recreated after", async () => {
    const s = new TestStack();
    s.provider.diffF = async (u, id, o, n) => {
      if (u.endsWith("::resA")) return { ...(await replaceOn("foo")(u, id, o, n)), deleteBeforeReplace: true };
      return replaceOn("a")(u, id, o, n);
    };
    let foo = "bar";
    const program = async (m: TestMonitor): Promise<void> => {
      const a = await m.resource("resA", { inputs: { foo } });
      await m.resource("resB", { inputs: { a: a.id }, propertyDependencies: { a: [a.urn] }, dependencies: [a.urn] });
    };
    await s.up(program);
    s.provider.reset();
    foo = "baz";
    await s.up(program);
    expect(s.provider.calls.filter((c) => /^(create|delete)/.test(c))).toEqual(["delete resB", "delete resA", "create resA", "create resB"]);
  });

  test("TestDBRProtect: a protected dependent stops a delete-before-replace before anything is deleted", async () => {
    const s = new TestStack();
    s.provider.diffF = async (u, id, o, n) => {
      if (u.endsWith("::resA")) return { ...(await replaceOn("foo")(u, id, o, n)), deleteBeforeReplace: true };
      return replaceOn("a")(u, id, o, n);
    };
    let foo = "bar";
    const program = async (m: TestMonitor): Promise<void> => {
      const a = await m.resource("resA", { inputs: { foo } });
      await m.resource("resB", { inputs: { a: a.id }, propertyDependencies: { a: [a.urn] }, protect: true });
    };
    await s.up(program);
    s.provider.reset();
    foo = "baz";
    const e = await failure(s.up(program));
    expect(e.message).toContain("as it is currently marked for protection");
    expect(s.provider.made("delete")).toEqual([]);
  });

  test("TestDBRReplaceOnChanges: replaceOnChanges with deleteBeforeReplace deletes first", async () => {
    const s = new TestStack();
    let foo = "bar";
    const program = async (m: TestMonitor): Promise<void> =>
      void (await m.resource("resA", { inputs: { foo }, replaceOnChanges: ["foo"], deleteBeforeReplace: true }));
    await s.up(program);
    s.provider.reset();
    foo = "baz";
    await s.up(program);
    expect(s.provider.calls.filter((c) => /^(create|delete)/.test(c))).toEqual(["delete resA", "create resA"]);
  });
});

describe("deleted_with_replace_test.go", () => {
  test("TestDeletedWithDependentReplacedOnCreateBeforeDelete: replacing the target replaces what is deletedWith it, whose old half makes no Delete", async () => {
    const s = new TestStack();
    s.provider.diffF = async (u, id, o, n) => (u.endsWith("::resA") ? replaceOn("foo")(u, id, o, n) : { changes: false });
    let foo = "bar";
    const program = async (m: TestMonitor): Promise<void> => {
      const a = await m.resource("resA", { inputs: { foo } });
      await m.resource("resB", { deletedWith: a.urn });
    };
    await s.up(program);
    s.provider.reset();
    foo = "baz";
    await s.up(program);
    expect(s.provider.made("create")).toEqual(["resA", "resB"]);
    expect(s.provider.made("delete")).toEqual(["resA"]);
  });

  test("TestDeletedWith (pulumi_test.go), destroy: a destroy deletes the target only", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      const a = await m.resource("resA");
      await m.resource("resB", { deletedWith: a.urn });
    });
    await s.destroy();
    expect(s.provider.made("delete")).toEqual(["resA"]);
    expect(s.state()).toEqual([]);
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
