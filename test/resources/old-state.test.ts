/**
 * States written before the shared provider (per-kind `__provider` texts that capture the kind) stay
 * readable: a state captured from that version (fixtures/state-v0: a DnsZone, a ChildHost and two
 * DnsRecords, with the sandbox's data as it was then) is refreshed and destroyed through the SDK's
 * provider host, which runs the old texts; an up of the same program over it changes nothing, and
 * records written by this version take at most 4 KB of state each. One stack through all of these
 * in turn (up, refresh, destroy, up), as a user's commands meet it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { compiledProgram } from "../../dev/engine/program-file";
import { Engine } from "../../dev/engine/engine";
import { startProviderHost, type ProviderHost } from "../../dev/engine/host";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { ResellerClient } from "../../api/client";
import { keptOpen } from "../support/kept-open";
import { ROOT } from "./lifecycle/harness";

const FIXTURE = path.join(__dirname, "fixtures/state-v0");

let dir: string;
let sb: SandboxHandle;
beforeEach(async () => {
  if (!fs.existsSync(path.join(ROOT, "dist/resources/runtime.js"))) throw new Error("run `npm run build` first");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "old-state-"));
  fs.copyFileSync(path.join(FIXTURE, "state.json"), path.join(dir, "state.json"));
  fs.copyFileSync(path.join(FIXTURE, "sandbox.json"), path.join(dir, "sandbox.json"));
  sb = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0, dataFile: path.join(dir, "sandbox.json") });
});
afterEach(async () => {
  await sb.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const HOST_ENV = { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined };
/**
 * Two provider hosts, each kept open for two commands (see test/support/kept-open.ts): one for the two
 * ups (the new texts), and one that meets the old texts fresh at the refresh and deletes by them at the
 * destroy. A host per command, as `pulumi` starts them, is pinned elsewhere (kept-open.ts says where).
 */
const hosts: ProviderHost[] = [];
const hostFor = () => {
  let host: ProviderHost | undefined;
  return async () => {
    if (!host) hosts.push((host = await startProviderHost({ env: HOST_ENV })));
    return keptOpen(host);
  };
};
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

const engine = (startHost: () => Promise<ProviderHost>) =>
  new Engine({
    stateFile: path.join(dir, "state.json"),
    project: "fixture",
    stack: "v0",
    passphrase: "fixture",
    config: { "reseller:baseUrl": sb.url, "reseller:apiKey": sb.credentials.key, "reseller:apiSecret": sb.credentials.secret, "reseller:requestsPerMinute": "100000" },
    secretConfigKeys: ["reseller:apiSecret"],
    log: () => undefined,
    startHost,
  });

/** The program the fixture was written by. */
const program = () => ({ file: compiledProgram("test/resources/programs/state-v0-program.ts") });

const saved = () => JSON.parse(fs.readFileSync(path.join(dir, "state.json"), "utf8")) as { resources: { type: string; inputs: { __provider?: string }; outputs: { __provider?: string } }[] };
const live = () => {
  const s = sb.operator.state();
  return {
    records: (s.zones["demo-reseller.com"]?.records ?? []).filter((r) => r.name.startsWith("fixture-")).map((r) => r.name).sort(),
    labsZone: Boolean(s.zones["demo-labs.io"]),
  };
};

test("over the old per-kind provider texts an up changes nothing at the service; refresh and destroy run the old texts through the provider host; records then made by this version cost at most 4 KB of state", async () => {
  const texts = saved().resources.map((r) => r.inputs.__provider ?? "");
  expect(texts.some((t) => t.includes('kind: "DnsRecord"'))).toBe(true);
  expect(live()).toEqual({ records: ["fixture-mail", "fixture-www"], labsZone: true });

  // An up of the same program over the old state changes nothing at the service.
  const newTexts = hostFor();
  const oldTexts = hostFor();
  const mark = sb.operator.requests().length;
  const up = await engine(newTexts).up(program());
  expect(up.summary).toMatchObject({ create: 0, delete: 0, replace: 0 });
  expect(sb.operator.requests().slice(mark).filter((r) => r.mutating)).toEqual([]);
  // Inputs take the new text at once; outputs keep the old one until the resource is next written
  // (the engine keeps the outputs of an unchanged resource). The SDK's host runs the outputs' text
  // for Read and Delete: the refresh and destroy below run the old texts.
  const ours = saved().resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/reseller:"));
  expect(ours).toHaveLength(4);
  for (const r of ours) expect(r.inputs.__provider).not.toContain("kind:");
  for (const r of ours) expect(r.outputs.__provider).toContain("kind:");

  // Out of band: one record's content changed; the refresh with the old texts finds it.
  const www = sb.operator.state().zones["demo-reseller.com"].records.find((r) => r.name === "fixture-www")!;
  const client = new ResellerClient({ baseUrl: sb.url, apiKey: sb.credentials.key, apiSecret: sb.credentials.secret, rateLimitLogDir: null });
  await client.updateRecord("demo-reseller.com", www.id, { content: "192.0.2.77" });
  await client.close();

  const refreshed = await engine(oldTexts).refresh();
  expect(refreshed.summary).toMatchObject({ read: 4, delete: 0 });
  expect(refreshed.steps.filter((s) => s.op !== "same").map((s) => s.urn)).toEqual([expect.stringContaining("::www")]);

  const destroyed = await engine(oldTexts).destroy();
  expect(destroyed.summary.delete).toBe(4);
  expect(live()).toEqual({ records: [], labsZone: false });
  expect(saved().resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/reseller:"))).toEqual([]);

  // The program run again over the emptied stack: its records are written by this version.
  await engine(newTexts).up(program());
  const records = saved().resources.filter((r) => r.type.endsWith(":DnsRecord"));
  expect(records).toHaveLength(2);
  // As the engine writes it (indented JSON): the A record and the MX record with its priority.
  for (const r of records) expect(Buffer.byteLength(JSON.stringify(r, null, 2))).toBeLessThanOrEqual(4096);
}, 120_000);
