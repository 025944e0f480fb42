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

/** The README's "Register a domain and host its DNS" program on the native provider, by type token (no SDK). */
const REGISTER_PROGRAM = `const pulumi = require("@pulumi/pulumi");
const cfg = new pulumi.Config();
const name = cfg.require("domain");
const res = (kind, n, args, opts) => new pulumi.CustomResource("reseller:index:" + kind, n, args, opts);
const domain = res("Domain", "shop", {
  domain: name,
  contacts: { registrant: cfg.requireSecretObject("registrant") },
  nameservers: cfg.requireObject("nameservers"),
  maxPrice: "25.00",
  renewal: { minDaysRemaining: 30, years: 1 },
  stage: undefined,
}, { retainOnDelete: true });
const zone = res("DnsZone", "shop-zone", { domain: domain.domain, waitForDelegation: true, nameservers: undefined });
const www = res("DnsRecord", "www", { zone: zone.domain, type: "CNAME", name: "www", content: name + ".", fqdn: undefined });
exports.stage = domain.stage;
exports.nameservers = zone.nameservers;
exports.wwwFqdn = www.fqdn;
exports.balance = pulumi.runtime.invokeOutput("reseller:index:getBalance", {}).apply((r) => r.balance);
exports.renewPrice = domain.domain.apply((d) => pulumi.runtime.invoke("reseller:index:getPricing", { action: "renew", domain: d })).apply((r) => r.amount);
`;

test("a TypeScript program on the native provider: preview charges nothing, up charges once, up and refresh are unchanged, destroy deletes the record and zone and keeps the domain", async () => {
  const stack = await nativeStack("native-program", REGISTER_PROGRAM);
  await stack.configSet("domain", "native-shop.com");
  await stack.configSet("nameservers", JSON.stringify(["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"]));
  const registrant = { name: "Nat Ive", email: "nat@native-shop.example", phone: "+441234567890", addressLine1: "1 Example Street", city: "London", postalCode: "EC1A 1AA", country: "GB" };
  await stack.configSet("registrant", JSON.stringify(registrant), { secret: true });
  const charges = sandbox.operator.ledger().length;

  const preview = await stack.run(["preview", "--non-interactive"]);
  expect(ok(preview)).toEqual({ code: 0, stderr: "" });
  expect(preview.stdout).toMatch(/\+ 4 to create/);
  expect(sandbox.operator.ledger()).toHaveLength(charges);

  const up = await stack.run(["up", ...YES]);
  expect(ok(up)).toEqual({ code: 0, stderr: "" });
  expect(sandbox.operator.ledger().slice(charges).map((e) => `${e.action} ${e.domain}`)).toEqual(["register native-shop.com"]);
  const outputs = JSON.parse((await stack.must(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
  expect(outputs).toMatchObject({ stage: "active", wwwFqdn: "www.native-shop.com", nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"] });
  expect(typeof outputs.balance).toBe("string");
  expect(typeof outputs.renewPrice).toBe("string");

  const again = await stack.run(["up", "--expect-no-changes", ...YES]);
  expect(ok(again)).toEqual({ code: 0, stderr: "" });
  const refresh = await stack.run(["refresh", "--expect-no-changes", ...YES]);
  expect(ok(refresh)).toEqual({ code: 0, stderr: "" });
  const state = JSON.stringify(await stack.exportState());
  expect(state).not.toContain(registrant.email);
  expect(state).not.toContain(SECRET);

  const destroy = await stack.run(["destroy", ...YES]);
  expect(ok(destroy)).toEqual({ code: 0, stderr: "" });
  expect((await client.listZones()).map((z) => z.domain)).not.toContain("native-shop.com");
  expect((await client.listDomains()).map((d) => d.domain)).toContain("native-shop.com");
  expect(sandbox.operator.ledger()).toHaveLength(charges + 1);
});
