/**
 * Request signing: a pure function of (request, credentials, time, nonce).
 * The canonical string is defined in ./contract (CANONICAL_STRING_FIELDS); the client signs with
 * it and the sandbox verifies with it, so both sides share one definition.
 */
import { hmac } from "@noble/hashes/hmac";
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils";
import type { SigningContract } from "./contract";

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

/** The string that is signed; see contract.ts for the field order. */
export function canonicalString(req: SignableRequest): string {
  return [req.method.toUpperCase(), req.path, req.timestamp, req.nonce, bodyDigest(req.body), req.apiKey].join("\n");
}

/** HMAC-SHA256 of the canonical string under the API secret. */
export function signRequest(
  req: SignableRequest,
  secret: string,
  encoding: SigningContract["signatureEncoding"] = "hex",
): string {
  const mac = hmac(sha256, utf8ToBytes(secret), utf8ToBytes(canonicalString(req)));
  return encoding === "hex" ? bytesToHex(mac) : Buffer.from(mac).toString("base64");
}

/** Constant-time comparison of a presented signature with the expected one. */
export function verifySignature(
  req: SignableRequest,
  secret: string,
  presented: string,
  encoding: SigningContract["signatureEncoding"] = "hex",
): boolean {
  const expected = utf8ToBytes(signRequest(req, secret, encoding));
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
