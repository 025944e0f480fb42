import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as util from "node:util";
import { Engine, EngineError, type EngineOptions } from "../../../dev/engine/engine";
import { packageRoot, startProviderHost, type ProviderHost } from "../../../dev/engine/host";
import { SecretsCipher, type SecretEnvelope } from "../../../dev/engine/secrets";
import { keptOpen } from "../../support/kept-open";
import type { ProgramSpec } from "./fixtures/program";

// Each run starts a program process and a provider host; on a loaded 2-core machine a test of
// several runs takes minutes, not the default minute.
jest.setTimeout(300_000);

// The fixture program as `npm run build` compiles it: the engine runs programs as modules.
const THINGS = path.join(packageRoot(), "dist", "test", "dev", "engine", "fixtures", "things.js");

describe("engine", () => {
  // One directory and one provider host for the file (see test/support/kept-open.ts).
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

  // One estate through every command: preview, up, a changed program's preview and up, refresh after
  // drift, the up that puts it back, destroy. A provider host of its own per command, as the CLI
  // starts, each ended after: test/pulumi-cli/conformance.test.ts (refresh configures the provider).
  test("preview plans without creating; up creates with real outputs flowing to dependents; update, replace (create before delete: old half deleted at the end; delete first when asked) and removal; refresh picks up drift and drops what is gone; destroy deletes everything", async () => {
    const spec: ProgramSpec = {
      things: [
        { name: "a", body: "hello" },
        { name: "b", body: "xy" },
        { name: "c", body: "1", kind: "delete-first" },
        { name: "d", body: "1" },
        { name: "e", body: "1" },
      ],
      derived: true,
    };
    const e = engine();
    const plan = await e.preview(run(spec));
    expect(plan.summary).toMatchObject({ create: 6, update: 0, delete: 0, same: 0 });
    expect(mutating()).toEqual([]);
    expect(e.resources()).toEqual([]);
    expect(lines).toContain("Previewing update (dev):");
    expect(lines).toContain("    + 6 to create");
    expect(lines.some((l) => /^ {4}\+ +pulumi-nodejs:dynamic\/fixture:Thing {2}derived {2}create$/.test(l))).toBe(true);

    const created = await e.up(run(spec));
    expect(created.summary).toMatchObject({ create: 6, same: 0 });
    // a and b in parallel; derived only once a's real size is known (the SDK waits on its input).
    expect(mutating().sort()).toEqual(["create a", "create b", "create c", "create d", "create derived", "create e"]);
    expect(mutating().indexOf("create derived")).toBeGreaterThan(mutating().indexOf("create a"));
    expect(fs.readFileSync(path.join(dir, "derived"), "utf8")).toBe("first is 5 bytes");
    expect(created.outputs).toEqual({ firstSize: 5, derivedBody: "first is 5 bytes" });
    expect(e.resources().map((r) => r.name).sort()).toEqual(["a", "b", "c", "d", "derived", "e"]);
    expect(lines).toContain("    + 6 created");

    resetCalls();
    lines = [];
    const after: ProgramSpec = {
      things: [
        { name: "a", body: "22" },
        { name: "b", file: "b2", body: "xy" },
        { name: "c", file: "c2", body: "1", kind: "delete-first" },
      ],
    };
    const changes = await e.preview(run(after));
    expect(changes.summary).toMatchObject({ update: 1, replace: 2, delete: 3 });
    expect(mutating()).toEqual([]);
    expect(lines).toContain("    ~  pulumi-nodejs:dynamic/fixture:Thing  a  update [diff: ~body]");
    expect(lines).toContain("    +- pulumi-nodejs:dynamic/fixture:Thing  b  replace [diff: ~name]");

    resetCalls();
    const applied = await e.up(run(after));
    expect(applied.summary).toMatchObject({ update: 1, replace: 2, delete: 3, create: 0 });
    const m = mutating();
    expect([...m].sort()).toEqual(["create b2", "create c2", "delete b", "delete c", "delete d", "delete derived", "delete e", "update a"]);
    // step_generator.go generateStepsFromDiff: delete-before-replace deletes first; create-before-delete
    // deletes the old half with the removed resources after the program is done (GenerateDeletes).
    expect(m.indexOf("delete c")).toBeLessThan(m.indexOf("create c2"));
    for (const d of ["delete b", "delete d", "delete e", "delete derived"]) {
      for (const c of ["update a", "create b2", "create c2"]) expect(m.indexOf(d)).toBeGreaterThan(m.indexOf(c));
    }
    expect(lines.some((l) => /^ {4}-- pulumi-nodejs:dynamic\/fixture:Thing {2}b {2}deleted original/.test(l))).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(["a", "b2", "c2", "calls.log", "state"]);
    expect(e.resources().map((r) => [r.name, r.id]).sort()).toEqual([["a", "a"], ["b", "b2"], ["c", "c2"]]);
    expect(fs.readFileSync(path.join(dir, "a"), "utf8")).toBe("22");

    fs.writeFileSync(path.join(dir, "a"), "drifted");
    fs.rmSync(path.join(dir, "b2"));
    resetCalls();
    const refreshed = await e.refresh();
    expect(refreshed.summary).toMatchObject({ read: 3, update: 1, delete: 1, same: 1 });
    expect(calls().filter((c) => c.startsWith("read")).sort()).toEqual(["read a", "read b2", "read c2"]);
    expect(e.resources().map((r) => r.name).sort()).toEqual(["a", "c"]);
    expect(e.resources().find((r) => r.name === "a")?.outputs).toMatchObject({ body: "drifted", size: 7 });
    // Classified through the provider's Diff, from the refreshed state to the inputs in state, for each
    // one still there (step.go RefreshStep.Apply).
    expect(refreshed.steps.find((s) => s.name === "a")?.op).toBe("update");
    expect(refreshed.steps.find((s) => s.name === "c")?.op).toBe("same");
    expect(calls().filter((c) => c.startsWith("diff ")).sort()).toEqual(["diff a", "diff c2"]);

    // The program still says "22": the next up puts it back.
    resetCalls();
    const back = await e.up(run(after));
    expect(back.summary).toMatchObject({ update: 1, create: 1, same: 1 });
    expect(fs.readFileSync(path.join(dir, "a"), "utf8")).toBe("22");

    resetCalls();
    lines = [];
    const destroyed = await e.destroy();
    expect(destroyed.summary.delete).toBe(3);
    expect(mutating().sort()).toEqual(["delete a", "delete b2", "delete c2"]);
    expect(e.resources()).toEqual([]);
    expect(lines[0]).toBe("Destroying (dev):");
    expect(lines).toContain("    - 3 deleted");
    expect(JSON.parse(fs.readFileSync(path.join(dir, "state", "dev.json"), "utf8")).resources).toEqual([]);
  });

  // One estate for three rules that need an up and a second up of the same program.
  test("parallel registrations keep dependents after their dependencies in state; secret inputs stay out of the state file, the host's logs and the program's plain outputs; additionalSecretOutputs seals outputs with no secret input; a second up with the same program changes nothing, from a reloaded state file", async () => {
    const opts = { parallel: 4, passphrase: "correct horse" };
    const e = engine(opts);
    const spec: ProgramSpec = {
      things: [
        { name: "a", body: "sizeable", additionalSecretOutputs: ["size"] },
        ...["b", "c", "d", "e", "f"].map((name) => ({ name, body: name })),
        { name: "s", body: "public", secret: "hunter2-secret" },
      ],
      derived: true,
    };
    const applied = await e.up(run(spec));
    expect(applied.summary.create).toBe(8);
    const names = e.resources().map((r) => r.name);
    expect([...names].sort()).toEqual(["a", "b", "c", "d", "derived", "e", "f", "s"]);
    expect(names.indexOf("derived")).toBeGreaterThan(names.indexOf("a"));

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
    // additionalSecretOutputs: sealed in the file, open in the engine.
    expect(saved.resources.find((r) => r.name === "a")?.outputs.size).toHaveProperty("ciphertext");
    expect(e.resources().find((r) => r.name === "a")?.outputs.size).toBe(8);

    // The provider got the plain value; a reloaded engine opens it; a wrong passphrase does not.
    expect(engine(opts).resources().find((r) => r.name === "s")?.outputs.secretBody).toBe("hunter2-secret");
    expect(() => engine({ passphrase: "wrong" })).toThrow(/incorrect passphrase/);
    // The key, derived once per salt and passphrase in this process, is the one scrypt gives, and the
    // cipher holds no copy of the passphrase where a copy or a print of it could show one.
    const salt = (saved as unknown as { encryptionsalt: string }).encryptionsalt;
    const sealed = s0?.outputs.secretBody as SecretEnvelope;
    const raw = Buffer.from(sealed.ciphertext, "base64");
    const byHand = crypto.createDecipheriv("aes-256-gcm", crypto.scryptSync(opts.passphrase, Buffer.from(salt, "base64"), 32), raw.subarray(0, 12));
    byHand.setAuthTag(raw.subarray(12, 28));
    expect(JSON.parse(Buffer.concat([byHand.update(raw.subarray(28)), byHand.final()]).toString("utf8"))).toBe("hunter2-secret");
    const cipher = new SecretsCipher(opts.passphrase, salt);
    expect(cipher.open(sealed)).toBe("hunter2-secret");
    expect(JSON.stringify(cipher) + util.inspect(cipher, { showHidden: true, depth: 5 })).not.toContain(opts.passphrase);

    resetCalls();
    lines = [];
    const again = await engine(opts).up(run(spec));
    expect(again.summary).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0, same: 8 });
    expect(mutating()).toEqual([]);
    expect(lines).toContain("    8 unchanged");
    expect(lines.some((l) => l.startsWith("    +") || l.startsWith("    ~"))).toBe(false);
    // The program saw it secret too: its stack output is reported as a secret.
    expect(again.outputs.firstSize).toBe("[secret]");
  });

  // A check failure's run (the engine names the property and the reason and stops before anything is
  // made): lifecycle/pulumi.test.ts TestCheckFailureInvalidPropertyRecord; the SDK's host reporting a
  // dynamic provider's check failures over gRPC: host.test.ts. A create that made something before
  // failing: the last test.
  test("a failure ends the run instead of hanging it: a program that awaits the failed resource, and registrations waiting for a slot; a partial failure keeps init errors and what the error carried, in the state file too", async () => {
    // parallel 1: b and c queue behind p; p's failure must release them, not leave them holding the
    // gate; the program awaits p's output, which never comes.
    const e = engine({ parallel: 1 });
    const err = await e
      .up({ file: THINGS, args: { things: [{ name: "p", body: "partial" }, { name: "b", body: "b" }, { name: "c", body: "c" }], derived: true, awaitFirst: true } })
      .catch((x: unknown) => x);
    expect(err).toBeInstanceOf(EngineError);
    // Nothing is created after the failure; what was already in flight may finish.
    const m = mutating();
    expect(m).toContain("create p");
    expect(m.length).toBeLessThanOrEqual(2);
    expect(m).not.toContain("create derived");
    // A partial failure keeps init errors and exactly what the error carried, in the state file too
    // (step.go CreateStep.Apply; the next preview and up: lifecycle/step-rules.test.ts).
    if (!(err instanceof EngineError)) throw err;
    expect(err.message).toContain("p was written but did not come up");
    expect(err.result.steps.find((s) => s.name === "p")).toMatchObject({ op: "create", error: expect.stringContaining("did not come up") });
    const p = e.resources().find((r) => r.name === "p");
    expect(p).toMatchObject({ id: "p", outputs: { name: "p", state: "broken" }, initErrors: ["did not come up"] });
    const saved = JSON.parse(fs.readFileSync(path.join(dir, "state", "dev.json"), "utf8")) as { resources: { name?: string; id?: string }[] };
    expect(saved.resources.find((r) => r.name === "p")?.id).toBe("p");
  });
});
