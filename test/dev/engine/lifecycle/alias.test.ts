// Ported from pulumi/pulumi pkg/engine/lifecycletest/alias_test.go at the commit in framework.ts
// (COMMIT): each test names the Go test function whose program, provider, operations and assertions
// it repeats. Custom types are dynamic here: pkgA:<mod>:<name> is written pulumi-nodejs:dynamic:<mod>-<name>
// (`dyn`), in types and URNs alike. The Go snapshots hold a default provider entry with no counterpart
// here: their counts are one less here. Go's Replace and CreateReplacement are one "replace" step here.
import type { RunResult } from "../../../../dev/engine/engine";
import type { AliasOpt, ProgramF, TestMonitor } from "./framework";
import { failure, integrityProblems, removeSnapshots, TestProvider, TestStack, TYP, urnOf } from "./framework";

afterAll(removeSnapshots);

/** pkgA:<mod>:<name> as a dynamic type, wherever it occurs in a type or a URN. */
const dyn = (s: string): string => s.replace(/pkgA:([\w-]+):/g, "pulumi-nodejs:dynamic:$1-");

/** alias_test.go's Resource: a custom resource, its children registered right after it. */
interface Resource {
  t: string;
  name: string;
  children?: Resource[];
  props?: Record<string, unknown>;
  aliasURNs?: string[];
  aliases?: AliasOpt[];
  dependencies?: string[];
  parent?: string;
  deleteBeforeReplace?: boolean;
}

/** registerResources: each resource in order, DeleteBeforeReplace always sent (&r.deleteBeforeReplace). */
async function registerResources(m: TestMonitor, resources: Resource[]): Promise<void> {
  for (const r of resources) {
    await m.register(dyn(r.t), r.name, true, {
      ...(r.parent ? { parent: dyn(r.parent) } : {}),
      dependencies: (r.dependencies ?? []).map(dyn),
      inputs: r.props ?? {},
      deleteBeforeReplace: r.deleteBeforeReplace ?? false,
      aliases: [
        ...(r.aliasURNs ?? []).map((urn) => ({ urn: dyn(urn) })),
        ...(r.aliases ?? []).map((a) => ({
          ...a,
          ...(a.urn ? { urn: dyn(a.urn) } : {}),
          ...(a.type ? { type: dyn(a.type) } : {}),
          ...(a.parent ? { parent: dyn(a.parent) } : {}),
        })),
      ],
    });
    await registerResources(m, r.children ?? []);
  }
}

/** The step's op as display.StepOp names it here: the delete of a replaced half is "deleteReplaced". */
const stepOp = (s: RunResult["steps"][number]): string => (s.replacing ? "deleteReplaced" : s.op);
const REPLACE = ["replace", "deleteReplaced"];

/**
 * createUpdateProgramWithResourceFuncForAliasTests: one lt.TestPlan update (previewed first) of the
 * resources, from `snap` (a stack) or from nothing; every step's op among `allowedOps`, none failed.
 * With expectFailure the preview must fail and the update does not run. Returns the stack after it.
 */
function aliasTestUpdates(diffF: TestProvider["diffF"]) {
  const provider = new TestProvider();
  provider.diffF = diffF;
  return async (snap: TestStack | undefined, resources: Resource[], allowedOps: string[], expectFailure: boolean): Promise<TestStack> => {
    const s = snap ? snap.fork() : new TestStack({ provider });
    const program: ProgramF = (m) => registerResources(m, resources);
    if (expectFailure) {
      await failure(s.preview(program));
      return s;
    }
    await s.preview(program);
    const r = await s.up(program);
    for (const step of r.steps) {
      expect(step.error).toBeUndefined();
      expect(allowedOps).toContain(stepOp(step));
    }
    return s;
  };
}

/** The `forcesReplacement` key forces replacement and all other keys can update in place. */
const forcesReplacementDiff: TestProvider["diffF"] = async (_u, _id, olds, news) => {
  const hasOld = "forcesReplacement" in olds;
  const hasNew = "forcesReplacement" in news;
  const changed = hasOld !== hasNew || (hasOld && hasNew && JSON.stringify(olds.forcesReplacement) !== JSON.stringify(news.forcesReplacement));
  return { replaces: changed ? ["forcesReplacement"] : [] };
};

/** NormalizeURNReferences succeeds on a snapshot whose references all resolve: checked as VerifyIntegrity's rule. */
const expectWhole = (s: TestStack): void => expect(integrityProblems(s.state())).toEqual([]);

/** Builds a resource's aliases: the alias specs for TestAliases, the whole URNs for TestAliasURNs. */
type AliasStyle = (specs: AliasOpt[], urns: string[]) => Pick<Resource, "aliases" | "aliasURNs">;
const bySpec: AliasStyle = (specs) => ({ aliases: specs });
const byURN: AliasStyle = (_specs, urns) => ({ aliasURNs: urns });

/**
 * TestAliases and TestAliasURNs, the same updates in both, each alias written as that test writes it
 * (`al`): renames, type changes and both with an update or a replace; renames with
 * delete-before-replace beside a dependent and a child; a duplicate claim; aliases naming nothing;
 * three-level renames; hundreds of aliases; child renames and type changes; nested children; a
 * resource made a child and back.
 */
async function aliasScenarios(al: AliasStyle): Promise<void> {
  const updateProgramWithResource = aliasTestUpdates(forcesReplacementDiff);
  const u = (rest: string): string => `urn:pulumi:test::test::${rest}`;
  const rename = (t: string, name: string, specs: AliasOpt[], urns: string[], more: Partial<Resource> = {}): Resource[] => [{ t, name, ...more, ...al(specs, urns) }];

  let snap = await updateProgramWithResource(undefined, [{ t: "pkgA:index:t1", name: "n1" }], ["create"], false);
  snap = await updateProgramWithResource(snap, rename("pkgA:index:t1", "n2", [{ name: "n1" }], [u("pkgA:index:t1::n1")]), ["same"], false);
  snap = await updateProgramWithResource(snap, rename("pkgA:index:t1", "n3", [{ name: "n2" }, { name: "n1" }], [u("pkgA:index:t1::n1"), u("pkgA:index:t1::n2")]), ["same"], false);
  snap = await updateProgramWithResource(
    snap,
    rename("pkgA:index:t1", "n3", [{ urn: u("pkgA:index:t1::n2") }, { name: "n1" }], [u("pkgA:index:t1::n2"), u("pkgA:index:t1::n1")]),
    ["same"],
    false,
  );
  snap = await updateProgramWithResource(
    snap,
    rename("pkgA:index:t1", "n1", [{ urn: u("pkgA:index:t1::n3") }, { name: "n2" }], [u("pkgA:index:t1::n3"), u("pkgA:index:t1::n2"), u("pkgA:index:t1::n1")]),
    ["same"],
    false,
  );
  snap = await updateProgramWithResource(snap, [{ t: "pkgA:index:t1", name: "n1" }], ["same"], false);
  snap = await updateProgramWithResource(snap, rename("pkgA:index:t2", "n1", [{ type: "pkgA:index:t1" }], [u("pkgA:index:t1::n1")]), ["same"], false);
  snap = await updateProgramWithResource(
    snap,
    rename("pkgA:othermod:t3", "n1", [{ type: "pkgA:index:t1" }, { type: "pkgA:index:t2" }], [u("pkgA:index:t1::n1"), u("pkgA:index:t2::n1")]),
    ["same"],
    false,
  );
  snap = await updateProgramWithResource(
    snap,
    rename(
      "pkgA:othermod:t3",
      "n1",
      [{ type: "pkgA:index:t1" }, { type: "pkgA:othermod:t3" }, { type: "pkgA:index:t2" }],
      [u("pkgA:index:t1::n1"), u("pkgA:othermod:t3::n1"), u("pkgA:index:t2::n1")],
    ),
    ["same"],
    false,
  );
  snap = await updateProgramWithResource(snap, [{ t: "pkgA:othermod:t3", name: "n1" }], ["same"], false);
  snap = await updateProgramWithResource(snap, rename("pkgA:index:t4", "n2", [{ type: "pkgA:othermod:t3", name: "n1" }], [u("pkgA:othermod:t3::n1")], { props: { x: 42 } }), ["update"], false);
  snap = await updateProgramWithResource(snap, rename("pkgA:index:t5", "n3", [{ type: "pkgA:index:t4", name: "n2" }], [u("pkgA:index:t4::n2")], { props: { x: 1000 } }), ["update"], false);
  snap = await updateProgramWithResource(
    snap,
    rename("pkgA:index:t6", "n4", [{ type: "pkgA:index:t5", name: "n3" }], [u("pkgA:index:t5::n3")], { props: { forcesReplacement: 1000 } }),
    REPLACE,
    false,
  );
  await updateProgramWithResource(
    snap,
    rename("pkgA:index:t7", "n5", [{ type: "pkgA:index:t6", name: "n4" }], [u("pkgA:index:t6::n4")], { props: { forcesReplacement: 999 }, deleteBeforeReplace: true }),
    REPLACE,
    false,
  );
  const startAgain = (resources: Resource[]): Promise<TestStack> => updateProgramWithResource(undefined, resources, ["create"], false);
  const n1 = (more: Partial<Resource> = {}): Resource => ({ t: "pkgA:index:t1", name: "n1", props: { forcesReplacement: 1 }, deleteBeforeReplace: true, ...more });
  const n1New: Resource = {
    t: "pkgA:index:t1-new",
    name: "n1-new",
    props: { forcesReplacement: 2 },
    deleteBeforeReplace: true,
    ...al([{ type: "pkgA:index:t1", name: "n1" }], [u("pkgA:index:t1::n1")]),
  };

  snap = await startAgain([n1(), { t: "pkgA:index:t2", name: "n2", dependencies: [u("pkgA:index:t1::n1")] }]);
  await updateProgramWithResource(
    snap,
    [n1New, { t: "pkgA:index:t2-new", name: "n2-new", dependencies: [u("pkgA:index:t1-new::n1-new")], ...al([{ type: "pkgA:index:t2", name: "n2" }], [u("pkgA:index:t2::n2")]) }],
    ["same", ...REPLACE],
    false,
  );

  snap = await startAgain([n1(), { t: "pkgA:index:t2", name: "n2", parent: u("pkgA:index:t1::n1") }]);
  await updateProgramWithResource(
    snap,
    [n1New, { t: "pkgA:index:t2-new", name: "n2-new", parent: u("pkgA:index:t1-new::n1-new"), ...al([{ type: "pkgA:index:t2", name: "n2" }], [u("pkgA:index:t1$pkgA:index:t2::n2")]) }],
    ["same", ...REPLACE],
    false,
  );
  await updateProgramWithResource(
    snap,
    [
      { t: "pkgA:index:t1", name: "n2", ...al([{ name: "n1" }], [u("pkgA:index:t1::n1")]) },
      { t: "pkgA:index:t2", name: "n3", ...al([{ type: "pkgA:index:t1", name: "n1" }], [u("pkgA:index:t1::n1")]) },
    ],
    ["create"],
    true,
  );

  await startAgain([
    { t: "pkgA:index:t1", name: "n1", ...al([{ name: "n1" }], [u("pkgA:index:t1::n1")]) },
    { t: "pkgA:index:t2", name: "n2", ...al([{ type: "index:t1" }], [u("pkgA:index:t1::n2")]) },
  ]);

  /** n1, n1-sub and n1-sub-sub under one another, their types given. */
  const threeLevels = (t1: string, t2: string): Resource[] => [
    { t: `pkgA:index:${t1}`, name: "n1" },
    { t: `pkgA:index:${t2}`, name: "n1-sub", parent: u(`pkgA:index:${t1}::n1`) },
    { t: "pkgA:index:t3", name: "n1-sub-sub", parent: u(`pkgA:index:${t1}$pkgA:index:${t2}::n1-sub`) },
  ];
  snap = await startAgain(threeLevels("t1", "t2"));
  await updateProgramWithResource(
    snap,
    [
      { t: "pkgA:index:t1-new", name: "n1-new", ...al([{ type: "pkgA:index:t1", name: "n1" }], [u("pkgA:index:t1::n1")]) },
      {
        t: "pkgA:index:t2",
        name: "n1-new-sub",
        parent: u("pkgA:index:t1-new::n1-new"),
        ...al([{ type: "pkgA:index:t2", name: "n1-sub" }], [u("pkgA:index:t1$pkgA:index:t2::n1-sub")]),
      },
      {
        t: "pkgA:index:t3",
        name: "n1-new-sub-sub",
        parent: u("pkgA:index:t1-new$pkgA:index:t2::n1-new-sub"),
        ...al([{ type: "pkgA:index:t3", name: "n1-sub-sub" }], [u("pkgA:index:t1$pkgA:index:t2$pkgA:index:t3::n1-sub-sub")]),
      },
    ],
    ["same"],
    false,
  );

  snap = await startAgain(threeLevels("t1-v0", "t2-v0"));
  const many: Record<"n1" | "n2" | "n3", { specs: AliasOpt[]; urns: string[] }> = {
    n1: { specs: [], urns: [] },
    n2: { specs: [], urns: [] },
    n3: { specs: [], urns: [] },
  };
  for (let i = 0; i < 100; i++) {
    const n1Alias = u(`pkgA:index:t1-v${i}::n1`);
    many.n1.specs.push({ urn: n1Alias });
    many.n1.urns.push(n1Alias);
    for (let j = 0; j < 10; j++) {
      const n2Alias = u(`pkgA:index:t1-v${i}$pkgA:index:t2-v${j}::n1-sub`);
      many.n2.specs.push({ urn: n2Alias });
      many.n2.urns.push(n2Alias);
      many.n3.specs.push({ name: "n1-sub-sub", type: `pkgA:index:t1-v${i}$pkgA:index:t2-v${j}$pkgA:index:t3`, stack: "test", project: "test" });
      many.n3.urns.push(u(`pkgA:index:t1-v${i}$pkgA:index:t2-v${j}$pkgA:index:t3::n1-sub-sub`));
    }
  }
  snap = await updateProgramWithResource(
    snap,
    [
      { t: "pkgA:index:t1-v100", name: "n1-new", ...al(many.n1.specs, many.n1.urns) },
      { t: "pkgA:index:t2-v10", name: "n1-new-sub", parent: u("pkgA:index:t1-v100::n1-new"), ...al(many.n2.specs, many.n2.urns) },
      { t: "pkgA:index:t3", name: "n1-new-sub-sub", parent: u("pkgA:index:t1-v100$pkgA:index:t2-v10::n1-new-sub"), ...al(many.n3.specs, many.n3.urns) },
    ],
    ["same"],
    false,
  );
  expectWhole(snap);

  const parent: Resource = { t: "pkgA:index:parent", name: "parent" };
  snap = await startAgain([parent, { t: "pkgA:index:child", parent: u("pkgA:index:parent::parent"), name: "child" }]);
  snap = await updateProgramWithResource(
    snap,
    [parent, { t: "pkgA:index:child", parent: u("pkgA:index:parent::parent"), name: "childnew", ...al([{ name: "child" }], [u("pkgA:index:parent$pkgA:index:child::child")]) }],
    ["same"],
    false,
  );
  await updateProgramWithResource(
    snap,
    [
      parent,
      {
        t: "pkgA:index:child2",
        parent: u("pkgA:index:parent::parent"),
        name: "childnew",
        ...al([{ type: "pkgA:index:child" }], [u("pkgA:index:parent$pkgA:index:child::childnew")]),
      },
    ],
    ["same"],
    false,
  );

  const nested = (last: Omit<Resource, "t">): Resource[] => [
    { t: "pkgA:index:t1", name: "parent" },
    { t: "pkgA:index:t1", parent: u("pkgA:index:t1::parent"), name: "sub" },
    { t: "pkgA:index:t1", parent: u("pkgA:index:t1$pkgA:index:t1::sub"), ...last },
  ];
  snap = await startAgain(nested({ name: "sub-sub" }));
  await updateProgramWithResource(
    snap,
    nested({ name: "sub-sub-new", ...al([{ name: "sub-sub" }], [u("pkgA:index:t1$pkgA:index:t1$pkgA:index:t1::sub-sub")]) }),
    ["same"],
    false,
  );

  const one: Resource = { t: "pkgA:index:t1", name: "one" };
  snap = await startAgain([one, { t: "pkgA:index:t2", name: "two" }]);
  snap = await updateProgramWithResource(
    snap,
    [one, { t: "pkgA:index:t2", parent: u("pkgA:index:t1::one"), name: "two", ...al([{ noParent: true }], [u("pkgA:index:t2::two")]) }],
    ["same"],
    false,
  );
  await updateProgramWithResource(
    snap,
    [one, { t: "pkgA:index:t2", name: "two", ...al([{ parent: u("pkgA:index:t1::one") }], [u("pkgA:index:t1$pkgA:index:t2::two")]) }],
    ["same"],
    false,
  );
}

describe("alias_test.go", () => {
  test("TestAliases: renames, type changes, reparenting and replaces through alias specs are Same, Update or Replace, never create and delete", async () => {
    await aliasScenarios(bySpec);
  });

  test("TestAliasURNs: the same renames through whole-URN aliases", async () => {
    await aliasScenarios(byURN);
  });

  test("TestDuplicatesDueToAliases: an alias onto a URN registered in the same run fails, whichever registers first", async () => {
    const s = new TestStack();
    s.provider.createF = async (_u, inputs) => ({ id: "created-id", outputs: inputs });
    let mode = 0;
    let aliasError: unknown;
    const program: ProgramF = async (m) => {
      const settle = (p: Promise<unknown>) =>
        p.then(
          () => undefined,
          (e: unknown) => e,
        );
      if (mode === 0) await m.resource("resA");
      if (mode === 1) {
        await m.resource("resA");
        aliasError = await settle(m.resource("resB", { aliases: [{ name: "resA" }] }));
      }
      if (mode === 2) {
        await m.resource("resB", { aliases: [{ name: "resA" }] });
        aliasError = await settle(m.resource("resA"));
      }
    };
    await s.up(program);
    expect(s.state().map((r) => r.urn)).toEqual([urnOf("resA")]);
    for (const [m, urn] of [
      [1, urnOf("resA")],
      [2, urnOf("resB")],
    ] as const) {
      mode = m;
      aliasError = undefined;
      await failure(s.up(program));
      await s.settled();
      expect(aliasError).toBeInstanceOf(Error);
      expect(s.state().map((r) => r.urn)).toEqual([urn]);
    }
  });

  test("TestCorrectResourceChosen: an alias to a parented resB is not the unparented resB's own state", async () => {
    const s = new TestStack();
    s.provider.createF = async (_u, inputs) => ({ id: "created-id", outputs: inputs });
    await s.up(async (m) => {
      const respA = await m.resource("resA");
      await m.resource("resB", { parent: respA.urn });
      await m.resource("resB");
    });
    expectWhole(s);
    expect(s.state().map((r) => r.urn)).toEqual([urnOf("resA"), urnOf("resB", TYP, TYP), urnOf("resB")]);
    await s.up(async (m) => {
      const respA = await m.resource("resA");
      await m.resource("resB", { aliases: [{ parent: respA.urn }] });
    });
    expectWhole(s);
    expect(s.state().map((r) => r.urn)).toEqual([urnOf("resA"), urnOf("resB")]);
  });

  test("TestComponentToCustomUpdate: a component turned custom through a type alias, and back", async () => {
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

  /**
   * TestParentAlias and TestEmptyParentAlias: a component resA, then `rest` of the program, in two
   * updates (firstRun, then not); the first leaves `count` resources. Returns the second's result.
   */
  async function underStandardType(
    count: number,
    rest: (m: TestMonitor, firstRun: boolean, respA: string) => Promise<void>,
  ): Promise<{ s: TestStack; r: RunResult }> {
    const s = new TestStack();
    s.provider.createF = async (_u, inputs, preview) => ({ id: preview ? "" : "1", outputs: inputs });
    let firstRun = true;
    const program: ProgramF = async (m) => rest(m, firstRun, (await m.component("resA", {}, "prog:index:myStandardType")).urn);
    await s.up(program);
    expect(s.state()).toHaveLength(count);
    firstRun = false;
    return { s, r: await s.up(program) };
  }

  test("TestParentAlias: a component moved under another, with noParent, and its child following through a parent alias, are Same", async () => {
    const { s, r } = await underStandardType(3, async (m, firstRun, respA) => {
      if (firstRun) {
        const respB = await m.component("resB", {}, "prog:index:myType");
        await m.resource("resC", { parent: respB.urn });
      } else {
        const respB = await m.component("resB", { parent: respA, aliases: [{ noParent: true }] }, "prog:index:myType");
        await m.resource("resC", { parent: respA, aliases: [{ parent: respB.urn }] });
      }
    });
    expect(r.steps.map((x) => x.op)).toEqual(["same"]);
    expect(s.state()).toHaveLength(3);
  });

  test("TestEmptyParentAlias: an alias spec with an empty parent URN keeps the resource's own parent", async () => {
    const { s, r } = await underStandardType(2, async (m, firstRun, respA) => {
      if (firstRun) {
        const respB = await m.component("resB", { parent: respA }, "prog:index:myType");
        // Not in the Go program: an output, so that resC is seen to carry resB's state over.
        await m.registerOutputs(respB.urn, { was: "resB" });
      } else await m.component("resC", { parent: respA, aliases: [{ name: "resB", parent: "" }] }, "prog:index:myType");
    });
    // Components make no steps here: the Go test's Same steps are resC taking resB's state, not a new one.
    expect(r.steps).toEqual([]);
    expect(s.state()).toHaveLength(2);
    expect(s.state()[1]).toMatchObject({ name: "resC", outputs: { was: "resB" } });
  });

  /**
   * TestAliasesIn{Dependencies,PropertyDependencies,DeletedWith}AreNormalized: res2 and res3 move from
   * res1 to res0 through parent aliases, res3 referring to res2; the state written stays whole.
   */
  const normalized = (edge: (res2: string) => Parameters<TestMonitor["register"]>[3]) => async (): Promise<void> => {
    const s = new TestStack({ project: "test-project", stack: "test-stack" });
    const type = (n: number): string => `pulumi-nodejs:dynamic:modA-type${n}`;
    await s.up(async (m) => {
      await m.component("res0", {}, "pkgA:modA:type0");
      const res1 = await m.component("res1", {}, "pkgA:modA:type1");
      const res2 = await m.register(type(2), "res2", true, { parent: res1.urn });
      await m.register(type(3), "res3", true, { parent: res1.urn, ...edge(res2.urn) });
    });
    expectWhole(s);
    await s.up(async (m) => {
      const res0 = await m.component("res0", {}, "pkgA:modA:type0");
      const res1 = await m.component("res1", {}, "pkgA:modA:type1");
      const res2 = await m.register(type(2), "res2", true, { parent: res0.urn, aliases: [{ parent: res1.urn }] });
      await m.register(type(3), "res3", true, { parent: res0.urn, aliases: [{ parent: res1.urn }], ...edge(res2.urn) });
    });
    expectWhole(s);
  };

  test("TestAliasesInDependenciesAreNormalized: a dependency on an aliased resource leaves the state whole", normalized((res2) => ({ dependencies: [res2] })));
  test("TestAliasesInPropertyDependenciesAreNormalized: a property dependency on an aliased resource leaves the state whole", normalized((res2) => ({ propertyDependencies: { propA: [res2] } })));
  test("TestAliasesInDeletedWithAreNormalized: deletedWith an aliased resource leaves the state whole", normalized((res2) => ({ deletedWith: res2 })));
});
