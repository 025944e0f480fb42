/**
 * The native provider plugin (resources/provider/) through the real Pulumi CLI against the sandbox.
 * The project finds `pulumi-resource-reseller` through `plugins.providers` in Pulumi.yaml.
 * - Import by id of one object of every kind: the import line docs/native-provider.md shows (a
 *   DnsRecord) as written, then the other eight kinds in one `pulumi import --file`; each shown as one
 *   import, only the ZoneTemplate warned about; nothing is written to the service and nothing charged;
 *   the next `refresh --expect-no-changes` is quiet (each kind's Read gives back what its import
 *   read); `stack export` holds no provider code and the API secret only encrypted.
 * - The README's "manage the DNS of a domain you already have" on the SDK Pulumi's code generator
 *   made (sdk/nodejs): up (nothing bought), a refresh --expect-no-changes of records a program made,
 *   destroy deletes the records and keeps the zone.
 * Proven elsewhere, so not run here again:
 * - the same program's preview (writes nothing) and `up --expect-no-changes`: yaml-program.test.ts,
 *   the same README section in YAML, on the same plugin;
 * - the README's native register program on the SDK (preview charges nothing, up charges once, its
 *   outputs, up and refresh unchanged, no contact detail or provider code in state, destroy keeps
 *   the domain): native-plugin-tarball.test.ts, on the plugin a user installs from its tarball.
 */
import * as fs from "node:fs";
import * as path from "node:path";
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

const IMPORT_WARNING = "warning: One or more imported inputs failed to validate";
/**
 * The kinds whose import was warned about: in the output's Diagnostics section, the block
 * (`  <type> (<name>):`, its lines indented below) holding the warning; outside any block, "?".
 */
function warnedAbout(stdout: string): string[] {
  const kinds: string[] = [];
  let block: string | undefined;
  const from = stdout.indexOf("\nDiagnostics:\n");
  expect(from < 0 ? stdout.includes(IMPORT_WARNING) : false).toBe(false); // every warning is in that section
  for (const line of stdout.slice(Math.max(from, 0)).split("\n")) {
    const header = /^ {2}(\S+) \(.*\):$/.exec(line);
    if (header) block = header[1].split(":").pop();
    else if (!line.startsWith("    ")) block = undefined;
    if (line.includes(IMPORT_WARNING)) kinds.push(block ?? "?");
  }
  return kinds;
}

test("import by id of one object of every kind: the docs' line, then the rest in one import --file; one import each, no write, no charge, then refresh --expect-no-changes is quiet", async () => {
  const stack = await nativeStack("native-import", "// resources come by import\n");
  const record = (await client.listRecords("demo-reseller.com", { type: "A" }))[0];
  const template = (await client.listTemplates())[0];
  const host = (await client.listHosts("demo-reseller.com"))[0];
  const imports: [string, string, string][] = [
    ["Domain", "domain", "demo-reseller.com"],
    ["DnsZone", "zone", "demo-reseller.com"],
    ["ChildHost", "host", `demo-reseller.com/${host.hostname}`],
    ["PrivacyAddon", "privacy", "demo-reseller.com"],
    ["Protection", "protection", "protected-brand.com"],
    ["EppCode", "epp", "demo-reseller.com"],
    ["DnsZoneRecords", "records", "demo-reseller.com"],
    ["ZoneTemplate", "template", `demo-reseller.com/${template.id}`],
  ];
  const mark = sandbox.operator.requests().length;
  const charges = sandbox.operator.ledger().length;

  // docs/native-provider.md's line, its placeholders filled.
  const line = /^pulumi (import reseller:index:DnsRecord www example\.com\/<record id> --generate-code=false)$/m.exec(fs.readFileSync(`${checkoutRoot}/docs/native-provider.md`, "utf8"));
  expect(line).not.toBeNull();
  const one = await stack.run([...line![1].replace("example.com/<record id>", `demo-reseller.com/${record.id}`).split(" "), "--protect=false", ...YES]);
  expect(ok(one)).toEqual({ code: 0, stderr: "" });
  expect(one.stdout).toContain("= 1 imported");
  expect(one.stdout).not.toMatch(/^ \+  reseller:index:/m);
  expect(warnedAbout(one.stdout)).toEqual([]);

  const file = path.join(stack.opts.projectDir, "imports.json");
  fs.writeFileSync(file, JSON.stringify({ resources: imports.map(([kind, name, id]) => ({ type: `reseller:index:${kind}`, name, id })) }));
  const rest = await stack.run(["import", "--file", file, "--generate-code=false", "--protect=false", ...YES]);
  expect(ok(rest)).toEqual({ code: 0, stderr: "" });
  // One import each (the state below holds each kind once), none created.
  expect(rest.stdout).toContain(`= ${imports.length} imported`);
  expect(rest.stdout).not.toMatch(/^ \+  reseller:index:/m);
  // Only a template application whose variables the service cannot give back is warned about (its variables are for the program to declare).
  expect(warnedAbout(rest.stdout).filter((k) => k !== "ZoneTemplate")).toEqual([]);
  expect(writes(mark)).toEqual([]);
  expect(sandbox.operator.ledger()).toHaveLength(charges);

  const refresh = await stack.run(["refresh", "--expect-no-changes", "--diff", ...YES]);
  if (refresh.code !== 0) console.log(refresh.stdout);
  expect(ok(refresh)).toEqual({ code: 0, stderr: "" });
  expect(writes(mark)).toEqual([]);

  const state = await stack.exportState();
  const text = JSON.stringify(state);
  const ours = (state.deployment.resources ?? []).filter((r) => r.type.startsWith("reseller:index:"));
  expect(ours.map((r) => r.type.split(":").pop()).sort()).toEqual([...imports.map(([k]) => k), "DnsRecord"].sort());
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

  test("manage the DNS of a domain you already have: nothing bought, refresh unchanged, destroy deletes the records and keeps the zone", async () => {
    const stack = await readmeStack("Native: manage the DNS of a domain you already have", "demo-reseller.com");
    const charges = sandbox.operator.ledger().length;
    expect(ok(await stack.run(["up", ...YES]))).toEqual({ code: 0, stderr: "" });
    const outputs = JSON.parse((await stack.must(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(outputs).toMatchObject({ appFqdn: "app.demo-reseller.com" });
    // What a program created reads back as it was made (the import test's refresh reads back what an import took).
    expect(ok(await stack.run(["refresh", "--expect-no-changes", ...YES]))).toEqual({ code: 0, stderr: "" });
    expect(ok(await stack.run(["destroy", ...YES]))).toEqual({ code: 0, stderr: "" });
    const names = (await client.listRecords("demo-reseller.com")).map((r) => r.name);
    expect(names).not.toContain("app");
    expect((await client.listZones()).map((z) => z.domain)).toContain("demo-reseller.com");
    expect(sandbox.operator.ledger()).toHaveLength(charges);
  });
});
