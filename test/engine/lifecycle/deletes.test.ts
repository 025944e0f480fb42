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

  test("TestProtectedDeleteChainsWithDuplicateDeletedResources: a protected delete skips only what it depends on; unrelated deletes are done", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      const a = await m.resource("resA");
      await m.resource("resB", { dependencies: [a.urn], protect: true });
      await m.resource("resC");
    });
    s.provider.reset();
    await failure(s.up(async () => undefined));
    expect(s.provider.made("delete")).toEqual(["resC"]);
    expect(s.names()).toEqual(["resA", "resB"]);
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

  test("TestRetainOnDelete (inherited, source_eval.go inheritFromParent): a child of a retained component is retained", async () => {
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
  test("TestDestroyContinuesPastFailedDelete (deployment_executor.go erroredDeps): a failed delete skips only its dependencies", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      const a = await m.resource("resA");
      await m.resource("resB", { dependencies: [a.urn] });
      await m.resource("resC");
      await m.resource("resD");
    });
    s.provider.deleteF = async (urn) => {
      if (urn.endsWith("::resB")) throw new Error("cannot delete B");
    };
    const e = await failure(s.destroy());
    expect(e.message).toContain("cannot delete B");
    expect(s.provider.made("delete").sort()).toEqual(["resB", "resC", "resD"]);
    expect(s.names()).toEqual(["resA", "resB"]);
  });

  test("TestDestroyWithPendingDelete after a failed delete: the pending-delete copy is deleted even when another delete fails", async () => {
    const urn = urnOf("resA");
    const s = new TestStack({ snapshot: [{ urn: urnOf("resB"), id: "b" }, { urn, id: "1" }, { urn, id: "0", delete: true }] });
    s.provider.deleteF = async (u) => {
      if (u.endsWith("::resB")) throw new Error("cannot delete B");
    };
    await failure(s.up(async (m) => void (await m.resource("resA"))));
    expect(s.state().map((r) => [r.name, r.id])).toEqual([["resA", "1"], ["resB", "b"]]);
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
  test("TestDeletedWithReplace: replacing the target replaces what is deletedWith it, whose old half makes no Delete", async () => {
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

  test("TestDeletedWithDestroy: a destroy deletes the target only", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      const a = await m.resource("resA");
      await m.resource("resB", { deletedWith: a.urn });
    });
    await s.destroy();
    expect(s.provider.made("delete")).toEqual(["resA"]);
    expect(s.state()).toEqual([]);
  });

  test("TestDeletedWithInherited (source_eval.go inheritFromParent): a child of a component deletedWith X is deletedWith X", async () => {
    const s = new TestStack();
    await s.up(async (m) => {
      const a = await m.resource("resA");
      const p = await m.component("comp", { deletedWith: a.urn });
      await m.resource("resB", { parent: p.urn });
    });
    expect(s.get("resB")?.deletedWith).toBe(urnOf("resA"));
  });
});
