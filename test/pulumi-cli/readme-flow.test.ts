/**
 * The README's two programs, exactly as written, through the real Pulumi CLI against the sandbox:
 * `pulumi login` to a local folder, `stack init`, every `pulumi config set` line of the program's
 * section (run by the shell as written, the placeholders filled in), then the section's commands:
 * preview (type-checked, as a user's default project runs it), up and destroy, each
 * non-interactive, on the CLI the checkout pins. On the oldest CLI the README claims, one up of the
 * program that buys. Asserted on what the CLI prints and returns (exit codes, `preview --json`,
 * `stack export`, `stack output`) and on the sandbox's ledger and request log.
 *
 * Proven elsewhere, not run again here (each command costs a program run and a provider host):
 * - a second up of an unchanged program changes nothing, and a refresh finds everything as it was:
 *   through the CLI by demo.test.ts (the main example: a Domain bought with secret contacts, its
 *   zone, records), and per kind through the SDK's provider host by
 *   test/resources/lifecycle/domain.test.ts and dns.test.ts (a Domain and a record: no-op up,
 *   refresh; an adopted zone: its second up changes nothing);
 * - a provider-made secret kept as a secret by the CLI: derived-secrets.test.ts (the pinned CLI);
 *   on the oldest, this file's up keeps the registrant and the API secret out of `stack export`.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { CliStack, OLDEST_CLI, PINNED_CLI, checkoutRoot, makeProject, requirePulumiCli, type CliRun } from "../../dev/pulumi-cli";
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

/** What an up of the README's program that buys leaves: 4 created, one charge (the registration), its outputs, no secret in `stack export`. */
async function expectBought(stack: CliStack, up: CliRun, domain: string, seeded: number): Promise<void> {
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
}

/** The stack's config file holds the secrets the README's lines set, encrypted. */
function expectConfigEncrypted(stack: CliStack, projectDir: string): void {
  const stackFile = fs.readFileSync(`${projectDir}/Pulumi.${stack.stack}.yaml`, "utf8");
  expect(stackFile).toMatch(/reseller:apiSecret:\s+secure:/);
  expect(stackFile).not.toContain(sandbox.credentials.secret);
  expect(stackFile).not.toContain("Pat Packer");
}

test(`the README's program that buys a domain, on the CLI ${PINNED_CLI} with @pulumi/pulumi ${SDK}: config set as written, preview, up, destroy`, async () => {
  const domain = "packed-shop.com"; // the README's
  const { stack, projectDir } = await readmeStack(BUYS, domain);
  expectConfigEncrypted(stack, projectDir);

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

  await expectBought(stack, await stack.run(["up", ...YES]), domain, seeded);

  // Destroy deletes the record and the zone and leaves the domain registered (retainOnDelete): no charge.
  const mark = sandbox.operator.requests().length;
  const destroy = await stack.run(["destroy", ...YES]);
  expect({ code: destroy.code, stderr: destroy.stderr }).toEqual({ code: 0, stderr: "" });
  expect(destroy.stdout).toMatch(/deleted/);
  const afterDestroy = await stack.exportState();
  expect(afterDestroy.deployment.resources ?? []).toEqual([]);
  expect(writes(mark).filter((w) => w.startsWith("DELETE ")).sort()).toEqual([expect.stringMatching(/^DELETE .*\/dns\/zones\/packed-shop\.com$/), expect.stringMatching(/^DELETE .*\/dns\/zones\/packed-shop\.com\/records\/\S+$/)]);
  expect(sandbox.operator.state().domains[domain]).toBeDefined();
  expect(sandbox.operator.ledger()).toHaveLength(seeded + 1);
});

// The oldest CLI the README claims ("Using it with the Pulumi CLI"): the first whose provider host
// hands the stack's config to configure. One up proves the program runs there and buys once.
test(`the README's program that buys a domain, on the oldest CLI the README claims (${OLDEST_CLI}): config set as written, up`, async () => {
  const domain = "packed-shop.com";
  const { stack, projectDir } = await readmeStack(BUYS, domain, OLDEST_CLI);
  expect((await stack.run(["version"])).stdout.trim()).toBe(OLDEST_CLI);
  expectConfigEncrypted(stack, projectDir);
  const seeded = sandbox.operator.ledger().length;
  await expectBought(stack, await stack.run(["up", ...YES]), domain, seeded);
});

test(`the README's DNS-only starter with @pulumi/pulumi ${SDK}: the zone adopted and two records created, nothing bought; destroy deletes only the records`, async () => {
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

  // Destroy deletes the two records and leaves the zone the account had (retainOnDelete).
  const mark = sandbox.operator.requests().length;
  const destroy = await stack.run(["destroy", ...YES]);
  expect({ code: destroy.code, out: destroy.code === 0 ? "" : destroy.stdout }).toEqual({ code: 0, out: "" });
  const deletes = sandbox.operator.requests().slice(mark).filter((r) => r.mutating).map((r) => `${r.method} ${r.path}`);
  expect(deletes).toEqual([expect.stringMatching(/^DELETE .*\/dns\/zones\/demo-reseller\.com\/records\/\S+$/), expect.stringMatching(/^DELETE .*\/dns\/zones\/demo-reseller\.com\/records\/\S+$/)]);
});
