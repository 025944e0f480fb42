/**
 * The README's first program, exactly as written, through the real Pulumi CLI against the sandbox:
 * `pulumi login` to a local folder, `stack init`, every `pulumi config set` line of the README (run
 * by the shell as written, the placeholders filled in), then preview, up, up --expect-no-changes,
 * refresh --expect-no-changes and destroy, each non-interactive. Asserted on what the CLI prints and
 * returns (exit codes, `preview --json`, `stack export`, `stack output`) and on the sandbox's ledger.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { CliStack, checkoutRoot, makeProject, requirePulumiCli } from "../../pulumi-cli";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { isReadRequest } from "../../sandbox/rules";
import { fillPlaceholders, readmeProgram } from "../support/readme-program";

jest.setTimeout(900_000);

const YES = ["--yes", "--non-interactive"];

let sandbox: SandboxHandle;
let stack: CliStack;
let projectDir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0 });
  const { program } = readmeProgram(checkoutRoot);
  projectDir = makeProject("readme-shop", { "index.ts": program });
  stack = await CliStack.init({ cli: requirePulumiCli(), projectDir, passphrase: "readme flow passphrase" });
});
afterAll(async () => {
  await stack?.dispose();
  if (projectDir) fs.rmSync(projectDir, { recursive: true, force: true });
  await sandbox?.close();
});

const writes = (since: number): string[] =>
  sandbox.operator
    .requests()
    .slice(since)
    .filter((r) => r.mutating || !isReadRequest(r))
    .map((r) => `${r.method} ${r.path}`);

test("the README's program: config set as written, preview, up, a quiet second up and refresh, destroy", async () => {
  // Every `pulumi config set` line of the README, as the shell runs it.
  const { configLines } = readmeProgram(checkoutRoot);
  expect(configLines.length).toBeGreaterThanOrEqual(6);
  for (const line of configLines) {
    const r = spawnSync("sh", ["-c", fillPlaceholders(line, sandbox)], { cwd: projectDir, env: stack.env(), encoding: "utf8" });
    expect({ line, code: r.status, stderr: r.stderr }).toEqual({ line, code: 0, stderr: "" });
  }
  // Secrets are encrypted in the stack's config file.
  const stackFile = fs.readFileSync(`${projectDir}/Pulumi.${stack.stack}.yaml`, "utf8");
  expect(stackFile).toMatch(/reseller:apiSecret:\s+secure:/);
  expect(stackFile).not.toContain(sandbox.credentials.secret);
  expect(stackFile).not.toContain("Pat Packer");

  const preview = await stack.run(["preview", "--json", "--non-interactive"]);
  expect(preview.code).toBe(0);
  const plan = JSON.parse(preview.stdout) as { steps: { op: string; urn: string }[]; changeSummary: Record<string, number> };
  const created = plan.steps.filter((s) => s.op === "create").map((s) => s.urn.split("::").pop());
  expect(created).toEqual(expect.arrayContaining(["shop", "shop-zone", "www"]));
  const seeded = sandbox.operator.ledger().length; // the sandbox's seed has charges of its own
  expect(sandbox.operator.ledger()).toHaveLength(seeded);

  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  expect(up.stdout).toMatch(/\+ 4 created|4 created/);
  const charges = sandbox.operator.ledger().slice(seeded);
  expect(charges.map((c) => [c.domain, c.action])).toEqual([["packed-shop.com", "register"]]);

  const outputs = await stack.outputs();
  expect(outputs).toMatchObject({ stage: "active", wwwFqdn: "www.packed-shop.com" });
  expect(outputs.nameservers).toEqual(["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"]);

  const exported = JSON.stringify(await stack.exportState());
  for (const secret of [sandbox.credentials.secret, "Pat Packer", "pat@packed-shop.example", "+441234567890"]) expect(exported).not.toContain(secret);

  const since = sandbox.operator.requests().length;
  const again = await stack.run(["up", "--expect-no-changes", ...YES]);
  expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: "" });
  const refresh = await stack.run(["refresh", "--expect-no-changes", ...YES]);
  expect({ code: refresh.code, stderr: refresh.stderr }).toEqual({ code: 0, stderr: "" });
  expect(writes(since)).toEqual([]);
  expect(sandbox.operator.ledger()).toHaveLength(seeded + 1);

  const destroy = await stack.run(["destroy", ...YES]);
  expect({ code: destroy.code, stderr: destroy.stderr }).toEqual({ code: 0, stderr: "" });
  expect(destroy.stdout).toMatch(/deleted/);
  const afterDestroy = await stack.exportState();
  expect(afterDestroy.deployment.resources ?? []).toEqual([]);
  expect(sandbox.operator.ledger()).toHaveLength(seeded + 1);
});
