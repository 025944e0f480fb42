/**
 * Types of a few small decimal fields then hexadecimal data (white space allowed inside the hex,
 * dropped; lower case; numbers without leading zeros): TLSA (RFC 6698 §2, RFC 7218 registries),
 * SMIMEA (RFC 8162 §2: TLSA's fields and rules, for S/MIME certificates),
 * SSHFP (RFC 4255 §3, RFC 6594, RFC 7479, RFC 8709), DS (RFC 4034 §5, RFC 4509, RFC 6605).
 */
import { decimal, fail, hexData, words } from "./common";
import type { RecordTypeEntry } from "./entry";

interface Field {
  what: string;
  max: number;
  /** Assigned values; others refused naming the registry. */
  allowed?: readonly number[];
  min?: number;
}

/** `dataLength` gives the hex length the fields call for, and which field calls for it. */
function hexType(
  type: string,
  rfc: string,
  fields: readonly Field[],
  usage: string,
  dataLength: (n: number[]) => [number, string] | undefined,
  dataWhat: string,
  owner?: (name: string) => string | undefined,
): RecordTypeEntry {
  return {
    type,
    rfc,
    priority: false,
    extra: [],
    fields: [...fields.map(() => "int" as const), "rest"],
    parse(i) {
      const w = words(i.content);
      if (w.length < fields.length + 1) fail("content", i.content, `is not ${type} content: ${usage} (${rfc})`);
      const nums = fields.map((f, k) => {
        const n = decimal(w[k], "content", f.min ?? 0, f.max, `the ${type} ${f.what}`, rfc);
        if (f.allowed && !f.allowed.includes(n)) fail("content", i.content, `has the ${type} ${f.what} ${n}; assigned values are ${f.allowed.join(", ")} (${rfc})`);
        return n;
      });
      const hex = hexData(w.slice(fields.length), "content", i.content, rfc);
      const want = dataLength(nums);
      if (want !== undefined && hex.length !== want[0]) fail("content", i.content, `has ${hex.length} hex digits of ${dataWhat}; ${want[1]} needs ${want[0]} (${rfc})`);
      return { content: [...nums, hex].join(" "), priority: null, extra: null };
    },
    owner,
    print: (f) => f.content,
    fromZone: (tokens) => ({ content: tokens.filter((t) => t !== "(" && t !== ")").join(" ") }),
  };
}

// RFC 7218 / IANA: usages PKIX-TA(0) PKIX-EE(1) DANE-TA(2) DANE-EE(3) PrivCert(255); selectors Cert(0)
// SPKI(1) PrivSel(255); matching Full(0) SHA2-256(1) SHA2-512(2) PrivMatch(255).
const CERTIFICATE_ASSOCIATION = [
  [
    { what: "certificate usage", max: 255, allowed: [0, 1, 2, 3, 255] },
    { what: "selector", max: 255, allowed: [0, 1, 255] },
    { what: "matching type", max: 255, allowed: [0, 1, 2, 255] },
  ],
  "usage selector matching-type certificate-association-data, e.g. 3 1 1 <64 hex digits>",
  ([, , m]: number[]): [number, string] | undefined => (m === 1 || m === 2 ? [m === 1 ? 64 : 128, `matching type ${m}`] : undefined),
  "certificate association data",
] as const;

export const TLSA = hexType("TLSA", "RFC 6698 §2, RFC 7218", ...CERTIFICATE_ASSOCIATION);

/**
 * SMIMEA (RFC 8162 §2): "the same format as the TLSA RR", so the same fields and rules. The owner
 * is the hash of an address's local part under _smimecert (§3); how a zone names it is the zone's,
 * so the owner is not judged.
 */
export const SMIMEA = hexType("SMIMEA", "RFC 8162 §2, RFC 6698 §2", ...CERTIFICATE_ASSOCIATION);

// IANA SSHFP: algorithms RSA(1) DSA(2) ECDSA(3) Ed25519(4) Ed448(6); fingerprint SHA-1(1) SHA-256(2).
export const SSHFP = hexType(
  "SSHFP",
  "RFC 4255 §3, RFC 6594, RFC 7479, RFC 8709",
  [
    { what: "algorithm", max: 255, allowed: [1, 2, 3, 4, 6] },
    { what: "fingerprint type", max: 255, allowed: [1, 2] },
  ],
  "algorithm fingerprint-type fingerprint, e.g. 4 2 <64 hex digits>",
  ([, t]) => (t === 1 || t === 2 ? [t === 1 ? 40 : 64, `fingerprint type ${t}`] : undefined),
  "fingerprint",
);

/** RFC 4035 §2.4: a DS record sits at a delegation point (a name with NS records) below the zone apex. */
export const DS_PLACEMENT = {
  apex: "cannot hold a DS record: DS is at the top of the zone; it belongs at a delegation point below the apex, and the apex's own DS is published by the parent zone (RFC 4035 §2.4)",
  notDelegation: (name: string) =>
    `cannot hold a DS record: ${name} is not a delegation point (no NS records at that name); DS is only at a delegation point below the apex (RFC 4035 §2.4)`,
};

// IANA DS digest types: SHA-1(1) SHA-256(2) GOST R 34.11-94(3) SHA-384(4); algorithm 0 is reserved.
export const DS = hexType(
  "DS",
  "RFC 4034 §5, RFC 4509, RFC 5933, RFC 6605",
  [
    { what: "key tag", max: 65535 },
    { what: "algorithm", max: 255, min: 1 },
    { what: "digest type", max: 255, allowed: [1, 2, 3, 4] },
  ],
  "key-tag algorithm digest-type digest, e.g. 12345 13 2 <64 hex digits>",
  ([, , d]) => {
    const len = ({ 1: 40, 2: 64, 3: 64, 4: 96 } as Record<number, number>)[d];
    return len === undefined ? undefined : [len, `digest type ${d}`];
  },
  "digest",
  // Below the apex, whether the name is a delegation is the zone's to say: DS_PLACEMENT.
  (name) => (name === "@" ? DS_PLACEMENT.apex : undefined),
);
