/**
 * api/vocabulary against real answers: each guard is shown a real error of the real client
 * talking to the sandbox over HTTP, and must pick it out from every other code, from a plain Error
 * saying the same, and from the same error made by a second copy of the client's modules (ky's
 * `name` check). The state predicates read real views, including a service that spells the privacy
 * states otherwise (contract: privacyStatuses).
 */
import * as errorsModule from "../../api/errors";
import { ResellerApiError, API_ERROR_NAMES } from "../../api/errors";
import { ResellerClient } from "../../api/client";
import { ERROR_CODES, VALUES } from "../../api/contract";
import { deriveIdempotencyKey } from "../../api/idempotency";
import {
  PRIVACY_STATUS,
  STAGE,
  STAGE_GROUPS,
  YEARS,
  isActiveStage,
  isApiError,
  isExpiryMismatch,
  isGoneStage,
  isNotFound,
  isOutcomeUnknown,
  isPrivacyAwaitingVerification,
  isPrivacyLive,
  isPrivacyOn,
  isProcessingStage,
  isProtectionEnabled,
  isProtectionOn,
  isRefusedAsInvalid,
  isRenewableStage,
  isTemplateConflict,
  isTtlConflict,
  isUnanswered,
  isZoneActive,
  isZoneExists,
  isZoneNotActive,
  yearsRange,
} from "../../api/vocabulary";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { ok, startRecordingServer, type RecordingServer } from "../support/recording-server";
import { clientFor, fakeClock } from "./helpers";

let sandbox: SandboxHandle;
const clients: ResellerClient[] = [];
const options = (extra: Partial<ConstructorParameters<typeof ResellerClient>[0]> = {}) => ({
  baseUrl: sandbox.url,
  apiKey: sandbox.credentials.key,
  apiSecret: sandbox.credentials.secret,
  requestsPerMinute: 100_000,
  burst: 100,
  rateLimitLogDir: null,
  ...extra,
});
const clientOf = (extra: Partial<ConstructorParameters<typeof ResellerClient>[0]> = {}): ResellerClient => {
  const c = new ResellerClient(options(extra));
  clients.push(c);
  return c;
};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sandbox.close();
});

/** The error a call rejects with (fails the test when it resolves). */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected the call to be refused");
}

/** Each code guard, by the code it stands for. */
const GUARDS: [name: string, guard: (e: unknown) => boolean, code: string][] = [
  ["isExpiryMismatch", isExpiryMismatch, ERROR_CODES.expiryMismatch],
  ["isZoneExists", isZoneExists, ERROR_CODES.zoneExists],
  ["isProtectionEnabled", isProtectionEnabled, ERROR_CODES.protectionEnabled],
  ["isTemplateConflict", isTemplateConflict, ERROR_CODES.templateConflict],
  ["isTtlConflict", isTtlConflict, ERROR_CODES.ttlConflict],
  ["isZoneNotActive", isZoneNotActive, ERROR_CODES.zoneNotActive],
  ["isNotFound", isNotFound, ERROR_CODES.notFound],
  ["isRefusedAsInvalid", isRefusedAsInvalid, ERROR_CODES.validation],
];

/** The names of the guards that accept `e`. */
const accepting = (e: unknown): string[] => GUARDS.filter(([, guard]) => guard(e)).map(([name]) => name);

/** A plain Error saying the same, and one carrying the same fields but no error name of the client. */
function lookalikes(e: ResellerApiError): unknown[] {
  return [new Error(e.message), Object.assign(new Error(e.message), { status: e.status, code: e.code }), { status: e.status, code: e.code, message: e.message }];
}

describe("each guard picks out the real refusal it names, and nothing else", () => {
  const ZONE = "demo-reseller.com";

  const cases: [guard: string, refuse: (c: ResellerClient) => Promise<unknown>][] = [
    ["isExpiryMismatch", (c) => c.renew("demo-shop.net", { years: 1, current_expiry: "2001-01-01" }, { idempotencyKey: deriveIdempotencyKey("urn:test::Domain::vocab", "renew-stale") })],
    ["isZoneExists", (c) => c.createZone(ZONE)],
    ["isProtectionEnabled", (c) => c.setLock("protected-brand.com", false)],
    ["isTemplateConflict", (c) => c.applyTemplate(ZONE, "google-workspace", { variables: {}, conflict_strategy: "cancel" })],
    ["isTtlConflict", (c) => c.createRecord(ZONE, { type: "A", name: "mail", content: "192.0.2.26", ttl: 300 })],
    ["isNotFound", (c) => c.getDomain("not-in-this-account.com")],
    // An identical record (type, name, content) exists: refused as invalid input, nothing created.
    ["isRefusedAsInvalid", (c) => c.createRecord(ZONE, { type: "A", name: "mail", content: "192.0.2.25", ttl: 3600 })],
  ];

  it.each(cases)("%s", async (guard, refuse) => {
    const e = await rejection(refuse(clientOf()));
    expect(e).toBeInstanceOf(ResellerApiError);
    expect(accepting(e)).toEqual([guard]);
    const code = GUARDS.find(([name]) => name === guard)![2];
    expect(isApiError(e, code as never)).toBe(true);
    for (const other of lookalikes(e as ResellerApiError)) expect(accepting(other)).toEqual([]);
  });

  it("isZoneNotActive: records of a zone that is not delegated yet", async () => {
    const c = clientOf();
    const zone = await c.createZone("demo-labs.io");
    expect(isZoneActive(zone)).toBe(false);
    const e = await rejection(c.createRecord("demo-labs.io", { type: "TXT", name: "early", content: "too early", ttl: 300 }));
    expect(accepting(e)).toEqual(["isZoneNotActive"]);
    for (const other of lookalikes(e as ResellerApiError)) expect(isZoneNotActive(other)).toBe(false);
    expect(isZoneActive(await c.getZone("demo-reseller.com"))).toBe(true);
  });

  it("a 404 of another code is still isNotFound; a refusal of another status is not", async () => {
    const e = await rejection(clientOf().getZone("demo-shop.net"));
    expect(isNotFound(e)).toBe(true);
    const relabelled = ResellerApiError.from(404, { error: { code: "zone_missing", message: "gone" } }, { method: "GET", template: "/dns/zones/{domain}", path: "/dns/zones/x.com" });
    expect([isNotFound(relabelled), isApiError(relabelled, ERROR_CODES.notFound)]).toEqual([true, false]);
    expect(isNotFound(await rejection(clientOf().createZone("demo-reseller.com")))).toBe(false);
  });
});

describe("errors of a second copy of the client's modules (instanceof fails, the name holds)", () => {
  it("the guards and resources/shared/api's readers know them", async () => {
    let Copy!: typeof ResellerClient;
    let CopyError!: typeof ResellerApiError;
    jest.isolateModules(() => {
      Copy = (require("../../api/client") as typeof import("../../api/client")).ResellerClient;
      CopyError = (require("../../api/errors") as typeof import("../../api/errors")).ResellerApiError;
    });
    expect(CopyError).not.toBe(ResellerApiError);
    const c = new Copy(options());
    try {
      const mismatch = await rejection(c.renew("demo-shop.net", { years: 1, current_expiry: "2001-01-01" }, { idempotencyKey: "vocab-copy-renew" }));
      const missing = await rejection(c.getDomain("not-in-this-account.com"));
      expect(mismatch).toBeInstanceOf(CopyError);
      expect(mismatch).not.toBeInstanceOf(ResellerApiError);
      expect([accepting(mismatch), accepting(missing)]).toEqual([["isExpiryMismatch"], ["isNotFound"]]);
    } finally {
      await c.close();
    }
  });
});

describe("API_ERROR_NAMES names every class of the client's answers", () => {
  it("each exported subclass of ResellerApiError, and the class each code and status maps to", () => {
    const ctx = { method: "GET", template: "/x", path: "/x" };
    const classes = Object.values(errorsModule).filter(
      (v): v is typeof ResellerApiError => typeof v === "function" && (v === ResellerApiError || v.prototype instanceof ResellerApiError),
    );
    expect(classes.length).toBeGreaterThan(5);
    const made = [
      ...classes.map((C) => new C(409, { code: "x", message: "" }, ctx, null)),
      ...Object.values(ERROR_CODES).map((code) => ResellerApiError.from(400, { error: { code } }, ctx)),
      ...[400, 401, 402, 403, 404, 409, 422, 429, 500].map((status) => ResellerApiError.from(status, {}, ctx)),
    ];
    expect(made.filter((e) => !API_ERROR_NAMES.has(e.name)).map((e) => e.name)).toEqual([]);
    expect([...API_ERROR_NAMES].sort()).toEqual([...new Set(classes.map((C) => new C(409, { code: "x", message: "" }, ctx, null).name))].sort());
  });
});

describe("no answer: outcome unknown and unsent requests", () => {
  it("a create whose answer never came is isOutcomeUnknown and isUnanswered; an API refusal is neither", async () => {
    const c = clientOf({ timeoutMs: 300 });
    sandbox.operator.injectFault({ kind: "delay", ms: 1500, count: 1, match: { method: "POST", path: "/records" } });
    const lost = await rejection(c.createRecord("demo-reseller.com", { type: "TXT", name: "lost-answer", content: "applied late", ttl: 300 }));
    expect([isOutcomeUnknown(lost), isUnanswered(lost)]).toEqual([true, true]);
    expect(accepting(lost)).toEqual([]);
    const refused = await rejection(clientOf().createZone("demo-reseller.com"));
    expect([isOutcomeUnknown(refused), isUnanswered(refused)]).toEqual([false, false]);
    expect(isOutcomeUnknown(new Error((lost as Error).message))).toBe(false);
  });

  it("a request that never left (nothing listens) is not unanswered: nothing reached the service", async () => {
    const closed = await startRecordingServer();
    const url = closed.url;
    await closed.close();
    const c = new ResellerClient({ ...options(), baseUrl: url, maxRetries: 0 });
    clients.push(c);
    const e = await rejection(c.getBalance());
    expect((e as Error).name).toBe("ResellerNetworkError");
    expect([isUnanswered(e), isOutcomeUnknown(e), isApiError(e)]).toEqual([false, false, false]);
  });
});

describe("states read from real views", () => {
  it("privacy: live, bought and awaiting confirmation, then off", async () => {
    const c = clientOf();
    const live = await c.getPrivacy("demo-reseller.com");
    expect([isPrivacyOn(live), isPrivacyLive(live), isPrivacyAwaitingVerification(live)]).toEqual([true, true, false]);
    const off = await c.getPrivacy("demo-shop.net");
    expect([off.status, isPrivacyOn(off)]).toEqual([PRIVACY_STATUS.off, false]);
    const bought = await c.enablePrivacy("demo-shop.net", { idempotencyKey: "vocab-privacy" });
    expect([isPrivacyOn(bought), isPrivacyAwaitingVerification(bought), isPrivacyLive(bought)]).toEqual([true, true, false]);
    sandbox.operator.confirmPrivacy("demo-shop.net");
    expect(isPrivacyLive(await c.getPrivacy("demo-shop.net"))).toBe(true);
    await c.disablePrivacy("demo-shop.net");
    const info = await c.getDomain("demo-shop.net");
    expect(isPrivacyOn(info.privacy!)).toBe(false);
  });

  it("protection and stages", async () => {
    const c = clientOf();
    expect(isProtectionOn(await c.getProtection("protected-brand.com"))).toBe(true);
    expect(isProtectionOn(await c.getProtection("demo-labs.io"))).toBe(false);
    const stages = Object.fromEntries((await c.listDomainInfos()).map((d) => [d.domain, d.stage]));
    expect(isProcessingStage(stages["awaiting-review.dev"])).toBe(true);
    expect([isRenewableStage(stages["lapsed-name.net"]), isActiveStage(stages["lapsed-name.net"])]).toEqual([true, false]);
    expect([isActiveStage(stages["demo-shop.net"]), isGoneStage(stages["demo-shop.net"])]).toEqual([true, false]);
  });

  it("the groups hold only stated stages, and processing, active and gone do not overlap", () => {
    const all = Object.values(STAGE_GROUPS).flat();
    expect(all.filter((s) => !(VALUES.stages as readonly string[]).includes(s))).toEqual([]);
    const { processing, active, gone } = STAGE_GROUPS;
    expect([...processing, ...active, ...gone].length).toBe(new Set([...processing, ...active, ...gone]).size);
    expect(STAGE.transferred_away).toBe("transferred_away");
  });

  it("years: the default range, and a TLD's own limits win", () => {
    expect(YEARS).toEqual({ min: VALUES.defaultMinYears, max: VALUES.defaultMaxYears });
    expect(yearsRange({ min_years: 1, max_years: 5 })).toEqual({ min: 1, max: 5 });
    expect(yearsRange(null)).toEqual(YEARS);
  });
});

describe("a service that spells the privacy states otherwise (contract: privacyStatuses)", () => {
  let server: RecordingServer;
  afterEach(async () => server?.close());

  it("the client reads its words as ours, in the privacy view and in the domain's", async () => {
    const words = { live: "enabled", off: "off", awaitingVerification: "pending_email" };
    const views = [
      { enabled: false, status: "off" },
      { enabled: false, status: "pending_email" },
      { enabled: false, status: "enabled" },
    ];
    server = await startRecordingServer((req, i) =>
      req.path.endsWith("/privacy") ? ok(views[i]) : ok({ domain: "example.com", status: "active", stage: "active", privacy: { enabled: false, status: "enabled" } }),
    );
    const c = clientFor(server, fakeClock(), { contract: { privacyStatuses: words } });
    const read = [await c.getPrivacy("example.com"), await c.getPrivacy("example.com"), await c.getPrivacy("example.com")];
    expect(read.map((p) => p.status)).toEqual([PRIVACY_STATUS.off, PRIVACY_STATUS.awaitingVerification, PRIVACY_STATUS.live]);
    expect(read.map(isPrivacyOn)).toEqual([false, true, true]);
    const info = await c.getDomain("example.com");
    expect(isPrivacyLive(info.privacy!)).toBe(true);
    await c.close();
  });

  it("the same answers read on the default contract: the service's words are not ours, so not on", async () => {
    server = await startRecordingServer(() => ok({ enabled: false, status: "enabled" }));
    const c = clientFor(server, fakeClock());
    const p = await c.getPrivacy("example.com");
    expect([p.status, isPrivacyOn(p)]).toEqual(["enabled", false]);
    await c.close();
  });
});
