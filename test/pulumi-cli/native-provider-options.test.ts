/**
 * What a user of pulumi-cloudflare expects of a provider, on the native provider through the real
 * CLI (the generated SDK, sdk/nodejs): an explicit `reseller.Provider` passes through a component's
 * `providers` option to the resources inside it, whose requests then carry that provider's
 * credential; the provider's messages are attached to the resource they concern, not to the stack;
 * and a secret rotated with `pulumi config set` is the one the next `refresh` and `destroy` use.
 */
import * as fs from "node:fs";
import { CliStack, requirePulumiCli, type CliRun } from "../../dev/pulumi-cli";
import { buildSdk, nativeProject } from "../support/native-project";
import { credentialFingerprint, startSandbox, type SandboxHandle } from "../../sandbox/index";

jest.setTimeout(900_000);

const YES = ["--yes", "--non-interactive"];
const OLD = { key: "native-old-key", secret: "native-old-secret-4c8e2a" };
const NEW = { key: "native-new-key", secret: "native-new-secret-9d1f7b" };
const EU = { key: "native-eu-key", secret: "native-eu-secret-3a6c0e" };

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as reseller from "@reseller-pulumi/native";

const cfg = new pulumi.Config();
class Site extends pulumi.ComponentResource {
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("acme:index:Site", name, {}, opts);
    new reseller.DnsRecord(name + "-txt", { zone: "demo-reseller.com", type: "TXT", name: "site", content: "via the eu provider" }, { parent: this });
  }
}
const eu = new reseller.Provider("eu", { baseUrl: cfg.require("euBaseUrl"), apiKey: cfg.require("euKey"), apiSecret: cfg.requireSecret("euSecret") });
new Site("site", { providers: [eu] });
new reseller.DnsRecord("rotated", { zone: "demo-reseller.com", type: "TXT", name: "rotated", content: "via the default provider" });
new reseller.DnsZoneRecords("records", { zone: "demo-reseller.com", records: [] });
`;

let sandbox: SandboxHandle;
let stack: CliStack;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0, requestsPerMinute: 6000, credentials: [OLD, NEW, EU] });
  buildSdk();
  dir = nativeProject("native-options", { "index.ts": PROGRAM }, { sdk: true });
  stack = await CliStack.init({ cli: requirePulumiCli(), projectDir: dir });
  await stack.configSet("reseller:baseUrl", sandbox.url);
  await stack.configSet("reseller:apiKey", OLD.key);
  await stack.configSet("reseller:apiSecret", OLD.secret, { secret: true });
  await stack.configSet("euBaseUrl", sandbox.url);
  await stack.configSet("euKey", EU.key);
  await stack.configSet("euSecret", EU.secret, { secret: true });
});
afterAll(async () => {
  await stack?.dispose();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  await sandbox?.close();
});

const ok = (r: CliRun) => ({ code: r.code, stderr: r.stderr });
/** The credentials (fingerprints) of the requests since `mark` that created or deleted the TXT record named `name`, or read it. */
const credentialsSince = (mark: number, filter: (path: string, method: string) => boolean): string[] => [
  ...new Set(
    sandbox.operator
      .requests()
      .slice(mark)
      .filter((r) => filter(r.path, r.method))
      .map((r) => r.credential ?? "none"),
  ),
];

test("an explicit provider passes through a component to the resources inside it; messages are attached to their resource", async () => {
  const mark = sandbox.operator.requests().length;
  const up = await stack.run(["up", ...YES]);
  expect(ok(up)).toEqual({ code: 0, stderr: "" });
  const state = await stack.exportState();
  const record = (state.deployment.resources ?? []).find((r) => r.urn.endsWith("::site-txt"))!;
  expect(record.urn).toContain("acme:index:Site$reseller:index:DnsRecord");
  expect((record as { provider?: string }).provider).toMatch(/::pulumi:providers:reseller::eu::/);
  // Its create carried the eu credential; the default provider's resources the stack's.
  const creates = sandbox.operator.requests().slice(mark).filter((r) => r.method === "POST" && r.path.endsWith("/records"));
  expect(creates.map((r) => r.credential).sort()).toEqual([credentialFingerprint(EU.key), credentialFingerprint(OLD.key)].sort());
  // The DnsZoneRecords' message (records it leaves alone) is shown under that resource, not under the stack.
  expect(up.stdout).toMatch(/\n {2}reseller:index:DnsZoneRecords \(records\):\n(?: {4}.*\n)*? {4}(?:info: )?reseller: records \(demo-reseller\.com\): \d+ record\(s\) in the zone are not declared/);
  expect(up.stdout).not.toMatch(/pulumi:pulumi:Stack \([^)]*\):\n(?: {4}.*\n)*? {4}(?:info: )?reseller: /);
});

test("a secret rotated with pulumi config set is the one the next refresh and destroy use (the default provider reads the stack's config as it is)", async () => {
  await stack.configSet("reseller:apiKey", NEW.key);
  await stack.configSet("reseller:apiSecret", NEW.secret, { secret: true });
  let mark = sandbox.operator.requests().length;
  const refresh = await stack.run(["refresh", "--expect-no-changes", ...YES]);
  expect(ok(refresh)).toEqual({ code: 0, stderr: "" });
  // The default provider's reads (all but the eu provider's) used the new credential.
  expect(credentialsSince(mark, () => true).filter((c) => c !== credentialFingerprint(EU.key))).toEqual([credentialFingerprint(NEW.key)]);
  mark = sandbox.operator.requests().length;
  const destroy = await stack.run(["destroy", ...YES]);
  expect(ok(destroy)).toEqual({ code: 0, stderr: "" });
  const deletes = sandbox.operator.requests().slice(mark).filter((r) => r.method === "DELETE");
  expect(deletes.map((r) => r.credential).sort()).toEqual([credentialFingerprint(EU.key), credentialFingerprint(NEW.key)].sort());
});
