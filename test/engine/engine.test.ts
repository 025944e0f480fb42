import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Engine, EngineError, type EngineOptions } from "../../engine/engine";
import { packageRoot, startProviderHost, type ProviderHost } from "../../engine/host";
import { keptOpen } from "../support/kept-open";
import type { ProgramSpec } from "./fixtures/program";

// Each run starts a program process and a provider host; on a loaded 2-core machine a test of
// several runs takes minutes, not the default minute.
jest.setTimeout(300_000);

// The fixture program as `npm run build` compiles it: the engine runs programs as modules.
const THINGS = path.join(packageRoot(), "dist", "test", "engine", "fixtures", "things.js");

describe("engine", () => {
  // One directory and one provider host for the file (see test/support/kept-open.ts); the first test
  // starts a host of its own per command, as the CLI does.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-test-"));
  let host: ProviderHost;
  let lines: string[];
  const calls = (): string[] =>
    fs.existsSync(path.join(dir, "calls.log")) ? fs.readFileSync(path.join(dir, "calls.log"), "utf8").trim().split("\n") : [];
  const mutating = (): string[] => calls().filter((c) => /^(create|update|delete) /.test(c));
  const resetCalls = (): void => fs.rmSync(path.join(dir, "calls.log"), { force: true });
  const engine = (extra: Partial<EngineOptions> = {}): Engine =>
    new Engine({
      stateFile: path.join(dir, "state", "dev.json"),
      config: { "fixture:dir": dir },
      log: (l) => lines.push(l),
      startHost: async () => keptOpen(host),
      ...extra,
    });
  const run = (spec: ProgramSpec) => ({ file: THINGS, args: spec });

  beforeAll(async () => {
    host = await startProviderHost();
  });
  afterAll(async () => {
    await host?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f), { recursive: true, force: true });
    lines = [];
  });

  test("preview plans without creating; up creates with real outputs flowing to dependents (a provider host of its own per command)", async () => {
    const spec: ProgramSpec = { things: [{ name: "a", body: "hello" }, { name: "b", body: "xy" }], derived: true };
    const started: number[] = [];
    const e = engine({ startHost: undefined, onHostStarted: (h) => started.push(h.pid) });
    const plan = await e.preview(run(spec));
    expect(plan.summary).toMatchObject({ create: 3, update: 0, delete: 0, same: 0 });
    expect(mutating()).toEqual([]);
    expect(e.resources()).toEqual([]);
    expect(lines).toContain("Previewing update (dev):");
    expect(lines).toContain("    + 3 to create");
    expect(lines.some((l) => /^ {4}\+ +pulumi-nodejs:dynamic\/fixture:Thing {2}derived {2}create$/.test(l))).toBe(true);

    const applied = await e.up(run(spec));
    expect(applied.summary).toMatchObject({ create: 3, same: 0 });
    // a and b in parallel; derived only once a's real size is known (the SDK waits on its input).
    expect(mutating().sort()).toEqual(["create a", "create b", "create derived"]);
    expect(mutating().indexOf("create derived")).toBeGreaterThan(mutating().indexOf("create a"));
    expect(fs.readFileSync(path.join(dir, "derived"), "utf8")).toBe("first is 5 bytes");
    expect(applied.outputs).toEqual({ firstSize: 5, derivedBody: "first is 5 bytes" });
    expect(e.resources().map((r) => r.name).sort()).toEqual(["a", "b", "derived"]);
    expect(lines).toContain("    + 3 created");
    // Each command started its own host and ended it.
    expect(new Set(started).size).toBe(2);
    for (const pid of started) expect(() => process.kill(pid, 0)).toThrow();
  });

  test("a second up with the same program changes nothing, also from a reloaded state file; additionalSecretOutputs seals outputs with no secret input", async () => {
    const spec: ProgramSpec = { things: [{ name: "a", body: "sizeable", additionalSecretOutputs: ["size"] }], derived: true };
    const e = engine();
    await e.up(run(spec));
    const saved = JSON.parse(fs.readFileSync(path.join(dir, "state", "dev.json"), "utf8")) as {
      resources: { name: string; outputs: Record<string, unknown> }[];
    };
    expect(saved.resources.find((r) => r.name === "a")?.outputs.size).toHaveProperty("ciphertext");
    expect(e.resources().find((r) => r.name === "a")?.outputs.size).toBe(8);
    resetCalls();
    lines = [];
    const again = await engine().up(run(spec));
    expect(again.summary).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0, same: 2 });
    expect(mutating()).toEqual([]);
    expect(lines).toContain("    2 unchanged");
    expect(lines.some((l) => l.startsWith("    +") || l.startsWith("    ~"))).toBe(false);
    // The program saw it secret too: its stack output is reported as a secret.
    expect(again.outputs.firstSize).toBe("[secret]");
  });

  test("update, replace (create before delete: old half deleted at the end; delete first when asked) and removal", async () => {
    const e = engine();
    const before: ProgramSpec = {
      things: ["a", "b", "c", "d", "e"].map((name) => ({ name, body: "1", ...(name === "c" ? { kind: "delete-first" } : {}) })),
    };
    await e.up(run(before));
    resetCalls();
    lines = [];
    const after: ProgramSpec = {
      things: [
        { name: "a", body: "22" },
        { name: "b", file: "b2", body: "1" },
        { name: "c", file: "c2", body: "1", kind: "delete-first" },
      ],
    };
    const plan = await e.preview(run(after));
    expect(plan.summary).toMatchObject({ update: 1, replace: 2, delete: 2 });
    expect(mutating()).toEqual([]);
    expect(lines).toContain("    ~  pulumi-nodejs:dynamic/fixture:Thing  a  update [diff: ~body]");
    expect(lines).toContain("    +- pulumi-nodejs:dynamic/fixture:Thing  b  replace [diff: ~name]");

    resetCalls();
    const applied = await e.up(run(after));
    expect(applied.summary).toMatchObject({ update: 1, replace: 2, delete: 2, create: 0 });
    const m = mutating();
    expect([...m].sort()).toEqual(["create b2", "create c2", "delete b", "delete c", "delete d", "delete e", "update a"]);
    // step_generator.go generateStepsFromDiff: delete-before-replace deletes first; create-before-delete
    // deletes the old half with the removed resources after the program is done (GenerateDeletes).
    expect(m.indexOf("delete c")).toBeLessThan(m.indexOf("create c2"));
    for (const d of ["delete b", "delete d", "delete e"]) {
      for (const c of ["update a", "create b2", "create c2"]) expect(m.indexOf(d)).toBeGreaterThan(m.indexOf(c));
    }
    expect(lines.some((l) => /^ {4}-- pulumi-nodejs:dynamic\/fixture:Thing {2}b {2}deleted original/.test(l))).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(["a", "b2", "c2", "calls.log", "state"]);
    expect(e.resources().map((r) => [r.name, r.id]).sort()).toEqual([["a", "a"], ["b", "b2"], ["c", "c2"]]);
    expect(fs.readFileSync(path.join(dir, "a"), "utf8")).toBe("22");
  });

  test("refresh picks up drift and drops what is gone; destroy deletes everything", async () => {
    const e = engine();
    await e.up(run({ things: [{ name: "a", body: "1" }, { name: "b", body: "1" }, { name: "c", body: "1" }] }));
    fs.writeFileSync(path.join(dir, "a"), "drifted");
    fs.rmSync(path.join(dir, "b"));
    resetCalls();
    const refreshed = await e.refresh();
    expect(refreshed.summary).toMatchObject({ read: 3, update: 1, delete: 1, same: 1 });
    expect(calls().filter((c) => c.startsWith("read")).sort()).toEqual(["read a", "read b", "read c"]);
    expect(e.resources().map((r) => r.name).sort()).toEqual(["a", "c"]);
    expect(e.resources().find((r) => r.name === "a")?.outputs).toMatchObject({ body: "drifted", size: 7 });
    // Classified through the provider's Diff, from the refreshed state to the inputs in state, for each
    // one still there (step.go RefreshStep.Apply).
    expect(refreshed.steps.find((s) => s.name === "a")?.op).toBe("update");
    expect(refreshed.steps.find((s) => s.name === "c")?.op).toBe("same");
    expect(calls().filter((c) => c.startsWith("diff ")).sort()).toEqual(["diff a", "diff c"]);

    // The program still says "1": the next up puts it back.
    resetCalls();
    const back = await e.up(run({ things: [{ name: "a", body: "1" }, { name: "b", body: "1" }, { name: "c", body: "1" }] }));
    expect(back.summary).toMatchObject({ update: 1, create: 1, same: 1 });

    resetCalls();
    lines = [];
    const destroyed = await e.destroy();
    expect(destroyed.summary.delete).toBe(3);
    expect(mutating().sort()).toEqual(["delete a", "delete b", "delete c"]);
    expect(e.resources()).toEqual([]);
    expect(lines[0]).toBe("Destroying (dev):");
    expect(lines).toContain("    - 3 deleted");
    expect(JSON.parse(fs.readFileSync(path.join(dir, "state", "dev.json"), "utf8")).resources).toEqual([]);
  });

  test("secret inputs stay out of the state file, the host's logs and the program's plain outputs", async () => {
    const e = engine({ passphrase: "correct horse" });
    const spec: ProgramSpec = { things: [{ name: "s", body: "public", secret: "hunter2-secret" }] };
    const applied = await e.up(run(spec));
    expect(fs.readFileSync(path.join(dir, "s"), "utf8")).toBe("public");
    expect(applied.outputs.secret).toBe("[secret]");

    const text = fs.readFileSync(path.join(dir, "state", "dev.json"), "utf8");
    expect(text).not.toContain("hunter2-secret");
    const saved = JSON.parse(text) as { resources: { name: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }[] };
    const s0 = saved.resources.find((r) => r.name === "s");
    expect(s0?.inputs.secretBody).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" });
    expect(s0?.outputs.secretBody).toHaveProperty("ciphertext");
    expect(s0?.outputs.body).toBe("public");
    expect(e.hostLogs().join("\n")).not.toContain("hunter2-secret");
    expect(lines.join("\n")).not.toContain("hunter2-secret");

    // The provider got the plain value; a reloaded engine opens it; a wrong passphrase does not.
    expect(engine({ passphrase: "correct horse" }).resources()[0]?.outputs.secretBody).toBe("hunter2-secret");
    expect(() => engine({ passphrase: "wrong" })).toThrow(/incorrect passphrase/);
    const again = await engine({ passphrase: "correct horse" }).up(run(spec));
    expect(again.summary).toMatchObject({ same: 1, update: 0 });
  });


  test("check failures stop the run (a create that made something before failing: conformance.test.ts, partial failure)", async () => {
    const bad = await engine()
      .up(run({ things: [{ name: "q", body: undefined as unknown as string }] }))
      .catch((x: unknown) => x);
    expect(bad).toBeInstanceOf(EngineError);
    expect(String(bad)).toContain("body: body is required");
    expect(mutating()).toEqual([]);
  });

  test("a failure ends the run instead of hanging it: a program that awaits the failed resource, and registrations waiting for a slot", async () => {
    // parallel 1: b and c queue behind p; p's failure must release them, not leave them holding the
    // gate; the program awaits p's output, which never comes.
    const err = await engine({ parallel: 1 })
      .up({ file: THINGS, args: { things: [{ name: "p", body: "partial" }, { name: "b", body: "b" }, { name: "c", body: "c" }], derived: true, awaitFirst: true } })
      .catch((x: unknown) => x);
    expect(err).toBeInstanceOf(EngineError);
    // Nothing is created after the failure; what was already in flight may finish.
    const m = mutating();
    expect(m).toContain("create p");
    expect(m.length).toBeLessThanOrEqual(2);
    expect(m).not.toContain("create derived");
  });

  test("parallel registrations keep dependents after their dependencies in state", async () => {
    const e = engine({ parallel: 4 });
    const spec: ProgramSpec = { things: ["a", "b", "c", "d", "e", "f"].map((name) => ({ name, body: name })), derived: true };
    const applied = await e.up(run(spec));
    expect(applied.summary.create).toBe(7);
    expect(e.resources().map((r) => r.name).sort()).toEqual(["a", "b", "c", "d", "derived", "e", "f"]);
    expect(e.resources().map((r) => r.name).indexOf("derived")).toBeGreaterThan(e.resources().map((r) => r.name).indexOf("a"));
    expect((await e.up(run(spec))).summary.same).toBe(7);
  });
});
