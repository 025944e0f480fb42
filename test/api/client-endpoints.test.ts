/**
 * Every endpoint over a real local server: the method, the path (segments encoded), the body,
 * the Idempotency-Key where one is given, and the parsed answer. Also availability batching,
 * paging, and a contract override.
 */
import { createHmac, createHash } from "node:crypto";
import type { ResellerClient } from "../../api/client";
import { OPERATIONS } from "../../api/operations";
import { ok, fail, startRecordingServer, type Reply, type RecordingServer } from "../support/recording-server";
import * as F from "./fixtures";
import { API_KEY, API_SECRET, clientFor, fakeClock } from "./helpers";

interface Case {
  name: keyof typeof OPERATIONS;
  call: (c: ResellerClient) => Promise<unknown>;
  reply: Reply;
  path: string;
  body?: unknown;
  key?: string;
  expected?: unknown;
}

const reg = { domain: "example.com", years: 1, contacts: { registrant: F.contact } };
const D = "example.com";

const CASES: Case[] = [
  { name: "ping", call: (c) => c.ping(), reply: ok(F.ping), path: "/api/v1/ping", expected: F.ping },
  { name: "listTlds", call: (c) => c.listTlds(), reply: ok(F.page([F.tld])), path: "/api/v1/tlds?page=1&per_page=500", expected: [F.tld] },
  { name: "checkAvailability", call: (c) => c.checkAvailability([D], 2), reply: ok({ results: [F.availability] }), path: "/api/v1/domains/availability", body: { domains: [D], years: 2 }, expected: [F.availability] },
  { name: "checkDomain", call: (c) => c.checkDomain(D), reply: ok(F.availability), path: "/api/v1/domains/check", body: { domain: D }, expected: F.availability },
  { name: "quote", call: (c) => c.quote({ action: "renew", domain: D, years: 1 }), reply: ok({ action: "renew", amount: "14.00", currency: "USD" }), path: "/api/v1/pricing", body: { action: "renew", domain: D, years: 1 } },
  { name: "listDomains", call: (c) => c.listDomains(), reply: ok(F.page([{ domain: D }])), path: "/api/v1/domains?page=1&per_page=500", expected: [{ domain: D }] },
  { name: "getBalance", call: (c) => c.getBalance(), reply: ok({ balance: "5.00", currency: "USD", active_domains: 3 }), path: "/api/v1/account/balance" },
  { name: "getTier", call: (c) => c.getTier(), reply: ok({ tier: "silver", next_tier: "gold", domains_to_next_tier: 7 }), path: "/api/v1/account/tier" },
  { name: "register", call: (c) => c.register(reg, { idempotencyKey: "k-reg" }), reply: ok(F.order, 201), path: "/api/v1/domains/register", body: reg, key: "k-reg", expected: F.order },
  { name: "transfer", call: (c) => c.transfer({ ...reg, auth_code: "EPP1" }, { idempotencyKey: "k-tr" }), reply: ok(F.order, 201), path: "/api/v1/domains/transfer", body: { ...reg, auth_code: "EPP1" }, key: "k-tr" },
  { name: "renew", call: (c) => c.renew(D, { years: 1, current_expiry: "2026-06-01" }, { idempotencyKey: "k-rn" }), reply: ok(F.order, 201), path: "/api/v1/domains/example.com/renew", body: { years: 1, current_expiry: "2026-06-01" }, key: "k-rn" },
  { name: "getDomain", call: (c) => c.getDomain(D), reply: ok(F.info), path: "/api/v1/domains/example.com", expected: F.info },
  { name: "setNameservers", call: (c) => c.setNameservers(D, ["a.example", "b.example"]), reply: ok({ nameservers: ["a.example", "b.example"] }), path: "/api/v1/domains/example.com/nameservers", body: { nameservers: ["a.example", "b.example"] } },
  { name: "getContacts", call: (c) => c.getContacts(D), reply: ok({ registrant: F.contact }), path: "/api/v1/domains/example.com/contacts", expected: { registrant: F.contact } },
  { name: "updateContacts", call: (c) => c.updateContacts(D, { admin: F.contact }), reply: ok({ status: "pending" }), path: "/api/v1/domains/example.com/contacts", body: { admin: F.contact }, expected: { status: "pending" } },
  { name: "setLock", call: (c) => c.setLock(D, false), reply: ok({ locked: false }), path: "/api/v1/domains/example.com/lock", body: { locked: false }, expected: { locked: false } },
  { name: "requestEppCode", call: (c) => c.requestEppCode(D), reply: ok({ auth_code: "NEWCODE" }), path: "/api/v1/domains/example.com/epp-code", expected: { auth_code: "NEWCODE" } },
  { name: "listHosts", call: (c) => c.listHosts(D), reply: ok(F.page([F.host])), path: "/api/v1/domains/example.com/hosts?page=1&per_page=500", expected: [F.host] },
  { name: "createHost", call: (c) => c.createHost(D, F.host), reply: ok(F.host, 201), path: "/api/v1/domains/example.com/hosts", body: F.host, expected: F.host },
  { name: "updateHost", call: (c) => c.updateHost(D, "ns1.example.com", { ipv4: ["192.0.2.9"], ipv6: [] }), reply: ok({ ...F.host, ipv4: ["192.0.2.9"] }), path: "/api/v1/domains/example.com/hosts/ns1.example.com", body: { ipv4: ["192.0.2.9"], ipv6: [] } },
  { name: "deleteHost", call: (c) => c.deleteHost(D, "ns1.example.com"), reply: { status: 204 }, path: "/api/v1/domains/example.com/hosts/ns1.example.com", expected: undefined },
  { name: "getPrivacy", call: (c) => c.getPrivacy(D), reply: ok(F.privacy), path: "/api/v1/domains/example.com/privacy", expected: F.privacy },
  { name: "enablePrivacy", call: (c) => c.enablePrivacy(D, { idempotencyKey: "k-pv" }), reply: ok(F.privacy, 201), path: "/api/v1/domains/example.com/privacy", key: "k-pv" },
  { name: "disablePrivacy", call: (c) => c.disablePrivacy(D), reply: ok({ enabled: false, status: "disabled" }), path: "/api/v1/domains/example.com/privacy", expected: { enabled: false, status: "disabled" } },
  { name: "getProtection", call: (c) => c.getProtection(D), reply: ok(F.protection), path: "/api/v1/domains/example.com/protection", expected: F.protection },
  { name: "enableProtection", call: (c) => c.enableProtection(D, { idempotencyKey: "k-pt" }), reply: ok(F.protection), path: "/api/v1/domains/example.com/protection", key: "k-pt" },
  { name: "listZones", call: (c) => c.listZones(), reply: ok(F.page([F.zone])), path: "/api/v1/dns/zones?page=1&per_page=500", expected: [F.zone] },
  { name: "createZone", call: (c) => c.createZone(D), reply: ok({ ...F.zone, status: "pending_nameserver", delegated: false }, 201), path: "/api/v1/dns/zones", body: { domain: D } },
  { name: "getZone", call: (c) => c.getZone(D), reply: ok({ ...F.zone, records: [F.record] }), path: "/api/v1/dns/zones/example.com", expected: { ...F.zone, records: [F.record] } },
  { name: "checkZone", call: (c) => c.checkZone(D), reply: ok(F.zone), path: "/api/v1/dns/zones/example.com/check", expected: F.zone },
  { name: "deleteZone", call: (c) => c.deleteZone(D), reply: ok({}), path: "/api/v1/dns/zones/example.com", expected: undefined },
  { name: "listRecords", call: (c) => c.listRecords(D, { type: "MX" }), reply: ok(F.page([F.record])), path: "/api/v1/dns/zones/example.com/records?type=MX&page=1&per_page=500", expected: [F.record] },
  { name: "createRecord", call: (c) => c.createRecord(D, { type: "A", name: "www", content: "192.0.2.1", ttl: 300 }), reply: ok(F.record, 201), path: "/api/v1/dns/zones/example.com/records", body: { type: "A", name: "www", content: "192.0.2.1", ttl: 300 }, expected: F.record },
  { name: "updateRecord", call: (c) => c.updateRecord(D, "r1", { ttl: 600 }), reply: ok({ ...F.record, ttl: 600 }), path: "/api/v1/dns/zones/example.com/records/r1", body: { ttl: 600 } },
  { name: "deleteRecord", call: (c) => c.deleteRecord(D, "r1"), reply: { status: 204 }, path: "/api/v1/dns/zones/example.com/records/r1", expected: undefined },
  { name: "listTemplates", call: (c) => c.listTemplates(), reply: ok(F.page([F.template])), path: "/api/v1/dns/templates?page=1&per_page=500", expected: [F.template] },
  { name: "applyTemplate", call: (c) => c.applyTemplate(D, "t1", { variables: { mx_host: "mx.example.net" }, conflict_strategy: "skip" }), reply: ok({ created: [F.record] }), path: "/api/v1/dns/zones/example.com/templates/t1", body: { variables: { mx_host: "mx.example.net" }, conflict_strategy: "skip" }, expected: { created: [F.record], replaced: [], skipped: [] } },
  { name: "disableProtection", call: (c) => c.disableProtection(D).catch((e: unknown) => e), reply: fail(403, "requires_portal_verification"), path: "/api/v1/domains/example.com/protection" },
];

let server: RecordingServer;
let client: ResellerClient;
beforeEach(async () => {
  server = await startRecordingServer();
  client = clientFor(server, fakeClock());
});
afterEach(async () => {
  await client.close();
  await server.close();
});

describe("one method per endpoint", () => {
  it("covers all 38 endpoints", () => {
    expect(Object.keys(OPERATIONS)).toHaveLength(38);
    expect(new Set(CASES.map((c) => c.name))).toEqual(new Set(Object.keys(OPERATIONS)));
  });

  it.each(CASES)("$name", async (c) => {
    server.next(c.reply);
    const result = await c.call(client);
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0];
    expect(req.method).toBe(OPERATIONS[c.name].method);
    expect(req.path).toBe(c.path);
    if (c.body !== undefined) expect(JSON.parse(req.body)).toEqual(c.body);
    else if (req.method !== "POST") expect(req.body).toBe("");
    expect(req.headers["idempotency-key"]).toBe(c.key);
    if ("expected" in c) expect(result).toEqual(c.expected);
    if (c.name === "disableProtection") expect(result).toMatchObject({ name: "PortalVerificationRequiredError", status: 403 });
  });
});

describe("requests", () => {
  it("path segments are encoded", async () => {
    server.next(ok(F.info));
    await client.getDomain("a/b?c#d.example");
    server.next(ok({ status: "updated" }));
    await client.deleteHost("例え.jp", "ns with space");
    expect(server.requests[0].path).toBe("/api/v1/domains/a%2Fb%3Fc%23d.example");
    expect(server.requests[1].path).toBe(`/api/v1/domains/${encodeURIComponent("例え.jp")}/hosts/ns%20with%20space`);
  });

  it("sends key, secret, JSON content type and a signature the server can verify with the contract's canonical string", async () => {
    server.next(ok(F.order, 201));
    await client.register(reg, { idempotencyKey: "k1" });
    const r = server.requests[0];
    expect(r.headers["x-service-key"]).toBe(API_KEY);
    expect(r.headers["x-service-secret"]).toBe(API_SECRET);
    expect(r.headers["content-type"]).toBe("application/json");
    const ts = String(r.headers["x-timestamp"]);
    const nonce = String(r.headers["x-nonce"]);
    expect(nonce).toMatch(/^[0-9a-f]{32}$/);
    // Recomputed here from the canonical string's definition, independently of the client.
    const canonical = ["POST", r.path, ts, nonce, createHash("sha256").update(r.body).digest("hex"), API_KEY].join("\n");
    expect(r.headers["x-signature"]).toBe(createHmac("sha256", API_SECRET).update(canonical).digest("hex"));
  });

  it("splits availability checks into batches of contract.availabilityBatch, results in order", async () => {
    const names = Array.from({ length: 45 }, (_, i) => `n${i}.com`);
    server.respond((req) => ok({ results: (JSON.parse(req.body) as { domains: string[] }).domains.map((d) => ({ domain: d, available: true })) }));
    const res = await client.checkAvailability(names, 1);
    expect(server.requests.map((r) => (JSON.parse(r.body) as { domains: string[] }).domains.length)).toEqual([20, 20, 5]);
    expect(res.map((r) => r.domain)).toEqual(names);
  });
});

describe("paging", () => {
  it("follows next_page to the end", async () => {
    server.next(ok(F.page([{ domain: "a.com" }], 2)), ok(F.page([{ domain: "b.com" }], 3)), ok(F.page([{ domain: "c.com" }], null)));
    expect((await client.listDomains()).map((d) => d.domain)).toEqual(["a.com", "b.com", "c.com"]);
    expect(server.requests.map((r) => r.path)).toEqual([1, 2, 3].map((p) => `/api/v1/domains?page=${p}&per_page=500`));
  });

  it("accepts a bare array and a data.<name> array", async () => {
    server.next(ok([F.zone]), ok({ records: [F.record] }));
    expect(await client.listZones()).toEqual([F.zone]);
    expect(await client.listRecords("example.com")).toEqual([F.record]);
    expect(server.requests).toHaveLength(2);
  });

  it("refuses a service that points back to a page already read", async () => {
    server.next(ok(F.page([F.zone], 2)), ok(F.page([F.zone], 1)));
    await expect(client.listZones()).rejects.toMatchObject({ name: "ResponseShapeError", fieldPath: "data.pagination.next_page" });
  });
});

describe("contract overrides through client options", () => {
  it("a different signature header, prefix and page size reach the server", async () => {
    const other = clientFor(server, fakeClock(), {
      contract: { apiPrefix: "/v2", headers: { signature: "X-Sig", nonce: "X-Request-Nonce" }, paging: { perPage: 50 } },
    });
    // This server expects the overridden names and checks the signature under them.
    server.respond((req) => {
      const sig = req.headers["x-sig"];
      const nonce = req.headers["x-request-nonce"];
      if (typeof sig !== "string" || typeof nonce !== "string" || req.headers["x-signature"] !== undefined) return fail(401, "invalid_signature");
      const canonical = [req.method, req.path, String(req.headers["x-timestamp"]), nonce, createHash("sha256").update(req.body).digest("hex"), API_KEY].join("\n");
      if (sig !== createHmac("sha256", API_SECRET).update(canonical).digest("hex")) return fail(401, "invalid_signature");
      return ok(F.page([F.zone]));
    });
    expect(await other.listZones()).toEqual([F.zone]);
    expect(server.requests[0].path).toBe("/v2/dns/zones?page=1&per_page=50");
    await other.close();
  });
});
