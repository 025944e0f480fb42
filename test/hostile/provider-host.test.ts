/**
 * The transport's bounds as a stack meets them, through the SDK's provider host over gRPC: a Domain
 * whose register answer is dripped past the deadline is bought once and its state is what the
 * sandbox holds; settings that would send credentials in clear, or that a header cannot carry, are
 * refused by name at the first call, with nothing sent and no secret in any log line.
 */
import { startProviderHost } from "../../engine/host";
import { ResellerClient } from "../../provider/client";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { contact, Managed, ROOT, type Env } from "../resources/lifecycle/harness";
import { startRewritingProxy } from "../support/rewriting-proxy";
import { dripped } from "./answer-writers";

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const x of opened.splice(0).reverse()) await x.close();
});

/** A host configured with `config` over the sandbox's credentials, wrapped as the harness's Env. */
async function hostEnv(sandbox: SandboxHandle, config: Record<string, string>): Promise<Env> {
  const host = await startProviderHost({ cwd: ROOT, env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined } });
  opened.push(host);
  const full = { "reseller:apiKey": sandbox.credentials.key, "reseller:apiSecret": sandbox.credentials.secret, "reseller:requestsPerMinute": "100000", ...config };
  await host.configure(full);
  const client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 100_000 });
  opened.push(client);
  return {
    sandbox,
    host,
    client,
    config: full,
    mark: () => sandbox.operator.requests().length,
    mutatingSince: (mark) => sandbox.operator.requests().slice(mark).filter((r) => r.mutating).map((r) => ({ method: r.method, path: r.path })),
    close: async () => undefined,
  };
}

async function sandbox(): Promise<SandboxHandle> {
  const s = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
  opened.push(s);
  return s;
}

test("a register whose answer drips past the deadline is retried under its key: one charge, state as the sandbox holds it", async () => {
  const sb = await sandbox();
  const proxy = await startRewritingProxy(sb.url);
  opened.push(proxy);
  const env = await hostEnv(sb, { "reseller:baseUrl": proxy.url, "reseller:timeoutSeconds": "5" });
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
  const sb = await sandbox();
  const env = await hostEnv(sb, { "reseller:baseUrl": sb.url, ...config });
  await expect(new Managed(env, "DnsRecord", "refused").up({ zone: "demo-reseller.com", type: "TXT", name: "x", content: "y", ttl: 300 })).rejects.toThrow(message);
  expect(sb.operator.requests()).toEqual([]);
  expect(env.host.logs().join("\n")).not.toContain("host-secret-VALUE");
});
