/**
 * A service that echoes a secret encoded rather than as sent: the API secret URL-encoded (as in a
 * query string, with "%2F" or "%2f", and "+" for a space), base64 inside a Basic header's
 * "key:secret", and JSON-escaped; an EPP code sent in the body, the same ways. The client's error
 * carries none of these forms (through a lying proxy in front of the sandbox); nor does a provider
 * host's log line or error for a value the program marked secret. Control: the error still shows
 * the rest of the service's message.
 */
import { ResellerClient } from "../../api/client";
import { encodedForms } from "../../api/redact";
import { SecretValues } from "../../resources/kit/secret-inputs";
import { SECRET_INPUTS } from "../../resources/kinds";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import * as F from "../api/fixtures";
import { startRewritingProxy, type RewritingProxy } from "../support/rewriting-proxy";

// A space, a slash, a plus and a quote: each encoding writes them differently.
const SECRET = 'echo secret/9+x "q" 7d41e0';
const AUTH_CODE = "Xfer code/4+4 a81c";

/** Every way the hostile service below writes `s`. */
function echoes(s: string, key: string): string[] {
  const url = encodeURIComponent(s);
  return [
    url,
    url.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    url.replace(/%20/g, "+"),
    Buffer.from(`${key}:${s}`).toString("base64"),
    Buffer.from(`${key}:${s}`).toString("base64url"),
    Buffer.from(`x${s}yz`).toString("base64"),
    JSON.stringify(s).slice(1, -1),
  ];
}

let sandbox: SandboxHandle;
let proxy: RewritingProxy;
let client: ResellerClient;
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0, credentials: [{ key: "echo-key", secret: SECRET }] });
  proxy = await startRewritingProxy(sandbox.url);
  client = new ResellerClient({ baseUrl: proxy.url, apiKey: "echo-key", apiSecret: SECRET, requestsPerMinute: 60_000, rateLimitLogDir: null, maxRetries: 0, sleep: async () => {} });
});
afterEach(async () => {
  await client.close();
  await proxy.close();
  await sandbox.close();
});

/** A 400 whose message repeats `forms`, with a marker that must stay visible. */
const echoing = (forms: string[]) => () => ({
  status: 400,
  contentType: "application/json",
  body: JSON.stringify({ success: false, error: { code: "bad_request", message: `visible-marker; you sent ${forms.join(" | ")}` } }),
});

async function messageOf(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(Error);
  return `${(e as Error).message}\n${JSON.stringify(e)}`;
}

test("the API secret echoed URL-encoded, base64 (a Basic header) or JSON-escaped is masked in the client's error", async () => {
  const forms = echoes(SECRET, "echo-key");
  proxy.rewrite({ method: "GET", path: /\/account\/balance$/, lie: echoing(forms) });
  const text = await messageOf(client.getBalance());
  expect(text).toContain("visible-marker");
  for (const f of forms) expect([f, text.includes(f)]).toEqual([f, false]);
});

test("an auth code sent in the body and echoed encoded is masked in the client's error", async () => {
  const forms = echoes(AUTH_CODE, "code");
  proxy.rewrite({ method: "POST", path: /\/domains\/transfer$/, lie: echoing(forms) });
  const text = await messageOf(client.transfer({ domain: "echo-transfer.com", years: 1, auth_code: AUTH_CODE, contacts: { registrant: F.contact } }, { idempotencyKey: "rp1-echo-transfer" }));
  expect(text).toContain("visible-marker");
  for (const f of forms) expect([f, text.includes(f)]).toEqual([f, false]);
});

test("the provider host masks a value marked secret in its encoded forms too", () => {
  const values = new SecretValues();
  values.addFrom({ [SECRET_INPUTS]: ["token"], token: SECRET });
  const line = `visible-marker ${echoes(SECRET, "user").join(" ")}`;
  const masked = values.mask(line);
  expect(masked).toContain("visible-marker");
  for (const f of echoes(SECRET, "user")) expect([f, masked.includes(f)]).toEqual([f, false]);
  // Each form is one the masking knows, not a lucky overlap.
  expect(encodedForms(SECRET).length).toBeGreaterThan(5);
});
