import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Engine, EngineError, type EngineOptions } from "../../engine/engine";
import { program, type ProgramSpec } from "./fixtures/program";

describe("engine", () => {
  let dir: string;
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
      ...extra,
    });
  const run = (spec: ProgramSpec) => () => program(spec);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-test-"));
    lines = [];
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("preview plans without creating; up creates with real outputs flowing to dependents", async () => {
    const spec: ProgramSpec = { things: [{ name: "a", body: "hello" }, { name: "b", body: "xy" }], derived: true };
    const e = engine();
    const plan = await e.preview(run(spec));
    expect(plan.summary).toMatchObject({ create: 3, update: 0, delete: 0, same: 0 });
    expect(mutating()).toEqual([]);
    expect(e.resources()).toEqual([]);
    expect(lines).toContain("Previewing update (dev):");
    expect(lines).toContain("    + 3 to create");
    expect(lines.some((l) => /^ {4}\+ +pulumi-nodejs:dynamic\/fixture:Thing {2}derived {2}create$/.test(l))).toBe(true);

    const applied = await e.up(run(spec));
    expect(applied.summary).toMatchObject({ create: 3, same: 0 });
    expect(mutating()).toEqual(["create a", "create b", "create derived"]);
    expect(fs.readFileSync(path.join(dir, "derived"), "utf8")).toBe("first is 5 bytes");
    expect(applied.outputs).toEqual({ firstSize: 5, derivedBody: "first is 5 bytes" });
    expect(e.resources().map((r) => r.name)).toEqual(["a", "b", "derived"]);
    expect(lines).toContain("    + 3 created");
  });
});
