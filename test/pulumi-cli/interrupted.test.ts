/**
 * An interrupted `pulumi up` at the registration, through the real Pulumi CLI against the sandbox:
 * SIGINT once (a CI job's cancel), SIGINT twice (cancel, then force), and SIGKILL of the CLI and
 * everything it started (a runner that dies), each at the paid request held in flight by the sandbox
 * (a hold fault: the test signals once the request has arrived, and lets it go once the CLI has said
 * what the test waits for, never after a blind sleep or a fixed delay). Then the steps
 * docs/interrupted-runs.md prescribes (after a kill mid-registration, the README's, run as written),
 * asserted on what the CLI prints and exits with, on `pulumi stack export` (pending_operations, the
 * charge in state) and on the sandbox's ledger: a paid order is in state with its charge and bought
 * once. The later requests are interrupted in interrupted-later.test.ts (the add-on, the record, a
 * renewal) and interrupted-deletes.test.ts (a destroy's and an up's deletes): one program
 * (../support/interrupted-program.ts), three files, so two workers share them.
 *
 * Not run through the CLI in each case (each command costs a program run and a provider host):
 * - that the stack is quiet once recovered (the next up would change nothing): the up after a replay
 *   of the registration, the renewal or an add-on's purchase changes nothing, through the SDK's
 *   provider host (test/hostile/killed-host.test.ts), as after a record taken over
 *   (test/resources/lifecycle/dns.test.ts); here the state says it: the charge recorded, the ledger's
 *   one charge per purchase;
 * - `refresh --clear-pending-creates` dropping the entries an up took over: once, in the README's
 *   recovery as written (the SIGKILL test below); the other cases stop at the up that takes over.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { checkoutRoot, type CliStack } from "../../dev/pulumi-cli";
import { HEARD_CANCEL, pendingOf } from "../support/interrupt";
import { interruptedSuite, resourceOf, YES } from "../support/interrupted-program";
import { readmeShellLines } from "../support/readme-program";

jest.setTimeout(900_000);

const suite = interruptedSuite("interrupted");
const pending = pendingOf;

/** A line of the README run by the shell as written, in the project folder with the stack's environment (not blocking: the sandbox answers from this process). */
function shell(line: string, stack: CliStack): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", line], { cwd: suite.projectDir(), env: stack.env(), stdio: ["ignore", "pipe", "pipe"] });
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

test("SIGINT once at the registration: the order's answer is recorded with its charge, nothing is left pending, the next up finishes the rest", async () => {
  const domain = "sigint-once.com";
  const stack = await suite.stackFor(domain);
  const run = await suite.interruptedUp(stack, "/domains/register", "SIGINT");
  expect(run.code).not.toBe(0);
  expect(run.stdout).toContain("^C received; cancelling");
  // The provider host heard the engine's Cancel (resources/host/engine-cancel.ts).
  expect(run.stdout).toContain(HEARD_CANCEL);
  expect(run.stdout).toMatch(/shop created/);
  expect(run.stdout).toContain("update canceled");
  const state = await stack.exportState();
  expect(pending(state)).toEqual([]);
  expect(resourceOf(state, "shop")).toMatchObject({ id: domain, outputs: expect.objectContaining({ charged: "12.00", currency: "USD" }) });
  // No step started after the cancel: the add-on is not bought.
  expect(resourceOf(state, "privacy")).toBeUndefined();
  expect(suite.charges(domain)).toEqual(["register"]);

  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  expect(suite.charges(domain)).toEqual(["register", "privacy"]);
  expect(pending(await stack.exportState())).toEqual([]);
});

test("SIGINT twice at the registration: the create is left pending; up takes the paid domain over by replay and records its charge, and keeps the entry", async () => {
  const domain = "sigint-twice.com";
  const stack = await suite.stackFor(domain);
  const run = await suite.interruptedUp(stack, "/domains/register", "SIGINT twice");
  expect(run.code).not.toBe(0);
  expect(run.stdout).toContain("^C received; terminating");
  expect(run.stdout).toMatch(/shop creating \(interrupted\)/);
  const state = await stack.exportState();
  expect(pending(state)).toEqual(["creating shop"]);
  expect(resourceOf(state, "shop")).toBeUndefined();
  expect(suite.charges(domain)).toEqual(["register"]);

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
  expect(resourceOf(after, "shop")).toMatchObject({ id: domain, outputs: expect.objectContaining({ charged: "12.00" }) });
  // up keeps the entry: only refresh drops it (the README's recovery, run as written in the SIGKILL test below).
  expect(pending(after)).toEqual(["creating shop"]);
  expect(suite.charges(domain)).toEqual(["register", "privacy"]);
});

test("SIGKILL at the registration: the order is charged with the CLI dead, the stack locked and the create pending; the README's recovery, run as written, records the charge, buys nothing twice and leaves nothing pending", async () => {
  const domain = "killed-register.com";
  const stack = await suite.stackFor(domain);
  const run = await suite.interruptedUp(stack, "/domains/register", "SIGKILL");
  expect(run.signal).toBe("SIGKILL");
  // The order went through after the kill; nobody recorded it.
  expect(suite.charges(domain)).toEqual(["register"]);
  const killed = await stack.exportState();
  expect(pending(killed)).toEqual(["creating shop"]);
  expect(resourceOf(killed, "shop")).toBeUndefined();
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
  expect(resourceOf(after, "shop")).toMatchObject({ id: domain, outputs: expect.objectContaining({ charged: "12.00", currency: "USD" }) });
  // One charge for the registration; the up bought the rest of the program (the add-on) once.
  expect(suite.charges(domain)).toEqual(["register", "privacy"]);
});
