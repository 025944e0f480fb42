/**
 * Request signing: a pure function of (request, credentials, time, nonce, layout).
 * The canonical string's layout (fields in order, separator) is part of the contract
 * (signing.canonicalFields, signing.separator); the client signs with the layout of its contract and
 * the sandbox verifies with the layout of its own, so both sides share one definition.
 */
import { hmac } from "@noble/hashes/hmac";
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils";
import { CANONICAL_STRING_FIELDS, type CanonicalField, type SigningContract } from "./contract";

export interface SignableRequest {
  /** HTTP method, any case. */
  method: string;
  /** Path with query string exactly as sent, e.g. "/api/v1/domains?page=2". */
  path: string;
  /** Raw body ("" when there is none). */
  body: string | Uint8Array;
  /** X-Service-Key value. */
  apiKey: string;
  /** Timestamp header value, already formatted. */
  timestamp: string;
  /** Nonce header value. */
  nonce: string;
}

const toBytes = (b: string | Uint8Array): Uint8Array => (typeof b === "string" ? utf8ToBytes(b) : b);

/** Lower-case hex SHA-256 of a body. */
export function bodyDigest(body: string | Uint8Array): string {
  return bytesToHex(sha256(toBytes(body)));
}

/** Which fields are signed, in which order, and what joins them (contract: SigningContract). */
export type CanonicalLayout = Pick<SigningContract, "canonicalFields" | "separator">;

/** The contract's default layout: CANONICAL_STRING_FIELDS joined by "\n". */
export const DEFAULT_LAYOUT: CanonicalLayout = { canonicalFields: CANONICAL_STRING_FIELDS, separator: "\n" };

const FIELD: Record<CanonicalField, (req: SignableRequest) => string> = {
  method: (r) => r.method.toUpperCase(),
  path: (r) => r.path,
  timestamp: (r) => r.timestamp,
  nonce: (r) => r.nonce,
  bodySha256: (r) => bodyDigest(r.body),
  apiKey: (r) => r.apiKey,
};

/** The string that is signed; see contract.ts (CANONICAL_STRING_FIELDS) for the fields. */
export function canonicalString(req: SignableRequest, layout: CanonicalLayout = DEFAULT_LAYOUT): string {
  return layout.canonicalFields.map((f) => FIELD[f](req)).join(layout.separator);
}

/** HMAC-SHA256 of the canonical string under the API secret. */
export function signRequest(
  req: SignableRequest,
  secret: string,
  encoding: SigningContract["signatureEncoding"] = "hex",
  layout: CanonicalLayout = DEFAULT_LAYOUT,
): string {
  const mac = hmac(sha256, utf8ToBytes(secret), utf8ToBytes(canonicalString(req, layout)));
  return encoding === "hex" ? bytesToHex(mac) : Buffer.from(mac).toString("base64");
}

/** Constant-time comparison of a presented signature with the expected one. */
export function verifySignature(
  req: SignableRequest,
  secret: string,
  presented: string,
  encoding: SigningContract["signatureEncoding"] = "hex",
  layout: CanonicalLayout = DEFAULT_LAYOUT,
): boolean {
  const expected = utf8ToBytes(signRequest(req, secret, encoding, layout));
  const got = utf8ToBytes(presented);
  if (expected.length !== got.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected[i] ^ got[i];
  return diff === 0;
}

/** Format a clock reading (ms since epoch) as the timestamp header value. */
export function formatTimestamp(nowMs: number, unit: SigningContract["timestampUnit"] = "seconds"): string {
  return unit === "seconds" ? String(Math.floor(nowMs / 1000)) : String(Math.floor(nowMs));
}

/** Parse a timestamp header value to ms since epoch, or NaN. */
export function parseTimestamp(value: string, unit: SigningContract["timestampUnit"] = "seconds"): number {
  if (!/^\d{1,16}$/.test(value)) return NaN;
  const n = Number(value);
  return unit === "seconds" ? n * 1000 : n;
}

/** A fresh nonce: `bytes` random bytes, hex. Randomness is a parameter so tests can fix it. */
export function makeNonce(bytes: number, random: (n: number) => Uint8Array): string {
  return bytesToHex(random(bytes));
}
