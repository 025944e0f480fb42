/**
 * Settings reaching the provider host over gRPC, as `pulumi up` delivers them through Configure:
 * the environment fallback (RESELLER_*) when the stack config has no reseller:* keys, and contract
 * overrides from `reseller:contract` against a sandbox that speaks a non-default contract; a base URL
 * nothing answers on, and the hints that name the user's settings and inputs; the transport's bounds
 * (an answer dripped past the deadline, settings that would leak or break the credential).
 */
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { startProviderHost, type ProviderHost } from "../../../dev/engine/host";
import { ResellerClient } from "../../../api/client";
import { ResellerApiError, ResellerNetworkError } from "../../../api/errors";
import { accountId, purchaseKey } from "../../../api/idempotency";
import type { ContractOverrides } from "../../../api/contract";
import { credentialFingerprint, startSandbox, type SandboxHandle } from "../../../sandbox/index";
import { contact, Managed, ROOT, type Env } from "./harness";
import { startRewritingProxy } from "../../support/rewriting-proxy";
import { dripped } from "../../hostile/answer-writers";

const ZONE = "demo-reseller.com";
const NO_ENV = { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined };

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const x of opened.splice(0).reverse()) await x.close();
});

async function sandboxWith(contract?: ContractOverrides): Promise<SandboxHandle> {
  const s = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0, contract });
  opened.push(s);
  return s;
}

/** A host started with `env` and configured with `config`, wrapped as the harness's Env. */
async function hostEnv(sandbox: SandboxHandle, env: Record<string, string | undefined>, config: Record<string, string>, contract?: ContractOverrides): Promise<Env> {
  const host: ProviderHost = await startProviderHost({ cwd: ROOT, env });
  opened.push(host);
  await host.configure(config);
  const client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 100_000, contract });
  opened.push(client);
  return {
    sandbox,
    host,
    client,
    config,
    mark: () => sandbox.operator.requests().length,
    mutatingSince: (mark) => sandbox.operator.requests().slice(mark).filter((r) => r.mutating).map((r) => ({ method: r.method, path: r.path })),
    close: async () => undefined,
  };
}

/** The settings that reach `s` with its own credentials. */
const credentialsOf = (s: SandboxHandle) => ({
  "reseller:baseUrl": s.url,
  "reseller:apiKey": s.credentials.key,
  "reseller:apiSecret": s.credentials.secret,
  "reseller:requestsPerMinute": "100000",
});

const recordArgs = { zone: ZONE, type: "TXT", name: "config-check", content: "from the host", ttl: 300 };

test("a host configured without reseller:* keys takes RESELLER_BASE_URL, RESELLER_API_KEY and RESELLER_API_SECRET from its environment", async () => {
  const sandbox = await sandboxWith();
  const { key, secret } = sandbox.credentials;
  const env = await hostEnv(sandbox, { RESELLER_BASE_URL: sandbox.url, RESELLER_API_KEY: key, RESELLER_API_SECRET: secret }, {});

  const r = new Managed(env, "DnsRecord", "from-env");
  expect(await r.up(recordArgs)).toBe("create");
  const id = r.state!.id;
  expect((await env.client.listRecords(ZONE)).some((x) => x.id === id && x.content === "from the host")).toBe(true);
  await r.destroy();
  expect((await env.client.listRecords(ZONE)).some((x) => x.id === id)).toBe(false);
  // The requests were the host's, under the environment's key, and the secret is in no log line.
  expect(sandbox.operator.requests().filter((x) => x.mutating).map((x) => [x.method, x.credential, x.error])).toEqual([
    ["POST", credentialFingerprint(key), null],
    ["DELETE", credentialFingerprint(key), null],
  ]);
  expect(env.host.logs().join("\n")).not.toContain(secret);
});

// One host for the control and the old CLI: a Configure with a key of another namespace only brings
// neither reseller:* keys nor (with NO_ENV) RESELLER_* variables, and no reseller:* key at all.
test("(control) with neither reseller:* keys nor RESELLER_* variables, a create fails naming each setting and its variable; configure that brings no reseller:* key at all (a CLI older than 3.139 sends none) says so by name", async () => {
  const sandbox = await sandboxWith();
  const env = await hostEnv(sandbox, NO_ENV, { "other:setting": "x" });
  const err = await new Managed(env, "DnsRecord", "nothing").up(recordArgs).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(err?.message).toMatch(/missing configuration: reseller:baseUrl \(or RESELLER_BASE_URL\), reseller:apiKey \(or RESELLER_API_KEY\), reseller:apiSecret \(or RESELLER_API_SECRET/);
  expect(err?.message).toMatch(
    /missing configuration: .*No reseller:\* credential reached the provider: if they are set in the stack config \(pulumi config\), the Pulumi CLI is older than 3\.139\.0, the first that passes the stack config to dynamic providers; upgrade it/,
  );
  expect(sandbox.operator.requests()).toEqual([]);
});

test("rotating the secret: with the config saved at the last up refresh fails; after the documented steps (config set, up) refresh and destroy succeed", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rotate-"));
  const dataFile = path.join(dir, "sandbox.json");
  const config = (s: SandboxHandle, secret: string) => ({ "reseller:baseUrl": s.url, "reseller:apiKey": "rot-key", "reseller:apiSecret": secret, "reseller:requestsPerMinute": "100000" });
  let sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0, dataFile, credentials: [{ key: "rot-key", secret: "old-secret" }] });
  const saved = config(sandbox, "old-secret");
  let env = await hostEnv(sandbox, NO_ENV, saved);
  const r = new Managed(env, "DnsRecord", "rotated");
  expect(await r.up(recordArgs)).toBe("create");
  const id = r.state!.id;
  const port = sandbox.port;
  await sandbox.close();

  // Rotated: the service (same data, same address) now knows only the new secret.
  sandbox = await startSandbox({ port, requestsPerMinute: 100_000, processingDelaySeconds: 0, dataFile, credentials: [{ key: "rot-key", secret: "new-secret" }] });
  opened.push(sandbox);
  const current = config(sandbox, "new-secret");
  // refresh as the CLI runs it: the provider configured from the config saved at the last up, as the
  // up's own host is (the service's address unchanged); the refresh must reach the service to fail.
  await expect(Object.assign(new Managed(env, "DnsRecord", "rotated"), { state: r.state }).refresh()).rejects.toThrow(/the API key or secret is not valid/);

  // Step 3: `pulumi up` with the new config: no change, no write; it saves the new config.
  env = await hostEnv(sandbox, NO_ENV, current);
  const again = Object.assign(new Managed(env, "DnsRecord", "rotated"), { state: r.state });
  const mark = env.mark();
  expect(await again.up(recordArgs)).toBe("same");
  expect(env.mutatingSince(mark)).toEqual([]);
  // Then refresh and destroy, configured from the (new) saved config: on the up's host, configured
  // with that same config, as a command of their own would be. The refresh is proven to reach the
  // service (its GETs below), so nothing the up's process cached answers it; the destroy's signed
  // DELETE is what proves the new secret.
  const refreshed = Object.assign(new Managed(env, "DnsRecord", "rotated"), { state: again.state });
  const beforeRefresh = env.mark();
  expect(await refreshed.refresh()).toBe(true);
  expect(sandbox.operator.requests().slice(beforeRefresh).filter((x) => x.method === "GET" && x.error === null).length).toBeGreaterThan(0);
  await Object.assign(new Managed(env, "DnsRecord", "rotated"), { state: refreshed.state }).destroy();
  expect((await env.client.listRecords(ZONE)).some((x) => x.id === id)).toBe(false);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("reseller:contract against a sandbox on another contract", () => {
  const CONTRACT = {
    headers: { signature: "X-Sig", nonce: "X-Once" },
    signing: { canonicalFields: ["apiKey", "method", "path", "timestamp", "nonce", "bodySha256"], separator: "|" },
    idempotency: { keyPrefix: "acme-", hashChars: 24 },
  } satisfies ContractOverrides;

  test("with the override, creates sign under the sandbox's names and field order, and the purchase key has the contract's format", async () => {
    const sandbox = await sandboxWith(CONTRACT);
    const env = await hostEnv(sandbox, NO_ENV, { ...credentialsOf(sandbox), "reseller:contract": JSON.stringify(CONTRACT) }, CONTRACT);

    const r = new Managed(env, "DnsRecord", "contract-record");
    expect(await r.up(recordArgs)).toBe("create");
    const privacy = new Managed(env, "PrivacyAddon", "contract-privacy");
    expect(await privacy.up({ domain: "demo-shop.net" })).toBe("create");

    const log = sandbox.operator.requests();
    expect(log.filter((x) => x.error !== null)).toEqual([]);
    const purchase = log.find((x) => x.method === "POST" && x.path.endsWith("/domains/demo-shop.net/privacy"))!;
    expect(purchase.idempotency_key).toMatch(/^acme-[A-Za-z0-9_-]{24}$/);
    // The key covers the account, the domain and the operation (api/idempotency.ts purchaseKey).
    const account = accountId(sandbox.url, sandbox.credentials.key);
    expect(purchase.idempotency_key).toBe(purchaseKey({ account, urn: privacy.urn, operation: "privacy", domain: "demo-shop.net" }, CONTRACT.idempotency));

    await r.destroy();
    await privacy.destroy();
    expect(sandbox.operator.requests().filter((x) => x.error !== null)).toEqual([]);
  });

  test("without it, the first signed read (check's, before the create) is refused with the sandbox's signature error, which names the header and what to set", async () => {
    const sandbox = await sandboxWith(CONTRACT);
    const env = await hostEnv(sandbox, NO_ENV, credentialsOf(sandbox), CONTRACT);
    const err = await new Managed(env, "DnsRecord", "no-contract").up(recordArgs).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toMatch(/401 invalid_signature: this endpoint needs a signed request; missing header\(s\): X-Sig, X-Once/);
    expect(err!.message).toContain("set the contract's headers and signing entries (reseller:contract");
    // Check's account read (resources/kit/preflight.ts) meets it first: nothing is sent that writes.
    expect(sandbox.operator.requests().filter((x) => x.error !== null).map((x) => [x.method, x.error])).toEqual([["GET", "invalid_signature"]]);
    expect(sandbox.operator.requests().filter((x) => x.method !== "GET")).toEqual([]);
    expect((await env.client.listRecords(ZONE)).some((x) => x.name === "config-check")).toBe(false);
  });

  test("a host whose reseller:contract has an unknown entry says which, before any request", async () => {
    const sandbox = await sandboxWith(CONTRACT);
    const env = await hostEnv(sandbox, NO_ENV, { ...credentialsOf(sandbox), "reseller:contract": '{"header":{"signature":"X-Sig"}}' });
    await expect(new Managed(env, "DnsRecord", "typo").up(recordArgs)).rejects.toThrow(/reseller:contract: contract override: unknown entry "header"/);
    expect(sandbox.operator.requests()).toEqual([]);
  });
});

// Messages a user reads: a request that never left (connection refused) says so and that nothing
// was charged, through the provider host; hints name the user's settings and inputs.
/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

test("a register whose connection is refused says it never reached the service and nothing was charged", async () => {
  const host = await startProviderHost({ cwd: ROOT, env: NO_ENV });
  opened.push(host);
  await host.configure({ "reseller:baseUrl": `http://127.0.0.1:${await closedPort()}`, "reseller:apiKey": "k", "reseller:apiSecret": "s" });
  const env = { host } as unknown as Env;
  const err = await new Managed(env, "Domain", "refused").up({ domain: "refused-shop.com", contacts: { registrant: contact } }).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(err?.message).toMatch(/the request never reached the service after \d+ attempt\(s\) \(connection failed \(ECONNREFUSED\)\), so nothing was changed or charged\. Check reseller:baseUrl/);
  expect(err?.message).not.toMatch(/may have been applied/);
});

test("hints name reseller:timeoutSeconds and the Pulumi input (authCode), not the client's option or the service's field", () => {
  const ctx = { method: "POST", template: "/domains/transfer", path: "/api/v1/domains/transfer" };
  expect(new ResellerNetworkError(ctx, "no answer in time (UND_ERR_HEADERS_TIMEOUT)", 4).message).toContain("raise reseller:timeoutSeconds");
  const invalid = ResellerApiError.from(422, { error: { code: "validation_error", message: "auth code malformed", field: "auth_code" } }, ctx);
  expect(invalid.message).toContain("Fix the input authCode (the service's field auth_code) and retry.");
  const street = ResellerApiError.from(422, { error: { code: "validation_error", message: "too long", field: "contacts.tech.address_line_1" } }, ctx);
  expect(street.message).toContain("Fix the input contacts.tech.addressLine1 (the service's field contacts.tech.address_line_1) and retry.");
  const city = ResellerApiError.from(422, { error: { code: "validation_error", message: "too long", field: "contacts.tech.city" } }, ctx);
  expect(city.message).toContain('Fix the input field "contacts.tech.city" and retry.');
  const notFound = ResellerApiError.from(404, { error: { code: "not_found", message: "no route" } }, ctx);
  expect(notFound.message).toContain("If every call answers 404, reseller:baseUrl is wrong: it is the scheme and host only");
});

// The transport's bounds as a stack meets them: a Domain whose register answer is dripped past the
// deadline is bought once and its state is what the sandbox holds; settings that would send
// credentials in clear, or that a header cannot carry, are refused by name at the first call, with
// nothing sent and no secret in any log line.
test("a register whose answer drips past the deadline is retried under its key: one charge, state as the sandbox holds it", async () => {
  const sb = await sandboxWith();
  const proxy = await startRewritingProxy(sb.url);
  opened.push(proxy);
  const env = await hostEnv(sb, NO_ENV, { ...credentialsOf(sb), "reseller:baseUrl": proxy.url, "reseller:timeoutSeconds": "5" });
  proxy.rewrite({ method: "POST", path: /\/domains\/register$/, write: dripped(100) });

  const d = new Managed(env, "Domain", "dripped");
  expect(await d.up({ domain: "dripped-order.com", years: 1, contacts: { registrant: contact } })).toBe("create");
  const registers = proxy.requests.filter((r) => r.path.endsWith("/domains/register"));
  expect(registers.length).toBeGreaterThanOrEqual(2); // the dripped one, then one or more under load
  expect(new Set(registers.map((r) => r.idempotencyKey)).size).toBe(1);
  const charged = sb.operator.ledger().filter((e) => e.domain === "dripped-order.com" && e.action === "register");
  expect(charged).toHaveLength(1);
  const live = await env.client.getDomain("dripped-order.com");
  expect(d.state?.outputs).toMatchObject({ domain: live.domain, expiresAt: live.expires_at, stage: live.stage, charged: charged[0].amount, invoice: charged[0].invoice });
});

test.each([
  ["reseller:baseUrl", { "reseller:baseUrl": "http://api.example.com" }, 'reseller:baseUrl: "http://api.example.com" uses plain http to a host that is not this machine'],
  ["reseller:apiSecret", { "reseller:apiSecret": "host-secret-VALUE\r\n" }, "reseller:apiSecret: contains a line break (CR or LF) at position 18"],
])("%s that would leak or break the credential is refused by name at the first call; nothing is sent", async (_s, config, message) => {
  const sb = await sandboxWith();
  const env = await hostEnv(sb, NO_ENV, { ...credentialsOf(sb), ...config });
  await expect(new Managed(env, "DnsRecord", "refused").up({ zone: "demo-reseller.com", type: "TXT", name: "x", content: "y", ttl: 300 })).rejects.toThrow(message);
  expect(sb.operator.requests()).toEqual([]);
  expect(env.host.logs().join("\n")).not.toContain("host-secret-VALUE");
});
