/** Operator interface over HTTP, injected faults, persistence to a data file, CLI options. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as V from "../../api/views";
import { parseArgs } from "../../sandbox/cli";
import { SandboxOperator, startSandbox, type SandboxHandle } from "../../sandbox/index";
import { REDEMPTION_AFTER_DAYS } from "../../sandbox/state";
import { CONTACT, makeApi, type Api } from "./signed-fetch";

const code = (r: { body: unknown }) => V.ErrorBody.parse(r.body).error.code;
const order = (domain: string, extra: Record<string, unknown> = {}) => ({ domain, years: 1, contacts: { registrant: CONTACT }, ...extra });
/** Account credit in cents, read through the API. */
const balance = (r: { body: unknown }) => Math.round(Number(V.Balance.parse((r.body as { data: unknown }).data).balance) * 100);

describe("faults", () => {
  let sb: SandboxHandle;
  let api: Api;
  let op: SandboxOperator;
  beforeEach(async () => {
    sb = await startSandbox({ requestsPerMinute: 10000, processingDelaySeconds: 0 });
    api = makeApi(sb.url, sb.credentials);
    op = new SandboxOperator(sb.url);
  });
  afterEach(() => sb.close());

  it("injects an error for count matching requests, then recovers; faulted requests are logged", async () => {
    await op.injectFault({ kind: "error", status: 503, count: 1, match: { method: "GET", path: "/ping" } });
    const r = await api("GET", "/ping");
    expect(r.status).toBe(503);
    expect(r.body.success).toBe(false);
    expect((await api("GET", "/ping")).status).toBe(200);
    const log = await op.requests();
    expect(log.map((e) => [e.status, e.fault])).toEqual([[503, "error"], [200, null]]);
  });

  it("counts the requests received since the log was emptied, and the earliest arrival, beside the log (which keeps the latest 10,000)", async () => {
    sb.operator.clearRequests();
    await api("GET", "/ping");
    await api("GET", "/ping");
    const log = sb.operator.requests();
    expect(sb.operator.requestsReceived()).toEqual({ count: 2, firstAt: log[0].at });
    sb.operator.clearRequests();
    expect(sb.operator.requestsReceived()).toEqual({ count: 0 });
  });

  it("injects 429 with Retry-After", async () => {
    await op.injectFault({ kind: "rate-limit", count: 1, retryAfterSeconds: 7 });
    expect(await op.faults()).toEqual([{ kind: "rate-limit", count: 1, retryAfterSeconds: 7 }]);
    const r = await api("GET", "/ping");
    expect([r.status, code(r), r.headers.get("retry-after"), r.body.error.details.retry_after]).toEqual([429, "rate_limited", "7", 7]);
  });

  it("delays a request and still answers it", async () => {
    await op.injectFault({ kind: "delay", ms: 5, count: 1 });
    expect((await api("GET", "/ping")).status).toBe(200);
    expect((await op.requests())[0].fault).toBe("delay");
  });

  it("hold: the request waits unprocessed, is listed as held, and is processed and answered once released", async () => {
    await op.injectFault({ kind: "hold", count: 1, match: { method: "POST", path: "/domains/register" } });
    const ledger = (await op.ledger()).length;
    let answered = false;
    const reply = api("POST", "/domains/register", order("held-order.com"), { idempotencyKey: "hold-1" }).then((r) => ((answered = true), r));
    while ((await op.held()).length === 0) await new Promise((r) => setTimeout(r, 10));
    expect(await op.held()).toEqual([{ method: "POST", path: "/api/v1/domains/register" }]);
    // Held: not processed (no charge, not logged), not answered, the fault used up.
    expect([(await op.ledger()).length, (await op.requests()).length, answered, (await op.faults()).length]).toEqual([ledger, 0, false, 0]);
    expect(await op.release()).toEqual({ released: 1 });
    expect((await reply).status).toBe(201);
    expect((await op.ledger()).length).toBe(ledger + 1);
    expect((await op.requests()).map((e) => [e.fault, e.mutating])).toEqual([["hold", true]]);
    expect([await op.held(), await op.release()]).toEqual([[], { released: 0 }]);
  });

  it("reset lets a held request go on", async () => {
    await op.injectFault({ kind: "hold", count: 1, match: { path: "/ping" } });
    const reply = api("GET", "/ping");
    while (sb.operator.held().length === 0) await new Promise((r) => setTimeout(r, 10));
    sb.operator.reset();
    expect((await reply).status).toBe(200);
    expect(sb.operator.held()).toEqual([]);
  });

  it("drop-after-commit: the order is committed and charged once; the retry with the same key replays it", async () => {
    await op.injectFault({ kind: "drop-after-commit", count: 1, match: { path: "/domains/register" } });
    const ledger = (await op.ledger()).length;
    await expect(api("POST", "/domains/register", order("dropped.com"), { idempotencyKey: "drop-1" })).rejects.toThrow();
    expect((await op.ledger()).length).toBe(ledger + 1);
    const retry = await api("POST", "/domains/register", order("dropped.com"), { idempotencyKey: "drop-1" });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect((await op.ledger()).length).toBe(ledger + 1);
    const log = await op.requests();
    expect(log.map((e) => [e.fault, e.mutating, e.replayed])).toEqual([["drop-after-commit", true, false], [null, false, true]]);
  });

  it("refuses a malformed fault with 422", async () => {
    await expect(op.injectFault({ kind: "explode", count: 1 } as never)).rejects.toMatchObject({ status: 422, code: "validation_error" });
    await expect(op.injectFault({ kind: "error", count: 0 })).rejects.toMatchObject({ status: 422 });
  });
});

describe("operator over HTTP", () => {
  it("approves an order, advances the clock, changes settings, resets", async () => {
    const sb = await startSandbox({ requestsPerMinute: 10000, processingDelaySeconds: 60 });
    const api = makeApi(sb.url, sb.credentials);
    const op = new SandboxOperator(sb.url);
    try {
      expect((await op.approve("awaiting-review.dev")).stage).toBe("pending");
      await op.advanceClock(61);
      expect((await api("GET", "/domains/awaiting-review.dev")).body.data.stage).toBe("active");
      await expect(op.approve("demo-shop.net")).rejects.toMatchObject({ status: 409 });
      await expect(op.approve("nobody.com")).rejects.toMatchObject({ status: 404 });

      const s = await op.settings({ approval: { renewals: true }, balance: "12.34" });
      expect(s).toMatchObject({ approval: { orders: false, renewals: true }, balance: "12.34" });
      await expect(op.settings({ requestsPerMinute: 0 })).rejects.toMatchObject({ status: 422 });
      expect((await api("GET", "/account/balance")).body.data.balance).toBe("12.34");

      const state = await op.state();
      expect(state.account.balance).toBe(1234);
      await op.reset();
      expect((await op.state()).account.balance).toBe(100000);
      expect((await op.requests()).length).toBe(0);
      expect((await api("GET", "/domains/awaiting-review.dev")).body.data.stage).toBe("pending_approval");
      await op.clearRequests();
      expect(await op.requests()).toEqual([]);
    } finally {
      await sb.close();
    }
  });

  it("holds renewals for approval and refunds a rejected one", async () => {
    const sb = await startSandbox({ requestsPerMinute: 10000, approval: { renewals: true } });
    const api = makeApi(sb.url, sb.credentials);
    const op = new SandboxOperator(sb.url);
    try {
      const info = (await api("GET", "/domains/demo-shop.net")).body.data;
      const r = await api("POST", "/domains/demo-shop.net/renew", { years: 1, current_expiry: info.expiry_date }, { idempotencyKey: "ren-1" });
      expect(r.body.data.stage).toBe("pending_approval");
      expect((await api("GET", "/domains/demo-shop.net")).body.data).toMatchObject({ expiry_date: info.expiry_date, pending_renewal: { years: 1 } });
      const before = balance(await api("GET", "/account/balance"));
      expect((await op.reject("demo-shop.net")).pending_renewal).toBeNull();
      expect(balance(await api("GET", "/account/balance"))).toBe(before + 1500);
      expect((await api("GET", "/domains/demo-shop.net")).body.data).toMatchObject({ stage: "active", expiry_date: info.expiry_date, pending_renewal: null });
      expect((await op.ledger()).filter((e) => e.domain === "demo-shop.net").map((e) => [e.action, e.amount])).toEqual([
        ["renew", "15.00"],
        ["refund", "-15.00"],
      ]);
      await expect(op.reject("demo-shop.net")).rejects.toMatchObject({ status: 409, code: "domain_not_active" });
    } finally {
      await sb.close();
    }
  });

  it("confirms a privacy purchase and a held registrant change; the API shows each", async () => {
    const sb = await startSandbox({ requestsPerMinute: 10000 });
    const api = makeApi(sb.url, sb.credentials);
    const op = new SandboxOperator(sb.url);
    try {
      expect((await api("POST", "/domains/demo-shop.net/privacy", {}, { idempotencyKey: "priv-1" })).body.data.status).toBe("awaiting_verification");
      expect((await op.confirmPrivacy("demo-shop.net")).privacy).toMatchObject({ enabled: true, status: "active" });
      expect((await api("GET", "/domains/demo-shop.net/privacy")).body.data).toMatchObject({ enabled: true, status: "active" });
      await expect(op.confirmPrivacy("demo-shop.net")).rejects.toMatchObject({ status: 409 });

      // Privacy is on, so a new registrant e-mail is held until the registrant confirms it.
      const moved = { ...CONTACT, email: "new-owner@example.org" };
      const held = await api("PUT", "/domains/demo-shop.net/contacts", { contacts: { registrant: moved } });
      expect(held.body.data.status).toBe("pending");
      const waiting = (await api("GET", "/domains/demo-shop.net/contacts")).body.data;
      expect([waiting.registrant.email, waiting.pending_registrant.email]).toEqual(["dana@demo-reseller.test", "new-owner@example.org"]);
      await op.confirmContacts("demo-shop.net");
      const done = (await api("GET", "/domains/demo-shop.net/contacts")).body.data;
      expect([done.registrant.email, done.pending_registrant]).toEqual(["new-owner@example.org", null]);
      await expect(op.confirmContacts("demo-shop.net")).rejects.toMatchObject({ status: 409 });
      await expect(op.confirmPrivacy("nobody.com")).rejects.toMatchObject({ status: 404, code: "not_found" });
    } finally {
      await sb.close();
    }
  });

  it("completes KYC and a transfer, rejects an order with a refund; the API shows each stage", async () => {
    const sb = await startSandbox({ requestsPerMinute: 10000, processingDelaySeconds: 3600, kycTlds: ["de"] });
    const api = makeApi(sb.url, sb.credentials);
    const op = new SandboxOperator(sb.url);
    const stage = async (d: string) => (await api("GET", `/domains/${d}`)).body.data.stage;
    try {
      await api("POST", "/domains/register", order("kyc-over-http.de"), { idempotencyKey: "kyc-1" });
      expect(await stage("kyc-over-http.de")).toBe("pending");
      await op.advanceClock(3600);
      expect(await stage("kyc-over-http.de")).toBe("pending_kyc");
      expect((await op.completeKyc("kyc-over-http.de")).stage).toBe("active");
      expect(await stage("kyc-over-http.de")).toBe("active");

      const t = await api("POST", "/domains/transfer", order("transfer-me.com", { auth_code: "ABC-123-XYZ" }), { idempotencyKey: "tr-1" });
      expect(t.body.data.stage).toBe("pending_transfer");
      expect(await stage("transfer-me.com")).toBe("pending_transfer");
      await op.completeTransfer("transfer-me.com");
      expect(await stage("transfer-me.com")).toBe("active");
      await expect(op.completeTransfer("transfer-me.com")).rejects.toMatchObject({ status: 409, code: "domain_not_active" });

      await op.settings({ approval: { orders: true } });
      const before = balance(await api("GET", "/account/balance"));
      expect((await api("POST", "/domains/register", order("reject-over-http.com"), { idempotencyKey: "rej-1" })).body.data.stage).toBe("pending_approval");
      expect(balance(await api("GET", "/account/balance"))).toBe(before - 1200);
      expect((await op.reject("reject-over-http.com")).stage).toBe("cancelled");
      expect(await stage("reject-over-http.com")).toBe("cancelled");
      expect(balance(await api("GET", "/account/balance"))).toBe(before);
      expect((await op.ledger()).filter((e) => e.domain === "reject-over-http.com").map((e) => e.amount)).toEqual(["12.00", "-12.00"]);
      await expect(op.reject("reject-over-http.com")).rejects.toMatchObject({ status: 409 });

      // The registry refuses an order: failed and refunded; the name can be ordered again.
      expect((await api("POST", "/domains/register", order("fail-over-http.com"), { idempotencyKey: "fail-1" })).body.data.stage).toBe("pending_approval");
      expect((await op.fail("fail-over-http.com")).stage).toBe("failed");
      expect(await stage("fail-over-http.com")).toBe("failed");
      expect(balance(await api("GET", "/account/balance"))).toBe(before);
      expect((await op.ledger()).filter((e) => e.domain === "fail-over-http.com").map((e) => e.amount)).toEqual(["12.00", "-12.00"]);
      await expect(op.fail("fail-over-http.com")).rejects.toMatchObject({ status: 409, code: "domain_not_active" });
      expect((await api("POST", "/domains/register", order("fail-over-http.com"), { idempotencyKey: "fail-2" })).body.data.stage).toBe("pending_approval");
      await expect(op.completeKyc("nobody.de")).rejects.toMatchObject({ status: 404 });
    } finally {
      await sb.close();
    }
  });

  it("the README's curl examples reach a route each, and name every SandboxOperator method", async () => {
    const readme = readFileSync(join(__dirname, "../../sandbox/README.md"), "utf8");
    const calls = [...readme.matchAll(/^curl -s (?:-X (\w+) )?\$S\/(\S+)(?: -H '([^']*)')?(?: -d '([^']*)')?/gm)];
    const sb = await startSandbox();
    try {
      const routes = new Set<string>();
      for (const [, method = "GET", path, header, body] of calls) {
        const [name, value] = header?.split(": ") ?? [];
        const r = await fetch(`${sb.url}/_sandbox/${path}`, { method, body, headers: name ? { [name]: value } : {} });
        const text = await r.text();
        expect([`${method} ${path}`, text]).not.toEqual([`${method} ${path}`, expect.stringContaining("operator endpoint")]);
        routes.add(`${method} ${path.replace(/^(orders|domains)\/[^/]+/, "$1/:d")}`);
      }
      expect(routes.size).toBe(19);
    } finally {
      await sb.close();
    }
    const methods = Object.getOwnPropertyNames(SandboxOperator.prototype).filter((m) => !["constructor", "call"].includes(m));
    expect(methods.length).toBeGreaterThanOrEqual(17);
    for (const m of methods) expect(readme).toContain(`\`${m}(`);
  });

  it("answers unknown operator paths with 404 and bad JSON with 400", async () => {
    const sb = await startSandbox();
    try {
      expect((await fetch(`${sb.url}/_sandbox/nothing`)).status).toBe(404);
      expect((await fetch(`${sb.url}/_sandbox/faults`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{x" })).status).toBe(400);
    } finally {
      await sb.close();
    }
  });
});

describe("clock: expiry, grace period, redemption", () => {
  // A still wall clock: only advanceClock moves business time, so every boundary is exact.
  const FIXED = Date.UTC(2031, 5, 1, 12); // seed day 2031-06-01, now 12:00
  const DAY_S = 86_400;
  const SHOP_EXPIRY = Date.UTC(2031, 6, 16); // demo-shop.net: seed day + 45 days
  const toShopExpiry = (SHOP_EXPIRY - FIXED) / 1000;
  let sb: SandboxHandle;
  let api: Api;
  let op: SandboxOperator;
  beforeEach(async () => {
    sb = await startSandbox({ requestsPerMinute: 10000, now: () => FIXED });
    const signed = makeApi(sb.url, sb.credentials);
    api = (method, path, body, opts = {}) => signed(method, path, body, { timestampMs: FIXED, ...opts });
    op = new SandboxOperator(sb.url);
  });
  afterEach(() => sb.close());
  const info = async (d: string) => V.DomainInfo.parse((await api("GET", `/domains/${d}`)).body.data);
  const renew = (d: string, current: string, key: string) => api("POST", `/domains/${d}/renew`, { years: 1, current_expiry: current }, { idempotencyKey: key });

  it("expired at the expiry and renewable through the grace period: renew brings it back to active", async () => {
    expect((await info("demo-shop.net")).expiry_date).toBe("2031-07-16");
    await op.advanceClock(toShopExpiry - 1);
    expect((await info("demo-shop.net")).stage).toBe("active");
    await op.advanceClock(1);
    expect(await info("demo-shop.net")).toMatchObject({ stage: "expired", status: "expired", registry_statuses: ["ok"] });
    await op.advanceClock(REDEMPTION_AFTER_DAYS * DAY_S - 1);
    expect((await info("demo-shop.net")).stage).toBe("expired");

    const ledger = (await op.ledger()).length;
    const r = await renew("demo-shop.net", "2031-07-16", "grace-1");
    expect(r.status).toBe(201);
    expect(V.DomainOrder.parse(r.body.data)).toMatchObject({ stage: "active", charged: "15.00", expiry_date: "2032-07-16" });
    expect((await op.ledger()).slice(ledger)).toMatchObject([{ domain: "demo-shop.net", action: "renew", amount: "15.00", idempotency_key: "grace-1" }]);
    // The moment it would have entered redemption passes without effect.
    await op.advanceClock(1);
    expect(await info("demo-shop.net")).toMatchObject({ stage: "active", expiry_date: "2032-07-16" });
  });

  it("redemption after the grace period: renew refused with nothing charged, restore (operator) brings it back", async () => {
    await op.advanceClock(toShopExpiry);
    expect((await info("demo-shop.net")).stage).toBe("expired");
    await op.advanceClock(REDEMPTION_AFTER_DAYS * DAY_S - 1);
    expect((await info("demo-shop.net")).stage).toBe("expired");
    await op.advanceClock(1);
    expect(await info("demo-shop.net")).toMatchObject({ stage: "redemption", status: "expired", registry_statuses: ["redemptionPeriod"] });
    const listed = (await api("GET", "/domains?stage=redemption")).body.data.items.map((e: { domain: string }) => e.domain);
    expect(listed).toContain("demo-shop.net");

    const before = await op.state();
    const r = await renew("demo-shop.net", "2031-07-16", "late-1");
    expect([r.status, code(r), r.body.error.details.stage]).toEqual([409, "domain_not_active", "redemption"]);
    const lock = await api("PUT", "/domains/demo-shop.net/lock", { locked: true });
    expect([lock.status, code(lock)]).toEqual([409, "domain_not_active"]);
    const after = await op.state();
    expect([after.ledger, after.account.balance, after.domains["demo-shop.net"]]).toEqual([before.ledger, before.account.balance, before.domains["demo-shop.net"]]);

    // The API only quotes a restore; the operator performs it, as the reseller portal would.
    const quote = (await api("POST", "/pricing", { action: "restore", domain: "demo-shop.net" })).body.data;
    expect(quote.amount).toBe("95.00");
    expect(await op.restore("demo-shop.net")).toMatchObject({ stage: "active", expiry_date: "2032-07-16" });
    expect(await info("demo-shop.net")).toMatchObject({ stage: "active", expiry_date: "2032-07-16" });
    expect((await op.ledger()).slice(before.ledger.length)).toMatchObject([{ domain: "demo-shop.net", action: "restore", years: 1, amount: quote.amount }]);
    expect((await op.state()).account.balance).toBe(before.account.balance - 9500);
    await expect(op.restore("demo-shop.net")).rejects.toMatchObject({ status: 409, code: "domain_not_active" });
    // Renewable again from its new expiry.
    expect((await renew("demo-shop.net", "2032-07-16", "after-restore")).status).toBe(201);
  });

  it("a renewal held for review keeps the domain renewable; rejected, it moves on to redemption", async () => {
    await op.settings({ approval: { renewals: true } });
    await op.advanceClock(toShopExpiry);
    expect((await renew("demo-shop.net", "2031-07-16", "held-1")).body.data.stage).toBe("pending_approval");
    await op.advanceClock(REDEMPTION_AFTER_DAYS * DAY_S);
    expect((await info("demo-shop.net")).stage).toBe("expired");
    await op.reject("demo-shop.net");
    expect((await info("demo-shop.net")).stage).toBe("redemption");
    expect((await op.ledger()).filter((e) => e.domain === "demo-shop.net").map((e) => [e.action, e.amount])).toEqual([
      ["renew", "15.00"],
      ["refund", "-15.00"],
    ]);
  });

  it("the zone and its records stay as they were through expiry and redemption", async () => {
    const zone = async () => (await api("GET", "/dns/zones/demo-reseller.com")).body.data;
    const before = await zone();
    expect(before).toMatchObject({ status: "active", delegated: true, records_count: 14 });
    const expiry = Date.parse((await info("demo-reseller.com")).expires_at!);
    await op.advanceClock((expiry - FIXED) / 1000);
    expect((await info("demo-reseller.com")).stage).toBe("expired");
    expect(await zone()).toEqual(before);
    await op.advanceClock(REDEMPTION_AFTER_DAYS * DAY_S);
    expect((await info("demo-reseller.com")).stage).toBe("redemption");
    expect(await zone()).toEqual(before);
    // A new zone needs an active domain (demo-shop.net is long in redemption by now).
    expect((await info("demo-shop.net")).stage).toBe("redemption");
    const create = await api("POST", "/dns/zones", { domain: "demo-shop.net" });
    expect([create.status, code(create)]).toEqual([409, "domain_not_active"]);
  });
});

describe("persistence", () => {
  it("writes the state atomically after each mutation and loads it on restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-data-"));
    const file = join(dir, "state.json");
    try {
      const a = await startSandbox({ dataFile: file, processingDelaySeconds: 0 });
      const r = await makeApi(a.url, a.credentials)("POST", "/domains/register", order("kept.com"), { idempotencyKey: "keep-1" });
      expect(r.status).toBe(201);
      await a.close();
      expect(JSON.parse(readFileSync(file, "utf8")).domains["kept.com"].stage).toBe("active");
      // The data file, and the nonces of its signed requests kept beside it (sandbox/auth.ts NonceStore); no temp file.
      expect(readdirSync(dir).sort()).toEqual(["state.json", "state.json.nonces"]);
      const b = await startSandbox({ dataFile: file, requestsPerMinute: 77 });
      try {
        expect(b.operator.state().settings).toMatchObject({ requestsPerMinute: 77, processingDelaySeconds: 0 });
        const api = makeApi(b.url, b.credentials);
        expect((await api("GET", "/domains/kept.com")).body.data.stage).toBe("active");
        const again = await api("POST", "/domains/register", order("kept.com"), { idempotencyKey: "keep-1" });
        expect(again.headers.get("idempotent-replayed")).toBe("true");
        expect(b.operator.ledger().filter((e) => e.domain === "kept.com")).toHaveLength(1);
      } finally {
        await b.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("cli options", () => {
  it("parses every option and refuses unknown ones", () => {
    expect(parseArgs(["--port", "0", "--host", "127.0.0.1", "--key", "k", "--secret", "s", "--data", "f.json", "--rate", "5", "--delay", "0"])).toEqual({
      port: 0,
      host: "127.0.0.1",
      dataFile: "f.json",
      requestsPerMinute: 5,
      processingDelaySeconds: 0,
      credentials: [{ key: "k", secret: "s" }],
    });
    expect(parseArgs([]).port).toBe(8787);
    expect(() => parseArgs(["--bogus"])).toThrow(/unknown option --bogus/);
    expect(() => parseArgs(["--rate", "many"])).toThrow(/--rate/);
  });
});
