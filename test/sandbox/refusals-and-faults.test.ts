/**
 * Rules at the sandbox's edges: a wrong transfer code is
 * refused, DELETE of protection is 403 even for an unknown name, fault paths take /regex/,
 * a failure inside a handler leaves no charge and no change, and IP allowlists take IPv6 entries.
 */
import * as V from "../../api/views";
import { checkAllowlist, normalizeAddress, parseAllowList } from "../../sandbox/auth";
import { startSandbox, type SandboxHandle, type SandboxOptions } from "../../sandbox/index";
import { FOREIGN_AUTH_CODE } from "../../sandbox/state";
import { CONTACT, makeApi, type Api } from "./signed-fetch";
import { signedGet } from "./signed-get";

const code = (r: { body: unknown }) => V.ErrorBody.parse(r.body).error.code;
let keyNo = 0;
const ik = () => `edge-key-${++keyNo}`;
const order = (domain: string, extra: Record<string, unknown> = {}) => ({ domain, years: 1, contacts: { registrant: CONTACT }, ...extra });

async function boot(opts: SandboxOptions = {}): Promise<{ sb: SandboxHandle; api: Api }> {
  const sb = await startSandbox({ requestsPerMinute: 10000, processingDelaySeconds: 0, ...opts });
  return { sb, api: makeApi(sb.url, sb.credentials) };
}

describe("transfer codes", () => {
  let sb: SandboxHandle;
  let api: Api;
  beforeAll(async () => ({ sb, api } = await boot()));
  afterAll(() => sb.close());

  it.each([["a wrong code", "WRONG-CODE-1"], ["a code of another case", FOREIGN_AUTH_CODE.toLowerCase()]])(
    "refuses %s with 422 on auth_code, without repeating it, charging nothing",
    async (_label, wrong) => {
      const before = sb.operator.state();
      const r = await api("POST", "/domains/transfer", order("transfer-me.net", { auth_code: wrong }), { idempotencyKey: ik() });
      expect([r.status, code(r), r.body.error.field]).toEqual([422, "validation_error", "auth_code"]);
      expect(r.body.error.message).toContain("auth_code");
      expect(r.body.error.message).not.toContain(wrong);
      const after = sb.operator.state();
      expect(after.ledger).toEqual(before.ledger);
      expect(after.account.balance).toBe(before.account.balance);
      expect(after.domains["transfer-me.net"]).toBeUndefined();
    },
  );

  it("accepts the documented code and charges once", async () => {
    const ledger = sb.operator.ledger().length;
    const r = await api("POST", "/domains/transfer", order("transfer-me.net", { auth_code: FOREIGN_AUTH_CODE }), { idempotencyKey: ik() });
    expect(r.status).toBe(201);
    expect(V.DomainOrder.parse(r.body.data).domain).toBe("transfer-me.net");
    expect(sb.operator.ledger().length).toBe(ledger + 1);
  });
});

describe("protection removal", () => {
  it("is 403 requires_portal_verification even for a name not in the account, changing nothing", async () => {
    const { sb, api } = await boot();
    try {
      const before = sb.operator.state();
      for (const name of ["not-mine.com", "protected-brand.com"]) {
        const r = await api("DELETE", `/domains/${name}/protection`);
        expect([r.status, code(r)]).toEqual([403, "requires_portal_verification"]);
      }
      expect(sb.operator.state().domains).toEqual(before.domains);
    } finally {
      await sb.close();
    }
  });
});

describe("fault path patterns", () => {
  let sb: SandboxHandle;
  let api: Api;
  beforeAll(async () => ({ sb, api } = await boot()));
  afterAll(() => sb.close());

  it("matches a /regex/ path and leaves other paths alone", async () => {
    sb.operator.injectFault({ kind: "error", status: 503, count: 2, match: { path: "/^\\/api\\/v1\\/account\\/(balance|tier)$/" } });
    expect((await api("GET", "/ping")).status).toBe(200);
    expect((await api("GET", "/account/balance")).status).toBe(503);
    expect((await api("GET", "/account/tier")).status).toBe(503);
    expect((await api("GET", "/account/balance")).status).toBe(200);
    const log = sb.operator.requests().filter((e) => e.fault === "error");
    expect(log.map((e) => e.path)).toEqual(["/api/v1/account/balance", "/api/v1/account/tier"]);
  });

  it("still treats a plain string as a substring", async () => {
    sb.operator.injectFault({ kind: "error", count: 1, match: { path: "/tlds" } });
    expect((await api("GET", "/tlds")).status).toBe(500);
    expect((await api("GET", "/tlds")).status).toBe(200);
  });

  it("refuses a /regex/ that does not compile with 422 naming match.path", async () => {
    const res = await fetch(`${sb.url}/_sandbox/faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ kind: "error", count: 1, match: { path: "/([/" } }),
    });
    const body = (await res.json()) as { error: { code: string; field: string } };
    expect([res.status, body.error.code, body.error.field]).toEqual([422, "validation_error", "match.path"]);
    expect(sb.operator.faults()).toEqual([]);
  });
});

describe("a failure inside a handler", () => {
  it("answers 500 and rolls back: no charge, no domain, the next request works", async () => {
    let broken = true;
    const random = (n: number): Uint8Array => {
      // The auth code of a new order is drawn after the charge: failing here tests the rollback.
      if (broken) throw new Error("entropy source unavailable");
      return new Uint8Array(n).fill(7);
    };
    const { sb, api } = await boot({ random });
    try {
      const before = sb.operator.state();
      const r = await api("POST", "/domains/register", order("rollback-test.com"), { idempotencyKey: "rollback-1" });
      expect([r.status, code(r)]).toEqual([500, "internal_error"]);
      expect(r.body.error.message).not.toContain("entropy");
      const after = sb.operator.state();
      expect(after.ledger).toEqual(before.ledger);
      expect(after.account.balance).toBe(before.account.balance);
      expect(after.domains["rollback-test.com"]).toBeUndefined();
      expect(after.counters).toEqual(before.counters);
      expect(sb.operator.requests().at(-1)).toMatchObject({ status: 500, mutating: false });

      broken = false;
      const retry = await api("POST", "/domains/register", order("rollback-test.com"), { idempotencyKey: "rollback-1" });
      expect(retry.status).toBe(201);
      expect(sb.operator.ledger().length).toBe(before.ledger.length + 1);
    } finally {
      await sb.close();
    }
  });
});

describe("IP allowlists", () => {
  it("parse IPv4 and IPv6 addresses and ranges, and check IPv4-mapped callers as IPv4", () => {
    const cred = (allowIps: string[]) => ({ key: "k", secret: "s", scopes: [], allowIps });
    const v6 = cred(["2001:db8::/32", "::1"]);
    expect(() => checkAllowlist(v6, "2001:db8:1::5")).not.toThrow();
    expect(() => checkAllowlist(v6, "::1")).not.toThrow();
    expect(() => checkAllowlist(v6, "2001:db9::1")).toThrow(/allowlist/);
    expect(() => checkAllowlist(v6, "127.0.0.1")).toThrow(/allowlist/);
    expect(() => checkAllowlist(cred(["192.0.2.0/24"]), "192.0.2.200")).not.toThrow();
    expect(() => checkAllowlist(cred(["192.0.2.0/24"]), "")).toThrow(/allowlist/);
    expect(() => checkAllowlist(cred(["127.0.0.0/8"]), normalizeAddress("::ffff:127.0.0.9"))).not.toThrow();
    for (const bad of ["10.0.0.0/99", "::1/129", "not-an-ip", "10.0.0.1/8/8", "10.0.0.0/x"]) {
      expect(() => parseAllowList([bad])).toThrow(JSON.stringify(bad));
    }
  });

  it("refuse a bad entry when the sandbox starts, not on the first request", async () => {
    await expect(startSandbox({ credentials: [{ key: "k", secret: "s", allowIps: ["10.0.0.0/99"] }] })).rejects.toThrow(/allowIps/);
  });

  it("admit an IPv6 caller listed by address or range, and refuse one that is not", async () => {
    const sb = await startSandbox({
      host: "::1",
      credentials: [
        { key: "v6-host", secret: "s1", allowIps: ["::1"] },
        { key: "v6-range", secret: "s2", allowIps: ["::/127"] },
        { key: "v6-other", secret: "s3", allowIps: ["2001:db8::/32", "127.0.0.1"] },
      ],
    });
    try {
      expect(sb.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      const get = async (key: string, secret: string) => {
        const r = await signedGet(sb.url, key, secret, "/domains/demo-shop.net");
        return [r.status, r.body.error?.code ?? r.body.data?.domain];
      };
      expect(await get("v6-host", "s1")).toEqual([200, "demo-shop.net"]);
      expect(await get("v6-range", "s2")).toEqual([200, "demo-shop.net"]);
      expect(await get("v6-other", "s3")).toEqual([403, "ip_not_allowed"]);
    } finally {
      await sb.close();
    }
  });
});

describe("WHOIS Privacy re-enabled after DELETE", () => {
  it("stays awaiting_verification until the registrant confirms, and is not charged again", async () => {
    const { sb, api } = await boot();
    try {
      const status = async () => V.PrivacyView.parse((await api("GET", "/domains/demo-shop.net/privacy")).body.data).status;
      const bought = await api("POST", "/domains/demo-shop.net/privacy", {}, { idempotencyKey: ik() });
      expect(V.PrivacyView.parse(bought.body.data).status).toBe("awaiting_verification");
      const ledger = sb.operator.ledger().length;

      expect(V.PrivacyView.parse((await api("DELETE", "/domains/demo-shop.net/privacy")).body.data).status).toBe("disabled");
      const again = await api("POST", "/domains/demo-shop.net/privacy", {}, { idempotencyKey: ik() });
      expect(again.body.data).toMatchObject({ status: "awaiting_verification", charged: "0.00" });

      sb.operator.confirmPrivacy("demo-shop.net");
      expect(await status()).toBe("active");
      await api("DELETE", "/domains/demo-shop.net/privacy");
      const third = await api("POST", "/domains/demo-shop.net/privacy", {}, { idempotencyKey: ik() });
      expect(third.body.data).toMatchObject({ status: "active", charged: "0.00" });
      expect(sb.operator.ledger().length).toBe(ledger);
    } finally {
      await sb.close();
    }
  });
});
