/**
 * The native provider plugin (resources/provider/) through the real Pulumi CLI against the sandbox.
 * The project finds `pulumi-resource-reseller` through `plugins.providers` in Pulumi.yaml.
 * `pulumi import reseller:index:<Kind> <name> <id>` takes one object of every kind, each shown as one
 * import; nothing is written to the service and nothing charged; the next `refresh
 * --expect-no-changes` is quiet; `stack export` holds no provider code and the API secret only
 * encrypted. Then a program declares resources on the native provider (no SDK: the type tokens
 * themselves), previews, ups (one domain charge), ups and refreshes unchanged, and destroys.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CliStack, checkoutRoot, makeProject, requirePulumiCli, type CliRun } from "../../dev/pulumi-cli";
import { ResellerClient } from "../../api/client";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { writesSince } from "../support/request-log";

jest.setTimeout(900_000);

const YES = ["--yes", "--non-interactive"];
const SECRET = "native-secret-5e1c9a7b3d";

let sandbox: SandboxHandle;
let client: ResellerClient;
const made: string[] = [];
const stacks: CliStack[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0, requestsPerMinute: 6000, credentials: [{ key: "native-key", secret: SECRET }] });
  client = new ResellerClient({ baseUrl: sandbox.url, apiKey: "native-key", apiSecret: SECRET, requestsPerMinute: 6000 });
});
afterAll(async () => {
  for (const s of stacks) await s.dispose();
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
  await sandbox?.close();
});

/** A project on the native plugin (this checkout's plugin/ folder). */
async function nativeStack(name: string, program: string): Promise<CliStack> {
  const dir = makeProject(name, { "index.js": program });
  made.push(dir);
  fs.appendFileSync(path.join(dir, "Pulumi.yaml"), `plugins:\n  providers:\n    - name: reseller\n      path: ${path.join(checkoutRoot, "plugin")}\n`);
  const stack = await CliStack.init({ cli: requirePulumiCli(), projectDir: dir });
  stacks.push(stack);
  await stack.configSet("reseller:baseUrl", sandbox.url);
  await stack.configSet("reseller:apiKey", "native-key");
  await stack.configSet("reseller:apiSecret", SECRET, { secret: true });
  await stack.configSet("reseller:requestsPerMinute", "6000");
  return stack;
}

/** Requests since `mark` that are not reads. */
const writes = (mark: number): string[] => writesSince(sandbox, mark);

const ok = (r: CliRun) => ({ code: r.code, stderr: r.stderr });

test("pulumi import reseller:index:<Kind> <name> <id> takes one object of every kind: one import each, no write, no charge, then refresh --expect-no-changes is quiet", async () => {
  const stack = await nativeStack("native-import", "// resources come by import\n");
  const record = (await client.listRecords("demo-reseller.com", { type: "A" }))[0];
  const template = (await client.listTemplates())[0];
  const host = (await client.listHosts("demo-reseller.com"))[0];
  const imports: [string, string, string][] = [
    ["Domain", "domain", "demo-reseller.com"],
    ["DnsZone", "zone", "demo-reseller.com"],
    ["DnsRecord", "record", `demo-reseller.com/${record.id}`],
    ["ChildHost", "host", `demo-reseller.com/${host.hostname}`],
    ["PrivacyAddon", "privacy", "demo-reseller.com"],
    ["Protection", "protection", "protected-brand.com"],
    ["EppCode", "epp", "demo-reseller.com"],
    ["DnsZoneRecords", "records", "demo-reseller.com"],
    ["ZoneTemplate", "template", `demo-reseller.com/${template.id}`],
  ];
  const mark = sandbox.operator.requests().length;
  const charges = sandbox.operator.ledger().length;
  const warned: string[] = [];
  for (const [kind, name, id] of imports) {
    const r = await stack.run(["import", `reseller:index:${kind}`, name, id, "--generate-code=false", "--protect=false", ...YES]);
    expect({ kind, ...ok(r) }).toEqual({ kind, code: 0, stderr: "" });
    expect({ kind, imported: r.stdout.includes("= 1 imported") }).toEqual({ kind, imported: true });
    expect(r.stdout).not.toMatch(new RegExp(`^ \\+  reseller:index:${kind}`, "m"));
    if (/warning: One or more imported inputs failed to validate/.test(r.stdout)) warned.push(kind);
  }
  // Only a template application whose variables the service cannot give back may be warned about (its variables are for the program to declare).
  expect(warned.filter((k) => k !== "ZoneTemplate")).toEqual([]);
  expect(writes(mark)).toEqual([]);
  expect(sandbox.operator.ledger()).toHaveLength(charges);

  const refresh = await stack.run(["refresh", "--expect-no-changes", "--diff", ...YES]);
  if (refresh.code !== 0) console.log(refresh.stdout);
  expect(ok(refresh)).toEqual({ code: 0, stderr: "" });
  expect(writes(mark)).toEqual([]);

  const state = await stack.exportState();
  const text = JSON.stringify(state);
  const ours = (state.deployment.resources ?? []).filter((r) => r.type.startsWith("reseller:index:"));
  expect(ours.map((r) => r.type.split(":").pop()).sort()).toEqual(imports.map(([k]) => k).sort());
  expect(text).not.toContain("__provider");
  expect(text).not.toContain(SECRET);
  expect(text).toContain("ciphertext"); // positive control: the secret is there, encrypted
});
