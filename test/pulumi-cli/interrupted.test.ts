/**
 * An interrupted `pulumi up`, through the real Pulumi CLI against the sandbox: SIGINT once (a CI
 * job's cancel), SIGINT twice (cancel, then force), and SIGKILL of the CLI and everything it started
 * (a runner that dies), each at a paid or creating request held in flight by the sandbox (a hold
 * fault: the test signals once the request has arrived, and lets it go once the CLI has said what the
 * test waits for, never after a blind sleep or a fixed delay). Then the steps
 * docs/interrupted-runs.md prescribes (after a kill mid-registration, the README's, run as written), asserted on what the CLI prints and exits with, on
 * `pulumi stack export` (pending_operations, the charge in state) and on the sandbox's ledger and
 * zone: a paid order is in state with its charge and bought once, a record is taken over and not
 * made twice, a renewal is paid once. Then a cancel in the deletes: a destroy's, which the CLI ends
 * with exit code 0 though it stopped them, and an up's, which fails; either is finished by running
 * the command again.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { CliStack, checkoutRoot, makeProject, requirePulumiCli, type CliRun, type StackExport } from "../../dev/pulumi-cli";
import { chargesOf, HEARD_CANCEL, interrupted, pendingOf, type How } from "../support/interrupt";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { readmeShellLines } from "../support/readme-program";

jest.setTimeout(900_000);

const YES = ["--yes", "--non-interactive"];
const CLEAR = ["refresh", "--clear-pending-creates", ...YES];

const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const reseller = require("reseller-pulumi");
const cfg = new pulumi.Config();
const name = cfg.require("domain");
const domain = new reseller.Domain("shop", {
  domain: name,
  contacts: { registrant: cfg.requireSecretObject("registrant") },
  nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"],
  maxPrice: "25.00",
  renewal: { minDaysRemaining: cfg.getNumber("renewDays") ?? 30, years: 1 },
});
const zone = new reseller.DnsZone("zone", { domain: domain.domain, waitForDelegation: true });
// Config drop: the add-on and the record are dropped from the program (the up deletes them, the record first).
if (!cfg.getBoolean("drop")) {
  const privacy = new reseller.PrivacyAddon("privacy", { domain: domain.domain });
  const www = new reseller.DnsRecord("www", { zone: zone.domain, type: "CNAME", name: "www", content: name + "." }, { dependsOn: [privacy] });
  exports.www = www.id;
}
`;
const REGISTRANT = { name: "Pat Packer", email: "pat@example.org", phone: "+441234567890", addressLine1: "1 High Street", city: "Leeds", state: "West Yorkshire", postalCode: "LS1 1AA", country: "GB" };

let sandbox: SandboxHandle;
let projectDir: string;
const stacks: CliStack[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0 });
  projectDir = makeProject("interrupted", { "index.js": PROGRAM });
});
afterAll(async () => {
  for (const s of stacks) await s.dispose();
  if (projectDir) fs.rmSync(projectDir, { recursive: true, force: true });
  await sandbox?.close();
});

/** A stack of the program for `domain`, configured against the sandbox. */
async function stackFor(domain: string): Promise<CliStack> {
  const stack = await CliStack.init({ cli: requirePulumiCli(), projectDir, stack: domain.split(".")[0] });
  stacks.push(stack);
  await stack.configSet("domain", domain);
  await stack.configSet("reseller:baseUrl", sandbox.url);
  await stack.configSet("reseller:apiKey", sandbox.credentials.key);
  await stack.configSet("reseller:apiSecret", sandbox.credentials.secret, { secret: true });
  await stack.configSet("registrant", JSON.stringify(REGISTRANT), { secret: true });
  return stack;
}

/** `pulumi up` (or `command`) interrupted `how` while the sandbox holds the request (../support/interrupt.ts). */
const interruptedUp = (stack: CliStack, path: string, how: How, command = ["up", ...YES], method = "POST"): Promise<CliRun> => interrupted(sandbox, stack, path, how, command, method);

/** A line of the README run by the shell as written, in the project folder with the stack's environment (not blocking: the sandbox answers from this process). */
function shell(line: string, stack: CliStack): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", line], { cwd: projectDir, env: stack.env(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The update locks in the stack's backend (a file each, under .pulumi/locks/). */
const locks = (stack: CliStack): string[] => fs.readdirSync(stack.backend, { recursive: true, encoding: "utf8" }).filter((f) => /(^|\/)locks\/.+\.json$/.test(f));

const charges = (domain: string): string[] => chargesOf(sandbox, domain);
const pending = pendingOf;
const resource = (s: StackExport, name: string) => (s.deployment.resources ?? []).find((r) => r.urn.endsWith(`::${name}`));

test("SIGINT once at the registration: the order's answer is recorded with its charge, nothing is left pending, the next up finishes the rest", async () => {
  const domain = "sigint-once.com";
  const stack = await stackFor(domain);
  const run = await interruptedUp(stack, "/domains/register", "SIGINT");
  expect(run.code).not.toBe(0);
  expect(run.stdout).toContain("^C received; cancelling");
  // The provider host heard the engine's Cancel (resources/host/engine-cancel.ts).
  expect(run.stdout).toContain(HEARD_CANCEL);
  expect(run.stdout).toMatch(/shop created/);
  expect(run.stdout).toContain("update canceled");
  const state = await stack.exportState();
  expect(pending(state)).toEqual([]);
  expect(resource(state, "shop")).toMatchObject({ id: domain, outputs: expect.objectContaining({ charged: "12.00", currency: "USD" }) });
  // No step started after the cancel: the add-on is not bought.
  expect(resource(state, "privacy")).toBeUndefined();
  expect(charges(domain)).toEqual(["register"]);

  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  expect(charges(domain)).toEqual(["register", "privacy"]);
  const quiet = await stack.run(["preview", "--expect-no-changes", "--non-interactive"]);
  expect(quiet.code).toBe(0);
});

test("SIGINT twice at the registration: the create is left pending; up takes the paid domain over by replay and records its charge; refresh --clear-pending-creates clears the entry", async () => {
  const domain = "sigint-twice.com";
  const stack = await stackFor(domain);
  const run = await interruptedUp(stack, "/domains/register", "SIGINT twice");
  expect(run.code).not.toBe(0);
  expect(run.stdout).toContain("^C received; terminating");
  expect(run.stdout).toMatch(/shop creating \(interrupted\)/);
  const state = await stack.exportState();
  expect(pending(state)).toEqual(["creating shop"]);
  expect(resource(state, "shop")).toBeUndefined();
  expect(charges(domain)).toEqual(["register"]);

  // Without a terminal, refresh leaves a pending create as it is, and says nothing of it.
  const refresh = await stack.run(["refresh", ...YES]);
  expect(refresh.code).toBe(0);
  expect(pending(await stack.exportState())).toEqual(["creating shop"]);

  // The preview says the domain is taken over, not bought.
  const preview = await stack.run(["preview", "--non-interactive"]);
  expect(preview.code).toBe(0);
  expect(preview.stdout).toContain(`${domain} is in this account already (stage active); up takes it over and buys and changes nothing`);

  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  expect(up.stdout).toContain("Attempting to deploy or update resources with 1 pending operations from previous deployment");
  expect(up.stdout).toMatch(/the service replayed that order's answer to the same Idempotency-Key: it charged 12\.00 USD \(invoice [^)]+\)\. Taking it; nothing was bought again\./);
  expect(up.stdout).toContain(`pulumi refresh --clear-pending-creates --yes --non-interactive\` (its id, for \`--import-pending-creates <URN> --import-pending-creates <ID>\`, is the domain name: ${domain}`);
  const after = await stack.exportState();
  expect(resource(after, "shop")).toMatchObject({ id: domain, outputs: expect.objectContaining({ charged: "12.00" }) });
  // up keeps the entry: only refresh drops it.
  expect(pending(after)).toEqual(["creating shop"]);
  expect(charges(domain)).toEqual(["register", "privacy"]);

  const clear = await stack.run(CLEAR);
  expect(clear.code).toBe(0);
  expect(pending(await stack.exportState())).toEqual([]);
  expect((await stack.run(["preview", "--expect-no-changes", "--non-interactive"])).code).toBe(0);
  expect(charges(domain)).toEqual(["register", "privacy"]);
});

test("SIGKILL at the registration: the order is charged with the CLI dead, the stack locked and the create pending; the README's recovery, run as written, records the charge, buys nothing twice and leaves nothing pending", async () => {
  const domain = "killed-register.com";
  const stack = await stackFor(domain);
  const run = await interruptedUp(stack, "/domains/register", "SIGKILL");
  expect(run.signal).toBe("SIGKILL");
  // The order went through after the kill; nobody recorded it.
  expect(charges(domain)).toEqual(["register"]);
  const killed = await stack.exportState();
  expect(pending(killed)).toEqual(["creating shop"]);
  expect(resource(killed, "shop")).toBeUndefined();
  // The dead CLI's lock is still in the backend.
  expect(locks(stack)).toHaveLength(1);

  // The README's recovery ("When an up is interrupted"), each line run by the shell as written.
  const lines = readmeShellLines(checkoutRoot, "When an up is interrupted");
  expect(lines.map((l) => l.replace(/\s+#.*$/, ""))).toEqual(["pulumi cancel --yes --non-interactive", "pulumi up --yes --non-interactive", "pulumi refresh --clear-pending-creates --yes --non-interactive"]);
  const said: string[] = [];
  for (const line of lines) {
    const r = await shell(line, stack);
    expect({ line, code: r.code, stderr: r.stderr, out: r.code === 0 ? "" : r.stdout.slice(-4000) }).toEqual({ line, code: 0, stderr: "", out: "" });
    said.push(r.stdout);
  }
  // The up took the paid domain over by replay and recorded what the order charged.
  expect(said[1]).toMatch(/the service replayed that order's answer to the same Idempotency-Key: it charged 12\.00 USD \(invoice [^)]+\)\. Taking it; nothing was bought again\./);
  const after = await stack.exportState();
  expect(pending(after)).toEqual([]);
  expect(locks(stack)).toEqual([]);
  expect(resource(after, "shop")).toMatchObject({ id: domain, outputs: expect.objectContaining({ charged: "12.00", currency: "USD" }) });
  // One charge for the registration; the up bought the rest of the program (the add-on) once.
  expect(charges(domain)).toEqual(["register", "privacy"]);
  expect((await stack.run(["preview", "--expect-no-changes", "--non-interactive"])).code).toBe(0);
});

test("SIGKILL at the add-on purchase: the stack stays locked until `pulumi cancel`; up takes the add-on over with its charge; bought once", async () => {
  const domain = "killed-addon.com";
  const stack = await stackFor(domain);
  await interruptedUp(stack, "/privacy", "SIGKILL");
  // The zone's create runs beside the add-on's: it may be pending too.
  expect(pending(await stack.exportState())).toContain("creating privacy");
  expect(charges(domain)).toEqual(["register", "privacy"]);

  const locked = await stack.run(["up", ...YES]);
  expect(locked.code).not.toBe(0);
  expect(locked.stderr).toContain("the stack is currently locked");
  expect((await stack.run(["cancel", ...YES])).code).toBe(0);

  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  expect(up.stdout).toMatch(/WHOIS Privacy is on already, bought by an earlier run of this resource that was interrupted before it recorded the purchase; the service replayed that purchase's answer/);
  expect(resource(await stack.exportState(), "privacy")).toMatchObject({ id: domain, outputs: expect.objectContaining({ charged: expect.stringMatching(/^\d+\.\d\d$/) }) });
  expect((await stack.run(CLEAR)).code).toBe(0);
  expect(pending(await stack.exportState())).toEqual([]);
  expect(charges(domain)).toEqual(["register", "privacy"]);
});

test("SIGKILL at the record create: up takes the record made before the kill over, and makes no second one", async () => {
  const domain = "killed-record.com";
  const stack = await stackFor(domain);
  await interruptedUp(stack, "/records", "SIGKILL");
  expect(pending(await stack.exportState())).toEqual(["creating www"]);
  const wwws = () => sandbox.operator.state().zones[domain].records.filter((r) => r.type === "CNAME" && r.name === "www");
  expect(wwws()).toHaveLength(1);

  expect((await stack.run(["cancel", ...YES])).code).toBe(0);
  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  const [live] = wwws();
  expect(up.stdout).toContain(`CNAME www.${domain}: the record exists already`);
  expect(up.stdout).toContain(`is the service's record id: ${live.id}`);
  expect(wwws()).toHaveLength(1);
  expect(resource(await stack.exportState(), "www")).toMatchObject({ id: live.id });
  expect((await stack.run(CLEAR)).code).toBe(0);
  expect((await stack.run(["preview", "--expect-no-changes", "--non-interactive"])).code).toBe(0);
});

test("SIGINT twice at a renewal: the next up replays the renewal and records its charge; it is paid once", async () => {
  const domain = "renew-twice.com";
  const stack = await stackFor(domain);
  expect((await stack.run(["up", ...YES])).code).toBe(0);
  // A renewal due now: a one-year term has fewer than 400 days left.
  await stack.configSet("renewDays", "400");
  const run = await interruptedUp(stack, `/domains/${domain}/renew`, "SIGINT twice");
  expect(run.code).not.toBe(0);
  expect(pending(await stack.exportState())).toEqual(["updating shop"]);
  expect(charges(domain)).toEqual(["register", "privacy", "renew"]);

  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  expect(up.stdout).toMatch(/by a renewal of an earlier run of this resource, interrupted before it recorded it; the service replayed that renewal's answer/);
  const state = await stack.exportState();
  expect(pending(state)).toEqual([]);
  expect(charges(domain)).toEqual(["register", "privacy", "renew"]);
  expect((await stack.run(["preview", "--expect-no-changes", "--non-interactive"])).code).toBe(0);
});

test("SIGINT once at a destroy's record delete: the CLI stops the deletes left yet exits 0 and says they were deleted; the provider says to run it again, which deletes the rest", async () => {
  const domain = "sigint-destroy.com";
  const stack = await stackFor(domain);
  await stack.must(["up", ...YES]);
  const run = await interruptedUp(stack, "/records/", "SIGINT", ["destroy", ...YES], "DELETE");
  // The Pulumi CLI (v3.274.1) reports a destroy cancelled in its deletes as a success.
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("^C received; cancelling");
  expect(run.stdout).toContain("The resources in the stack have been deleted");
  expect(run.stdout).toContain("no new request is sent. Run the command again until it changes nothing");
  let state = await stack.exportState();
  expect(resource(state, "www")).toBeUndefined();
  expect(resource(state, "shop")).toMatchObject({ id: domain });
  expect(resource(state, "zone")).toBeDefined();
  expect(sandbox.operator.state().zones[domain]?.records.some((r) => r.name === "www")).toBe(false);
  // The recovery: destroy again.
  const again = await stack.run(["destroy", ...YES]);
  expect(again.code).toBe(0);
  state = await stack.exportState();
  expect((state.deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic"))).toEqual([]);
  expect(pending(state)).toEqual([]);
  expect(charges(domain)).toEqual(["register", "privacy"]);
});

test("SIGINT once at the record delete of an up whose program dropped the record and its add-on: unlike a destroy, the up fails; up again deletes the add-on", async () => {
  const domain = "sigint-drop.com";
  const stack = await stackFor(domain);
  await stack.must(["up", ...YES]);
  await stack.configSet("drop", "true");
  const run = await interruptedUp(stack, "/records/", "SIGINT", ["up", ...YES], "DELETE");
  expect(run.code).not.toBe(0);
  expect(run.stdout).toContain("^C received; cancelling");
  // The program is cancelled with the up, which fails on it ("context canceled" or "Program exited
  // with non-zero exit code: -1", as the timing goes).
  expect(run.stdout).toMatch(/pulumi:pulumi:Stack \S+ \*\*failed\*\* 1 error/);
  expect(run.stdout).toContain("Run the command again until it changes nothing");
  let state = await stack.exportState();
  expect(resource(state, "www")).toBeUndefined();
  expect(resource(state, "privacy")).toMatchObject({ id: domain });
  const again = await stack.run(["up", ...YES]);
  expect(again.code).toBe(0);
  state = await stack.exportState();
  expect(resource(state, "privacy")).toBeUndefined();
  expect(pending(state)).toEqual([]);
  expect(charges(domain)).toEqual(["register", "privacy"]);
});
