/**
 * Signing under attack, over real HTTP against the sandbox. Requests are signed with
 * api/signing.ts under the contract (api/contract.ts), then replayed or tampered with
 * (timestamp, body, path, query, method, key, secret, headers). Every refusal has the contract's
 * status and code, is logged as refused, and leaves the sandbox's state and ledger exactly as they
 * were (a refused register charges nothing); the untampered request succeeds. Then the real
 * ResellerClient with a skewed clock (its `now` option) is refused once with
 * timestamp_out_of_range carrying server_time, corrects itself, and charges a register once.
 *
 * The sandbox's wall clock is injected and fixed, so every timestamp in here is exact.
 */
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { DEFAULT_CONTRACT, ERROR_CODES } from "../../api/contract";
import { ERROR_STATUS } from "../../sandbox/rules";
import { ResellerClient } from "../../api/client";
import { formatTimestamp, signRequest } from "../../api/signing";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";

const C = DEFAULT_CONTRACT;
const H = C.headers;
const SKEW_S = C.signing.clockSkewSeconds;
/** The sandbox's wall clock: a whole second, moved only by the tests. */
const T0 = Date.UTC(2031, 4, 6, 12, 0, 0);
let nowMs = T0;

const A = { key: "audit-a", secret: `sa-${randomBytes(16).toString("hex")}` };
const B = { key: "audit-b", secret: `sb-${randomBytes(16).toString("hex")}` };
/**
 * One credential per skewed client: the client's rate limiter is one bucket per credential in the
 * process, and a bucket stamped by a clock 20 minutes fast makes a client 20 minutes slow wait
 * 40 minutes (see the report: a local clock stepping back stalls the bucket the same way).
 */
const SKEWED = [1, 2, 3].map((i) => ({ key: `audit-skew-${i}`, secret: `ss${i}-${randomBytes(16).toString("hex")}` }));

const CONTACT = {
  name: "Signe Tester",
  email: "signe@audit.test",
  phone: "+4420794600",
  address_line_1: "1 Nonce Lane",
  city: "Leeds",
  state: "",
  postal_code: "LS1 1AA",
  country: "GB",
};

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0, credentials: [A, B, ...SKEWED], now: () => nowMs });
});
afterAll(async () => sb?.close());
beforeEach(() => {
  nowMs = T0;
});

/** A request exactly as it goes on the wire. */
interface Wire {
  method: string;
  /** Full path with query, as sent and as signed. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

let seq = 0;
const nonce = (): string => `n-${process.pid}-${++seq}-${randomBytes(6).toString("hex")}`;

interface SignOptions {
  cred?: { key: string; secret: string };
  timestampMs?: number;
  nonce?: string;
  idempotencyKey?: string;
}

/** A correctly signed request (contract header names, canonical string, encoding). */
function signed(method: string, relPath: string, body = "", o: SignOptions = {}): Wire {
  const cred = o.cred ?? A;
  const path = `${C.apiPrefix}${relPath}`;
  const timestamp = formatTimestamp(o.timestampMs ?? nowMs, C.signing.timestampUnit);
  const n = o.nonce ?? nonce();
  const signature = signRequest({ method, path, body, apiKey: cred.key, timestamp, nonce: n }, cred.secret, C.signing.signatureEncoding, C.signing);
  const headers: Record<string, string> = {
    [H.key]: cred.key,
    [H.secret]: cred.secret,
    "content-type": "application/json",
    [H.timestamp]: timestamp,
    [H.nonce]: n,
    [H.signature]: signature,
  };
  if (o.idempotencyKey) headers[H.idempotencyKey] = o.idempotencyKey;
  return { method, path, headers, body };
}

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** Sends the bytes as given (node:http keeps the path and body exactly). */
function send(w: Wire): Promise<Answer> {
  const u = new URL(sb.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, method: w.method, path: w.path, headers: { ...w.headers, "content-length": String(Buffer.byteLength(w.body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(w.body);
  });
}

const withHeaders = (w: Wire, change: Record<string, string | undefined>): Wire => {
  const headers = { ...w.headers };
  for (const [k, v] of Object.entries(change)) {
    if (v === undefined) delete headers[k];
    else headers[k] = v;
  }
  return { ...w, headers };
};

/** Everything the sandbox holds that a request could change: domains, zones, account, ledger, idempotency records. */
const snapshot = (): string => JSON.stringify(sb.operator.state());

let orderNo = 0;
/** A fresh register order: its body object, text and key. */
function registerOrder() {
  const domain = `sig-audit-${++orderNo}-${randomBytes(3).toString("hex")}.com`;
  const obj = { domain, years: 1, contacts: { registrant: CONTACT } };
  return { domain, obj, text: JSON.stringify(obj), key: `sig-audit-key-${orderNo}-${randomBytes(4).toString("hex")}` };
}

/** Sends an attack and checks: status and code as the contract says, logged as refused, nothing changed. */
async function refused(w: Wire, code: string, domain?: string): Promise<Answer> {
  const before = snapshot();
  const mark = sb.operator.requests().length;
  const r = await send(w);
  expect({ status: r.status, code: r.body?.error?.code }).toEqual({ status: ERROR_STATUS[code as keyof typeof ERROR_STATUS], code });
  expect(r.body.success).toBe(false);
  const log = sb.operator.requests().slice(mark);
  expect(log.map((e) => [e.status, e.error, e.mutating])).toEqual([[r.status, code, false]]);
  expect(snapshot()).toBe(before);
  if (domain) {
    expect(sb.operator.state().domains[domain]).toBeUndefined();
    expect(sb.operator.ledger().filter((e) => e.domain === domain)).toEqual([]);
  }
  return r;
}

describe("attacks on a signed register (POST /domains/register): refused, nothing charged", () => {
  const skewMs = SKEW_S * 1000;
  type Attack = [string, (w: Wire, o: ReturnType<typeof registerOrder>) => Wire, string];
  const reSign = (o: ReturnType<typeof registerOrder>, s: SignOptions & { body?: string; path?: string; method?: string } = {}) =>
    signed(s.method ?? "POST", s.path ?? "/domains/register", s.body ?? o.text, { idempotencyKey: o.key, ...s });
  const attacks: Attack[] = [
    ["timestamp older than the skew", (_w, o) => reSign(o, { timestampMs: nowMs - skewMs - 1000 }), ERROR_CODES.timestampSkew],
    ["timestamp newer than the skew", (_w, o) => reSign(o, { timestampMs: nowMs + skewMs + 1000 }), ERROR_CODES.timestampSkew],
    ["timestamp a day old", (_w, o) => reSign(o, { timestampMs: nowMs - 86_400_000 }), ERROR_CODES.timestampSkew],
    ["timestamp in milliseconds instead of seconds", (w) => withHeaders(w, { [H.timestamp]: String(nowMs) }), ERROR_CODES.timestampSkew],
    ["timestamp not a number", (w) => withHeaders(w, { [H.timestamp]: "yesterday" }), ERROR_CODES.timestampSkew],
    ["timestamp moved after signing (within the skew)", (w) => withHeaders(w, { [H.timestamp]: formatTimestamp(nowMs + 1000) }), ERROR_CODES.invalidSignature],
    ["body: years 1 -> 2 (the amount)", (w, o) => ({ ...w, body: JSON.stringify({ ...o.obj, years: 2 }) }), ERROR_CODES.invalidSignature],
    ["body: another domain", (w, o) => ({ ...w, body: JSON.stringify({ ...o.obj, domain: `other-${o.domain}` }) }), ERROR_CODES.invalidSignature],
    ["body: a field added (a paid add-on)", (w, o) => ({ ...w, body: JSON.stringify({ ...o.obj, addons: ["whois_privacy"] }) }), ERROR_CODES.invalidSignature],
    ["body: whitespace only (same JSON)", (w, o) => ({ ...w, body: JSON.stringify(o.obj, null, 1) }), ERROR_CODES.invalidSignature],
    ["body: keys reordered (same JSON)", (w, o) => ({ ...w, body: JSON.stringify({ years: 1, contacts: o.obj.contacts, domain: o.domain }) }), ERROR_CODES.invalidSignature],
    ["body: emptied", (w) => ({ ...w, body: "" }), ERROR_CODES.invalidSignature],
    ["path: sent to /domains/transfer", (w) => ({ ...w, path: `${C.apiPrefix}/domains/transfer` }), ERROR_CODES.invalidSignature],
    ["query: added to the path", (w) => ({ ...w, path: `${w.path}?years=2` }), ERROR_CODES.invalidSignature],
    ["signature made with a wrong secret", (_w, o) => withHeaders(reSign(o, { cred: { key: A.key, secret: `${A.secret}x` } }), { [H.secret]: A.secret }), ERROR_CODES.invalidSignature],
    ["signature made with the other credential's secret", (_w, o) => withHeaders(reSign(o, { cred: { key: A.key, secret: B.secret } }), { [H.secret]: A.secret }), ERROR_CODES.invalidSignature],
    ["signature bound to the other key (canonical apiKey B, headers A)", (w, o) => withHeaders(w, { [H.signature]: reSign(o, { cred: { key: B.key, secret: A.secret }, nonce: w.headers[H.nonce], timestampMs: nowMs }).headers[H.signature] }), ERROR_CODES.invalidSignature],
    ["A's signature under B's key and secret headers", (w) => withHeaders(w, { [H.key]: B.key, [H.secret]: B.secret }), ERROR_CODES.invalidSignature],
    ["signature of another request", (w) => withHeaders(w, { [H.signature]: signed("GET", "/domains", "", { nonce: w.headers[H.nonce] }).headers[H.signature] }), ERROR_CODES.invalidSignature],
    ["signature truncated", (w) => withHeaders(w, { [H.signature]: w.headers[H.signature].slice(0, 32) }), ERROR_CODES.invalidSignature],
    ["signature header missing", (w) => withHeaders(w, { [H.signature]: undefined }), ERROR_CODES.invalidSignature],
    ["timestamp header missing", (w) => withHeaders(w, { [H.timestamp]: undefined }), ERROR_CODES.invalidSignature],
    ["nonce header missing", (w) => withHeaders(w, { [H.nonce]: undefined }), ERROR_CODES.invalidSignature],
    ["nonce changed after signing", (w) => withHeaders(w, { [H.nonce]: nonce() }), ERROR_CODES.invalidSignature],
    ["wrong secret header (signature right)", (w) => withHeaders(w, { [H.secret]: `${A.secret}x` }), ERROR_CODES.unauthorized],
    ["unknown key", (w) => withHeaders(w, { [H.key]: "audit-nobody" }), ERROR_CODES.unauthorized],
    ["secret header missing", (w) => withHeaders(w, { [H.secret]: undefined }), ERROR_CODES.unauthorized],
  ];

  test.each(attacks)("%s -> refused", async (_name, tamper, code) => {
    const o = registerOrder();
    const attack = tamper(signed("POST", "/domains/register", o.text, { idempotencyKey: o.key }), o);
    const r = await refused(attack, code, o.domain);
    if (code === ERROR_CODES.timestampSkew) {
      expect(r.body.error.details).toEqual({ server_time: T0 / 1000, max_skew_seconds: SKEW_S });
    }
    // Control: the same order, untampered, goes through and is charged once.
    const ok = await send(signed("POST", "/domains/register", o.text, { idempotencyKey: o.key }));
    expect(ok.status).toBe(201);
    expect(sb.operator.ledger().filter((e) => e.domain === o.domain).map((e) => [e.action, e.amount])).toEqual([["register", "12.00"]]);
  });

  test("the missing headers are named in the refusal", async () => {
    const o = registerOrder();
    const w = signed("POST", "/domains/register", o.text, { idempotencyKey: o.key });
    const r = await refused(withHeaders(w, { [H.timestamp]: undefined, [H.nonce]: undefined }), ERROR_CODES.invalidSignature, o.domain);
    expect(r.body.error.message).toContain(H.timestamp);
    expect(r.body.error.message).toContain(H.nonce);
    expect(r.body.error.message).not.toContain(H.signature);
  });
});

describe("replays", () => {
  test("the exact request again (same nonce, same key) is refused with nonce_reused; charged once", async () => {
    const o = registerOrder();
    const w = signed("POST", "/domains/register", o.text, { idempotencyKey: o.key });
    expect((await send(w)).status).toBe(201);
    const charges = () => sb.operator.ledger().filter((e) => e.domain === o.domain);
    expect(charges()).toHaveLength(1);
    await refused(w, ERROR_CODES.nonceReused);
    // With a new Idempotency-Key (a header the signature does not cover): still the nonce.
    await refused(withHeaders(w, { [H.idempotencyKey]: `${o.key}-2` }), ERROR_CODES.nonceReused);
    // The nonce re-signed over another order: still refused.
    const other = registerOrder();
    await refused(signed("POST", "/domains/register", other.text, { idempotencyKey: other.key, nonce: w.headers[H.nonce] }), ERROR_CODES.nonceReused, other.domain);
    expect(charges()).toHaveLength(1);
  });

  test("a replay after the nonce's retention is refused by its timestamp (retention >= 2 x skew)", async () => {
    expect(C.signing.nonceRetentionSeconds).toBeGreaterThanOrEqual(2 * SKEW_S);
    const w = signed("GET", "/domains");
    expect((await send(w)).status).toBe(200);
    nowMs = T0 + (C.signing.nonceRetentionSeconds + 1) * 1000;
    const r = await refused(w, ERROR_CODES.timestampSkew);
    expect(r.body.error.details.server_time).toBe(nowMs / 1000);
  });

  test("a refused request does not spend its nonce: the genuine request with it still goes through", async () => {
    const o = registerOrder();
    const w = signed("POST", "/domains/register", o.text, { idempotencyKey: o.key });
    await refused({ ...w, body: JSON.stringify({ ...o.obj, years: 3 }) }, ERROR_CODES.invalidSignature, o.domain);
    expect((await send(w)).status).toBe(201);
    expect(sb.operator.ledger().filter((e) => e.domain === o.domain)).toHaveLength(1);
  });
});

describe("the skew limit, management routes, method and query", () => {
  test("timestamps exactly at the limit are accepted, one second beyond are refused", async () => {
    for (const t of [T0 - SKEW_S * 1000, T0 + SKEW_S * 1000]) expect((await send(signed("GET", "/domains", "", { timestampMs: t }))).status).toBe(200);
    for (const t of [T0 - (SKEW_S + 1) * 1000, T0 + (SKEW_S + 1) * 1000]) await refused(signed("GET", "/domains", "", { timestampMs: t }), ERROR_CODES.timestampSkew);
  });

  test("method tampered: a signed GET of privacy sent as DELETE is refused, privacy stays on", async () => {
    const d = "demo-reseller.com";
    expect(sb.operator.state().domains[d].privacy.enabled).toBe(true);
    const w = signed("GET", `/domains/${d}/privacy`);
    await refused({ ...w, method: "DELETE" }, ERROR_CODES.invalidSignature);
    expect(sb.operator.state().domains[d].privacy.enabled).toBe(true);
    expect((await send(w)).status).toBe(200);
  });

  test("path tampered on a management call: another domain, or the same name in upper case", async () => {
    const body = JSON.stringify({ locked: true });
    const w = signed("PUT", "/domains/demo-shop.net/lock", body);
    expect(sb.operator.state().domains["demo-shop.net"].locked).toBe(false);
    await refused({ ...w, path: `${C.apiPrefix}/domains/demo-labs.io/lock` }, ERROR_CODES.invalidSignature);
    await refused({ ...w, path: `${C.apiPrefix}/domains/DEMO-SHOP.NET/lock` }, ERROR_CODES.invalidSignature);
    await refused({ ...w, body: JSON.stringify({ locked: false }) }, ERROR_CODES.invalidSignature);
    expect(sb.operator.state().domains["demo-shop.net"].locked).toBe(false);
    expect((await send(w)).status).toBe(200);
    expect(sb.operator.state().domains["demo-shop.net"].locked).toBe(true);
  });

  test("query tampered: changed or added parameters are refused", async () => {
    const w = signed("GET", "/domains?page=1");
    await refused({ ...w, path: `${C.apiPrefix}/domains?page=2` }, ERROR_CODES.invalidSignature);
    await refused({ ...w, path: `${C.apiPrefix}/domains?page=1&stage=active` }, ERROR_CODES.invalidSignature);
    await refused({ ...w, path: `${C.apiPrefix}/domains` }, ERROR_CODES.invalidSignature);
    expect((await send(w)).status).toBe(200);
  });
});

describe("clock skew recovery of the real client", () => {
  const warnings: string[] = [];
  /** A client whose clock is the sandbox's plus offsetMs; `fixed` pins it to T0 + offsetMs whatever the sandbox does. */
  const clientAt = (cred: { key: string; secret: string }, offsetMs: number, fixed = false) =>
    new ResellerClient({
      baseUrl: sb.url,
      apiKey: cred.key,
      apiSecret: cred.secret,
      requestsPerMinute: 100_000,
      burst: 1000,
      now: fixed ? () => T0 + offsetMs : () => nowMs + offsetMs,
      logger: { warn: (l) => warnings.push(l) },
    });
  const since = (mark: number) => sb.operator.requests().slice(mark).map((e) => `${e.method} ${e.path.replace(C.apiPrefix, "")} ${e.status}${e.error ? ` ${e.error}` : ""}`);

  test("the sandbox reports server_time with the refusal of a 20-minute fast clock", async () => {
    const r = await refused(signed("GET", "/domains", "", { timestampMs: T0 + 20 * 60_000 }), ERROR_CODES.timestampSkew);
    expect(r.body.error.details.server_time).toBe(T0 / 1000);
  });

  test("a client 20 minutes fast: one refusal, corrected, later calls and a register succeed without refusal, charged once", async () => {
    warnings.length = 0;
    const c = clientAt(SKEWED[0], 20 * 60_000);
    try {
      const mark = sb.operator.requests().length;
      await c.listDomains();
      expect(since(mark)).toEqual(["GET /domains?page=1&per_page=500 401 timestamp_out_of_range", "GET /domains?page=1&per_page=500 200"]);
      // The offset is exactly server_time - local clock: it came from the answer's server_time.
      expect(c.clockOffsetMs).toBe(-20 * 60_000);
      expect(warnings).toEqual(["the local clock is 1200 s off the service clock; signing with the service's time"]);

      const later = sb.operator.requests().length;
      await c.getDomain("demo-shop.net");
      await c.ping();
      const o = registerOrder();
      const order = await c.register(o.obj, { idempotencyKey: o.key });
      expect(order.domain).toBe(o.domain);
      const log = since(later);
      expect(log.filter((l) => / 4\d\d /.test(l))).toEqual([]);
      expect(log.filter((l) => l.startsWith("POST /domains/register"))).toEqual(["POST /domains/register 201"]);
      expect(sb.operator.ledger().filter((e) => e.domain === o.domain)).toHaveLength(1);
    } finally {
      await c.close();
    }
  });

  test("a register as the very first call of a skewed client (20 minutes slow): refused once, then charged once", async () => {
    const c = clientAt(SKEWED[1], -20 * 60_000);
    try {
      const mark = sb.operator.requests().length;
      const before = sb.operator.ledger().length;
      const o = registerOrder();
      await c.register(o.obj, { idempotencyKey: o.key });
      expect(since(mark)).toEqual(["POST /domains/register 401 timestamp_out_of_range", "POST /domains/register 201"]);
      expect(c.clockOffsetMs).toBe(20 * 60_000);
      expect(sb.operator.ledger().slice(before).map((e) => [e.domain, e.action])).toEqual([[o.domain, "register"]]);
    } finally {
      await c.close();
    }
  });

  test("the service's clock jumps 20 minutes after the client learnt an offset: it re-learns once", async () => {
    const c = clientAt(SKEWED[2], 0, true);
    try {
      await c.ping();
      expect(c.clockOffsetMs).toBe(0);
      nowMs = T0 + 20 * 60_000;
      const mark = sb.operator.requests().length;
      await c.listDomains();
      await c.listDomains();
      expect(since(mark).filter((l) => l.includes(" 401 "))).toEqual(["GET /domains?page=1&per_page=500 401 timestamp_out_of_range"]);
      expect(c.clockOffsetMs).toBe(20 * 60_000);
    } finally {
      await c.close();
    }
  });
});
