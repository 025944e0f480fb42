/**
 * The HTTP status of each error code, which only the sandbox applies: the client reads an error by
 * its code first, so this lives here rather than in the protocol contract (api/contract.ts).
 * Which scope, signature and key each request needs is one entry per operation of
 * api/operations.ts.
 */
import { DEFAULT_CONTRACT, type ErrorCode } from "../api/contract";
import { matchTemplate, OPERATION_LIST } from "../api/operations";

/**
 * Whether a request, as the request log shows it (path with the API prefix and query), only reads:
 * an operation of the read scope (every GET, and the read-only POSTs: availability, check, pricing).
 * A request that matches no operation is not a read.
 */
export function isReadRequest(r: { method: string; path: string }, apiPrefix: string = DEFAULT_CONTRACT.apiPrefix): boolean {
  const path = r.path.split("?")[0];
  const segments = (path.startsWith(`${apiPrefix}/`) ? path.slice(apiPrefix.length) : path).split("/").filter(Boolean).map(decodeURIComponent);
  const method = r.method.toUpperCase();
  return OPERATION_LIST.some(([, op]) => op.method === method && op.scope === "read" && matchTemplate(op.template, segments) !== null);
}

/** HTTP status of each code (stated: expiry_mismatch, zone_exists 409, requires_portal_verification 403; the rest assumed). The client maps by code first, status second. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  expiry_mismatch: 409,
  zone_exists: 409,
  requires_portal_verification: 403,
  unauthorized: 401,
  invalid_signature: 401,
  timestamp_out_of_range: 401,
  nonce_reused: 401,
  insufficient_scope: 403,
  ip_not_allowed: 403,
  rate_limited: 429,
  validation_error: 422,
  bad_request: 400,
  payload_too_large: 413,
  idempotency_key_required: 400,
  idempotency_key_reused: 422,
  insufficient_credit: 402,
  not_found: 404,
  domain_unavailable: 409,
  domain_not_active: 409,
  dns_addon_required: 409,
  zone_not_active: 409,
  ttl_conflict: 409,
  template_conflict: 409,
  protection_enabled: 409,
  already_enabled: 409,
  method_not_allowed: 405,
  internal_error: 500,
};
