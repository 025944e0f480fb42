/**
 * Which record type names exist: IANA's "Resource Record (RR) TYPEs" registry (RFC 6895 §3.1), the
 * RFC 3597 generic form `TYPEnnn`, and the extra names a contract lists (api/contract.ts
 * `recordTypes`). A program's, and an import's, record type is checked against these before the
 * table reads it, so a typo (`CNAM`) is refused with the nearest known name instead of becoming a
 * live record. The service's own list is open-ended (spec, DNS record: "supported types include
 * these"), so `canonicalize` (which the sandbox and read use) judges only the generic form here.
 */
import { RECORD_TYPES } from "./table";

/**
 * IANA's data types by number (registry of 2025: every assigned data TYPE, obsolete ones included,
 * since a zone may still hold them). The meta and query types are below, apart.
 */
export const IANA_DATA_TYPES: Readonly<Record<string, number>> = {
  A: 1, NS: 2, MD: 3, MF: 4, CNAME: 5, SOA: 6, MB: 7, MG: 8, MR: 9, NULL: 10, WKS: 11, PTR: 12, HINFO: 13, MINFO: 14, MX: 15, TXT: 16,
  RP: 17, AFSDB: 18, X25: 19, ISDN: 20, RT: 21, NSAP: 22, "NSAP-PTR": 23, SIG: 24, KEY: 25, PX: 26, GPOS: 27, AAAA: 28, LOC: 29, NXT: 30,
  EID: 31, NIMLOC: 32, SRV: 33, ATMA: 34, NAPTR: 35, KX: 36, CERT: 37, A6: 38, DNAME: 39, SINK: 40, APL: 42, DS: 43, SSHFP: 44,
  IPSECKEY: 45, RRSIG: 46, NSEC: 47, DNSKEY: 48, DHCID: 49, NSEC3: 50, NSEC3PARAM: 51, TLSA: 52, SMIMEA: 53, HIP: 55, NINFO: 56, RKEY: 57,
  TALINK: 58, CDS: 59, CDNSKEY: 60, OPENPGPKEY: 61, CSYNC: 62, ZONEMD: 63, SVCB: 64, HTTPS: 65, DSYNC: 66, HHIT: 67, BRID: 68, SPF: 99,
  UINFO: 100, UID: 101, GID: 102, UNSPEC: 103, NID: 104, L32: 105, L64: 106, LP: 107, EUI48: 108, EUI64: 109, URI: 256, CAA: 257,
  AVC: 258, DOA: 259, AMTRELAY: 260, RESINFO: 261, WALLET: 262, CLA: 263, IPN: 264, TA: 32768, DLV: 32769,
};

/** IANA's meta and query types (RFC 6895 §3.1: numbers 128 to 255): they travel in queries, never in a zone. */
export const IANA_META_TYPES: Readonly<Record<string, number>> = { OPT: 41, NXNAME: 128, TKEY: 249, TSIG: 250, IXFR: 251, AXFR: 252, MAILB: 253, MAILA: 254 };

const MNEMONIC_OF = new Map<number, string>([...Object.entries(IANA_DATA_TYPES), ...Object.entries(IANA_META_TYPES)].map(([t, n]) => [n, t]));

/** The refusals' reminder of what a record type may be. */
export const TYPE_SOURCES = "record types are IANA's DNS types, the RFC 3597 form TYPEnnn, and the names the contract's recordTypes lists in reseller:contract";

/**
 * The rule an RFC 3597 generic name (`TYPE65280`) breaks, or undefined when it names an unassigned
 * data type (kept as the service's open list allows; content as written). A number that has a
 * mnemonic is refused with it, so one type never has two names in one zone.
 */
export function genericTypeRule(type: string): string | undefined {
  const n = Number(type.slice(4));
  if (!Number.isSafeInteger(n) || n < 1 || n > 65535) return "is not an RFC 3597 type number (TYPE1 to TYPE65535)";
  const mnemonic = MNEMONIC_OF.get(n);
  if (mnemonic && IANA_META_TYPES[mnemonic] !== undefined) return `is the RFC 3597 name of ${mnemonic}, a query or meta type that no zone holds (RFC 6895 §3.1)`;
  if (mnemonic) return `is the RFC 3597 generic name of ${mnemonic}; give the type's mnemonic, ${mnemonic}`;
  if (n >= 128 && n <= 255) return "is in the range of query and meta types (128 to 255, RFC 6895 §3.1), which no zone holds";
  return undefined;
}

/** Whether a name is an RFC 3597 generic type name (`TYPE257`). */
export const isGenericTypeName = (type: string): boolean => /^TYPE\d+$/.test(type);

/**
 * The rule a record type (upper case) breaks, or undefined when it is one: a type of the table
 * (dns), an IANA data type, an RFC 3597 `TYPEnnn` of an unassigned number, or one of
 * `extra` (the contract's recordTypes). An unknown name is refused naming the nearest known one.
 */
export function recordTypeRule(type: string, extra: readonly string[] = []): string | undefined {
  if (isGenericTypeName(type)) return genericTypeRule(type);
  if (RECORD_TYPES[type] || IANA_DATA_TYPES[type] !== undefined || extra.some((e) => e.toUpperCase() === type)) return undefined;
  if (IANA_META_TYPES[type] !== undefined) return `is a query or meta type (RFC 6895 §3.1), which no zone holds`;
  const near = nearestType(type, extra);
  return near ? `is not a record type; did you mean ${near}? (${TYPE_SOURCES})` : `is not a record type (${TYPE_SOURCES}; e.g. A, AAAA, CNAME, MX, TXT)`;
}

/**
 * The known name nearest to `type` by edit distance (a swap of two neighbours counts one), at most
 * two edits away and fewer than its length; the table's types come first on a tie, then IANA's,
 * then `extra`.
 */
export function nearestType(type: string, extra: readonly string[] = []): string | undefined {
  const names = [...new Set([...Object.keys(RECORD_TYPES), ...Object.keys(IANA_DATA_TYPES), ...extra.map((e) => e.toUpperCase())])];
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = editDistance(type, name);
    if (d < (best?.d ?? Infinity)) best = { name, d };
  }
  return best && best.d <= 2 && best.d < type.length ? best.name : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}
