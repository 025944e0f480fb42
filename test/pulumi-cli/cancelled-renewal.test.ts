/**
 * SIGINT once (a CI job's cancel) while a renewal is in flight, through the real Pulumi CLI against
 * the sandbox, which holds the renewal until the CLI has been told to cancel: the engine's Cancel
 * reaches the provider host, the renewal's answer comes back and is charged, and the reads after it
 * are refused. The renewal and its charge are in the state (`pulumi stack export`: the new expiry,
 * the charge, the invoice), the CLI's output says what was charged and never that nothing was, and
 * the next up renews nothing and buys nothing.
 */
import * as fs from "node:fs";
import { CliStack, makeProject, requirePulumiCli } from "../../dev/pulumi-cli";
import { ResellerClient } from "../../api/client";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";

jest.setTimeout(900_000);

const YES = ["--yes", "--non-interactive"];
const DOMAIN = "cancelled-renewal-cli.com";
const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const reseller = require("reseller-pulumi");
const cfg = new pulumi.Config();
new reseller.Domain("shop", {
  domain: ${JSON.stringify(DOMAIN)},
  contacts: { registrant: cfg.requireSecretObject("registrant") },
  nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"],
  maxPrice: "25.00",
  renewal: { minDaysRemaining: cfg.getNumber("renewDays") ?? 30, years: 1 },
});
`;
const REGISTRANT = { name: "Pat Packer", email: "pat@example.org", phone: "+441234567890", addressLine1: "1 High Street", city: "Leeds", state: "West Yorkshire", postalCode: "LS1 1AA", country: "GB" };

let sandbox: SandboxHandle;
let projectDir: string;
let stack: CliStack;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0 });
  projectDir = makeProject("cancelled-renewal", { "index.js": PROGRAM });
  stack = await CliStack.init({ cli: requirePulumiCli(), projectDir });
  await stack.configSet("reseller:baseUrl", sandbox.url);
  await stack.configSet("reseller:apiKey", sandbox.credentials.key);
  await stack.configSet("reseller:apiSecret", sandbox.credentials.secret, { secret: true });
  await stack.configSet("registrant", JSON.stringify(REGISTRANT), { secret: true });
});
afterAll(async () => {
  await stack?.dispose();
  if (projectDir) fs.rmSync(projectDir, { recursive: true, force: true });
  await sandbox?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, ok: () => boolean): Promise<void> {
  const start = Date.now();
  while (!ok()) {
    if (Date.now() - start > 300_000) throw new Error(`waited 300 s for ${what}`);
    await sleep(100);
  }
}
const ledger = () => sandbox.operator.ledger().filter((e) => e.domain === DOMAIN);
const shop = async () => (await stack.exportState()).deployment.resources!.find((r) => r.urn.endsWith("::shop"))!;

test("SIGINT once while the renewal is in flight: the renewal, its new expiry and its charge are in state, the output says what was charged; the next up renews nothing", async () => {
  expect((await stack.run(["up", ...YES])).code).toBe(0);
  const before = (await shop()).outputs!;
  // A renewal due now: a one-year term has fewer than 400 days left.
  await stack.configSet("renewDays", "400");
  sandbox.operator.injectFault({ kind: "delay", ms: 6000, count: 1, match: { method: "POST", path: `/domains/${DOMAIN}/renew` } });
  const { child, done } = stack.start(["up", ...YES]);
  let out = "";
  child.stdout!.on("data", (d: Buffer | string) => (out += String(d)));
  await until("the renewal to arrive", () => sandbox.operator.faults().length === 0);
  child.kill("SIGINT");
  const run = await done;
  await until("the renewal's answer", () => ledger().some((e) => e.action === "renew"));
  const printed = `${run.stdout}\n${run.stderr}`;
  expect(run.code).not.toBe(0);
  expect(printed).toContain("^C received; cancelling");

  const [renewal] = ledger().filter((e) => e.action === "renew");
  const client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, rateLimitLogDir: null });
  const live = await client.getDomain(DOMAIN);
  await client.close();
  const state = await shop();
  expect(live.expiry_date).not.toBe(before.expiryDate);
  expect(state.outputs).toMatchObject({ charged: renewal.amount, currency: "USD", invoice: renewal.invoice, expiryDate: live.expiry_date });
  expect(printed).toMatch(new RegExp(`${DOMAIN}: the renewal from ${before.expiryDate} to \\d{4}-\\d{2}-\\d{2} charged ${renewal.amount.replace(".", "\\.")} USD \\(invoice ${renewal.invoice}\\); the charge is recorded in state`));
  expect(printed).not.toMatch(/changed or charged nothing/);

  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  expect(ledger().map((e) => e.action)).toEqual(["register", "renew"]);
  expect((await stack.run(["preview", "--expect-no-changes", "--non-interactive"])).code).toBe(0);
});
