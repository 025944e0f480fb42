/**
 * A stack made by the dynamic resources of 0.3.0 (the package packed from the commit before the
 * native provider) moves to the native provider: the README's program that buys a domain is run
 * with 0.3.0, then its native version (the same names, on the generated SDK, whose resources carry
 * the aliases of schema.json) is applied through the real CLI (`up --json`, whose steps are what a
 * preview would list). No domain, zone or record is created, deleted or replaced, nothing is
 * charged, and after a refresh the state holds no provider code and the next up is unchanged.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CliStack, checkoutRoot, requirePulumiCli } from "../../dev/pulumi-cli";
import { buildSdk, nativeProject } from "../support/native-project";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { configInput, fillPlaceholders, readmeProgram } from "../support/readme-program";
import { writesSince } from "../support/request-log";

jest.setTimeout(900_000);

/** The last commit of 0.3.0 before the native provider (main when issue 45 began). */
const BEFORE_NATIVE = "12f1025";
const YES = ["--yes", "--non-interactive"];

let sandbox: SandboxHandle;
let work: string;
let stack: CliStack | undefined;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0, requestsPerMinute: 6000 });
  work = fs.mkdtempSync(path.join(os.tmpdir(), "native-migration-"));
});
afterAll(async () => {
  await stack?.dispose();
  if (work) fs.rmSync(work, { recursive: true, force: true });
  await sandbox?.close();
});

/** 0.3.0 as npm packs it (the sources of BEFORE_NATIVE, built by its own prepack), unpacked into `into`. */
function unpackBeforeNative(into: string): void {
  const src = path.join(work, "src");
  fs.mkdirSync(src);
  execFileSync("sh", ["-c", `git -C "${checkoutRoot}" archive ${BEFORE_NATIVE} | tar -x -C "${src}"`]);
  fs.symlinkSync(path.join(checkoutRoot, "node_modules"), path.join(src, "node_modules"), "dir");
  const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: src, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as { filename: string; version: string }[];
  expect(packed[0].version).toBe("0.3.0");
  fs.mkdirSync(into);
  execFileSync("tar", ["-xzf", path.join(work, packed[0].filename), "-C", into, "--strip-components=1"]);
}

test("a stack made by 0.3.0's dynamic resources moves to the native provider: no domain, zone or record created, deleted or replaced, nothing charged, no provider code left", async () => {
  buildSdk();
  const dynamic = readmeProgram(checkoutRoot, "Register a domain and host its DNS");
  const native = readmeProgram(checkoutRoot, "Native: register a domain and host its DNS", 3, "docs/native-provider.md");
  // node_modules as a user's would be: 0.3.0 installed (with its dependencies), then the SDK and the @pulumi/pulumi it needs.
  const ours = path.join(checkoutRoot, "node_modules");
  const extra = Object.fromEntries(fs.readdirSync(ours).filter((e) => e !== "reseller-pulumi").map((e) => [e, path.join(ours, e)]));
  const dir = nativeProject("migrate", { "index.ts": dynamic.program }, { sdk: true, extra });
  // Installed, not linked: it resolves its dependencies from the project's node_modules.
  unpackBeforeNative(path.join(dir, "node_modules", "reseller-pulumi"));

  stack = await CliStack.init({ cli: requirePulumiCli(), projectDir: dir });
  for (const line of dynamic.configLines) {
    const r = spawnSync("sh", ["-c", fillPlaceholders(line, sandbox, "packed-shop.com")], { input: configInput(line, sandbox), cwd: dir, env: stack.env(), encoding: "utf8" });
    expect({ line, code: r.status, stderr: r.stderr }).toEqual({ line, code: 0, stderr: "" });
  }
  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  const before = await stack.exportState();
  expect((before.deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/reseller:")).map((r) => r.type.split(":").pop()).sort()).toEqual(["DnsRecord", "DnsZone", "Domain"]);
  const charges = sandbox.operator.ledger().length;
  const mark = sandbox.operator.requests().length;

  fs.writeFileSync(path.join(dir, "index.ts"), native.program);
  const moved = await stack.run(["up", "--json", ...YES]);
  expect({ code: moved.code, stderr: moved.stderr }).toEqual({ code: 0, stderr: "" });
  // Two documents, each starting at a line's first column: the preview's plan, then the update's result.
  const plan = JSON.parse(moved.stdout.trim().split(/\n(?=\{)/)[0]) as { steps: { op: string; urn: string }[]; changeSummary: Record<string, number> };
  // The CLI lists the steps that do something: none of them touches the domain, the zone or the record, and nothing is created, deleted or replaced.
  expect(plan.steps.filter((s) => /::(shop|shop-zone|www)$/.test(s.urn) && s.op !== "update").map((s) => `${s.op} ${s.urn}`)).toEqual([]);
  expect(plan.changeSummary).toEqual({ same: 4 });
  expect(sandbox.operator.ledger()).toHaveLength(charges);
  expect(writesSince(sandbox, mark)).toEqual([]);
  const refresh = await stack.run(["refresh", ...YES]);
  expect({ code: refresh.code, stderr: refresh.stderr }).toEqual({ code: 0, stderr: "" });
  expect(ok(await stack.run(["up", "--expect-no-changes", ...YES]))).toEqual({ code: 0, stderr: "" });
  const after = await stack.exportState();
  expect((after.deployment.resources ?? []).filter((r) => r.type.startsWith("reseller:index:")).map((r) => r.type.split(":").pop()).sort()).toEqual(["DnsRecord", "DnsZone", "Domain"]);
  expect(JSON.stringify(after)).not.toContain("__provider");
  expect(sandbox.operator.ledger()).toHaveLength(charges);
});

const ok = (r: { code: number | null; stderr: string }) => ({ code: r.code, stderr: r.stderr });
