/**
 * Idempotency keys derived from what is asked, not drawn at random: the same resource asking for
 * the same operation again (a re-run after a crash, a retry) sends the same key, so the service
 * never charges twice (spec, Authentication 7).
 */
import { createHash } from "node:crypto";
import { DEFAULT_CONTRACT, type IdempotencyContract } from "./contract";

/**
 * prefix + base64url(SHA-256(JSON array [urn, operation, discriminator or null])) cut to hashChars.
 * The JSON array is an unambiguous encoding: ("a|b", "c") and ("a", "b|c") differ, and an absent
 * discriminator differs from an empty one.
 */
export function deriveIdempotencyKey(
  urn: string,
  operation: string,
  discriminator?: string,
  contract: Pick<IdempotencyContract, "keyPrefix" | "hashChars"> = DEFAULT_CONTRACT.idempotency,
): string {
  const encoded = JSON.stringify([urn, operation, discriminator ?? null]);
  const digest = createHash("sha256").update(encoded, "utf8").digest("base64url");
  return contract.keyPrefix + digest.slice(0, contract.hashChars);
}
