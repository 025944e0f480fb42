/**
 * The read-only functions, which run in the program's own process (the provider host has no
 * Invoke), with credentials from `new pulumi.Config("reseller")` or the environment.
 */
import * as pulumi from "@pulumi/pulumi";
import { startSandbox, type SandboxHandle } from "../../../sandbox/index";
import { checkDomain, getAvailability, getBalance, getPricing, getTier, getTlds } from "../../../resources";

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
