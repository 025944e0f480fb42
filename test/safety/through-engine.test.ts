/**
 * Nothing lost, switched off or charged twice, through the engine (dev/engine/, which runs programs as
 * `pulumi` does) and the sandbox over HTTP: renames and reparents without aliases, the same with
 * aliases, and a secret rotated under refresh and destroy that use the config saved at the last up.
 * Proven through the provider host and dev/engine/'s step rules in test/resources/lifecycle/: a zone
 * and its records destroyed in parallel (dns.test.ts), a record's type changed on one name and an
 * EppCode's new-code warning (ownership.test.ts), Domain partial failures (partial-failures.test.ts). Domain partial failures followed by the next up are a
 * resource's behaviour: test/resources/lifecycle/partial-failures.test.ts proves them through the
 * provider host and dev/engine/'s step rules, without a program process.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Engine, type EngineOptions } from "../../dev/engine/engine";
import { packageRoot } from "../../dev/engine/host";
import { ResellerClient } from "../../api/client";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import type { Decl, StackSpec } from "./fixtures/spec";

// Each case runs several commands (up, refresh, preview...), each spawning a program and a host.
jest.setTimeout(600_000);

const STACK = path.join(packageRoot(), "dist", "test", "safety", "fixtures", "stack.js");
const ZONE = "demo-reseller.com";
const contacts = {
  registrant: {
    name: "Jane Tester",
    email: "jane.tester@private-mail.test",
    phone: "+44 20 7946 0001",
    addressLine1: "2 Test Lane",
    city: "London",
    postalCode: "E1 6AN",
    country: "gb",
  },
};

let dir: string;
let sandbox: SandboxHandle;
let client: ResellerClient;
let lines: string[];

const config = (secret = sandbox.credentials.secret, s: SandboxHandle = sandbox) => ({
  "reseller:baseUrl": s.url,
  "reseller:apiKey": s.credentials.key,
  "reseller:apiSecret": secret,
  "reseller:requestsPerMinute": "100000",
});
/** One `pulumi` command: a new engine over the same state file (its own provider host). */
const engine = (extra: Partial<EngineOptions> = {}): Engine =>
  new Engine({
    stateFile: path.join(dir, "state", "dev.json"),
    config: config(),
    secretConfigKeys: ["reseller:apiSecret"],
    host: { cwd: packageRoot() },
    log: (l) => lines.push(l),
    ...extra,
  });
const program = (spec: StackSpec) => ({ file: STACK, args: spec });
const money = () => sandbox.operator.ledger().filter((e) => Number(e.amount) !== 0);
const mutating = (from: number) => sandbox.operator.requests().slice(from).filter((r) => r.mutating).map((r) => `${r.method} ${r.path}`);
const mark = () => sandbox.operator.requests().length;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "safety-"));
  lines = [];
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
  client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 100_000 });
  await client.setNameservers("demo-labs.io", ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"]);
});
afterEach(async () => {
  await client.close();
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every kind the issue names, each free of the others' names so a rename touches only names. */
function estate(name: (base: string) => string, parent?: string, aliases?: (base: string) => Decl["aliases"]): StackSpec {
  const d = (kind: Decl["kind"], base: string, args: Record<string, unknown>, extra: Partial<Decl> = {}): Decl => ({
    kind,
    name: name(base),
    args,
    ...(parent ? { parent } : {}),
    ...(aliases ? { aliases: aliases(base) } : {}),
    ...extra,
  });
  return {
    components: parent ? [parent] : [],
    resources: [
      d("Domain", "domain", { domain: "moving-house.com", contacts }),
      d("DnsZone", "zone", { domain: "demo-labs.io", waitForDelegation: true, waitTimeoutSeconds: 30 }),
      d("DnsRecord", "api", { zone: "demo-labs.io", type: "A", name: "api", content: "192.0.2.10", ttl: 300 }, { dependsOn: [name("zone")] }),
      d("DnsRecord", "caa", { zone: ZONE, type: "CAA", name: "@", content: "letsencrypt.org", extra: { flag: 0, tag: "issuewild" } }),
      d("ChildHost", "ns1", { domain: "demo-labs.io", hostname: "ns1", ipv4: ["192.0.2.53"] }),
      d("PrivacyAddon", "privacy", { domain: "demo-labs.io" }),
      d("Protection", "protection", { domain: "demo-shop.net" }),
      d("ZoneTemplate", "web", { zone: "demo-labs.io", templateId: "web", variables: { ipv4: "192.0.2.44" } }, { dependsOn: [name("zone")] }),
    ],
  };
}

/** What is live for the estate: ids and states the moves must keep. */
async function liveView() {
  const labs = await client.listRecords("demo-labs.io");
  const apex = await client.listRecords(ZONE);
  return {
    domain: (await client.getDomain("moving-house.com")).stage,
    zone: (await client.getZone("demo-labs.io")).domain,
    labsRecords: labs.map((r) => `${r.id} ${r.type} ${r.name} ${r.content}`).sort(),
    caa: apex.filter((r) => r.type === "CAA").map((r) => `${r.id} ${r.extra?.tag}`).sort(),
    hosts: (await client.listHosts("demo-labs.io")).map((h) => h.hostname),
    privacy: (await client.getPrivacy("demo-labs.io")).status,
    protection: (await client.getProtection("demo-shop.net")).enabled,
  };
}

describe("moving resources", () => {
  // One estate moved three times, each move from where the last left it (one estate built, not three).
  test("rename without aliases, every kind but EppCode: nothing lost, switched off or charged; the next up and refresh change nothing; then reparent under a component without aliases: the same; then rename with aliases, ZoneTemplate included: no API write and no change at all, and a refresh finds nothing changed", async () => {
    const first = estate((b) => b);
    await engine().up(program(first));
    const live = await liveView();
    const paid = money().length;

    // Rename without aliases. ZoneTemplate is the one kind whose new URN cannot take over: its rename needs aliases (see below).
    const renamedName = (b: string) => (b === "web" ? b : `renamed-${b}`);
    const renamed = estate(renamedName, undefined, (b) => (b === "web" ? [] : undefined));
    await engine().up(program(renamed));
    expect(await liveView()).toEqual(live);
    expect(money()).toHaveLength(paid);
    expect(engine().resources().map((r) => r.name).sort()).toEqual(renamed.resources.map((r) => r.name).sort());
    // The next up changes nothing and writes nothing, and a refresh of the state the rename wrote
    // finds nothing changed. No preview after them: from the same state and program it would plan
    // what this up just did.
    const quiet = mark();
    expect((await engine().up(program(renamed))).summary).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });
    expect((await engine().refresh()).summary).toMatchObject({ update: 0, delete: 0 });
    expect(mutating(quiet)).toEqual([]);

    // Reparent under a component without aliases. Seven of our resources under one component: they
    // used to wait for each other forever (the `resourceUrn` input carried the component as a
    // dependency, which the SDK widens to all of its children); resources/program/register.ts now takes the
    // parent's URN without that dependency.
    const moved = estate(renamedName, "site");
    moved.resources = moved.resources.map((r) => (r.kind === "ZoneTemplate" ? { ...r, parent: undefined } : r));
    await engine().up(program(moved));
    expect(await liveView()).toEqual(live);
    expect(money()).toHaveLength(paid);
    expect(engine().resources().filter((r) => r.urn.includes("my:index:Site$")).length).toBe(7);

    // Rename with aliases (each keeps its parent), ZoneTemplate included: no API write at all. It is
    // also the reparent's next up: aliases change URNs only, so any diff a plain next up would find
    // (inputs or state the reparent left wrong) this up finds too; it finds none. The refresh after
    // it reads the state both moves left, unchanged by this all-same up.
    const before = mark();
    const aliased = estate((b) => `new-${b}`, "site", (b) => [{ name: renamedName(b) }]);
    aliased.resources = aliased.resources.map((r) => (r.kind === "ZoneTemplate" ? { ...r, parent: undefined } : r));
    const r = await engine().up(program(aliased));
    expect(r.summary).toMatchObject({ create: 0, update: 0, delete: 0, replace: 0 });
    expect(mutating(before)).toEqual([]);
    expect(await liveView()).toEqual(live);
    expect(engine().resources().map((x) => x.name).sort()).toEqual(aliased.resources.map((x) => x.name).sort());
    expect((await engine().refresh()).summary).toMatchObject({ update: 0, delete: 0 });
    expect(mutating(before)).toEqual([]);
  });
});

test("secret rotated: refresh with the config saved at the last up fails; after `config set` and `up`, destroy, configured from the saved config as refresh is, succeeds", async () => {
  const dataFile = path.join(dir, "sandbox.json");
  await sandbox.close();
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0, dataFile, credentials: [{ key: "rot-key", secret: "old-secret" }] });
  const spec: StackSpec = { resources: [{ kind: "DnsRecord", name: "kept", args: { zone: ZONE, type: "TXT", name: "rotation", content: "still here", ttl: 300 } }] };
  await engine({ config: config("old-secret") }).up(program(spec));
  const port = sandbox.port;
  await sandbox.close();
  sandbox = await startSandbox({ port, requestsPerMinute: 100_000, processingDelaySeconds: 0, dataFile, credentials: [{ key: "rot-key", secret: "new-secret" }] });

  // `pulumi config set --secret reseller:apiSecret new-secret`: the stack config changes, the state does not.
  const rotated = { config: config("new-secret") };
  await expect(engine(rotated).refresh()).rejects.toThrow(/the API key or secret is not valid/);
  const up = await engine(rotated).up(program(spec));
  expect(up.summary).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });
  // Refresh and destroy configure the provider alike, from the config the last up saved (engine.ts
  // configForStateOps; test/pulumi-cli/conformance.test.ts proves, through dev/engine/ and the CLI, that refresh takes the saved, not today's,
  // config): the refresh above failed on the old secret; this destroy, from the same state and the
  // config this up saved, authenticates with the new one and deletes the record.
  await engine(rotated).destroy();
  const after = new ResellerClient({ baseUrl: sandbox.url, apiKey: "rot-key", apiSecret: "new-secret", requestsPerMinute: 100_000 });
  expect((await after.listRecords(ZONE)).some((r) => r.name === "rotation")).toBe(false);
  await after.close();
});
