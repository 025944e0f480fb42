/** Authentication and admission over real HTTP: key/secret, signature, timestamp, nonce, scopes, IP allowlist, rate limit. */
import { DEFAULT_CONTRACT } from "../../api/contract";
import * as V from "../../api/views";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { makeApi, type Api } from "./signed-fetch";

const code = (r: { body: unknown }) => V.ErrorBody.parse(r.body).error.code;

describe("sandbox authentication", () => {
  let sb: SandboxHandle;
  let api: Api;
  beforeAll(async () => {
    sb = await startSandbox({
      requestsPerMinute: 10000,
      credentials: [
        { key: "sandbox-key", secret: "sandbox-secret" },
        { key: "reader", secret: "reader-secret", scopes: ["read"] },
        { key: "far-away", secret: "far-secret", allowIps: ["10.0.0.0/8", "192.0.2.7"] },
        { key: "local-only", secret: "local-secret", allowIps: ["127.0.0.0/8"] },
      ],
    });
    api = makeApi(sb.url, sb.credentials);
  });
  afterAll(() => sb.close());

  it("refuses a missing key or a wrong secret with 401 unauthorized, never echoing the secret", async () => {
    const none = await api("GET", "/ping", undefined, { headers: { [DEFAULT_CONTRACT.headers.key]: "" } });
    expect(none.status).toBe(401);
    expect(code(none)).toBe("unauthorized");
    const wrong = await api("GET", "/ping", undefined, { secret: "not-the-secret" });
    expect(wrong.status).toBe(401);
    expect(code(wrong)).toBe("unauthorized");
    expect(JSON.stringify(wrong.body)).not.toContain("not-the-secret");
    const unknown = await api("GET", "/ping", undefined, { key: "nobody" });
    expect(code(unknown)).toBe("unauthorized");
  });

  it("lets catalogue reads through unsigned but requires a signature on management routes", async () => {
    expect((await api("GET", "/ping", undefined, { unsigned: true })).status).toBe(200);
    const r = await api("GET", "/domains/demo-reseller.com", undefined, { unsigned: true });
    expect(r.status).toBe(401);
    expect(code(r)).toBe("invalid_signature");
    expect(r.body.error.message).toContain(DEFAULT_CONTRACT.headers.signature);
  });

  it("refuses a signature made with another secret", async () => {
    const r = await api("PUT", "/domains/demo-shop.net/lock", { locked: true }, { secret: "sandbox-secret", headers: { [DEFAULT_CONTRACT.headers.signature]: "00".repeat(32) } });
    expect(r.status).toBe(401);
    expect(code(r)).toBe("invalid_signature");
    expect(sb.operator.state().domains["demo-shop.net"].locked).toBe(false);
  });

  it("refuses a timestamp outside the skew and gives the server time", async () => {
    const skew = DEFAULT_CONTRACT.signing.clockSkewSeconds;
    const r = await api("GET", "/domains", undefined, { timestampMs: Date.now() - (skew + 60) * 1000 });
    expect(r.status).toBe(401);
    expect(code(r)).toBe("timestamp_out_of_range");
    expect(typeof r.body.error.details.server_time).toBe("number");
    expect(Math.abs(r.body.error.details.server_time - Date.now() / 1000)).toBeLessThan(skew);
  });

  it("refuses a replayed nonce", async () => {
    const first = await api("GET", "/domains", undefined, { nonce: "fixed-nonce-1" });
    expect(first.status).toBe(200);
    const again = await api("GET", "/domains", undefined, { nonce: "fixed-nonce-1" });
    expect(again.status).toBe(401);
    expect(code(again)).toBe("nonce_reused");
  });

  it("enforces scopes and names the missing one", async () => {
    const reader = makeApi(sb.url, { key: "reader", secret: "reader-secret" });
    const ping = await reader("GET", "/ping");
    expect(V.Ping.parse(ping.body.data).scopes).toEqual(["read"]);
    const r = await reader("PUT", "/domains/demo-shop.net/lock", { locked: true });
    expect(r.status).toBe(403);
    expect(code(r)).toBe("insufficient_scope");
    expect(r.body.error.details.required_scope).toBe("domains");
    expect(sb.operator.state().domains["demo-shop.net"].locked).toBe(false);
  });

  it("enforces IP allowlists of addresses and CIDR ranges", async () => {
    const far = await makeApi(sb.url, { key: "far-away", secret: "far-secret" })("GET", "/ping");
    expect(far.status).toBe(403);
    expect(code(far)).toBe("ip_not_allowed");
    const local = await makeApi(sb.url, { key: "local-only", secret: "local-secret" })("GET", "/ping");
    expect(local.status).toBe(200);
  });
});

describe("sandbox rate limit", () => {
  it("answers 429 rate_limited with Retry-After and details.retry_after, per credential", async () => {
    const sb = await startSandbox({ requestsPerMinute: 3, credentials: [{ key: "a", secret: "sa" }, { key: "b", secret: "sb" }] });
    try {
      const a = makeApi(sb.url, { key: "a", secret: "sa" });
      for (let i = 0; i < 3; i++) expect((await a("GET", "/ping")).status).toBe(200);
      const r = await a("GET", "/ping");
      expect(r.status).toBe(429);
      expect(code(r)).toBe("rate_limited");
      const retry = Number(r.headers.get("retry-after"));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(r.body.error.details.retry_after).toBe(retry);
      expect((await makeApi(sb.url, { key: "b", secret: "sb" })("GET", "/ping")).status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});
