/**
 * The sandbox command line as a real process: it prints what a caller needs, answers signed API
 * calls and operator calls, persists to --data across restarts, refuses bad flags with exit 2,
 * and Ctrl-C (SIGINT) closes it with exit 0. The sources are transpiled to a temporary folder
 * first, so the test does not depend on a stale dist/.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { DEFAULT_CONTRACT } from "../../api/contract";
import { signedGet } from "./signed-get";

const root = path.resolve(__dirname, "..", "..");
let out: string;

/** Transpile api/ and sandbox/ (the CLI's whole import graph) to CommonJS under `out`. */
function transpile(): void {
  for (const dir of ["api", "dns", "sandbox"]) {
    fs.mkdirSync(path.join(out, dir), { recursive: true });
    for (const f of fs.readdirSync(path.join(root, dir)).filter((n) => n.endsWith(".ts") && !n.endsWith(".d.ts"))) {
      const src = fs.readFileSync(path.join(root, dir, f), "utf8");
      const js = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
      fs.writeFileSync(path.join(out, dir, f.replace(/\.ts$/, ".js")), js);
    }
  }
}

interface Cli {
  child: ChildProcessWithoutNullStreams;
  stdout: string;
  exit: Promise<number | null>;
}

/** Start the CLI and resolve once it has printed its banner (ending with the Ctrl-C hint). */
function startCli(args: string[]): Promise<Cli> {
  const child = spawn(process.execPath, [path.join(out, "sandbox", "cli.js"), ...args], {
    env: { ...process.env, NODE_PATH: path.join(root, "node_modules") },
  });
  const cli: Cli = {
    child,
    stdout: "",
    exit: new Promise((resolve) => child.on("exit", (code) => resolve(code))),
  };
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.stdout.on("data", (c: Buffer) => {
      cli.stdout += c.toString();
      if (cli.stdout.includes("Ctrl-C")) resolve(cli);
    });
    void cli.exit.then((code) => reject(new Error(`cli exited with ${code} before its banner: ${stderr}`)));
  });
}

/** Run the CLI to its exit; resolves with the exit code and stderr. */
function runToExit(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [path.join(out, "sandbox", "cli.js"), ...args], { env: { ...process.env, NODE_PATH: path.join(root, "node_modules") } });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stderr })));
}

const urlOf = (banner: string): string => /sandbox listening: (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1];

async function operator(base: string, method: string, p: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}/_sandbox/${p}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

beforeAll(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-cli-"));
  transpile();
});
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

describe("sandbox CLI", () => {
  it("prints the base URL, key, secret and operator URL, serves both interfaces, and exits 0 on SIGINT", async () => {
    const cli = await startCli(["--port", "0", "--key", "cli-key", "--secret", "cli-secret", "--rate", "500", "--delay", "0"]);
    const base = urlOf(cli.stdout);
    // The value to put in reseller:baseUrl is scheme and host: the client adds the API prefix itself.
    expect(cli.stdout).toContain(`reseller:baseUrl:  ${base}\n`);
    expect(cli.stdout).toContain(`(API under ${base}${DEFAULT_CONTRACT.apiPrefix})`);
    expect(cli.stdout).toContain("cli-key");
    expect(cli.stdout).toContain("cli-secret");
    expect(cli.stdout).toContain(`${base}/_sandbox/`);

    const info = await signedGet(base, "cli-key", "cli-secret", "/domains/demo-shop.net");
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({ domain: "demo-shop.net", stage: "active" });
    expect((await signedGet(base, "sandbox-key", "sandbox-secret", "/ping")).status).toBe(401);
    expect(await operator(base, "PATCH", "settings", {})).toMatchObject({ requestsPerMinute: 500, processingDelaySeconds: 0 });

    cli.child.kill("SIGINT");
    expect(await cli.exit).toBe(0);
  });

  it("keeps state in --data across restarts, written whole (no temp file left)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-data-"));
    const file = path.join(dir, "state.json");
    try {
      const first = await startCli(["--port", "0", "--data", file]);
      expect(first.stdout).toContain(file);
      await operator(urlOf(first.stdout), "PATCH", "settings", { balance: "123.45" });
      await operator(urlOf(first.stdout), "POST", "clock/advance", { seconds: 60 });
      first.child.kill("SIGINT");
      expect(await first.exit).toBe(0);
      expect(fs.readdirSync(dir)).toEqual(["state.json"]);
      expect(JSON.parse(fs.readFileSync(file, "utf8")).account.balance).toBe(12345);

      const second = await startCli(["--port", "0", "--data", file]);
      const ping = await signedGet(urlOf(second.stdout), "sandbox-key", "sandbox-secret", "/ping");
      expect(ping.body.data).toMatchObject({ balance: "123.45" });
      second.child.kill("SIGINT");
      expect(await second.exit).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([["an unknown flag", ["--colour", "red"]], ["a flag without its value", ["--port"]], ["a negative rate", ["--rate", "-5"]]])(
    "refuses %s with exit 2 and the usage line",
    async (_label, args) => {
      const r = await runToExit(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("usage: reseller-pulumi sandbox");
    },
  );
});

describe("sandbox CLI start failures", () => {
  it("exits 1 with a one-line reason when the port is in use", async () => {
    const cli = await startCli(["--port", "0"]);
    const port = /127\.0\.0\.1:(\d+)/.exec(cli.stdout)![1];
    try {
      const r = await runToExit(["--port", port]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`sandbox: cannot start: port ${port} on 127.0.0.1 is in use; pick another with --port\n`);
    } finally {
      cli.child.kill("SIGINT");
      await cli.exit;
    }
  });

  it.each([["not JSON", "{ half"], ["JSON of another shape", '{"hello": "world"}']])("exits 1 naming a --data file that is %s, and leaves it alone", async (_label, text) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-bad-data-"));
    const file = path.join(dir, "state.json");
    fs.writeFileSync(file, text);
    try {
      const r = await runToExit(["--port", "0", "--data", file]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(file);
      expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
      expect(fs.readFileSync(file, "utf8")).toBe(text);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
