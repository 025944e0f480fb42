/** deriveIdempotencyKey: deterministic, unambiguous, within the contract's format. */
import { createHash } from "node:crypto";
import { DEFAULT_CONTRACT } from "../../api/contract";
import { accountId, deriveIdempotencyKey, purchaseKey, type Purchase } from "../../api/idempotency";

const URN = "urn:pulumi:dev::shop::reseller:index:Domain::example.com";

describe("deriveIdempotencyKey", () => {
  it("same inputs give the same key, in the contract's format", () => {
    const a = deriveIdempotencyKey(URN, "register", "2025-01-01");
    expect(deriveIdempotencyKey(URN, "register", "2025-01-01")).toBe(a);
    const { keyPrefix, hashChars, maxKeyLength } = DEFAULT_CONTRACT.idempotency;
    expect(a.startsWith(keyPrefix)).toBe(true);
    expect(a).toHaveLength(keyPrefix.length + hashChars);
    expect(a.length).toBeLessThanOrEqual(maxKeyLength);
    expect(a.slice(keyPrefix.length)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("is the base64url SHA-256 of the JSON array of the three parts", () => {
    const expected = createHash("sha256").update(JSON.stringify([URN, "renew", "2026-03-04"])).digest("base64url").slice(0, 43);
    expect(deriveIdempotencyKey(URN, "renew", "2026-03-04")).toBe(`rp1-${expected}`);
  });

  it("any change of any part gives another key, and the encoding is unambiguous", () => {
    const keys = [
      deriveIdempotencyKey(URN, "register"),
      deriveIdempotencyKey(URN, "register", ""),
      deriveIdempotencyKey(URN, "register", "x"),
      deriveIdempotencyKey(URN, "renew"),
      deriveIdempotencyKey(`${URN}2`, "register"),
      deriveIdempotencyKey("a|b", "c"),
      deriveIdempotencyKey("a", "b|c"),
      deriveIdempotencyKey("a\nb", "c"),
      deriveIdempotencyKey("a", "b\nc"),
      deriveIdempotencyKey("a", "b", "c"),
      deriveIdempotencyKey("a", "bc"),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("follows a contract override of prefix and length", () => {
    const k = deriveIdempotencyKey(URN, "register", undefined, { keyPrefix: "x-", hashChars: 10 });
    expect(k).toMatch(/^x-[A-Za-z0-9_-]{10}$/);
  });
});

describe("purchaseKey", () => {
  const account = accountId("https://api.reseller.test", "key-1");
  const renewal: Purchase = { account, urn: URN, operation: "renew", domain: "example.com", years: 1, from: "2027-03-04" };

  it("is stable for the same purchase: a re-run after a crash sends the same key", () => {
    expect(purchaseKey({ ...renewal })).toBe(purchaseKey(renewal));
    expect(purchaseKey({ ...renewal, domain: "Example.COM." })).toBe(purchaseKey(renewal));
    expect(accountId("https://api.reseller.test/", "key-1")).toBe(account);
  });

  it("differs in every part that makes another purchase: account, domain, operation, years, expiry, a new order after one ended", () => {
    const keys = [
      purchaseKey(renewal),
      purchaseKey({ ...renewal, account: accountId("https://api.reseller.test", "key-2") }),
      purchaseKey({ ...renewal, account: accountId("https://eu.reseller.test", "key-1") }),
      purchaseKey({ ...renewal, domain: "example.net" }),
      purchaseKey({ ...renewal, operation: "register" }),
      purchaseKey({ ...renewal, years: 2 }),
      purchaseKey({ ...renewal, from: "2028-03-04" }),
      purchaseKey({ ...renewal, after: "cancelled:2026-01-01" }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("names the account by a hash: neither the key id nor the URL is in it", () => {
    expect(account).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(account).not.toContain("key-1");
  });
});
