/**
 * One client cache, one key (resources/shared/client-cache.ts): the provider host and the program's
 * read-only functions take their clients from it. Settings that differ only in one setting the
 * client is built from get two clients; equal settings share one, whatever account they came from.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Settings } from "../../resources/shared/api";
import { ClientCache, clientKey } from "../../resources/shared/client-cache";
import { testHost } from "../support/host-context";

let dir: string;
let base: Settings;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "client-cache-"));
  base = { baseUrl: "http://127.0.0.1:9", apiKey: "key-1", apiSecret: "secret-value-1", contract: { ttl: { min: 300, max: 86400 } }, rateLimitLogDir: dir };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each setting the client is built from, with another value (made once `dir` exists). */
const others = (): Record<(typeof CLIENT_SETTINGS)[number], Partial<Settings>> => ({
  baseUrl: { baseUrl: "http://127.0.0.1:10" },
  apiKey: { apiKey: "key-2" },
  apiSecret: { apiSecret: "secret-value-2" },
  contract: { contract: { ttl: { min: 600, max: 86400 } } },
  requestsPerMinute: { requestsPerMinute: 30 },
  timeoutMs: { timeoutMs: 5000 },
  rateLimitLogDir: { rateLimitLogDir: join(dir, "other") },
});

const CLIENT_SETTINGS = ["baseUrl", "apiKey", "apiSecret", "contract", "requestsPerMinute", "timeoutMs", "rateLimitLogDir"] as const;

test.each(CLIENT_SETTINGS)("settings that differ only in %s get two clients", (setting) => {
  const cache = new ClientCache();
  const changed = { ...base, ...others()[setting] };
  expect(clientKey(changed)).not.toBe(clientKey(base));
  const a = cache.get(base);
  const b = cache.get(changed);
  expect(b).not.toBe(a);
  // Each stays the client of its own settings.
  expect(cache.get({ ...base })).toBe(a);
  expect(cache.get({ ...changed })).toBe(b);
});

test("equal settings share one client: another object, contract keys in another order, or another reseller:preflight", () => {
  const cache = new ClientCache();
  const a = cache.get(base);
  expect(cache.get({ ...base })).toBe(a);
  expect(cache.get({ ...base, contract: { ttl: { max: 86400, min: 300 } } })).toBe(a);
  // preflight is read by check, never by the client.
  expect(cache.get({ ...base, preflight: false })).toBe(a);
});

test("the key holds neither the secret nor the API key", () => {
  const key = clientKey(base);
  expect(key).toMatch(/^[0-9a-f]{64}$/);
  expect(key).not.toContain(base.apiSecret);
  expect(key).not.toContain(base.apiKey);
});

test("the host: two accounts with equal settings share one client; a setting that differs makes another", () => {
  const { host } = testHost();
  host.useSettings(base, "reseller");
  host.useSettings({ ...base }, "reseller-eu");
  host.useSettings({ ...base, timeoutMs: 5000 }, "reseller-us");
  const client = host.context("reseller").api();
  expect(host.context("reseller").api()).toBe(client);
  expect(host.context("reseller-eu").api()).toBe(client);
  expect(host.context("reseller-us").api()).not.toBe(client);
});
