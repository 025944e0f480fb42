/** The retry policy's pure functions: what may be repeated, how long to wait, Retry-After. */
import { outcomeUnknown, parseRetryAfter, retryDelay, shouldRetry, type AttemptFailure, type RequestSafety } from "../../api/retry";
import { classifyTransportError } from "../../api/transport";

const F = {
  notSent: { kind: "not-sent", reason: "ECONNREFUSED" },
  network: { kind: "network", reason: "UND_ERR_SOCKET" },
  timeout: { kind: "timeout", reason: "UND_ERR_HEADERS_TIMEOUT" },
  local: { kind: "local", reason: "UND_ERR_INVALID_ARG" },
  oversized: { kind: "oversized", reason: "answer larger than the cap" },
  s307: { kind: "status", status: 307 },
  s429: { kind: "status", status: 429 },
  s500: { kind: "status", status: 500 },
  s503: { kind: "status", status: 503 },
  s400: { kind: "status", status: 400 },
  s409: { kind: "status", status: 409 },
} satisfies Record<string, AttemptFailure>;

describe("shouldRetry / outcomeUnknown", () => {
  const table: [keyof typeof F, RequestSafety, boolean, boolean][] = [
    // failure, safety, retried, outcome unknown
    ["notSent", "safe", true, false],
    ["notSent", "creating", true, false],
    ["network", "safe", true, false],
    ["network", "creating", false, true],
    ["timeout", "safe", true, false],
    ["timeout", "creating", false, true],
    ["s429", "safe", true, false],
    ["s429", "creating", true, false],
    ["s500", "safe", true, false],
    ["s500", "creating", false, true],
    ["s503", "safe", true, false],
    ["s503", "creating", false, true],
    ["local", "safe", false, false],
    ["local", "creating", false, false],
    ["oversized", "safe", true, false],
    ["oversized", "creating", false, true],
    ["s307", "safe", false, false],
    ["s307", "creating", false, true],
    ["s400", "safe", false, false],
    ["s409", "creating", false, false],
  ];
  it.each(table)("%s on a %s request: retry %s, outcome unknown %s", (f, safety, retry, unknown) => {
    expect(shouldRetry(F[f], safety)).toBe(retry);
    expect(outcomeUnknown(F[f], safety)).toBe(unknown);
  });

  it.each(["UND_ERR_INVALID_ARG", "ERR_INVALID_URL", "ERR_INVALID_CHAR", "ERR_HTTP_INVALID_HEADER_VALUE"])("%s, raised on this machine, is local, never network", (code) => {
    expect(classifyTransportError(Object.assign(new TypeError("refused"), { code })).kind).toBe("local");
  });
  it("an unknown error stays network: it may have been sent", () => {
    expect(classifyTransportError(Object.assign(new Error("?"), { code: "UND_ERR_SOCKET" })).kind).toBe("network");
  });
});

describe("retryDelay: exponential backoff with full jitter, capped", () => {
  it("the ceiling doubles per attempt and stops at maxMs", () => {
    const top = () => 0.999999;
    expect([0, 1, 2, 3, 4, 5, 10].map((a) => retryDelay(a, top, { baseMs: 500, maxMs: 8000 }))).toEqual([499, 999, 1999, 3999, 7999, 7999, 7999]);
  });
  it("the draw is uniform from zero (full jitter)", () => {
    expect(retryDelay(3, () => 0)).toBe(0);
    expect(retryDelay(3, () => 0.5, { baseMs: 100, maxMs: 10_000 })).toBe(400);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  it("reads delta seconds", () => {
    expect(parseRetryAfter("3", now, 120_000)).toBe(3000);
    expect(parseRetryAfter("1.5", now, 120_000)).toBe(1500);
    expect(parseRetryAfter(" 0 ", now, 120_000)).toBe(0);
  });
  it("reads an HTTP date relative to now", () => {
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:07 GMT", now, 120_000)).toBe(7000);
    expect(parseRetryAfter("Tue, 31 Dec 2024 23:59:00 GMT", now, 120_000)).toBe(0);
  });
  it("caps at the contract's maximum", () => {
    expect(parseRetryAfter("86400", now, 120_000)).toBe(120_000);
    expect(parseRetryAfter("Thu, 02 Jan 2025 00:00:00 GMT", now, 120_000)).toBe(120_000);
  });
  it("ignores what it cannot read", () => {
    expect(parseRetryAfter(undefined, now, 1000)).toBeUndefined();
    expect(parseRetryAfter("", now, 1000)).toBeUndefined();
    expect(parseRetryAfter("soon", now, 1000)).toBeUndefined();
    expect(parseRetryAfter("-5", now, 1000)).toBeUndefined();
  });
});
