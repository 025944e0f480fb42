/**
 * YAML programs on the native provider through the real Pulumi CLI and Pulumi's YAML language host
 * (pulumi-language-yaml, built beside the CLI by `npm run pulumi-cli` at the version pinned in
 * dev/pulumi-cli/yaml-host/go.mod), against the sandbox. The provider is this checkout's plugin
 * (plugins.providers); the YAML host reads the resource and function types from its schema.
 * - The README's "Manage the DNS of a domain you already have" in YAML: a zone the account holds
 *   (adopted), records of four types (A, CNAME, MX, TXT) and `fn::invoke` of the getZone lookup of
 *   that zone: preview writes nothing, up creates the records and the lookup reads the zone, up is
 *   unchanged, destroy deletes the records and keeps the zone.
 * - A mistake of the catalogue (test/audit/preview-catalogue.ts), written in YAML, fails at preview
 *   with the catalogue's message and writes nothing.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CliStack, checkoutRoot, requirePulumiCli, type CliRun } from "../../dev/pulumi-cli";
import { ResellerClient } from "../../api/client";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { MISTAKES, mistakeConfig, type Mistake } from "../audit/preview-catalogue";
import { writesSince } from "../support/request-log";

jest.setTimeout(900_000);

let sandbox: SandboxHandle;
let client: ResellerClient;
const made: string[] = [];
const stacks: CliStack[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0, requestsPerMinute: 100_000 });
  client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 100_000 });
});
afterAll(async () => {
  for (const s of stacks) await s.dispose();
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
  await sandbox?.close();
});

/** A YAML project (Pulumi.yaml: `project`, on this checkout's plugin) and a stack with `config`, by default the sandbox's settings. */
async function yamlStack(project: string, config: Record<string, string> = mistakeConfig(sandbox, {})): Promise<CliStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `reseller-yaml-`));
  made.push(dir);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `${project}plugins:\n  providers:\n    - name: reseller\n      path: ${path.join(checkoutRoot, "plugin")}\n`);
  const stack = await CliStack.init({ cli: requirePulumiCli(undefined, { yamlHost: true }), projectDir: dir });
  stacks.push(stack);
  for (const [key, value] of Object.entries(config)) await stack.configSet(key, value, { secret: key === "reseller:apiSecret" });
  return stack;
}

const YES = ["--yes", "--non-interactive"];
const ok = (r: CliRun) => ({ code: r.code, stderr: r.stderr, ...(r.code === 0 ? {} : { stdout: r.stdout }) });

/** examples/yaml: the README's "Manage the DNS of a domain you already have" in YAML, four record types. */
const ZONE = "demo-reseller.com";
const ZONE_PROGRAM = fs.readFileSync(path.join(checkoutRoot, "examples", "yaml", "Pulumi.yaml"), "utf8");

test("a YAML program with a zone, records of four types and fn::invoke of getZone: preview writes nothing, up creates, up is unchanged, destroy deletes the records", async () => {
  const stack = await yamlStack(ZONE_PROGRAM, { ...mistakeConfig(sandbox, {}), domain: ZONE });
  const mark = sandbox.operator.requests().length;

  const preview = await stack.run(["preview", "--non-interactive"]);
  expect(ok(preview)).toEqual({ code: 0, stderr: "" });
  expect(preview.stdout).toMatch(/\+ 6 to create/); // the stack, the zone, four records
  expect(writesSince(sandbox, mark)).toEqual([]);

  const seeded = await client.getZone(ZONE);
  const up = await stack.run(["up", ...YES]);
  expect(ok(up)).toEqual({ code: 0, stderr: "" });
  const live = await client.getZone(ZONE);
  const added = (records: typeof live.records) => records.filter((r) => !seeded.records.some((o) => o.id === r.id));
  expect(added(live.records).map((r) => `${r.type} ${r.name} ${r.content}`).sort()).toEqual([
    `A app 192.0.2.10`,
    `CNAME docs app.${ZONE}`, // the service keeps names without the final dot
    `MX mail mx1.${ZONE}`,
    `TXT verify site-verification=5e1c9a`,
  ]);
  const outputs = JSON.parse((await stack.must(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
  // The lookup runs as soon as the zone is in, beside the records' creation: it counts the zone's
  // records with none, some or all of the four.
  expect(outputs).toEqual({ status: live.status, nameservers: live.nameservers, recordsCount: expect.any(Number), appFqdn: `app.${ZONE}` });
  expect(outputs.recordsCount).toBeGreaterThanOrEqual(seeded.records.length);
  expect(outputs.recordsCount).toBeLessThanOrEqual(live.records.length);

  const again = await stack.run(["up", "--expect-no-changes", ...YES]);
  expect(ok(again)).toEqual({ code: 0, stderr: "" });

  const destroy = await stack.run(["destroy", ...YES]);
  expect(ok(destroy)).toEqual({ code: 0, stderr: "" });
  const after = await client.getZone(ZONE); // the zone stays (retainOnDelete); the records go
  expect(after.records.map((r) => r.id).sort()).toEqual(seeded.records.map((r) => r.id).sort());
});

/** A mistake's resources as a YAML program: each resource by its title, its arguments as they are. */
function yamlOf(m: Mistake): string {
  const lines = m.resources.map((r) => `  ${JSON.stringify(r.title)}:\n    type: reseller:index:${r.kind}\n    properties: ${JSON.stringify(r.args)}`);
  return `resources:\n${lines.join("\n")}\n`;
}

test("a mistake of the catalogue written in YAML fails at preview with the catalogue's message, writing nothing", async () => {
  const m = MISTAKES.find((c) => c.title === "a record type misspelt")!;
  expect(m.preview).toBe("fails");
  const stack = await yamlStack(`name: reseller-yaml-mistake\nruntime: yaml\n${yamlOf(m)}`, mistakeConfig(sandbox, m));
  const mark = sandbox.operator.requests().length;
  const preview = await stack.run(["preview", "--non-interactive"]);
  expect(preview.code).not.toBe(0);
  const errors = `${preview.stdout}\n${preview.stderr}`.split("\n").map((l) => l.trim()).filter((l) => l.startsWith("error: "));
  expect(errors).toEqual(expect.arrayContaining([expect.stringMatching(m.message)]));
  expect(writesSince(sandbox, mark)).toEqual([]);
});
