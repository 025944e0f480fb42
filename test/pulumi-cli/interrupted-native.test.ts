/**
 * An interrupted `pulumi up` on the native provider plugin, through the real CLI: SIGINT once,
 * SIGINT twice and SIGKILL of the CLI and everything below it, each while the sandbox holds the
 * domain's registration in flight. However it was interrupted, the next `up` (after `pulumi cancel`
 * where the killed CLI left its lock, and `refresh --clear-pending-creates` where it left the create
 * pending) ends with the domain in state
 * and one charge in the service's ledger: never two. After the hardest of the three (SIGKILL) one more
 * `up --expect-no-changes` shows the recovered stack settled; after the other two the recovering up's
 * own state (the domain, its id, one charge) says it, and each kind's settled diff is proven by the
 * native program runs (native-plugin-tarball.test.ts, native-provider.test.ts).
 */
import * as fs from "node:fs";
import { CliStack, requirePulumiCli } from "../../dev/pulumi-cli";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { chargesOf, interrupted, pendingOf, type How } from "../support/interrupt";
import { nativeProject } from "../support/native-project";

jest.setTimeout(900_000);

const YES = ["--yes", "--non-interactive"];
const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const cfg = new pulumi.Config();
const domain = new pulumi.CustomResource("reseller:index:Domain", "shop", {
  domain: cfg.require("domain"),
  contacts: { registrant: cfg.requireSecretObject("registrant") },
  nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"],
  maxPrice: "25.00",
  charged: undefined,
});
exports.charged = domain.charged;
`;
const REGISTRANT = { name: "Pat Packer", email: "pat@example.org", phone: "+441234567890", addressLine1: "1 High Street", city: "Leeds", postalCode: "LS1 1AA", country: "GB" };

let sandbox: SandboxHandle;
let projectDir: string;
const stacks: CliStack[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0 });
  projectDir = nativeProject("interrupted-native", { "index.js": PROGRAM });
});
afterAll(async () => {
  for (const s of stacks) await s.dispose();
  if (projectDir) fs.rmSync(projectDir, { recursive: true, force: true });
  await sandbox?.close();
});

const charges = (domain: string): string[] => chargesOf(sandbox, domain);
const pending = pendingOf;

test.each<[How, string]>([
  ["SIGINT", "native-sigint.com"],
  ["SIGINT twice", "native-sigint-twice.com"],
  ["SIGKILL", "native-sigkill.com"],
])("%s during the registration: the next up recovers with one charge", async (how, domain) => {
  const stack = await CliStack.init({ cli: requirePulumiCli(), projectDir, stack: domain.split(".")[0] });
  stacks.push(stack);
  await stack.configSet("domain", domain);
  await stack.configSet("reseller:baseUrl", sandbox.url);
  await stack.configSet("reseller:apiKey", sandbox.credentials.key);
  await stack.configSet("reseller:apiSecret", sandbox.credentials.secret, { secret: true });
  await stack.configSet("registrant", JSON.stringify(REGISTRANT), { secret: true });

  const run = await interrupted(sandbox, stack, "/domains/register", how, ["up", ...YES]);
  expect(run.code).not.toBe(0);
  expect(charges(domain)).toEqual(["register"]);
  // A killed CLI leaves the stack locked: `pulumi cancel` (docs/interrupted-runs.md), as on the dynamic resources.
  if (how === "SIGKILL") expect((await stack.run(["cancel", ...YES])).code).toBe(0);
  if (pending(await stack.exportState()).length) {
    const clear = await stack.run(["refresh", "--clear-pending-creates", ...YES]);
    expect(clear.code).toBe(0);
  }
  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  const state = await stack.exportState();
  const shop = (state.deployment.resources ?? []).find((r) => r.urn.endsWith("::shop"));
  expect(shop).toMatchObject({ id: domain, type: "reseller:index:Domain" });
  expect(charges(domain)).toEqual(["register"]);
  if (how === "SIGKILL") {
    expect((await stack.run(["up", "--expect-no-changes", ...YES])).code).toBe(0);
    expect(charges(domain)).toEqual(["register"]);
  }
});
