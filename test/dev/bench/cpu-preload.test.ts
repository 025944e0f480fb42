/**
 * The CPU preload (dev/bench/cpu-preload.ts, from dist/: needs `npm run build`) in a real Node process
 * stopped by SIGINT, as the Pulumi CLI stops its plugins: it still writes its CPU record and, with
 * BENCH_CPU_PROFILE_DIR, a CPU profile that profile-top reads back to the script's own function.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { area, selfTimes } from "../../../dev/bench/profile-top";

test("a process stopped by SIGINT writes its CPU record and its profile", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cpu-preload-"));
  try {
    const script = path.join(dir, "spin.js");
    // Spins about 200 ms in a named function, then stops itself as the CLI would.
    fs.writeFileSync(script, 'function spin() { let x = 0; const t = Date.now(); while (Date.now() - t < 200) x += Math.sqrt(x + 1); return x; }\nspin();\nprocess.kill(process.pid, "SIGINT");\nsetTimeout(() => undefined, 5000);\n');
    const preload = path.join(__dirname, "..", "..", "..", "dist", "dev", "bench", "cpu-preload.js");
    const r = spawnSync(process.execPath, ["--require", preload, script], { env: { ...process.env, BENCH_CPU_DIR: dir, BENCH_CPU_PROFILE_DIR: dir } });
    // The preload raised the signal again: the process died of it.
    expect(r.signal).toBe("SIGINT");
    const files = fs.readdirSync(dir).sort();
    expect(files).toEqual([`program-${r.pid}.cpuprofile`, `program-${r.pid}.json`, "spin.js"]);
    const record = JSON.parse(fs.readFileSync(path.join(dir, `program-${r.pid}.json`), "utf8")) as { role: string; user: number };
    expect(record.role).toBe("program");
    expect(record.user).toBeGreaterThan(0);
    const { functions, areas } = selfTimes([JSON.parse(fs.readFileSync(path.join(dir, `program-${r.pid}.cpuprofile`), "utf8"))]);
    const top = [...functions].sort((a, b) => b[1] - a[1])[0][0];
    expect(top).toMatch(/^spin .*spin\.js:1$/);
    expect(areas.has("node internals")).toBe(true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("profile-top's areas: this package's folders, a dependency, Node's internals", () => {
  expect(area("file:///x/node_modules/reseller-pulumi/dist/resources/host/x.js", "f")).toBe("ours resources/host");
  expect(area("file:///x/checkout/dist/provider/client.js", "f")).toBe("ours provider");
  expect(area("file:///x/checkout/dist/resources/host/x.js", "f")).toBe("ours resources/host");
  expect(area("file:///x/node_modules/@pulumi/pulumi/runtime/rpc.js", "f")).toBe("@pulumi/pulumi/runtime");
  expect(area("file:///x/node_modules/@grpc/grpc-js/build/src/x.js", "f")).toBe("@grpc/grpc-js");
  expect(area("node:internal/streams/x", "f")).toBe("node internals");
  expect(area("", "(garbage collector)")).toBe("(garbage collector)");
});

test("the native provider plugin, stopped by SIGINT once it listens, writes its record as the provider's process (role host)", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cpu-preload-"));
  try {
    const root = path.join(__dirname, "..", "..", "..");
    const child = spawn(process.execPath, ["--require", path.join(root, "dist", "dev", "bench", "cpu-preload.js"), path.join(root, "dist", "resources", "provider", "plugin.js")], {
      env: { ...process.env, BENCH_CPU_DIR: dir },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("close", (_code, signal) => resolve(signal)));
    // The plugin prints its port once it listens.
    await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
    child.kill("SIGINT");
    expect(await exited).toBe("SIGINT");
    expect(fs.readdirSync(dir)).toEqual([`host-${child.pid}.json`]);
    expect(JSON.parse(fs.readFileSync(path.join(dir, `host-${child.pid}.json`), "utf8"))).toMatchObject({ role: "host", pid: child.pid });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
