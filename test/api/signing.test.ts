/**
 * Fixed vectors for the request signer (api/signing.ts): a known key, secret, time, nonce
 * and body give a known signature. Each expected value is computed here independently with
 * node:crypto from the contract's canonical string AND pinned as a literal, so a change of
 * either the signer or the canonical string is caught.
 */
import { createHash, createHmac } from "node:crypto";
import { bodyDigest, canonicalString, formatTimestamp, makeNonce, parseTimestamp, signRequest, verifySignature } from "../../api/signing";

const KEY = "key_test_123";
const SECRET = "secret_test_456";

/** The canonical string, written from the contract's description (not from signing.ts). */
function independent(method: string, path: string, ts: string, nonce: string, body: string, encoding: "hex" | "base64" = "hex"): string {
  const digest = createHash("sha256").update(body).digest("hex");
  return createHmac("sha256", SECRET).update([method, path, ts, nonce, digest, KEY].join("\n")).digest(encoding);
}

const VECTORS = [
  {
    name: "POST register with a JSON body",
    req: { method: "post", path: "/api/v1/domains/register", body: '{"domain":"example.com","years":1}', apiKey: KEY, timestamp: "1700000000", nonce: "00112233445566778899aabbccddeeff" },
    hex: "6b6a91e269207589701c26a303d0e18c6de4fae068c4140c6dabfab650cbe488",
  },
  {
    name: "GET with a query string and an empty body",
    req: { method: "GET", path: "/api/v1/domains?page=2&per_page=500", body: "", apiKey: KEY, timestamp: "1700000000", nonce: "abc" },
    hex: "375138537abd4b39d31be487c28430cb0140602fbd39570ebace870f74aa6f3a",
    base64: "N1E4U3q9SznTG+SHwoQwywFAYC+9OVcOus6HD3Sqbzo=",
  },
];

describe("signing: fixed vectors", () => {
  it.each(VECTORS)("$name", (v) => {
    const expected = independent(v.req.method.toUpperCase(), v.req.path, v.req.timestamp, v.req.nonce, v.req.body);
    expect(expected).toBe(v.hex);
    expect(signRequest(v.req, SECRET)).toBe(v.hex);
    expect(verifySignature(v.req, SECRET, v.hex)).toBe(true);
  });

  it("base64 encoding of the same MAC", () => {
    const v = VECTORS[1];
    expect(independent("GET", v.req.path, v.req.timestamp, v.req.nonce, "", "base64")).toBe(v.base64);
    expect(signRequest(v.req, SECRET, "base64")).toBe(v.base64);
  });

  it("the empty body hashes to the SHA-256 of nothing", () => {
    expect(bodyDigest("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(canonicalString(VECTORS[1].req).split("\n")).toEqual(["GET", VECTORS[1].req.path, "1700000000", "abc", bodyDigest(""), KEY]);
  });

  it("any change of a signed part changes the signature", () => {
    const base = VECTORS[0].req;
    const sig = signRequest(base, SECRET);
    for (const change of [{ method: "PUT" }, { path: "/api/v1/domains/transfer" }, { body: "{}" }, { apiKey: "other" }, { timestamp: "1700000001" }, { nonce: "ff" }]) {
      expect(signRequest({ ...base, ...change }, SECRET)).not.toBe(sig);
      expect(verifySignature({ ...base, ...change }, SECRET, sig)).toBe(false);
    }
    expect(signRequest(base, "another-secret")).not.toBe(sig);
  });

  it("timestamps and nonces are formatted from injected time and randomness", () => {
    expect(formatTimestamp(1_700_000_000_999)).toBe("1700000000");
    expect(formatTimestamp(1_700_000_000_999, "milliseconds")).toBe("1700000000999");
    expect(parseTimestamp("1700000000")).toBe(1_700_000_000_000);
    expect(parseTimestamp("17e8")).toBeNaN();
    expect(makeNonce(4, (n) => new Uint8Array(n).fill(0xab))).toBe("abababab");
  });
});
