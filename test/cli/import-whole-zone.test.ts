/**
 * `reseller-pulumi import --whole-zone` against the sandbox, and a zone moved between the two forms
 * through dev/engine/ (program and provider host in their own processes): from DnsRecords to one
 * DnsZoneRecords and back, neither move sending a mutating request; one record changed in the
 * whole-zone program is planned (Diff), and applied, as exactly one change.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../cli/main";
import { Engine } from "../../dev/engine/engine";
import { startProviderHost, type ProviderHost } from "../../dev/engine/host";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { generatedProgram } from "../../dev/engine/program-file";
import { keptOpen } from "../support/kept-open";

jest.setTimeout(600_000);

const ZONE = "demo-reseller.com";
let sandbox: SandboxHandle;
let dir: string;

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 6000 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-whole-zone-"));
});
/** A host shared by two commands (below), closed here too should the test fail between them. */
let shared: Promise<ProviderHost> | undefined;
afterEach(async () => {
  if (shared) await (await shared).close();
  shared = undefined;
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The zone imported into `out`. Unprotected (`--protect false`): moving a zone from one form to the
 * other deletes the first form's resources from state, which `protect`, the import's default, refuses.
 */
async function importZone(out: string, ...flags: string[]): Promise<string> {
  const project = path.join(dir, out);
  const env = { RESELLER_BASE_URL: sandbox.url, RESELLER_API_KEY: sandbox.credentials.key, RESELLER_API_SECRET: sandbox.credentials.secret };
  const errors: string[] = [];
  const code = await main(["import", "--zone", ZONE, "--out", project, "--requests-per-minute", "6000", "--protect", "false", ...flags], { env, out: () => undefined, err: (l) => errors.push(l), cwd: dir });
  expect(errors).toEqual([]);
  expect(code).toBe(0);
  return project;
}

/**
 * One `pulumi` command over the stack's one state file, its own provider host unless `startHost` is
 * given: each move needs a fresh host, as under the CLI, since a host's ownership register holds what
 * the previous command's resources claimed.
 */
const engine = (startHost?: () => Promise<ProviderHost>) =>
  new Engine({
    startHost,
    stateFile: path.join(dir, "state.json"),
    config: { "reseller:baseUrl": sandbox.url, "reseller:apiKey": sandbox.credentials.key, "reseller:apiSecret": sandbox.credentials.secret, "reseller:requestsPerMinute": "6000" },
    secretConfigKeys: ["reseller:apiSecret"],
    log: () => undefined,
  });
const mark = () => sandbox.operator.requests().length;
const mutating = (from: number) => sandbox.operator.requests().slice(from).filter((r) => r.mutating).map((r) => `${r.method} ${r.path}`);

test("import --whole-zone writes one DnsZoneRecords; a zone moves from DnsRecords to it and back touching no live record; one record changed is one change", async () => {
  const perRecord = await importZone("per-record");
  const whole = await importZone("whole", "--whole-zone");
  const source = fs.readFileSync(path.join(whole, "index.ts"), "utf8");
  expect(source).toContain('new reseller.DnsZoneRecords("demo-reseller-com-records", {');
  expect(source).not.toContain("new reseller.DnsRecord(");
  expect(source).toContain('    { type: "MX", name: "@", content: "mx1.demo-reseller.com", ttl: 3600, priority: 10 },');

  const before = mark();
  const adopted = await engine().up(generatedProgram(perRecord));
  expect(adopted.summary).toMatchObject({ create: 13, update: 0, delete: 0 });

  // DnsRecords to one DnsZoneRecords in one up: it takes every live record, and the DnsRecords'
  // deletes at the end of the run leave the records it holds now.
  const move = engine();
  const moved = await move.up(generatedProgram(whole));
  expect(moved.summary).toMatchObject({ create: 1, same: 1, delete: 12 });
  expect(mutating(before)).toEqual([]);
  expect(move.hostLogs().join("\n")).toMatch(/left in place: "demo-reseller-com-records" manages it now/);

  // One record changed in the program: the plan (the provider's Diff, which a preview runs the same
  // way, and the Update's own account of it after) is exactly that one, the up sends one request.
  fs.writeFileSync(path.join(whole, "index.ts"), source.replace('content: "192.0.2.25"', 'content: "192.0.2.26"'));
  const changed = mark();
  const changing = engine();
  const change = await changing.up(generatedProgram(whole));
  expect(change.summary).toMatchObject({ update: 1, create: 0, delete: 0, same: 1 });
  const lines = changing.hostLogs();
  const plan = expect.stringContaining("0 to create, 1 to change, 0 to delete, 11 unchanged");
  expect(lines.filter((l) => /to create, .* to change, .* to delete/.test(l))).toEqual([plan, plan]);
  expect(lines.filter((l) => l.includes("~ mail A 192.0.2.25 => mail A 192.0.2.26 (ttl 3600)"))).toHaveLength(2);
  expect(mutating(changed)).toEqual([expect.stringMatching(/^PUT \/api\/v1\/dns\/zones\/demo-reseller\.com\/records\//)]);

  // And back: DnsRecords adopting, the DnsZoneRecords' delete leaving what they took.
  fs.writeFileSync(path.join(perRecord, "index.ts"), fs.readFileSync(path.join(perRecord, "index.ts"), "utf8").replace('content: "192.0.2.25"', 'content: "192.0.2.26"'));
  // The no-op up after it shares the move's provider host (test/support/kept-open.ts), which the
  // no-op then closes: the same 13 URNs hold the same claims in its register, and neither asserts
  // on the host's log, so a fresh host would only cost a Node process.
  const host = (shared = startProviderHost());
  const back = mark();
  const returned = await engine(async () => keptOpen(await host)).up(generatedProgram(perRecord));
  expect(returned.summary).toMatchObject({ create: 12, delete: 1 });
  expect(mutating(back)).toEqual([]);
  const noop = mark();
  expect((await engine(() => host).up(generatedProgram(perRecord))).summary).toMatchObject({ same: 13 });
  expect(mutating(noop)).toEqual([]);
});
