/**
 * The read-only functions, which run in the program's own process (the provider host has no
 * Invoke), with credentials from `new pulumi.Config("reseller")` or the environment.
 */
import * as pulumi from "@pulumi/pulumi";
import { credentialFingerprint, startSandbox, type SandboxHandle } from "../../../sandbox/index";
import {
  checkDomain,
  checkDomainOutput,
  getAvailability,
  getAvailabilityOutput,
  getBalance,
  getBalanceOutput,
  getPricing,
  getPricingOutput,
  getTemplatesOutput,
  getTier,
  getTierOutput,
  getTlds,
  getTldsOutput,
} from "../../../resources";

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000 });
});
afterAll(async () => sandbox?.close());

const useConfig = () =>
  pulumi.runtime.setAllConfig(
    { "reseller:apiKey": sandbox.credentials.key, "reseller:apiSecret": sandbox.credentials.secret, "reseller:baseUrl": sandbox.url, "reseller:requestsPerMinute": "100000" },
    ["reseller:apiSecret"],
  );

test("getAvailability takes any number of names and sends batches of 20", async () => {
  useConfig();
  const names = Array.from({ length: 45 }, (_, i) => `Batch-Name-${i}.COM`);
  const mark = sandbox.operator.requests().length;
  const results = await getAvailability({ domains: [...names, "example.com"], years: 1 });
  expect(results).toHaveLength(46);
  expect(results[0]).toMatchObject({ domain: "batch-name-0.com", available: true });
  expect(results[45]).toMatchObject({ domain: "example.com", available: false });
  const calls = sandbox.operator.requests().slice(mark).filter((r) => r.path.endsWith("/domains/availability"));
  expect(calls).toHaveLength(3);
  expect(sandbox.operator.requests().slice(mark).filter((r) => r.mutating)).toEqual([]);
});

test("checkDomain, getPricing, getTlds, getBalance, getTier", async () => {
  useConfig();
  expect(await checkDomain({ domain: "Fresh-Name.io" })).toMatchObject({ domain: "fresh-name.io", available: true });
  const q = await getPricing({ action: "register", domain: "fresh-name.io", years: 2 });
  expect(JSON.stringify(q)).toContain("78.00");
  const quotes = await getPricing([
    { action: "register", domain: "a-name.com" },
    { action: "renew", domain: "demo-shop.net" },
  ]);
  expect(quotes).toHaveLength(2);
  expect(JSON.stringify(await getTlds())).toContain("co.uk");
  expect(JSON.stringify(await getBalance())).toContain("USD");
  expect(JSON.stringify(await getTier())).toContain("silver");
});

test("an invalid name fails before any call, naming the field", async () => {
  useConfig();
  const mark = sandbox.operator.requests().length;
  await expect(getAvailability({ domains: ["good.com", "bad..name"] })).rejects.toThrow(/domains\[1\]: "bad\.\.name" is not a valid domain name/);
  expect(sandbox.operator.requests().length).toBe(mark);
});

test("environment fallback, and a missing credential named without its value", async () => {
  pulumi.runtime.setAllConfig({}, []);
  const saved = { ...process.env };
  try {
    process.env.RESELLER_API_KEY = sandbox.credentials.key;
    process.env.RESELLER_API_SECRET = sandbox.credentials.secret;
    process.env.RESELLER_BASE_URL = sandbox.url;
    expect(await checkDomain({ domain: "env-name.com" })).toMatchObject({ available: true });
    delete process.env.RESELLER_API_SECRET;
    await expect(getBalance()).rejects.toThrow(/missing configuration: reseller:apiSecret \(or RESELLER_API_SECRET/);
  } finally {
    process.env = saved;
  }
});

const outputValue = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply((v) => resolve(v)));

test("results are camelCase like the resources' outputs; each function has an …Output form taking inputs", async () => {
  useConfig();
  const tlds = await getTlds();
  expect(tlds.find((t) => t.tld === "com")).toMatchObject({ registerPrice: expect.stringMatching(/^\d+\.\d{2}$/), renewPrice: expect.any(String), transferPrice: expect.any(String) });
  expect(JSON.stringify(tlds)).not.toMatch(/register_price|min_years|kyc_required/);
  expect(await getBalance()).toEqual(expect.objectContaining({ balance: expect.any(String), currency: "USD", activeDomains: expect.any(Number) }));
  expect(Object.keys(await getTier())).toEqual(expect.arrayContaining(["tier", "nextTier", "domainsToNextTier"]));

  expect(await outputValue(getBalanceOutput())).toEqual(await getBalance());
  expect(await outputValue(getPricingOutput({ action: "register", domain: pulumi.output("fresh-name.io"), years: pulumi.output(2) }))).toMatchObject({ amount: "78.00" });
  expect(await outputValue(checkDomainOutput({ domain: Promise.resolve("Output-Name.com") }))).toMatchObject({ domain: "output-name.com", available: true });
  expect(await outputValue(getAvailabilityOutput({ domains: [pulumi.output("a-one.com"), "a-two.com"] }))).toHaveLength(2);
  expect((await outputValue(getTldsOutput())).length).toBe(tlds.length);
  expect(await outputValue(getTierOutput())).toEqual(await getTier());
  const templates = await outputValue(getTemplatesOutput());
  expect(templates.length).toBeGreaterThan(0);
  expect(templates[0]).toEqual(expect.objectContaining({ id: expect.any(String), variables: expect.any(Array) }));
});

test("a baseUrl pasted with /api/v1 is taken as the scheme and host, not doubled", async () => {
  pulumi.runtime.setAllConfig(
    { "reseller:apiKey": sandbox.credentials.key, "reseller:apiSecret": sandbox.credentials.secret, "reseller:baseUrl": `${sandbox.url}/api/v1/`, "reseller:requestsPerMinute": "100000" },
    ["reseller:apiSecret"],
  );
  const mark = sandbox.operator.requests().length;
  expect(await getBalance()).toMatchObject({ currency: "USD" });
  expect(sandbox.operator.requests().slice(mark).map((r) => r.path)).toEqual(["/api/v1/account/balance"]);
});

test("every setting falls back to the environment: RESELLER_TIMEOUT_SECONDS, _REQUESTS_PER_MINUTE and _CONTRACT are read and checked", async () => {
  pulumi.runtime.setAllConfig({}, []);
  const saved = { ...process.env };
  try {
    Object.assign(process.env, { RESELLER_API_KEY: sandbox.credentials.key, RESELLER_API_SECRET: sandbox.credentials.secret, RESELLER_BASE_URL: sandbox.url });
    process.env.RESELLER_TIMEOUT_SECONDS = "soon";
    await expect(getBalance()).rejects.toThrow('reseller:timeoutSeconds: "soon" is not a positive number');
    process.env.RESELLER_TIMEOUT_SECONDS = "20";
    process.env.RESELLER_REQUESTS_PER_MINUTE = "0";
    await expect(getBalance()).rejects.toThrow('reseller:requestsPerMinute: "0" is not a positive number');
    process.env.RESELLER_REQUESTS_PER_MINUTE = "100000";
    process.env.RESELLER_CONTRACT = '{"header":{}}';
    await expect(getBalance()).rejects.toThrow(/reseller:contract: contract override: unknown entry "header"/);
    process.env.RESELLER_CONTRACT = '{"signing":{"clockSkewSeconds":120}}';
    expect(await getBalance()).toMatchObject({ currency: "USD" });
  } finally {
    process.env = saved;
  }
});

test("account: a function asks the account whose settings are under that config namespace", async () => {
  const other = await startSandbox({ port: 0, requestsPerMinute: 100_000, credentials: [{ key: "eu-key", secret: "eu-secret" }] });
  try {
    useConfig();
    pulumi.runtime.setConfig("reseller-eu:baseUrl", other.url);
    pulumi.runtime.setConfig("reseller-eu:apiKey", "eu-key");
    pulumi.runtime.setConfig("reseller-eu:apiSecret", "eu-secret");
    const mark = sandbox.operator.requests().length;
    expect(await getBalance({ account: "reseller-eu" })).toMatchObject({ currency: "USD" });
    expect(other.operator.requests().map((r) => [r.path, r.credential])).toEqual([["/api/v1/account/balance", credentialFingerprint("eu-key")]]);
    expect(sandbox.operator.requests().length).toBe(mark);
    await expect(getBalance({ account: "reseller-x" })).rejects.toThrow(/missing configuration: reseller-x:baseUrl \(or RESELLER_X_BASE_URL\)/);
    await expect(getTier({ account: "not a namespace" })).rejects.toThrow(/account: "not a namespace" is not a config namespace/);
  } finally {
    await other.close();
  }
});
