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

/**
 * Which account pays: a hash of the service's base URL and the API key id (never the secret), so a
 * key sent to one account can never replay, or block, a purchase on another.
 */
export function accountId(baseUrl: string, apiKey: string): string {
  const url = new URL(baseUrl);
  const base = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
  return createHash("sha256").update(JSON.stringify([base, apiKey]), "utf8").digest("base64url").slice(0, 22);
}

/** What makes one purchase (register, transfer, renew, an add-on): who pays, for what, for how long. */
export interface Purchase {
  /** accountId(baseUrl, apiKey). */
  account: string;
  /** The resource asking: the same resource asking again sends the same key. */
  urn: string;
  operation: string;
  domain: string;
  /** The term bought, when the operation has one. */
  years?: number;
  /** A renewal: the expiry it renews from (spec: current_expiry). */
  from?: string;
  /** A new purchase after an earlier one of the same ended (derived from what ended, so stable too). */
  after?: string;
}

/**
 * The Idempotency-Key of a purchase. Every part is stable across runs for the same purchase (a
 * retried create after a crash replays the first order), and any part that differs makes it another
 * purchase: two stacks with equal names on one account renewing two domains never share a key.
 */
export function purchaseKey(p: Purchase, contract: Pick<IdempotencyContract, "keyPrefix" | "hashChars"> = DEFAULT_CONTRACT.idempotency): string {
  const domain = p.domain.trim().toLowerCase().replace(/\.$/, "");
  return deriveIdempotencyKey(p.urn, p.operation, JSON.stringify(["purchase", p.account, domain, p.years ?? null, p.from ?? null, p.after ?? null]), contract);
}
