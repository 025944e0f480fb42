/**
 * Contract entries the spec leaves "not shown", overridden through client options, over real HTTP:
 * the signed string and the signing header names (against sandboxes started with and without the
 * same override, and against a recording server that checks the exact string), view field names,
 * error code names, and refusal of an override entry that does not exist.
 */
import { createHash, createHmac } from "node:crypto";
import { ResellerClient } from "../../api/client";
import { resolveContract, type ContractOverrides } from "../../api/contract";
import { readSettings } from "../../resources/shared/api";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { fail, ok, startRecordingServer, type RecordingServer } from "../support/recording-server";
import * as F from "./fixtures";
import { API_KEY, API_SECRET, clientFor, fakeClock } from "./helpers";

/** Other header names and another signed string: key first, then time, method, path, body hash, nonce, joined by "|". */
const SIGNING: ContractOverrides = {
  headers: { signature: "X-Sig", timestamp: "X-Time", nonce: "X-Once" },
  signing: { canonicalFields: ["apiKey", "timestamp", "method", "path", "bodySha256", "nonce"], separator: "|" },
};

const clients: ResellerClient[] = [];
const sandboxes: SandboxHandle[] = [];
/** A scripted server for answers in other names. */
let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(sandboxes.map((s) => s.close()));
  await server.close();
});

async function sandboxWith(contract?: ContractOverrides): Promise<SandboxHandle> {
  const s = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0, contract });
  sandboxes.push(s);
  return s;
}

function clientOf(s: SandboxHandle, contract?: ContractOverrides): ResellerClient {
  const c = new ResellerClient({ baseUrl: s.url, apiKey: s.credentials.key, apiSecret: s.credentials.secret, requestsPerMinute: 100_000, burst: 100, contract });
  clients.push(c);
  return c;
}

const ZONE = "demo-reseller.com";
const record = { type: "TXT", name: "contract-check", content: "overridden signing", ttl: 300 };

describe("the signed string and the signing headers", () => {
  it("a sandbox on the overridden contract accepts a client on the same contract, reads and writes with a body", async () => {
    const s = await sandboxWith(SIGNING);
    const c = clientOf(s, SIGNING);
    expect((await c.listZones()).map((z) => z.domain)).toContain(ZONE);
    const created = await c.createRecord(ZONE, record);
    expect(created).toMatchObject({ name: "contract-check", content: "overridden signing" });
    await c.deleteRecord(ZONE, created.id);
    const log = s.operator.requests();
    expect(log.map((r) => [r.method, r.status, r.error])).toEqual([
      ["GET", 200, null],
      ["POST", 201, null],
      ["DELETE", expect.any(Number), null],
    ]);
  });

  it("refuses a client on the default contract, naming the header it expects", async () => {
    const s = await sandboxWith(SIGNING);
    const err = await clientOf(s).listZones().catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "AuthenticationError", status: 401, code: "invalid_signature" });
    expect((err as Error).message).toContain("X-Sig");
    expect((err as Error).message).toContain("set the contract's headers and signing entries (reseller:contract");
    expect(s.operator.requests().map((r) => r.error)).toEqual(["invalid_signature"]);
  });

  it("refuses a client with the same header names but the default signed string: the field order is what is checked", async () => {
    const s = await sandboxWith(SIGNING);
    const err = await clientOf(s, { headers: SIGNING.headers }).createRecord(ZONE, record).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "AuthenticationError", code: "invalid_signature" });
    // The sandbox's message says which fields it signs, from its own contract.
    expect((err as Error).message).toContain("apiKey, timestamp, method, path, bodySha256, nonce");
    expect((await clientOf(s, SIGNING).listRecords(ZONE)).some((r) => r.name === "contract-check")).toBe(false);
  });

  it("a sandbox on the default contract refuses a client on the overridden one", async () => {
    const s = await sandboxWith();
    await expect(clientOf(s, SIGNING).listZones()).rejects.toMatchObject({ code: "invalid_signature" });
    await expect(clientOf(s).listZones()).resolves.toEqual(expect.any(Array));
  });

  it("the client signs exactly key|timestamp|METHOD|path|sha256(body)|nonce under the overridden names", async () => {
    const server = await startRecordingServer((req) => {
      const ts = req.headers["x-time"];
      const nonce = req.headers["x-once"];
      const sig = req.headers["x-sig"];
      if (typeof ts !== "string" || typeof nonce !== "string" || typeof sig !== "string") return fail(401, "invalid_signature");
      const text = [API_KEY, ts, req.method, req.path, createHash("sha256").update(req.body).digest("hex"), nonce].join("|");
      return sig === createHmac("sha256", API_SECRET).update(text).digest("hex") ? ok(F.record, 201) : fail(401, "invalid_signature");
    });
    try {
      const c = clientFor(server, fakeClock(), { contract: SIGNING });
      await expect(c.createRecord("example.com", record)).resolves.toMatchObject({ id: "r1" });
      const h = server.requests[0].headers;
      expect([h["x-signature"], h["x-timestamp"], h["x-nonce"]]).toEqual([undefined, undefined, undefined]);
      await c.close();
    } finally {
      await server.close();
    }
  });
});

describe("view field names", () => {
  const VIEWS: ContractOverrides = {
    views: {
      balance: { balance: "credit", activeDomains: "domain_count" },
      record: { id: "record_id" },
      tld: { extension: "name", register: "price_register" },
      eppCode: { code: "epp" },
    },
  };
  const renamedRecord = { record_id: "r9", type: "A", name: "www", content: "192.0.2.9", ttl: 300 };

  it("answers in the service's names parse into the views' names", async () => {
    const c = clientFor(server, fakeClock(), { contract: VIEWS });
    server.next(
      ok({ credit: "5.00", currency: "USD", domain_count: 3 }),
      ok(F.page([renamedRecord])),
      ok({ ...F.zone, records: [renamedRecord] }),
      ok(F.page([{ name: "com", price_register: "12.00", renew_price: "14.00", transfer_price: "10.00" }])),
      ok({ domain: "example.com", epp: "EPP-CODE-1" }),
      ok({ created: [renamedRecord], replaced: [], skipped: [] }),
    );
    expect(await c.getBalance()).toEqual({ balance: "5.00", currency: "USD", active_domains: 3 });
    expect(await c.listRecords("example.com")).toEqual([{ ...F.record, id: "r9", content: "192.0.2.9" }]);
    expect((await c.getZone("example.com")).records.map((r) => r.id)).toEqual(["r9"]);
    expect(await c.listTlds()).toEqual([{ tld: "com", register_price: "12.00", renew_price: "14.00", transfer_price: "10.00" }]);
    expect((await c.requestEppCode("example.com")).auth_code).toBe("EPP-CODE-1");
    expect((await c.applyTemplate("example.com", "t1", { variables: {}, conflict_strategy: "skip" })).created[0].id).toBe("r9");
    // Fields the contract does not rename keep their names.
    expect(c.contract.views.balance.currency).toBe("currency");
    await c.close();
  });

  it("without the override the same answer is refused, naming the missing field", async () => {
    const c = clientFor(server, fakeClock());
    server.next(ok({ credit: "5.00", currency: "USD", domain_count: 3 }));
    await expect(c.getBalance()).rejects.toMatchObject({ name: "ResponseShapeError", fieldPath: "data.balance" });
    await c.close();
  });
});

describe("paging of lists", () => {
  const PAGING: ContractOverrides = { paging: { pageParam: "p", perPageParam: "n", perPage: 3, maxPerPage: 3, itemsField: "rows", paginationField: "meta", nextPageField: "next" } };

  it("a sandbox and a client on the same paging read every page under the overridden names", async () => {
    const s = await sandboxWith(PAGING);
    const c = clientOf(s, PAGING);
    const all = (await c.getZone(ZONE)).records;
    expect(all.length).toBeGreaterThan(6);
    expect((await c.listRecords(ZONE)).map((r) => r.id)).toEqual(all.map((r) => r.id));
    const pages = s.operator.requests().filter((r) => r.path.includes("/records?"));
    expect(pages.map((r) => r.path.replace(/^.*\?/, ""))).toEqual(Array.from({ length: Math.ceil(all.length / 3) }, (_, i) => `p=${i + 1}&n=3`));
  });

  it("a client on the default paging refuses that sandbox's list, naming the field it looked for", async () => {
    const s = await sandboxWith(PAGING);
    await expect(clientOf(s).listRecords(ZONE)).rejects.toMatchObject({ name: "ResponseShapeError", fieldPath: "data.items" });
  });
});

describe("error code names", () => {
  const CODES: ContractOverrides = { errors: { codes: { expiryMismatch: "EXPIRY_CHANGED", timestampSkew: "clock_skew" } } };

  it("a renamed code selects our error class", async () => {
    server.next(fail(409, "EXPIRY_CHANGED", "expiry moved"));
    const c = clientFor(server, fakeClock(), { contract: CODES });
    await expect(c.renew("example.com", { years: 1, current_expiry: "2026-01-01" }, { idempotencyKey: "k1" })).rejects.toMatchObject({
      name: "ExpiryMismatchError",
      code: "expiry_mismatch",
    });
    server.next(fail(409, "EXPIRY_CHANGED", "expiry moved"));
    const plain = clientFor(server, fakeClock());
    await expect(plain.renew("example.com", { years: 1, current_expiry: "2026-01-01" }, { idempotencyKey: "k1" })).rejects.toMatchObject({
      name: "ResellerApiError",
      code: "EXPIRY_CHANGED",
    });
    await Promise.all([c.close(), plain.close()]);
  });

  it("a renamed clock-skew code still makes the client correct its clock and retry", async () => {
    const clock = fakeClock();
    const serverTime = Math.floor(clock.now() / 1000) + 3600;
    const skew = fail(401, "clock_skew", "too far", { details: { server_time: serverTime } });
    server.next(skew, ok(F.ping));
    const c = clientFor(server, clock, { contract: CODES });
    await expect(c.ping()).resolves.toEqual(F.ping);
    expect(c.clockOffsetMs).toBe(3600 * 1000);
    const before = server.requests.length;
    server.next(skew);
    await expect(clientFor(server, clock).ping()).rejects.toMatchObject({ code: "clock_skew" });
    expect(server.requests.length - before).toBe(1);
    await c.close();
  });
});

describe("override entries are checked", () => {
  it("an unknown or ill-typed entry is refused by name, in client options and in reseller:contract", () => {
    expect(() => resolveContract({ views: { balance: { credits: "x" } } } as unknown as ContractOverrides)).toThrow('unknown entry "views.balance.credits"');
    expect(() => resolveContract({ signing: { canonicalFields: ["method", "body"] } } as unknown as ContractOverrides)).toThrow('got "body"');
    expect(() => resolveContract({ signing: { clockSkewSeconds: "60" } } as unknown as ContractOverrides)).toThrow('"signing.clockSkewSeconds" must be a number');
    expect(() => resolveContract({ signing: { signatureEncoding: "base32" } } as unknown as ContractOverrides)).toThrow('"signing.signatureEncoding" must be "hex" or "base64"; got "base32"');
    expect(() => resolveContract({ errors: { form: "flat" } } as unknown as ContractOverrides)).toThrow('"errors.form" must be "nested"');
    expect(() => resolveContract({ rateLimit: { minRetryAfterSeconds: 200 } })).toThrow('"rateLimit.minRetryAfterSeconds" (200) must not exceed "rateLimit.maxRetryAfterSeconds" (120)');
    expect(() => resolveContract({ rateLimit: { maxRetries: -1 } })).toThrow('"rateLimit.maxRetries" must be a number of 0 or more; got -1');
    expect(() => resolveContract({ maxResponseBytes: 100 })).toThrow('"maxResponseBytes" must be a whole number of bytes, at least 1024; got 100');
    expect(resolveContract({ maxResponseBytes: 4096 }).maxResponseBytes).toBe(4096);
    expect(() => resolveContract({ signing: { maxClockOffsetSeconds: -1 } })).toThrow('"signing.maxClockOffsetSeconds" must be a number of 0 or more; got -1');
    // An id shape is a regular expression that still refuses the segments that name another resource.
    expect(() => resolveContract({ ids: { record: "^[" } })).toThrow('"ids.record" must be a regular expression; got "^["');
    expect(() => resolveContract({ ids: { record: "^[\\w.]*$" } })).toThrow('"ids.record" (^[\\w.]*$) must refuse "": as a path segment it would name another resource');
    expect(() => resolveContract({ ids: { record: "^[\\w.]+$" } })).toThrow('must refuse "."');
    expect(resolveContract({ ids: { record: "^\\d+$" } }).ids.record).toBe("^\\d+$");
    const get = (contract: string) => (k: string) => ({ baseUrl: "http://127.0.0.1:1", apiKey: "k", apiSecret: "s", contract })[k];
    expect(() => readSettings(get('{"header":{"signature":"X-Sig"}}'), {})).toThrow('reseller:contract: contract override: unknown entry "header"');
    expect(readSettings(get('{"headers":{"signature":"X-Sig"}}'), {}).contract).toEqual({ headers: { signature: "X-Sig" } });
    // The rate-limit log's folder is a setting too: absolute, or refused by name and value.
    const dirGet = (rateLimitDir: string) => (k: string) => ({ baseUrl: "http://127.0.0.1:1", apiKey: "k", apiSecret: "s", rateLimitDir })[k];
    expect(() => readSettings(dirGet("cache/rate"), {})).toThrow('reseller:rateLimitDir: "cache/rate" is not an absolute path');
    expect(readSettings(dirGet("/var/cache/me"), {}).rateLimitLogDir).toBe("/var/cache/me");
    expect(readSettings(() => undefined, { RESELLER_BASE_URL: "http://127.0.0.1:1", RESELLER_API_KEY: "k", RESELLER_API_SECRET: "s", RESELLER_RATE_LIMIT_DIR: "/srv/rl" }).rateLimitLogDir).toBe("/srv/rl");
  });

  it("the defaults are unchanged: one section overridden leaves its siblings and the other sections as they were", () => {
    const c = resolveContract({ signing: { separator: "|" }, views: { tier: { tier: "level" } } });
    expect(c.signing).toMatchObject({ separator: "|", canonicalFields: ["method", "path", "timestamp", "nonce", "bodySha256", "apiKey"], clockSkewSeconds: 300 });
    expect(c.views.tier).toEqual({ tier: "level", nextTier: "next_tier", domainsToNextTier: "domains_to_next_tier" });
    expect(c.views.balance.balance).toBe("balance");
  });
});
