/**
 * The README's two programs, exactly as written, through the real Pulumi CLI against the sandbox:
 * `pulumi login` to a local folder, `stack init`, every `pulumi config set` line of the program's
 * section (run by the shell as written, the placeholders filled in), then preview, up,
 * up --expect-no-changes, refresh --expect-no-changes and destroy, each non-interactive. Asserted on
 * what the CLI prints and returns (exit codes, `preview --json`, `stack export`, `stack output`) and
 * on the sandbox's ledger and request log.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { CliStack, OLDEST_CLI, PINNED_CLI, checkoutRoot, makeProject, requirePulumiCli } from "../../dev/pulumi-cli";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { isReadRequest } from "../../sandbox/rules";
import { configInput, fillPlaceholders, readmeProgram } from "../support/readme-program";

jest.setTimeout(900_000);

const YES = ["--yes", "--non-interactive"];
/** The SDK the programs run on: the checkout's, which each project's node_modules links (the test matrix's lowest cell installs 3.139.0 there). */
const SDK = (JSON.parse(fs.readFileSync(`${checkoutRoot}/node_modules/@pulumi/pulumi/package.json`, "utf8")) as { version: string }).version;

/** A preview as a user's default project runs it: ts-node type-checks the program first (CliStack turns that off for the other commands). */
const TYPE_CHECKED = { env: { PULUMI_NODEJS_TRANSPILE_ONLY: undefined } };

const BUYS = "Register a domain and host its DNS";
const STARTER = "Manage the DNS of a domain you already have";

let sandbox: SandboxHandle;
const cleanup: (() => Promise<void>)[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0 });
});
afterAll(async () => {
  for (const c of cleanup) await c();
  await sandbox?.close();
});

/** A stack of the README section's program, its config set by the section's lines as the shell runs them. */
async function readmeStack(heading: string, domain: string, version = PINNED_CLI): Promise<{ stack: CliStack; projectDir: string }> {
  sandbox.operator.reset(); // each test on the sandbox's seed
  const { program, configLines } = readmeProgram(checkoutRoot, heading);
  const projectDir = makeProject("readme", { "index.ts": program });
  const stack = await CliStack.init({ cli: requirePulumiCli(version), projectDir, passphrase: "readme flow passphrase" });
  cleanup.push(async () => {
    await stack.dispose();
    fs.rmSync(projectDir, { recursive: true, force: true });
  });
  for (const line of configLines) {
    const r = spawnSync("sh", ["-c", fillPlaceholders(line, sandbox, domain)], { input: configInput(line, sandbox), cwd: projectDir, env: stack.env(), encoding: "utf8" });
    expect({ line, code: r.status, stderr: r.stderr }).toEqual({ line, code: 0, stderr: "" });
  }
  return { stack, projectDir };
}

const writes = (since: number): string[] =>
  sandbox.operator
    .requests()
    .slice(since)
    .filter((r) => r.mutating || !isReadRequest(r))
    .map((r) => `${r.method} ${r.path}`);

// The newest CLI the checkout pins and the oldest the README claims (README, "Using it with the Pulumi CLI").
test.each([PINNED_CLI, OLDEST_CLI])(`the README's program that buys a domain, on the CLI %s with @pulumi/pulumi ${SDK}: config set as written, preview, up, a quiet second up and refresh, destroy`, async (version) => {
  const domain = "packed-shop.com"; // the README's
  const { stack, projectDir } = await readmeStack(BUYS, domain, version);
  expect((await stack.run(["version"])).stdout.trim()).toBe(version);
  // Secrets are encrypted in the stack's config file.
  const stackFile = fs.readFileSync(`${projectDir}/Pulumi.${stack.stack}.yaml`, "utf8");
  expect(stackFile).toMatch(/reseller:apiSecret:\s+secure:/);
  expect(stackFile).not.toContain(sandbox.credentials.secret);
  expect(stackFile).not.toContain("Pat Packer");

  const seeded = sandbox.operator.ledger().length; // the sandbox's seed has charges of its own
  const beforePreview = sandbox.operator.requests().length;
  const preview = await stack.run(["preview", "--json", "--non-interactive"], TYPE_CHECKED);
  expect(preview.code).toBe(0);
  const plan = JSON.parse(preview.stdout) as { steps: { op: string; urn: string }[]; changeSummary: Record<string, number> };
  const created = plan.steps.filter((s) => s.op === "create").map((s) => s.urn.split("::").pop());
  expect(created).toEqual(expect.arrayContaining(["shop", "shop-zone", "www"]));
  // The preview charged nothing and, though it asked the service (its price and availability reads
  // are in the log), sent nothing that writes.
  expect(sandbox.operator.ledger()).toHaveLength(seeded);
  expect(sandbox.operator.requests().length).toBeGreaterThan(beforePreview);
  expect(writes(beforePreview)).toEqual([]);

  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  expect(up.stdout).toMatch(/\+ 4 created|4 created/);
  // The engine's Cancel as it closes its providers after a whole run is not a user's cancel: not said.
  expect(up.stdout).not.toContain("cancelled the command");
  const charges = sandbox.operator.ledger().slice(seeded);
  expect(charges.map((c) => [c.domain, c.action])).toEqual([[domain, "register"]]);

  const outputs = await stack.outputs();
  expect(outputs).toMatchObject({ stage: "active", wwwFqdn: `www.${domain}` });
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

test(`the README's DNS-only starter with @pulumi/pulumi ${SDK}: the zone adopted and two records created, nothing bought; a quiet second up; destroy deletes only the records`, async () => {
  // The domain the README names for the sandbox.
  expect(fs.readFileSync(`${checkoutRoot}/README.md`, "utf8")).toContain("pulumi config set domain demo-reseller.com");
  const { stack } = await readmeStack(STARTER, "demo-reseller.com");
  const ledger = sandbox.operator.ledger().length;
  const beforePreview = sandbox.operator.requests().length;

  const preview = await stack.run(["preview", "--json", "--non-interactive"], TYPE_CHECKED);
  expect(preview.code).toBe(0);
  const plan = JSON.parse(preview.stdout) as { steps: { op: string; urn: string }[] };
  expect(plan.steps.filter((s) => s.op === "create").map((s) => s.urn.split("::").pop()).sort()).toEqual(["app", "docs", "readme-dev", "zone"]);
  // The preview charged nothing and, though it read the zone it adopts (the log has its reads), sent nothing that writes.
  expect(sandbox.operator.ledger()).toHaveLength(ledger);
  expect(sandbox.operator.requests().length).toBeGreaterThan(beforePreview);
  expect(writes(beforePreview)).toEqual([]);

  const before = sandbox.operator.requests().length;
  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  // The zone is taken over (the account hosts it), the two records are the only writes, nothing is bought.
  expect(writes(before)).toEqual([expect.stringMatching(/^POST .*\/dns\/zones\/demo-reseller\.com\/records$/), expect.stringMatching(/^POST .*\/dns\/zones\/demo-reseller\.com\/records$/)]);
  expect(sandbox.operator.ledger().length).toBe(ledger);
  const zone = (await stack.exportState()).deployment.resources!.find((r) => r.urn.endsWith("::zone"));
  expect(zone?.outputs).toMatchObject({ domain: "demo-reseller.com", adopted: true });
  expect(await stack.outputs()).toMatchObject({ appFqdn: "app.demo-reseller.com", nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"] });

  const again = await stack.run(["up", "--expect-no-changes", ...YES]);
  expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: "" });
  // Destroy deletes the two records and leaves the zone the account had (retainOnDelete).
  const mark = sandbox.operator.requests().length;
  const destroy = await stack.run(["destroy", ...YES]);
  expect({ code: destroy.code, out: destroy.code === 0 ? "" : destroy.stdout }).toEqual({ code: 0, out: "" });
  const deletes = sandbox.operator.requests().slice(mark).filter((r) => r.mutating).map((r) => `${r.method} ${r.path}`);
  expect(deletes).toEqual([expect.stringMatching(/^DELETE .*\/dns\/zones\/demo-reseller\.com\/records\/\S+$/), expect.stringMatching(/^DELETE .*\/dns\/zones\/demo-reseller\.com\/records\/\S+$/)]);
});
