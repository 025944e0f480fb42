/**
 * Errors over a real local server: every class from the one factory, messages that say what to
 * do next, ResponseShapeError naming endpoint and field, and no API secret or contact detail in
 * any thrown error (message, stack, JSON.stringify, util.inspect), nor in the client itself.
 */
import { inspect } from "node:util";
import type { ResellerClient } from "../../api/client";
import {
  AuthenticationError,
  ExpiryMismatchError,
  InsufficientCreditError,
  NotFoundError,
  PermissionError,
  PortalVerificationRequiredError,
  ProtectionEnabledError,
  RateLimitedError,
  ResellerApiError,
  ResponseShapeError,
  ValidationError,
  ZoneExistsError,
  hasErrorCode,
  parseErrorBody,
} from "../../api/errors";
import { ok, fail, startRecordingServer, type Reply, type RecordingServer } from "../support/recording-server";
import * as F from "./fixtures";
import { API_SECRET, clientFor, fakeClock } from "./helpers";

let server: RecordingServer;
let client: ResellerClient;
beforeEach(async () => {
  server = await startRecordingServer();
  client = clientFor(server, fakeClock(), { maxRateLimitRetries: 0 });
});
afterEach(async () => {
  await client.close();
  await server.close();
});

const caught = (p: Promise<unknown>): Promise<unknown> => p.then(() => undefined, (e: unknown) => e);

describe("error mapping", () => {
  const table: [Reply, new (...a: never[]) => ResellerApiError, string, RegExp][] = [
    [fail(409, "expiry_mismatch"), ExpiryMismatchError, "ExpiryMismatchError", /renewed already and nothing was charged/],
    [fail(409, "zone_exists"), ZoneExistsError, "ZoneExistsError", /adopt it/],
    [fail(403, "requires_portal_verification"), PortalVerificationRequiredError, "PortalVerificationRequiredError", /remove it there|reseller portal/],
    [fail(409, "protection_enabled"), ProtectionEnabledError, "ProtectionEnabledError", /remove protection in the reseller portal/],
    [fail(429, "rate_limited"), RateLimitedError, "RateLimitedError", /lower reseller:requestsPerMinute/],
    [fail(401, "unauthorized"), AuthenticationError, "AuthenticationError", /Check the API key and secret/],
    [fail(401, "invalid_signature"), AuthenticationError, "AuthenticationError", /signature did not match/],
    [fail(401, "nonce_reused"), AuthenticationError, "AuthenticationError", /nonce/],
    [fail(403, "insufficient_scope"), PermissionError, "PermissionError", /scope/],
    [fail(422, "validation_error", "years must be 1 to 10", { field: "years" }), ValidationError, "ValidationError", /Fix the input field "years"/],
    [fail(402, "insufficient_credit"), InsufficientCreditError, "InsufficientCreditError", /top up the account credit in the reseller portal/],
    [fail(404, "not_found"), NotFoundError, "NotFoundError", /removed outside this program/],
    // By status when the code is unknown or the body is not the contract's.
    [{ status: 404, body: "<html>Not Found</html>" }, NotFoundError, "NotFoundError", /404 not_found/],
    [{ status: 402, body: { error: "no_money", message: "pay" } }, InsufficientCreditError, "InsufficientCreditError", /402 no_money: pay/],
    [{ status: 418, body: { success: false, code: "teapot", message: "short and stout" } }, ResellerApiError, "ResellerApiError", /418 teapot: short and stout/],
  ];

  it.each(table)("%j -> %p", async (reply, Class, name, next) => {
    server.next({ ...reply, headers: { "X-Request-Id": "req-42" } } as Reply);
    const e = (await caught(client.renew("example.com", { years: 1, current_expiry: "2026-01-01" }, { idempotencyKey: "k" }))) as ResellerApiError;
    expect(e).toBeInstanceOf(Class);
    expect(e).toBeInstanceOf(ResellerApiError);
    expect(e.name).toBe(name);
    expect(e.message).toMatch(next);
    expect(e).toMatchObject({ method: "POST", endpoint: "POST /domains/{domain}/renew", path: "/api/v1/domains/example.com/renew", requestId: "req-42" });
    expect(e.message).toContain("(request id req-42)");
  });

  it("disableProtection surfaces the service's refusal", async () => {
    server.next(fail(403, "requires_portal_verification", "use the portal"));
    const e = await caught(client.disableProtection("example.com"));
    expect(e).toBeInstanceOf(PortalVerificationRequiredError);
    expect(hasErrorCode(e, "requires_portal_verification")).toBe(true);
    expect(server.requests[0].method).toBe("DELETE");
  });

  it("parseErrorBody reads the nested, flat and string forms", () => {
    expect(parseErrorBody(409, { success: false, error: { code: "zone_exists", message: "m", details: { a: 1 } } })).toEqual({ code: "zone_exists", message: "m", field: undefined, details: { a: 1 } });
    expect(parseErrorBody(400, { code: "bad_request", message: "m", field: "f" })).toMatchObject({ code: "bad_request", field: "f" });
    expect(parseErrorBody(400, { error: "bad_request", message: "m" })).toMatchObject({ code: "bad_request", message: "m" });
    expect(parseErrorBody(503, null)).toMatchObject({ code: "internal_error" });
  });
});

describe("ResponseShapeError", () => {
  it("names the endpoint and the field path of a broken view", async () => {
    server.next(ok({ ...F.info, stage: 7 }));
    const e = (await caught(client.getDomain("example.com"))) as ResponseShapeError;
    expect(e).toBeInstanceOf(ResponseShapeError);
    expect(e).toMatchObject({ endpoint: "GET /domains/{domain}", fieldPath: "data.stage", status: 200 });
    expect(e.message).toMatch(/^GET \/domains\/\{domain\} answered 200 with an unexpected body at data\.stage/);
  });

  it("names the item of a list", async () => {
    server.next(ok({ items: [F.record, { ...F.record, ttl: "300" }], pagination: { page: 1, per_page: 500, total: 2, next_page: null } }));
    await expect(client.listRecords("example.com")).rejects.toMatchObject({ endpoint: "GET /dns/zones/{domain}/records", fieldPath: "data.items[1].ttl" });
  });

  it.each([
    ["not JSON", { status: 200, body: "<html>" }, "(body)"],
    ["no success flag", { status: 200, body: { data: F.zone } }, "success"],
    ["no data", { status: 200, body: { success: true } }, "data"],
  ] as [string, Reply, string][])("envelope: %s", async (_n, reply, field) => {
    server.next(reply);
    await expect(client.checkZone("example.com")).rejects.toMatchObject({ name: "ResponseShapeError", endpoint: "POST /dns/zones/{domain}/check", fieldPath: field });
  });
});

describe("no secret in any thrown error or in the client", () => {
  const leaks = (x: unknown): string[] => {
    const e = x as Error;
    const views = [JSON.stringify(x), inspect(x, { depth: 10, showHidden: true }), e.message, e.stack ?? "", String(x)];
    return views.filter((v) => /TOPSECRET|ada@example|2071234567|EPP-LEAK/.test(v));
  };

  it("errors from echoing servers, network failures, shapes and unknown outcomes", async () => {
    const echo = { secret: API_SECRET, auth_code: "EPP-LEAK", contacts: { registrant: F.contact } };
    const errors: unknown[] = [];
    server.next(fail(401, "unauthorized", `bad secret ${API_SECRET}`, { details: echo }));
    errors.push(await caught(client.ping()));
    server.next({ status: 422, body: { success: false, error: { code: "validation_error", message: "email ada@example.org invalid", field: "contacts.registrant.email" }, echo } });
    errors.push(await caught(client.register({ domain: "example.com", years: 1, contacts: { registrant: F.contact } }, { idempotencyKey: "k" })));
    server.next(fail(500, "internal_error", `X-Service-Secret: ${API_SECRET}`));
    errors.push(await caught(client.requestEppCode("example.com")));
    server.next({ drop: true });
    errors.push(await caught(client.createZone("example.com")));
    server.next(ok({ auth_code: 5, note: API_SECRET }));
    errors.push(await caught(client.requestEppCode("example.com")));
    server.next({ status: 500, body: `secret=${API_SECRET}` });
    const once = clientFor(server, fakeClock(), { maxRetries: 0 });
    errors.push(await caught(once.getDomain("example.com")));
    await once.close();
    expect(errors.map((e) => (e as Error).name)).toEqual([
      "AuthenticationError",
      "ValidationError",
      "OutcomeUnknownError",
      "OutcomeUnknownError",
      "ResponseShapeError",
      "ResellerApiError",
    ]);
    for (const e of errors) expect(leaks(e)).toEqual([]);
    // The body is kept, redacted.
    expect((errors[0] as ResellerApiError).details).toMatchObject({ secret: "[redacted]", auth_code: "[redacted]" });
  });

  it("the client shows neither the secret when stringified nor when inspected", () => {
    expect(JSON.stringify(client)).not.toContain("TOPSECRET");
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain("TOPSECRET");
    expect(Object.values(client).join(" ")).not.toContain("TOPSECRET");
  });
});
