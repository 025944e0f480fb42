/**
 * Rules only the sandbox applies: which scope a request needs, which requests must carry an
 * Idempotency-Key, and the HTTP status of each error code. The client never consults them (it
 * attaches a key where its caller passes one, and reads an error by its code first), so they live
 * here rather than in the protocol contract (provider/contract.ts), which keeps what both sides read.
 */
import { DEFAULT_CONTRACT, type ErrorCode } from "../provider/contract";

/**
 * Scopes (spec, Authentication 4: "Scope names and which endpoint needs which scope: not shown").
 * We assume four: read (every GET and the read-only POSTs), domains (management),
 * dns (zones, records, templates) and purchase (anything that charges credit).
 */
export const SCOPES = ["read", "domains", "dns", "purchase"] as const;
export type Scope = (typeof SCOPES)[number];

/** The scope a request needs. Paths are relative to the API prefix, e.g. "/domains/register". */
export function requiredScope(method: string, path: string): Scope {
  const m = method.toUpperCase();
  if (m === "GET") return "read";
  if (/^\/domains\/(availability|check)$/.test(path) || path === "/pricing") return "read";
  if (/^\/domains\/(register|transfer)$/.test(path) || /^\/domains\/[^/]+\/renew$/.test(path)) return "purchase";
  if (/^\/domains\/[^/]+\/(privacy|protection)$/.test(path) && m === "POST") return "purchase";
  if (path.startsWith("/dns/")) return "dns";
  return "domains";
}

/**
 * Whether a request, as the request log shows it (path with the API prefix and query), only reads:
 * a GET, or one of the read-only POSTs (availability, check, pricing), the read scope's requests.
 */
export function isReadRequest(r: { method: string; path: string }, apiPrefix: string = DEFAULT_CONTRACT.apiPrefix): boolean {
  const path = r.path.split("?")[0];
  return requiredScope(r.method, path.startsWith(`${apiPrefix}/`) ? path.slice(apiPrefix.length) : path) === "read";
}

/**
 * Endpoints that require an Idempotency-Key (stated, Authentication 7: "register, transfer,
 * renew, privacy enable and protection enable").
 */
export function requiresIdempotencyKey(method: string, path: string): boolean {
  if (method.toUpperCase() !== "POST") return false;
  return (
    /^\/domains\/(register|transfer)$/.test(path) ||
    /^\/domains\/[^/]+\/(renew|privacy|protection)$/.test(path)
  );
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
