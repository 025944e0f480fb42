/**
 * Go programs on the native provider's Go SDK (sdk/go, generated from schema.json) through the real
 * Pulumi CLI against the sandbox. Pulumi's Go language host is not served by the Go module proxy,
 * so the programs run as inline programs of the Go Automation API (examples/go/automation): the CLI
 * runs the engine and connects to the Go process with --client. The provider is this checkout's
 * plugin (plugins.providers).
 * - The README's "Register a domain and host its DNS" in Go (examples/go/register): preview charges
 *   nothing, up charges once, up is unchanged (the Go SDK's inputs diff clean), destroy deletes the
 *   record and the zone and keeps the domain; no contact detail or API secret in plain text in the state.
 * - A zone the account has, taken in by its id (the import option) and read with GetZone: one
 *   import, nothing written or charged, then up unchanged, destroy keeps the zone.
 * A refresh reads through the plugin alone (no program runs, whatever its language): that the same
 * kinds' refresh is unchanged is proven once, on the Node.js SDK's register program
 * (native-plugin-tarball.test.ts) and on imported objects of every kind (native-provider.test.ts).
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CliStack, GO_BUILD_ENV, checkoutRoot, goBuildFlags, requirePulumiCli } from "../../dev/pulumi-cli";
import { ResellerClient } from "../../api/client";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { writesSince } from "../support/request-log";

jest.setTimeout(900_000);

const SECRET = "go-secret-8d2f4a6c1e";
const KEY = "go-key";
const goModule = path.join(checkoutRoot, "examples", "go");
const plugin = path.join(checkoutRoot, "plugin");

let sandbox: SandboxHandle;
let client: ResellerClient;
let bin: string;
const made: string[] = [];
const stacks: CliStack[] = [];

beforeAll(async () => {
  // One build of the runner (the generated SDK, the program, the Automation API) for every run.
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "go-automation-"));
  made.push(out);
  bin = path.join(out, "automation");
  // From Go's module cache only: npm test's first step (dev/pulumi-cli/for-tests.js) fetched the modules.
  // Built as the CLI is (goBuildFlags), so Go's cache serves what that build and sdk/go's compiled alike:
  // after the CLI's build, which npm test may still be running on a fresh machine (requirePulumiCli waits).
  requirePulumiCli();
  const built = spawnSync("go", ["build", ...goBuildFlags(), "-o", bin, "./automation"], { cwd: goModule, encoding: "utf8", env: { ...process.env, ...GO_BUILD_ENV, GOFLAGS: "-mod=readonly", GOPROXY: "off" } });
  if (built.status !== 0) throw new Error(`go build ./automation in examples/go failed:\n${built.stderr}`);
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0, requestsPerMinute: 6000, credentials: [{ key: KEY, secret: SECRET }] });
  client = new ResellerClient({ baseUrl: sandbox.url, apiKey: KEY, apiSecret: SECRET, requestsPerMinute: 6000 });
});
afterAll(async () => {
  for (const s of stacks) await s.dispose();
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
  await sandbox?.close();
});

type Config = Record<string, { value: string; secret?: boolean }>;
interface GoRun {
  code: number | null;
  /** What the runner printed: the operation's change counts and, after up, the outputs. */
  result?: { changes: Record<string, number>; outputs?: Record<string, unknown> };
  /** The engine's output and the runner's error, if any. */
  stderr: string;
}

/** A project folder and a stack in a local backend of its own (CliStack), for one Go program. */
async function goStack(program: "register" | "adopt"): Promise<{ stack: CliStack; run: (op: string, ...flags: string[]) => Promise<GoRun> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `reseller-go-${program}-`));
  made.push(dir);
  // What the runner's workspace writes too (the same project), so that `stack init` here finds it.
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: reseller-go-${program}\nruntime: go\n`);
  const stack = await CliStack.init({ cli: requirePulumiCli(), projectDir: dir });
  stacks.push(stack);
  const config: Config = {
    "reseller:baseUrl": { value: sandbox.url },
    "reseller:apiKey": { value: KEY },
    "reseller:apiSecret": { value: SECRET, secret: true },
    "reseller:requestsPerMinute": { value: "6000" },
  };
  const run = (op: string, ...flags: string[]) =>
    new Promise<GoRun>((resolve, reject) => {
      const child = spawn(bin, ["-program", program, "-dir", dir, "-stack", stack.stack, "-plugin", plugin, "-op", op, ...flags], { env: stack.env() });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      child.stdin.end(JSON.stringify({ ...config, ...extraConfig.get(program) }));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stderr, result: code === 0 ? JSON.parse(stdout) : undefined }));
    });
  return { stack, run };
}
const extraConfig = new Map<string, Config>();

const charges = () => sandbox.operator.ledger().map((e) => `${e.action} ${e.domain}`);
/** The run's exit code, and its engine output when it failed (shown in the failure's diff). */
const ok = (r: GoRun) => ({ code: r.code, stderr: r.code === 0 ? "" : r.stderr });

test("the README's register program in Go: preview charges nothing, up charges once, up is unchanged, destroy keeps the domain", async () => {
  const registrant = { name: "Go Pher", email: "go@go-shop.example", phone: "+441234567890", addressLine1: "1 Example Street", city: "London", postalCode: "EC1A 1AA", country: "GB" };
  extraConfig.set("register", {
    domain: { value: "go-shop.com" },
    nameservers: { value: JSON.stringify(["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"]) },
    registrant: { value: JSON.stringify(registrant), secret: true },
  });
  const { stack, run } = await goStack("register");
  const before = charges();

  const preview = await run("preview");
  expect(ok(preview)).toEqual({ code: 0, stderr: "" });
  expect(preview.result!.changes).toEqual({ create: 4 }); // the stack, the domain, the zone, the record
  expect(charges()).toEqual(before);

  const up = await run("up");
  expect(ok(up)).toEqual({ code: 0, stderr: "" });
  expect(up.result!.changes).toEqual({ create: 4 });
  expect(charges().slice(before.length)).toEqual(["register go-shop.com"]);
  expect(up.result!.outputs).toMatchObject({ stage: "active", wwwFqdn: "www.go-shop.com", nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"] });
  expect(up.result!.outputs!.balance).toMatch(/^\d+\.\d{2}$/);
  expect(up.result!.outputs!.renewPrice).toMatch(/^\d+\.\d{2}$/);

  const again = await run("up", "-expect-no-changes");
  expect(ok(again)).toEqual({ code: 0, stderr: "" });
  expect(again.result!.changes).toEqual({ same: 4 });
  const state = JSON.stringify(await stack.exportState());
  expect(state).toContain("reseller:index:Domain");
  expect(state).not.toContain(registrant.email);
  expect(state).not.toContain(SECRET);

  const destroy = await run("destroy");
  expect(ok(destroy)).toEqual({ code: 0, stderr: "" });
  expect(destroy.result!.changes).toEqual({ delete: 4 });
  expect((await client.listZones()).map((z) => z.domain)).not.toContain("go-shop.com");
  expect((await client.listDomains()).map((d) => d.domain)).toContain("go-shop.com");
  expect(charges().slice(before.length)).toEqual(["register go-shop.com"]);
});

test("a zone the account has, imported by its id and read with GetZone: one import, nothing written or charged, then up unchanged; destroy keeps it", async () => {
  extraConfig.set("adopt", { zone: { value: "demo-reseller.com" } });
  const { run } = await goStack("adopt");
  const live = await client.getZone("demo-reseller.com");
  const before = charges();
  const mark = sandbox.operator.requests().length;

  const up = await run("up");
  expect(ok(up)).toEqual({ code: 0, stderr: "" });
  expect(up.result!.changes).toEqual({ create: 1, import: 1 }); // the stack; the zone
  expect(up.result!.outputs).toEqual({
    zoneStatus: live.status,
    lookupStatus: live.status,
    lookupNameservers: live.nameservers,
    lookupRecordsCount: live.records.length,
  });

  const again = await run("up", "-expect-no-changes");
  expect(ok(again)).toEqual({ code: 0, stderr: "" });
  expect(again.result!.changes).toEqual({ same: 2 });
  const destroy = await run("destroy");
  expect(ok(destroy)).toEqual({ code: 0, stderr: "" });
  expect((await client.listZones()).map((z) => z.domain)).toContain("demo-reseller.com");
  expect(writesSince(sandbox, mark)).toEqual([]);
  expect(charges()).toEqual(before);
});
