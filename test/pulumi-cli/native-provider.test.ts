/**
 * The native provider plugin (resources/provider/) through the real Pulumi CLI against the sandbox.
 * The project finds `pulumi-resource-reseller` through `plugins.providers` in Pulumi.yaml.
 * `pulumi import reseller:index:<Kind> <name> <id>` takes one object of every kind, each shown as one
 * import; nothing is written to the service and nothing charged; the next `refresh
 * --expect-no-changes` is quiet; `stack export` holds no provider code and the API secret only
 * encrypted. Then the README's two native programs, on the SDK Pulumi's code generator made from
 * schema.json: preview, up (one charge for the domain bought), up and refresh unchanged, destroy.
 */
import * as fs from "node:fs";
import { spawnSync } from "node:child_process";
import { CliStack, checkoutRoot, requirePulumiCli, type CliRun } from "../../dev/pulumi-cli";
import { buildSdk, nativeProject } from "../support/native-project";
import { configInput, fillPlaceholders, readmeProgram } from "../support/readme-program";
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

/**
 * A stack of a project on the native plugin (../support/native-project.ts); with `sdk`, `program` is
 * index.ts on the generated SDK.
 */
async function nativeStack(name: string, program: string, opts: { sdk?: boolean } = {}): Promise<CliStack> {
  const dir = nativeProject(name, { [opts.sdk ? "index.ts" : "index.js"]: program }, opts);
  made.push(dir);
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

describe("the README's native programs on the SDK Pulumi's code generator made (sdk/nodejs)", () => {
  beforeAll(() => {
    // Its dependencies linked from the checkout's node_modules, then compiled (npm run sdk -- --build).
    buildSdk();
  });

  /** The README section's program on the SDK, its config set by the section's lines as the shell runs them. */
  async function readmeStack(heading: string, domain: string): Promise<CliStack> {
    const { program, configLines } = readmeProgram(checkoutRoot, heading, 3, "docs/native-provider.md");
    expect(program).toContain('from "@reseller-pulumi/native"');
    const stack = await nativeStack("native-readme", program, { sdk: true });
    const withSandbox = { url: sandbox.url, credentials: { key: "native-key", secret: SECRET } };
    for (const line of configLines) {
      const r = spawnSync("sh", ["-c", fillPlaceholders(line, withSandbox, domain)], { input: configInput(line, withSandbox), cwd: stack.opts.projectDir, env: stack.env(), encoding: "utf8" });
      expect({ line, code: r.status, stderr: r.stderr }).toEqual({ line, code: 0, stderr: "" });
    }
    return stack;
  }

  test("register a domain and host its DNS: preview charges nothing, up charges once, up and refresh unchanged, destroy keeps the domain", async () => {
    const stack = await readmeStack("Native: register a domain and host its DNS", "packed-shop.com");
    const charges = sandbox.operator.ledger().length;
    const preview = await stack.run(["preview", "--non-interactive"]);
    expect(ok(preview)).toEqual({ code: 0, stderr: "" });
    expect(preview.stdout).toMatch(/\+ 4 to create/);
    expect(sandbox.operator.ledger()).toHaveLength(charges);
    const up = await stack.run(["up", ...YES]);
    expect(ok(up)).toEqual({ code: 0, stderr: "" });
    expect(sandbox.operator.ledger().slice(charges).map((e) => `${e.action} ${e.domain}`)).toEqual(["register packed-shop.com"]);
    const outputs = JSON.parse((await stack.must(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(outputs).toMatchObject({ stage: "active", wwwFqdn: "www.packed-shop.com" });
    expect(typeof outputs.renewPrice).toBe("string");
    expect(typeof outputs.balance).toBe("string");
    expect(ok(await stack.run(["up", "--expect-no-changes", ...YES]))).toEqual({ code: 0, stderr: "" });
    expect(ok(await stack.run(["refresh", "--expect-no-changes", ...YES]))).toEqual({ code: 0, stderr: "" });
    const state = JSON.stringify(await stack.exportState());
    expect(state).not.toContain("pat@packed-shop.example");
    expect(state).not.toContain("__provider");
    expect(ok(await stack.run(["destroy", ...YES]))).toEqual({ code: 0, stderr: "" });
    expect((await client.listDomains()).map((d) => d.domain)).toContain("packed-shop.com");
    expect(sandbox.operator.ledger()).toHaveLength(charges + 1);
  });

  test("manage the DNS of a domain you already have: nothing bought, up and refresh unchanged, destroy deletes the records and keeps the zone", async () => {
    const stack = await readmeStack("Native: manage the DNS of a domain you already have", "demo-reseller.com");
    const charges = sandbox.operator.ledger().length;
    expect(ok(await stack.run(["preview", "--non-interactive"]))).toEqual({ code: 0, stderr: "" });
    expect(ok(await stack.run(["up", ...YES]))).toEqual({ code: 0, stderr: "" });
    const outputs = JSON.parse((await stack.must(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(outputs).toMatchObject({ appFqdn: "app.demo-reseller.com" });
    expect(ok(await stack.run(["up", "--expect-no-changes", ...YES]))).toEqual({ code: 0, stderr: "" });
    expect(ok(await stack.run(["refresh", "--expect-no-changes", ...YES]))).toEqual({ code: 0, stderr: "" });
    expect(ok(await stack.run(["destroy", ...YES]))).toEqual({ code: 0, stderr: "" });
    const names = (await client.listRecords("demo-reseller.com")).map((r) => r.name);
    expect(names).not.toContain("app");
    expect((await client.listZones()).map((z) => z.domain)).toContain("demo-reseller.com");
    expect(sandbox.operator.ledger()).toHaveLength(charges);
  });
});
