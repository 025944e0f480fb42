/**
 * `reseller-pulumi import --import-file` through the real Pulumi CLI against the sandbox: the
 * account's resources go into a new stack as imports (`pulumi import --file`), then the generated
 * program's up and refresh change nothing (`up --expect-no-changes` fails on any step its preview
 * plans, so no preview runs apart); then a record made by hand is adopted into that
 * existing stack with `--only`; then `pulumi destroy` of that stack deletes nothing it adopted (every
 * resource is protected). Asserted on what the CLI prints and returns (exit codes, the plan's
 * rows and summary, `stack export`) and on the sandbox's request log and ledger: no request but
 * reads, no charge.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../cli/main";
import { recordResourceName } from "../../cli/codegen";
import { canonicalEstateRecord } from "../../cli/canonical";
import { CliStack, checkoutRoot, requirePulumiCli, type CliRun } from "../../dev/pulumi-cli";
import { ResellerClient } from "../../api/client";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { writesSince } from "../support/request-log";

jest.setTimeout(900_000);

const YES = ["--yes", "--non-interactive"];
/** The command the generated README gives (codegen pulumiImportCommand, protected as the program declares), non-interactive. */
const IMPORT = (file: string) => ["import", "--file", file, "--protect=true", "--generate-code=false", ...YES];
const STACK_TYPE = "pulumi:pulumi:Stack";
const KINDS = ["ChildHost", "DnsRecord", "DnsZone", "Domain", "PrivacyAddon", "Protection"];

let sandbox: SandboxHandle;
let client: ResellerClient;
let work: string;
let project: string;
let stack: CliStack;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0, requestsPerMinute: 6000 });
  client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 6000 });
  work = fs.mkdtempSync(path.join(os.tmpdir(), "import-cli-"));
  project = path.join(work, "estate");
});
afterAll(async () => {
  await stack?.dispose();
  if (work) fs.rmSync(work, { recursive: true, force: true });
  await sandbox?.close();
});

/** `reseller-pulumi import` as a user runs it, in `work`; its printed lines. */
async function reseller(argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  const env = { RESELLER_API_KEY: sandbox.credentials.key, RESELLER_API_SECRET: sandbox.credentials.secret, RESELLER_BASE_URL: sandbox.url };
  const code = await main(["import", ...argv, "--requests-per-minute", "6000"], { env, out: (l) => lines.push(l), err: (l) => lines.push(`ERR ${l}`), cwd: work });
  expect({ code, lines }).toEqual({ code: 0, lines: expect.not.arrayContaining([expect.stringMatching(/^ERR/)]) });
  return lines;
}

/** Requests since `mark` that are not reads. */
const writes = (mark: number): string[] => writesSince(sandbox, mark);

/** The plan's rows of one operation symbol (`=` import, `+` create, ...) as "type name", from the CLI's preview part. */
function rows(run: CliRun, symbol: string): string[] {
  const preview = run.stdout.split(/\n(?:Importing|Updating) \(/)[0];
  const re = new RegExp(`^ ${symbol.replace(/[+*]/g, "\\$&")}  (\\S+) (\\S+) `, "gm");
  return [...new Set([...preview.matchAll(re)].map((m) => `${m[1]} ${m[2]}`))].sort();
}

const ok = (r: CliRun) => ({ code: r.code, stderr: r.stderr });

test("--all --import-file: pulumi import shows every resource as an import with no write or charge, then up and refresh of the program change nothing", async () => {
  const lines = await reseller(["--all", "--import-file", "--out", "estate", "--name", "estate"]);
  expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^Wrote estate\/import\.json: \d+ resource\(s\) for `pulumi import --file`, stack dev of project estate$/)]));
  const file = JSON.parse(fs.readFileSync(path.join(project, "import.json"), "utf8")) as { resources: { type: string; name: string; id: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }[] };
  // Every kind the import writes, from the sandbox's seed.
  expect([...new Set(file.resources.map((r) => r.type.split(":").pop()))].sort()).toEqual(KINDS);
  expect(JSON.stringify(file)).not.toContain(sandbox.credentials.secret);

  fs.symlinkSync(path.join(checkoutRoot, "node_modules"), path.join(project, "node_modules"), "dir");
  stack = await CliStack.init({ cli: requirePulumiCli(), projectDir: project, passphrase: "import flow passphrase" });
  await stack.configSet("reseller:baseUrl", sandbox.url);
  await stack.configSet("reseller:apiKey", sandbox.credentials.key);
  await stack.configSet("reseller:apiSecret", sandbox.credentials.secret, { secret: true });
  await stack.configSet("reseller:requestsPerMinute", "6000");
  const mark = sandbox.operator.requests().length;
  const charges = sandbox.operator.ledger().length;

  const imported = await stack.run(IMPORT("import.json"));
  expect(ok(imported)).toEqual({ code: 0, stderr: "" });
  expect(rows(imported, "=")).toEqual(file.resources.map((r) => `${r.type} ${r.name}`).sort());
  // The only create is the stack's own root resource, which a stack's first deployment makes.
  expect(rows(imported, "+")).toEqual([`${STACK_TYPE} estate-dev`]);
  expect(imported.stdout).toContain(`= ${file.resources.length} to import`);
  expect(imported.stdout).toContain(`= ${file.resources.length} imported`);
  expect(imported.stdout).not.toMatch(/warning/i);
  expect(writes(mark)).toEqual([]);
  expect(sandbox.operator.ledger()).toHaveLength(charges);

  const state = await stack.exportState();
  const ours = (state.deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/reseller:"));
  expect(ours).toHaveLength(file.resources.length);
  for (const r of ours) expect(r.outputs?.__provider).toEqual(expect.stringContaining('require("reseller-pulumi/dist/resources/runtime")'));

  const up = await stack.run(["up", "--expect-no-changes", ...YES]);
  expect(ok(up)).toEqual({ code: 0, stderr: "" });
  expect(up.stdout).toContain(`${file.resources.length + 1} unchanged`);
  const refresh = await stack.run(["refresh", "--expect-no-changes", ...YES]);
  expect(ok(refresh)).toEqual({ code: 0, stderr: "" });
  expect(writes(mark)).toEqual([]);
  expect(sandbox.operator.ledger()).toHaveLength(charges);
});

test("a record made by hand is adopted into the existing stack: --only writes it alone, pulumi import takes it, and its declaration added to the program previews no change", async () => {
  expect(stack).toBeDefined();
  const zone = (await client.listZones()).find((z) => z.status === "active" && z.records_count > 0)!.domain;
  const made = { type: "TXT", name: "handmade", content: '"made by hand"', ttl: 3600 };
  await client.createRecord(zone, made);
  const name = recordResourceName(zone, canonicalEstateRecord(zone, { ...made, priority: null, extra: null }));

  const lines = await reseller(["--zone", zone, "--import-file", "--only", name, "--name", "estate", "--stack", "dev", "--out", "adopt"]);
  expect(lines.join("\n")).toContain(`${name} from adopt/index.ts into your program`);
  const adopt = path.join(work, "adopt");
  const file = JSON.parse(fs.readFileSync(path.join(adopt, "import.json"), "utf8")) as { resources: { name: string }[] };
  expect(file.resources.map((r) => r.name)).toEqual([name]);

  const mark = sandbox.operator.requests().length;
  const charges = sandbox.operator.ledger().length;
  const imported = await stack.run(IMPORT(path.join(adopt, "import.json")));
  expect(ok(imported)).toEqual({ code: 0, stderr: "" });
  expect(rows(imported, "=")).toEqual([`pulumi-nodejs:dynamic/reseller:DnsRecord ${name}`]);
  expect(rows(imported, "+")).toEqual([]);
  expect(imported.stdout).toContain("= 1 imported");

  // The declaration as the generated program has it, added to the stack's program.
  const generated = fs.readFileSync(path.join(adopt, "index.ts"), "utf8");
  const start = generated.indexOf(`new reseller.DnsRecord(${JSON.stringify(name)}`);
  expect(start).toBeGreaterThan(0);
  const declaration = generated.slice(start, generated.indexOf("});\n", start) + 4);
  const program = path.join(project, "index.ts");
  const before = fs.readFileSync(program, "utf8");
  // After the zone's declaration (the record depends on the zone's variable), before any table loop.
  const at = before.indexOf("\n", before.indexOf(`-zone", {`));
  const zoneEnd = before.indexOf("});\n", at) + 4;
  fs.writeFileSync(program, before.slice(0, zoneEnd) + declaration + before.slice(zoneEnd));

  const preview = await stack.run(["preview", "--expect-no-changes", "--non-interactive"]);
  expect(ok(preview)).toEqual({ code: 0, stderr: "" });
  expect(writes(mark)).toEqual([]);
  expect(sandbox.operator.ledger()).toHaveLength(charges);
});

test("destroy of the imported stack deletes nothing it adopted: every resource is protected, and the live zones and records stay as they were", async () => {
  expect(stack).toBeDefined();
  const state = await stack.exportState();
  const ours = (state.deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/reseller:"));
  expect(ours.length).toBeGreaterThan(0);
  expect(ours.filter((r) => r.protect !== true).map((r) => r.urn)).toEqual([]);
  const live = async () => {
    const zones = await client.listZones();
    return Promise.all(zones.map(async (z) => ({ zone: z.domain, records: (await client.listRecords(z.domain)).map((r) => r.id).sort() })));
  };
  const before = await live();
  expect(before.some((z) => z.records.length > 0)).toBe(true);
  const mark = sandbox.operator.requests().length;
  const charges = sandbox.operator.ledger().length;

  const destroy = await stack.run(["destroy", ...YES]);
  const printed = `${destroy.stdout}\n${destroy.stderr}`;
  expect({ code: destroy.code === 0 ? 0 : "non-zero", protectedNamed: /protected/.test(printed) }).toEqual({ code: "non-zero", protectedNamed: true });
  expect(writes(mark)).toEqual([]);
  expect(sandbox.operator.ledger()).toHaveLength(charges);
  expect(await live()).toEqual(before);
  // Still the stack's: nothing was dropped from state either.
  const after = await stack.exportState();
  expect((after.deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/reseller:")).map((r) => r.urn).sort()).toEqual(ours.map((r) => r.urn).sort());
});
