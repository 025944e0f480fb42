/**
 * Two accounts in one program: resources given `{ provider: new reseller.Provider("eu", {
 * configNamespace: "reseller-eu" }) }` (or, as older programs do, the option `account:
 * "reseller-eu"`) are served, in the same provider host, with the settings of the config namespace
 * reseller-eu (here from the environment, RESELLER_EU_*), the others with reseller:*. Each sandbox
 * sees only its own account's changes, and the serialized provider names the namespace, never a
 * credential. The public classes are declared under the SDK's mocks, which hand each registration's
 * inputs (`__provider` included) to the test; those go to the host as the engine would send them.
 */
import * as pulumi from "@pulumi/pulumi";
import { startProviderHost, type ProviderHost } from "../../../dev/engine/host";
import { shim } from "../../../resources/program/shim";
import { credentialFingerprint, startSandbox, type SandboxHandle } from "../../../sandbox/index";
import { signedGet } from "../../sandbox/signed-get";
import { ROOT } from "./harness";
import * as reseller from "../../../resources";

const registered = new Map<string, Record<string, unknown>>();

const ZONE = "demo-reseller.com";
let home: SandboxHandle;
let eu: SandboxHandle;
let host: ProviderHost;

beforeAll(async () => {
  home = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
  eu = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0, credentials: [{ key: "eu-key", secret: "eu-secret-value" }] });
  host = await startProviderHost({
    cwd: ROOT,
    env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined, RESELLER_EU_BASE_URL: `${eu.url}/api/v1`, RESELLER_EU_API_KEY: "eu-key", RESELLER_EU_API_SECRET: "eu-secret-value", RESELLER_EU_REQUESTS_PER_MINUTE: "100000" },
  });
  await pulumi.runtime.setMocks({ newResource: (a) => (registered.set(a.name, a.inputs), { id: `${a.name}-id`, state: a.inputs }), call: () => ({}) }, "accounts", "test", false);
  await host.configure({ "reseller:baseUrl": home.url, "reseller:apiKey": home.credentials.key, "reseller:apiSecret": home.credentials.secret, "reseller:requestsPerMinute": "100000" });
});
afterAll(async () => {
  await host?.close();
  await home?.close();
  await eu?.close();
});

/** The `__provider` text a resource constructor produces (the SDK serializes the provider object). */
async function text(account?: string): Promise<string> {
  const provider = shim("DnsRecord", account);
  return (await pulumi.runtime.serializeFunction(() => provider)).text;
}

async function createRecord(name: string, account?: string): Promise<string> {
  const urn = `urn:pulumi:test::accounts::pulumi-nodejs:dynamic/reseller:DnsRecord::${name}`;
  const news = { zone: ZONE, type: "TXT", name, content: `made by ${account ?? "reseller"}`, ttl: 300, resourceUrn: urn, __provider: await text(account) };
  const checked = await host.check(urn, {}, news);
  expect(checked.failures).toEqual([]);
  return (await host.create(urn, checked.inputs)).id;
}

const mutating = (s: SandboxHandle) => s.operator.requests().filter((r) => r.mutating).map((r) => `${r.method} ${r.path} ${r.credential}`);

test("resources of the account reseller-eu go to its service with its credentials; the others to reseller:*", async () => {
  await createRecord("acct-home");
  await createRecord("acct-eu", "reseller-eu");
  expect(mutating(home)).toEqual([`POST /api/v1/dns/zones/${ZONE}/records ${credentialFingerprint(home.credentials.key)}`]);
  expect(mutating(eu)).toEqual([`POST /api/v1/dns/zones/${ZONE}/records ${credentialFingerprint("eu-key")}`]);
  const records = async (s: SandboxHandle, key: string, secret: string) => JSON.stringify((await signedGet(s.url, key, secret, `/dns/zones/${ZONE}/records`)).body.data);
  const euRecords = await records(eu, "eu-key", "eu-secret-value");
  const homeRecords = await records(home, home.credentials.key, home.credentials.secret);
  expect(euRecords).toContain("made by reseller-eu");
  expect(euRecords).not.toContain("made by reseller\"");
  expect(homeRecords).toContain("made by reseller\"");
  expect(homeRecords).not.toContain("made by reseller-eu");
});

test("the account's shim names the namespace and no credential; the default shim is the one older states hold", async () => {
  const euText = await text("reseller-eu");
  expect(euText).toContain('"reseller-eu"');
  expect(euText).not.toContain("eu-secret-value");
  expect(euText).not.toContain("eu-key");
  expect(await text()).not.toContain("reseller-eu");
  expect(await text()).toBe(await text(undefined));
});

test("an account that is not a config namespace is refused by name when the resource is declared", () => {
  const { resourceArgs } = require("../../../resources/program/register") as typeof import("../../../resources/program/register");
  expect(() => resourceArgs("DnsRecord", "bad", {}, [], { account: "eu accounts" })).toThrow(
    'DnsRecord bad: account: "eu accounts" is not a config namespace (letters, digits, "-" and "_", starting with a letter, e.g. "reseller-eu")',
  );
});

/** Declares a public resource under the mocks and returns the inputs the SDK sent for it. */
async function declared(r: pulumi.CustomResource, name: string): Promise<Record<string, unknown>> {
  await new Promise<void>((resolve) => r.urn.apply(() => resolve()));
  return registered.get(name)!;
}

test("two Providers' accounts in one stack: `{ provider }` sends each resource to its account's service, naming only the namespace", async () => {
  const euProvider = new reseller.Provider("eu", { configNamespace: "reseller-eu" });
  const inputs = {
    home: await declared(new reseller.DnsRecord("prov-home", { zone: ZONE, type: "TXT", name: "prov-home", content: "made by home", ttl: 300 }), "prov-home"),
    eu: await declared(new reseller.DnsRecord("prov-eu", { zone: ZONE, type: "TXT", name: "prov-eu", content: "made by eu", ttl: 300 }, { provider: euProvider }), "prov-eu"),
  };
  // The same text the older `account` option writes: states of either form read the same.
  expect(inputs.eu.__provider).toBe(await text("reseller-eu"));
  expect(inputs.home.__provider).toBe(await text());
  for (const v of Object.values(inputs)) expect(JSON.stringify(v)).not.toMatch(/eu-secret-value|eu-key|sandbox-secret/);

  home.operator.clearRequests();
  eu.operator.clearRequests();
  for (const [name, news] of Object.entries(inputs)) {
    const urn = `urn:pulumi:test::accounts::pulumi-nodejs:dynamic/reseller:DnsRecord::prov-${name}`;
    const checked = await host.check(urn, {}, news as Record<string, unknown>);
    expect(checked.failures).toEqual([]);
    await host.create(urn, checked.inputs);
  }
  expect(mutating(home)).toEqual([`POST /api/v1/dns/zones/${ZONE}/records ${credentialFingerprint(home.credentials.key)}`]);
  expect(mutating(eu)).toEqual([`POST /api/v1/dns/zones/${ZONE}/records ${credentialFingerprint("eu-key")}`]);
});

test("functions take the Provider in their options; the …Output forms too", async () => {
  const saved = { ...process.env };
  Object.assign(process.env, {
    RESELLER_BASE_URL: home.url, RESELLER_API_KEY: home.credentials.key, RESELLER_API_SECRET: home.credentials.secret, RESELLER_REQUESTS_PER_MINUTE: "100000",
    RESELLER_EU_BASE_URL: eu.url, RESELLER_EU_API_KEY: "eu-key", RESELLER_EU_API_SECRET: "eu-secret-value", RESELLER_EU_REQUESTS_PER_MINUTE: "100000",
  });
  try {
    eu.operator.settings({ balance: "777.00" });
    home.operator.settings({ balance: "123.00" });
    const euProvider = new reseller.Provider("reseller-eu");
    expect((await reseller.getBalance({}, { provider: euProvider })).balance).toBe("777.00");
    expect((await reseller.getBalance()).balance).toBe("123.00");
    const viaOutput = await new Promise((resolve) => reseller.getBalanceOutput({}, { provider: euProvider }).balance.apply(resolve));
    expect(viaOutput).toBe("777.00");
  } finally {
    process.env = saved;
  }
});

test("a provider that is not a reseller.Provider, or one that contradicts `account`, is refused by name when declared", () => {
  const { resourceArgs } = require("../../../resources/program/register") as typeof import("../../../resources/program/register");
  const foreign = { urn: "x" } as unknown as reseller.Provider;
  expect(() => resourceArgs("DnsRecord", "bad", {}, [], { provider: foreign })).toThrow(
    "DnsRecord bad: provider: a reseller resource or function takes a reseller.Provider (new reseller.Provider(name, { configNamespace })), not a Object",
  );
  expect(() => resourceArgs("DnsRecord", "bad", {}, [], { provider: new reseller.Provider("eu", { configNamespace: "reseller-eu" }), account: "reseller-us" })).toThrow(
    'DnsRecord bad: account: "reseller-us" differs from the provider\'s configNamespace "reseller-eu"; give only provider',
  );
  expect(() => new reseller.Provider("eu", { configNamespace: "eu accounts" })).toThrow('Provider eu: configNamespace: "eu accounts" is not a config namespace');
});

test("a Pulumi provider resource given as `provider` is refused when a resource is declared or a function called, saying what to pass", async () => {
  // Another package's provider, as a wrapper component's forwarded options carry it (registered under the mocks).
  class CloudflareProvider extends pulumi.ProviderResource {
    constructor(name: string) {
      super("cloudflare", name, {});
    }
  }
  const cf = new CloudflareProvider("cf");
  const said =
    'provider: the Pulumi provider resource of package "cloudflare" cannot serve a reseller resource or function (they run as dynamic resources, whose account is named by a reseller.Provider): pass provider: new reseller.Provider(name, { configNamespace }), or leave provider out for the reseller: settings (a component passing its own options on: { ...opts, provider: undefined })';
  const opts: pulumi.CustomResourceOptions = { provider: cf, protect: true };
  expect(() => new reseller.DnsRecord("forwarded", { zone: ZONE, type: "TXT", content: "x" }, opts)).toThrow(`DnsRecord forwarded: ${said}`);
  const invokeOpts: pulumi.InvokeOptions = { provider: cf };
  const mark = home.operator.requests().length;
  await expect(reseller.getZone({ domain: ZONE }, invokeOpts)).rejects.toThrow(`reseller: ${said}`);
  await expect(reseller.getBalance({}, invokeOpts)).rejects.toThrow(`reseller: ${said}`);
  expect(home.operator.requests().length).toBe(mark);
  // Left out, as the message says, the forwarded options declare the resource in the default account.
  expect(new reseller.DnsRecord("forwarded-default", { zone: ZONE, type: "TXT", content: "x" }, { ...opts, provider: undefined })).toBeInstanceOf(reseller.DnsRecord);
});

