// The engine's child processes (the program and the provider host) end with the process that started
// them, however it ends; a program that fails ends its run with its own message (dev/engine/child-guard.ts).
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Engine, EngineError } from "../../../dev/engine/engine";
import { packageRoot } from "../../../dev/engine/host";
import { childGuardPath } from "../../../dev/engine/guarded-node";

const ENGINE_JS = path.join(packageRoot(), "dist", "dev", "engine", "engine.js");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `ready` holds; a bound for a hang, not a speed goal. */
async function until(what: string, ready: () => boolean, boundMs = 120_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("the engine's child processes", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-children-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("a program and a provider host end when the process that started them is killed", async () => {
    // A program that never ends, and tells where it runs.
    fs.writeFileSync(
      path.join(dir, "index.js"),
      `require("fs").writeFileSync(process.env.PROGRAM_PID_FILE, String(process.pid)); setInterval(() => undefined, 1000);\n`,
    );
    const parentScript = `
      const { Engine } = require(${JSON.stringify(ENGINE_JS)});
      const engine = new Engine({
        config: {},
        host: { env: { PROGRAM_PID_FILE: ${JSON.stringify(path.join(dir, "program.pid"))} } },
        log: () => undefined,
        onHostStarted: (h) => require("fs").writeFileSync(${JSON.stringify(path.join(dir, "host.pid"))}, String(h.pid)),
      });
      engine.up(${JSON.stringify(path.join(dir, "index.js"))}).catch(() => undefined);
    `;
    const parent = spawn(process.execPath, ["-e", parentScript], { stdio: "ignore" });
    const pidIn = (f: string): number => Number(fs.readFileSync(path.join(dir, f), "utf8"));
    try {
      await until("the program and the host started", () => fs.existsSync(path.join(dir, "program.pid")) && fs.existsSync(path.join(dir, "host.pid")));
      const [program, host] = [pidIn("program.pid"), pidIn("host.pid")];
      expect(alive(program) && alive(host)).toBe(true);

      parent.kill("SIGKILL");
      await until("the program and the host ended", () => !alive(program) && !alive(host));
      expect([alive(program), alive(host)]).toEqual([false, false]);
    } finally {
      parent.kill("SIGKILL");
    }
  });

  test("the guard inspects an error whose stack would make Node's colored inspect loop, with the same text", () => {
    // The SDK's source-mapped frames end in node_modules/@pulumi/<file>; Node 20.20's colored
    // util.inspect loops on them for a minute, then throws "Invalid string length".
    const script = `
      const util = require("node:util");
      const e = new Error("boom");
      e.stack = "Error: boom\\n    at Stack.initialize (/p/node_modules/@pulumi/runtime/stack.ts:78:28)\\n    at f (/p/node_modules/@pulumi/resource.ts:1598:22)";
      process.stdout.write(util.inspect(e, { colors: true }));
    `;
    const out = spawnSync(process.execPath, [`--require=${childGuardPath()}`, "-e", script], { encoding: "utf8", timeout: 120_000 });
    expect(out.stderr).toBe("");
    expect(out.stdout).toBe("Error: boom\n    at Stack.initialize (/p/node_modules/@pulumi/runtime/stack.ts:78:28)\n    at f (/p/node_modules/@pulumi/resource.ts:1598:22)");
  });

  test("a program that throws at once fails its run with its own message first", async () => {
    fs.writeFileSync(path.join(dir, "index.js"), `throw new Error("boom from the program");\n`);
    const engine = new Engine({ config: {}, log: () => undefined });
    const err = await engine.up(path.join(dir, "index.js")).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EngineError);
    const { errors } = (err as EngineError).result;
    expect(errors[0]).toMatch(/^Running program '.*index\.js' failed with an unhandled exception:\nError: boom from the program\n/);
  });
});
