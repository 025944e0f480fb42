/**
 * The program, sandbox and stacks of the interrupted-`up` suites through the real Pulumi CLI
 * (test/pulumi-cli/interrupted.test.ts: the registration; interrupted-later.test.ts: the add-on, the
 * record and the renewals; interrupted-deletes.test.ts: the deletes). One program, three files, so two
 * jest workers share the cases: each costs several CLI commands. Each file gets a sandbox and a
 * project folder of its own (the hold fault matches a request by its path alone, so two files must
 * never share a sandbox).
 */
import * as fs from "node:fs";
import { CliStack, makeProject, requirePulumiCli, type CliRun, type StackExport } from "../../dev/pulumi-cli";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { chargesOf, interrupted, type How } from "./interrupt";

export const YES = ["--yes", "--non-interactive"];
/** An up that sets the scene before the interrupted command (its preview is not what is tested). */
export const SETUP_UP = ["up", "--skip-preview", ...YES];

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
/**
 * The rate limit of the sandbox and of the stacks' clients: far above what the files send, so no
 * command waits for the pace (at the service's 60 a minute, the registration's file waited for it).
 * Pacing is proven where it is the point: test/api/rate-limiter*.test.ts, and through the CLI
 * test/dev/bench/shared-credential-cli.test.ts.
 */
const UNPACED = 100_000;
const REGISTRANT = { name: "Pat Packer", email: "pat@example.org", phone: "+441234567890", addressLine1: "1 High Street", city: "Leeds", state: "West Yorkshire", postalCode: "LS1 1AA", country: "GB" };

export interface InterruptedSuite {
  sandbox(): SandboxHandle;
  projectDir(): string;
  /** A stack of the program for `domain`, configured against the sandbox (one `config set-all`, the API secret and the registrant as secrets). */
  stackFor(domain: string): Promise<CliStack>;
  /** `pulumi up` (or `command`) interrupted `how` while the sandbox holds the request (./interrupt.ts). */
  interruptedUp(stack: CliStack, path: string, how: How, command?: string[], method?: string): Promise<CliRun>;
  /** What the sandbox's ledger charged for `domain`, as its actions in order. */
  charges(domain: string): string[];
}

/** Registers the file's beforeAll/afterAll: a sandbox, the program's project folder, and the stacks made, removed at the end. */
export function interruptedSuite(name: string): InterruptedSuite {
  let sandbox: SandboxHandle;
  let projectDir: string;
  const stacks: CliStack[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0, requestsPerMinute: UNPACED });
    projectDir = makeProject(name, { "index.js": PROGRAM });
  });
  afterAll(async () => {
    for (const s of stacks) await s.dispose();
    if (projectDir) fs.rmSync(projectDir, { recursive: true, force: true });
    await sandbox?.close();
  });
  return {
    sandbox: () => sandbox,
    projectDir: () => projectDir,
    async stackFor(domain) {
      const stack = await CliStack.init({ cli: requirePulumiCli(), projectDir, stack: domain.split(".")[0] });
      stacks.push(stack);
      const plain = { domain, "reseller:baseUrl": sandbox.url, "reseller:apiKey": sandbox.credentials.key, "reseller:requestsPerMinute": String(UNPACED) };
      const secret = { "reseller:apiSecret": sandbox.credentials.secret, registrant: JSON.stringify(REGISTRANT) };
      await stack.must([
        "config",
        "set-all",
        ...Object.entries(plain).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
        ...Object.entries(secret).flatMap(([k, v]) => ["--secret", `${k}=${v}`]),
      ]);
      return stack;
    },
    interruptedUp: (stack, path, how, command = ["up", ...YES], method = "POST") => interrupted(sandbox, stack, path, how, command, method),
    charges: (domain) => chargesOf(sandbox, domain),
  };
}

/** A resource of the exported state by its name. */
export const resourceOf = (s: StackExport, name: string) => (s.deployment.resources ?? []).find((r) => r.urn.endsWith(`::${name}`));
