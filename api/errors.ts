/**
 * Errors the client throws. One base class for answers of the service (`ResellerApiError`), a
 * subclass per code a caller acts on, one factory (`ResellerApiError.from`) mapping an answer to
 * its class, and five errors of the client itself: ResponseShapeError, OutcomeUnknownError,
 * ResellerNetworkError, LocalRequestError, UnsafePathError. Every message says what to do next; no message, field or body carries a
 * secret or a contact detail (bodies and messages pass through redact()).
 */
import { RENAMED_CONTACT_FIELDS } from "./contact-names";
import { ERROR_CODES } from "./contract";
import { redact } from "./redact";

/** Where an error happened: the endpoint as "METHOD /path/{template}" plus the concrete path. */
export interface RequestContext {
  method: string;
  /** Path template relative to the API prefix, e.g. "/domains/{domain}". */
  template: string;
  /** Concrete path as sent (without the secret-free query string it is the same thing). */
  path: string;
  requestId?: string;
  /** Values to scrub from the body and message in addition to redact()'s rules. */
  secrets?: readonly string[];
  /** Retry-After in ms, when the answer carried one. */
  retryAfterMs?: number;
  /** What the client did before giving up (e.g. how many 429s it waited out), said before the next step. */
  note?: string;
  /** How the caller names the API key and secret it read, for the advice of a refused credential (client option `credentialSettings`). */
  credentialSettings?: string;
}

/** The parts of an error body the client understands (contract: ErrorShape, read leniently). */
export interface ParsedErrorBody {
  code: string;
  message: string;
  field?: string;
  details?: Record<string, unknown>;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function codeForStatus(status: number): string {
  if (status === 401) return ERROR_CODES.unauthorized;
  if (status === 402) return ERROR_CODES.insufficientCredit;
  if (status === 404) return ERROR_CODES.notFound;
  if (status === 422) return ERROR_CODES.validation;
  if (status === 429) return ERROR_CODES.rateLimited;
  if (status >= 500) return ERROR_CODES.internal;
  return `http_${status}`;
}

/** Reads `{error:{code,message,field,details}}`, `{code,message}` or `{error:"code",message}`; falls back on the status. */
export function parseErrorBody(status: number, body: unknown): ParsedErrorBody {
  const b = obj(body) ?? {};
  const nested = obj(b.error);
  const src = nested ?? b;
  const code = str(src.code) ?? str(b.error) ?? codeForStatus(status);
  const message = str(src.message) ?? str(b.message) ?? (typeof body === "string" ? body.slice(0, 200) : "");
  return { code, message, field: str(src.field) ?? str(b.field), details: obj(src.details) ?? obj(b.details) };
}

/** An answer of the service that is not a success. */
export class ResellerApiError extends Error {
  override readonly name: string = "ResellerApiError";
  readonly status: number;
  readonly code: string;
  readonly method: string;
  /** Endpoint template, e.g. "/domains/{domain}/renew". */
  readonly endpoint: string;
  readonly path: string;
  readonly requestId: string | undefined;
  readonly field: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  /** The response body, redacted. */
  readonly body: unknown;

  constructor(status: number, parsed: ParsedErrorBody, ctx: RequestContext, body: unknown) {
    const nextStep = (new.target as typeof ResellerApiError).nextStep(status, parsed, ctx);
    const secrets = ctx.secrets ?? [];
    const serverMessage = redact(parsed.message, { secrets });
    const where = `${ctx.method} ${ctx.path}`;
    const rid = ctx.requestId ? ` (request id ${ctx.requestId})` : "";
    const note = ctx.note ? `${ctx.note} ` : "";
    super(`${where} failed with ${status} ${parsed.code}${serverMessage ? `: ${serverMessage}` : ""}${rid}. ${note}${nextStep}`);
    this.status = status;
    this.code = parsed.code;
    this.method = ctx.method;
    this.endpoint = `${ctx.method} ${ctx.template}`;
    this.path = ctx.path;
    this.requestId = ctx.requestId;
    this.field = parsed.field;
    this.details = parsed.details ? redact(parsed.details, { secrets }) : undefined;
    this.body = redact(body, { secrets });
  }

  /** What the caller should do next, for a class whose advice does not depend on the answer. */
  static readonly hint: string | undefined = undefined;

  /** What the caller should do next; subclasses set `hint` or override this. */
  static nextStep(status: number, _p: ParsedErrorBody, _ctx: RequestContext): string {
    if (this.hint) return this.hint;
    return status >= 500
      ? "The service failed; retry later, and read the resource back before repeating a change."
      : "Check the request against the API description.";
  }

  /** The one factory: maps status and code of an answer to the error class a caller acts on. */
  static from(status: number, body: unknown, ctx: RequestContext): ResellerApiError {
    const p = parseErrorBody(status, body);
    // Maps, not objects: a code named like an object's own member ("constructor", "__proto__") is just an unknown code.
    const Class = CLASS_BY_CODE.get(p.code) ?? CLASS_BY_STATUS.get(status) ?? (status >= 300 && status < 400 ? RedirectNotFollowedError : ResellerApiError);
    return new Class(status, p, ctx, body);
  }
}

type ErrorClass = new (status: number, p: ParsedErrorBody, ctx: RequestContext, body: unknown) => ResellerApiError;

export class ExpiryMismatchError extends ResellerApiError {
  override readonly name = "ExpiryMismatchError";
  static override readonly hint = "The domain was renewed already and nothing was charged; read the domain and renew from its current expiry date only if another renewal is wanted.";
}

export class ZoneExistsError extends ResellerApiError {
  override readonly name = "ZoneExistsError";
  static override readonly hint = "A DNS zone for this domain exists already; read it (getZone) and adopt it instead of creating it.";
}

export class PortalVerificationRequiredError extends ResellerApiError {
  override readonly name = "PortalVerificationRequiredError";
  static override readonly hint = "Domain Protection can only be removed in the reseller portal; remove it there, then refresh.";
}

export class ProtectionEnabledError extends ResellerApiError {
  override readonly name = "ProtectionEnabledError";
  static override readonly hint = "Domain Protection is on, so unlocking and EPP code requests are refused; remove protection in the reseller portal first.";
}

export class RateLimitedError extends ResellerApiError {
  override readonly name = "RateLimitedError";
  /** How long the service asked to wait, when it said so. */
  readonly retryAfterMs: number | undefined;
  static override readonly hint = "The credential's rate limit was exceeded and retries ran out; lower reseller:requestsPerMinute, or check whether another process uses the same API key.";
  constructor(status: number, p: ParsedErrorBody, ctx: RequestContext, body: unknown) {
    super(status, p, ctx, body);
    this.retryAfterMs = ctx.retryAfterMs;
  }
}

export class AuthenticationError extends ResellerApiError {
  override readonly name = "AuthenticationError";
  static override nextStep(_s: number, p: ParsedErrorBody, ctx: RequestContext): string {
    // Named as this client's owner reads them: the stack config, or a command's flags and environment.
    return AUTH_NEXT_STEP.get(p.code) ?? `Check the API key and secret (${ctx.credentialSettings ?? DEFAULT_CREDENTIAL_SETTINGS}); create new credentials in the reseller portal if they were rotated or revoked.`;
  }
}

/** How a client names the credentials when its owner does not say (the Pulumi stack config of the default account). */
export const DEFAULT_CREDENTIAL_SETTINGS = "reseller:apiKey / reseller:apiSecret";

const AUTH_NEXT_STEP: ReadonlyMap<string, string> = new Map([
  [ERROR_CODES.invalidSignature, "The signature did not match (or was missing); check the API secret, and, if the service names its headers or builds the signed string differently, set the contract's headers and signing entries (reseller:contract, or the client's contract option)."],
  [ERROR_CODES.timestampSkew, "The machine clock is too far from the service clock; synchronise it (NTP)."],
  [ERROR_CODES.nonceReused, "A nonce was replayed; this is a client bug or an intercepted request, retry the call."],
]);

export class PermissionError extends ResellerApiError {
  override readonly name = "PermissionError";
  static override readonly hint = "The API key may not do this (scope or IP allowlist); give the key the scope, or allow this address, in the reseller portal.";
}

export class ValidationError extends ResellerApiError {
  override readonly name = "ValidationError";
  static override nextStep(_s: number, p: ParsedErrorBody): string {
    if (!p.field) return "Fix the input and retry.";
    const input = INPUT_FOR_FIELD.get(p.field) ?? contactInputOf(p.field);
    return input ? `Fix the input ${input} (the service's field ${p.field}) and retry.` : `Fix the input field "${p.field}" and retry.`;
  }
}

/** A contact field the service names (`contacts.registrant.postal_code`) as a Domain's input names it (`contacts.registrant.postalCode`). */
function contactInputOf(field: string): string | undefined {
  const m = /^(contacts\.(?:registrant|admin|tech|billing))\.(\w+)$/.exec(field);
  const ours = m && RENAMED_CONTACT_FIELDS.find(([, service]) => service === m[2])?.[0];
  return ours ? `${m[1]}.${ours}` : undefined;
}

/** The service's request fields whose resource input is spelled otherwise, so hints name what the user wrote. */
const INPUT_FOR_FIELD: ReadonlyMap<string, string> = new Map([
  ["auth_code", "authCode"],
  ["client_reference", "clientReference"],
  ["current_expiry", "renewal (current expiry)"],
  ["conflict_strategy", "conflictStrategy"],
  ["template_id", "templateId"],
  ["max_price", "maxPrice"],
]);

export class InsufficientCreditError extends ResellerApiError {
  override readonly name = "InsufficientCreditError";
  static override readonly hint = "Nothing was charged; top up the account credit in the reseller portal, then run again.";
}

export class NotFoundError extends ResellerApiError {
  override readonly name = "NotFoundError";
  static override readonly hint =
    "Check the name; if it existed before, it was removed outside this program (refresh to update the state). If every call answers 404, reseller:baseUrl is wrong: it is the scheme and host only (the client adds /api/v1).";
}

/** A 3xx answer. Never followed: the credentials would go with the request to wherever it points. */
export class RedirectNotFollowedError extends ResellerApiError {
  override readonly name = "RedirectNotFollowedError";
  static override readonly hint =
    "The service answered with a redirect, which is never followed (the API secret travels in every request); set reseller:baseUrl to the service's own https address. If this was an order, read the domain back before ordering again.";
}

/** Error class by the service's code (read with get: the code is the server's string). */
const CLASS_BY_CODE: ReadonlyMap<string, ErrorClass> = new Map<string, ErrorClass>([
  [ERROR_CODES.expiryMismatch, ExpiryMismatchError],
  [ERROR_CODES.zoneExists, ZoneExistsError],
  [ERROR_CODES.requiresPortalVerification, PortalVerificationRequiredError],
  [ERROR_CODES.protectionEnabled, ProtectionEnabledError],
  [ERROR_CODES.rateLimited, RateLimitedError],
  [ERROR_CODES.unauthorized, AuthenticationError],
  [ERROR_CODES.invalidSignature, AuthenticationError],
  [ERROR_CODES.timestampSkew, AuthenticationError],
  [ERROR_CODES.nonceReused, AuthenticationError],
  [ERROR_CODES.forbiddenScope, PermissionError],
  [ERROR_CODES.ipNotAllowed, PermissionError],
  [ERROR_CODES.validation, ValidationError],
  [ERROR_CODES.insufficientCredit, InsufficientCreditError],
  [ERROR_CODES.notFound, NotFoundError],
]);

/** The class of an answer whose code is none of the above, by its status: the class of the code that status stands for. */
const CLASS_BY_STATUS: ReadonlyMap<number, ErrorClass> = new Map(
  ([
    [401, ERROR_CODES.unauthorized],
    [402, ERROR_CODES.insufficientCredit],
    [404, ERROR_CODES.notFound],
    [422, ERROR_CODES.validation],
    [429, ERROR_CODES.rateLimited],
  ] as const).map(([status, code]) => [status, CLASS_BY_CODE.get(code)!]),
);

/** A success answer whose body does not have the shape the contract expects. */
export class ResponseShapeError extends Error {
  override readonly name = "ResponseShapeError";
  /** "METHOD /template", e.g. "GET /domains/{domain}". */
  readonly endpoint: string;
  /** Where in the body the shape broke, e.g. "data.items[2].ttl". */
  readonly fieldPath: string;
  readonly status: number;
  constructor(endpoint: string, fieldPath: string, problem: string, status: number) {
    super(
      `${endpoint} answered ${status} with an unexpected body at ${fieldPath}: ${problem}. ` +
        "The service differs from this package's contract; if that is expected, override the contract (api/contract.ts) through the client options.",
    );
    this.endpoint = endpoint;
    this.fieldPath = fieldPath;
    this.status = status;
  }
}

/** A creating request may or may not have been applied: it is not re-sent, the caller reconciles. */
export class OutcomeUnknownError extends Error {
  override readonly name = "OutcomeUnknownError";
  readonly method: string;
  readonly endpoint: string;
  readonly path: string;
  /** What happened: "connection lost (...)", "no answer in time (...)", an oversized answer, or "status <n> <code>". */
  readonly reason: string;
  readonly status: number | undefined;
  constructor(ctx: RequestContext, reason: string, status?: number) {
    super(
      `${ctx.method} ${ctx.path}: outcome unknown: the request may have reached the service but no usable answer came back (${reason}). ` +
        "It was not re-sent because it is not idempotent; read the resource back and reconcile before trying again.",
    );
    this.method = ctx.method;
    this.endpoint = `${ctx.method} ${ctx.template}`;
    this.path = ctx.path;
    this.reason = reason;
    this.status = status;
  }
}

/** How a network failure came about, for the advice of its message. */
export interface NetworkFailureDetail {
  /** Every attempt carried the same Idempotency-Key. */
  keyed?: boolean;
  /** The last attempt's failure kind (api/retry AttemptFailure). */
  kind?: "not-sent" | "network" | "timeout" | "oversized";
}

/** The service could not be reached (after the retries allowed), or did not answer in time or in size. */
export class ResellerNetworkError extends Error {
  override readonly name = "ResellerNetworkError";
  readonly method: string;
  readonly endpoint: string;
  readonly path: string;
  readonly reason: string;
  /** false when no connection was ever made (refused, unknown host): nothing reached the service. */
  readonly sent: boolean;
  /** Every attempt carried the same Idempotency-Key, so the service applied the call at most once. */
  readonly keyed: boolean;
  constructor(ctx: RequestContext, reason: string, attempts: number, sent = true, detail: NetworkFailureDetail = {}) {
    const advice =
      detail.kind === "oversized"
        ? "Raise the contract entry maxResponseBytes (reseller:contract) only if the service's answers are really that large; otherwise something between this machine and the service is altering answers."
        : "Check reseller:baseUrl and the network; raise reseller:timeoutSeconds (the client option timeoutMs) if the service is slow.";
    const keyed = detail.keyed
      ? " Every attempt carried the same Idempotency-Key (retried under the same key), so the service applied it at most once, and may have: read the resource back before anything else; a new attempt with that key cannot apply it twice."
      : "";
    super(
      sent
        ? `${ctx.method} ${ctx.path} failed after ${attempts} attempt(s): ${reason}. ${advice}${keyed}`
        : `${ctx.method} ${ctx.path}: the request never reached the service after ${attempts} attempt(s) (${reason}), so nothing was changed or charged. ` +
            "Check reseller:baseUrl (scheme, host and port) and that the service is up.",
    );
    this.method = ctx.method;
    this.endpoint = `${ctx.method} ${ctx.template}`;
    this.path = ctx.path;
    this.reason = reason;
    this.sent = sent;
    this.keyed = detail.keyed ?? false;
  }
}

/**
 * The HTTP stack refused the request on this machine before writing it (a header value it cannot
 * carry, a malformed URL): nothing was sent, and repeating it would fail the same way.
 */
export class LocalRequestError extends Error {
  override readonly name = "LocalRequestError";
  readonly method: string;
  readonly endpoint: string;
  readonly reason: string;
  constructor(ctx: RequestContext, reason: string) {
    super(
      `${ctx.method} ${ctx.path}: not sent, ${reason}; nothing reached the service, so nothing was changed or charged. ` +
        "Check the settings for characters an HTTP header cannot carry (reseller:apiKey, reseller:apiSecret: no line breaks or spaces at either end) and reseller:baseUrl.",
    );
    this.method = ctx.method;
    this.endpoint = `${ctx.method} ${ctx.template}`;
    this.reason = reason;
  }
}

/**
 * A path parameter that would not name one resource: empty, "." or ".." (a server or a proxy that
 * normalises the path reads it as another resource), or an id of another shape than the service's
 * (contract: ids). Refused before signing: nothing was sent.
 */
export class UnsafePathError extends Error {
  override readonly name = "UnsafePathError";
  /** Path template, e.g. "/dns/zones/{domain}/records/{id}". */
  readonly template: string;
  readonly parameter: string;
  readonly value: string;
  constructor(template: string, parameter: string, value: string, rule: string) {
    super(
      `${template}: not sent: its path parameter ${parameter} is ${JSON.stringify(value.slice(0, 80))}, which ${rule}; nothing reached the service. ` +
        "Such a value comes from state or from an answer, never from a program that passed its checks: refresh the resource; if it names nothing the service holds, remove it from state (pulumi state delete).",
    );
    this.template = template;
    this.parameter = parameter;
    this.value = value;
  }
}

/**
 * The caller cancelled (the Pulumi CLI's cancel, a CI job's SIGINT) before this request was sent:
 * nothing of it reached the service, so nothing was changed or charged by it.
 */
export class RequestCancelledError extends Error {
  override readonly name = "RequestCancelledError";
  readonly method: string;
  readonly endpoint: string;
  readonly reason: string;
  constructor(ctx: RequestContext, reason: string) {
    super(`${ctx.method} ${ctx.path}: not sent: ${reason}; nothing of it reached the service, so it changed or charged nothing.`);
    this.method = ctx.method;
    this.endpoint = `${ctx.method} ${ctx.template}`;
    this.reason = reason;
  }
}

/** The literal `name` of ResellerApiError and of each subclass (test/api/vocabulary.test.ts checks the list is whole). */
export const API_ERROR_NAMES: ReadonlySet<string> = new Set([
  "ResellerApiError",
  "ExpiryMismatchError",
  "ZoneExistsError",
  "PortalVerificationRequiredError",
  "ProtectionEnabledError",
  "RateLimitedError",
  "AuthenticationError",
  "PermissionError",
  "ValidationError",
  "InsufficientCreditError",
  "NotFoundError",
  "RedirectNotFollowedError",
]);

/** No `instanceof Error`: an error from another realm (a vm context, a worker) fails that too. */
const named = (e: unknown, ...names: string[]): e is Error =>
  typeof e === "object" && e !== null && names.includes((e as { name?: unknown }).name as string);

// ky's style: the class, or its literal `name`, so an error from a second copy of this module (the
// package loaded from dist/ and from source in one process, or two installed versions) still counts.
// A name alone is not enough: the fields the caller then reads must be there too.

export const isResellerApiError = (e: unknown): e is ResellerApiError =>
  e instanceof ResellerApiError ||
  (named(e, ...API_ERROR_NAMES) && typeof (e as { status?: unknown }).status === "number" && typeof (e as { code?: unknown }).code === "string");
export const isOutcomeUnknownError = (e: unknown): e is OutcomeUnknownError =>
  e instanceof OutcomeUnknownError || named(e, "OutcomeUnknownError");
export const isResellerNetworkError = (e: unknown): e is ResellerNetworkError =>
  e instanceof ResellerNetworkError || (named(e, "ResellerNetworkError") && typeof (e as { sent?: unknown }).sent === "boolean");
export const isLocalRequestError = (e: unknown): e is LocalRequestError => e instanceof LocalRequestError || named(e, "LocalRequestError");
export const isRequestCancelledError = (e: unknown): e is RequestCancelledError => e instanceof RequestCancelledError || named(e, "RequestCancelledError");
export const isResponseShapeError = (e: unknown): e is ResponseShapeError => e instanceof ResponseShapeError;
export const isUnsafePathError = (e: unknown): e is UnsafePathError => e instanceof UnsafePathError || named(e, "UnsafePathError");
/** Whether `e` is an API answer with this machine code (works across class boundaries, reads `code`). */
export const hasErrorCode = (e: unknown, code: string): boolean => (e as { code?: unknown } | null)?.code === code;
