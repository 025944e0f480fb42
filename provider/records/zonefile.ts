/**
 * A BIND zone-file reader (RFC 1035 §5): $ORIGIN, $TTL, relative names, "@", an omitted owner (the
 * previous one), TTL and class in either order, TTL units (1h30m, 1d, 1w), parentheses across lines,
 * quoted strings, escapes and comments. It yields raw entries; `toRecords` turns them into API
 * records through the table, and lists every record it cannot turn, with the reason, never
 * dropping one silently.
 */
import { NOT_HELD, canonicalize, problemText, recordType, relativeName, zoneName, type CanonicalRecord } from "./index";
import { absolute } from "./entry";

export interface ZoneEntry {
  /** 1-based line where the record starts. */
  line: number;
  /** Absolute owner, no trailing dot. */
  owner: string;
  ttl: number;
  type: string;
  /** Rdata tokens as written (quotes and escapes kept). */
  rdata: string[];
  /** The $ORIGIN in force at this line: relative names in rdata are relative to it. */
  origin: string;
}

export class ZoneFileError extends Error {
  override readonly name = "ZoneFileError";
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

interface Token {
  text: string;
  line: number;
  quoted: boolean;
}

/** Logical lines: tokens of one record, parentheses joining physical lines, comments dropped. */
function logicalLines(text: string): { tokens: Token[]; line: number; indented: boolean }[] {
  const out: { tokens: Token[]; line: number; indented: boolean }[] = [];
  let tokens: Token[] = [];
  let depth = 0;
  let line = 1;
  let start = 1;
  let indented = false;
  let atLineStart = true;
  let i = 0;
  const flush = () => {
    if (tokens.length) out.push({ tokens, line: start, indented });
    tokens = [];
  };
  while (i < text.length) {
    const c = text[i];
    if (c === "\n") {
      line++;
      i++;
      if (depth === 0) {
        flush();
        atLineStart = true;
      }
      continue;
    }
    if (atLineStart && depth === 0) {
      start = line;
      indented = c === " " || c === "\t";
      atLineStart = false;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === ";") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (c === "(") {
      depth++;
      i++;
      continue;
    }
    if (c === ")") {
      if (depth === 0) throw new ZoneFileError(line, 'has ")" without "("');
      depth--;
      i++;
      continue;
    }
    const tokLine = line;
    let tok = "";
    if (c === '"') {
      tok = '"';
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === "\\" && i + 1 < text.length) {
          tok += text[i] + text[i + 1];
          if (text[i + 1] === "\n") line++;
          i += 2;
          continue;
        }
        if (text[i] === "\n") line++;
        tok += text[i++];
      }
      if (i >= text.length) throw new ZoneFileError(tokLine, "has an unterminated quoted string");
      tok += '"';
      i++;
      tokens.push({ text: tok, line: tokLine, quoted: true });
      continue;
    }
    while (i < text.length && !/[\s;()]/.test(text[i])) {
      // A quoted part inside a token (SVCB key="a b") stays in it, spaces and all.
      if (text[i] === '"') {
        tok += text[i++];
        while (i < text.length && text[i] !== '"' && text[i] !== "\n") {
          if (text[i] === "\\" && i + 1 < text.length) tok += text[i++];
          tok += text[i++];
        }
        if (text[i] !== '"') throw new ZoneFileError(tokLine, "has an unterminated quoted string");
        tok += text[i++];
        continue;
      }
      if (text[i] === "\\" && i + 1 < text.length) {
        tok += text[i] + text[i + 1];
        i += 2;
        continue;
      }
      tok += text[i++];
    }
    tokens.push({ text: tok, line: tokLine, quoted: false });
  }
  if (depth !== 0) throw new ZoneFileError(start, 'has "(" without ")"');
  flush();
  return out;
}

/** A TTL: seconds, or BIND units (1w2d3h4m5s). */
export function parseTtl(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  const m = /^(?:\d+[wdhms])+$/i.test(text) ? text.match(/\d+[wdhms]/gi) : null;
  if (!m) return undefined;
  const unit: Record<string, number> = { w: 604800, d: 86400, h: 3600, m: 60, s: 1 };
  return m.reduce((s, p) => s + Number(p.slice(0, -1)) * unit[p.slice(-1).toLowerCase()], 0);
}

const CLASSES = new Set(["IN", "CH", "HS", "CS"]);
const isType = (t: string): boolean => /^[A-Za-z][A-Za-z0-9-]*$/.test(t) && !CLASSES.has(t.toUpperCase()) && parseTtl(t) === undefined;

/** Entries of a zone file; `origin` is the zone, used until a $ORIGIN line. */
export function readZoneFile(text: string, origin: string): ZoneEntry[] {
  let org = zoneName(origin);
  let defaultTtl: number | undefined;
  let lastOwner: string | undefined;
  let lastTtl: number | undefined;
  const out: ZoneEntry[] = [];
  for (const { tokens, line, indented } of logicalLines(text)) {
    const words = tokens.map((t) => t.text);
    const head = words[0].toUpperCase();
    if (head === "$ORIGIN") {
      if (words.length < 2) throw new ZoneFileError(line, "has $ORIGIN without a name");
      org = zoneName(absolute(words[1], org));
      continue;
    }
    if (head === "$TTL") {
      const t = words[1] === undefined ? undefined : parseTtl(words[1]);
      if (t === undefined) throw new ZoneFileError(line, `has $TTL ${words[1] ?? ""}, which is not a TTL`);
      defaultTtl = t;
      continue;
    }
    if (head.startsWith("$")) throw new ZoneFileError(line, `has the directive ${words[0]}, which this reader does not follow ($INCLUDE and $GENERATE: expand them first)`);
    let k = 0;
    let owner: string;
    if (indented) {
      if (lastOwner === undefined) throw new ZoneFileError(line, "has no owner name and no record before it to take it from");
      owner = lastOwner;
    } else {
      owner = zoneName(absolute(words[0], org));
      k = 1;
    }
    let ttl: number | undefined;
    for (let n = 0; n < 2 && k < words.length; n++) {
      const w = words[k];
      if (CLASSES.has(w.toUpperCase())) {
        if (w.toUpperCase() !== "IN") throw new ZoneFileError(line, `has class ${w}; only IN is DNS hosting`);
        k++;
      } else if (ttl === undefined && parseTtl(w) !== undefined) {
        ttl = parseTtl(w);
        k++;
      }
    }
    const type = words[k];
    if (type === undefined || !isType(type)) throw new ZoneFileError(line, `has no record type where one is expected (found ${JSON.stringify(type ?? "")})`);
    lastOwner = owner;
    // RFC 2308 §4: $TTL is the default; before it, the last TTL given (RFC 1035 §5.1).
    const effective = ttl ?? defaultTtl ?? lastTtl;
    if (effective === undefined) throw new ZoneFileError(line, "has no TTL, and no $TTL or earlier TTL to take one from");
    if (ttl !== undefined) lastTtl = ttl;
    out.push({ line, owner, ttl: effective, type: type.toUpperCase(), rdata: words.slice(k + 1), origin: org });
  }
  return out;
}

export interface Skipped {
  line: number;
  record: string;
  reason: string;
}

export interface ZoneImport {
  records: (CanonicalRecord & { line: number })[];
  skipped: Skipped[];
  /** Records taken with a change the service needed (TTL moved into range or shared), said aloud. */
  notes: Skipped[];
}

/**
 * API records of a zone file, through the table. Not held, with the reason: SOA and the apex NS
 * (the service's), DNSSEC records (the signer's), records outside the zone, records the table
 * refuses, CNAMEs sharing a name, exact duplicates. TTLs outside the service's range are moved into
 * it and one name+type gets one TTL (RFC 2181 §5.2), each change noted.
 */
export function toRecords(text: string, zone: string, ttlRange: { min: number; max: number } = { min: 60, max: 86400 }): ZoneImport {
  const z = zoneName(zone);
  const records: (CanonicalRecord & { line: number })[] = [];
  const skipped: Skipped[] = [];
  const notes: Skipped[] = [];
  for (const e of readZoneFile(text, z)) {
    const show = `${e.owner} ${e.type} ${e.rdata.join(" ")}`.slice(0, 160);
    const skip = (reason: string) => skipped.push({ line: e.line, record: show, reason });
    if (e.owner !== z && !e.owner.endsWith("." + z)) {
      skip(`outside the zone ${z}`);
      continue;
    }
    if (NOT_HELD[e.type]) {
      skip(`not held: ${NOT_HELD[e.type]}`);
      continue;
    }
    if (e.type === "NS" && e.owner === z) {
      skip("not held: the service manages the zone apex NS records");
      continue;
    }
    if (/^TYPE\d+$/.test(e.type) || e.rdata[0] === "\\#") {
      skip("not held: unknown-type data (RFC 3597 \\#) cannot be carried as record content");
      continue;
    }
    const fields = recordType(e.type).fromZone(e.rdata, e.origin);
    let name: string;
    try {
      name = relativeName(`${e.owner}.`, z);
    } catch (err) {
      skip((err as Error).message);
      continue;
    }
    const c = canonicalize({ type: e.type, name, ...fields, ttl: e.ttl }, z);
    if (!c.record) {
      skip(`refused: ${c.problems.map(problemText).join("; ")}`);
      continue;
    }
    records.push({ ...c.record, line: e.line });
  }
  // One CNAME per name, and nothing else beside it (RFC 1034 §3.6.2, RFC 2181 §10.1).
  const byName = new Map<string, (CanonicalRecord & { line: number })[]>();
  for (const r of records) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
  const drop = new Set<CanonicalRecord>();
  for (const [, rs] of byName) {
    const cnames = rs.filter((r) => r.type === "CNAME");
    if (cnames.length && rs.length > 1)
      for (const r of cnames) {
        drop.add(r);
        skipped.push({ line: r.line, record: `${r.name} CNAME ${r.content}`, reason: "refused: a CNAME cannot share its name with other records (RFC 1034 §3.6.2, RFC 2181 §10.1)" });
      }
  }
  const seen = new Set<string>();
  const kept: (CanonicalRecord & { line: number })[] = [];
  for (const r of records) {
    if (drop.has(r)) continue;
    const key = JSON.stringify([r.type, r.name, r.content, r.priority, r.extra]);
    if (seen.has(key)) {
      skipped.push({ line: r.line, record: `${r.name} ${r.type} ${r.content}`.slice(0, 160), reason: "duplicate of an earlier record (a set holds each record once, RFC 2181 §5)" });
      continue;
    }
    seen.add(key);
    if (r.ttl < ttlRange.min || r.ttl > ttlRange.max) {
      const to = Math.min(ttlRange.max, Math.max(ttlRange.min, r.ttl));
      notes.push({ line: r.line, record: `${r.name} ${r.type}`, reason: `ttl ${r.ttl} is outside the service's ${ttlRange.min} to ${ttlRange.max} seconds; taken as ${to}` });
      r.ttl = to;
    }
    kept.push(r);
  }
  // RFC 2181 §5.2: the records of one name and type share one TTL; the smallest is kept.
  const ttls = new Map<string, number>();
  for (const r of kept) ttls.set(`${r.name} ${r.type}`, Math.min(ttls.get(`${r.name} ${r.type}`) ?? Infinity, r.ttl));
  for (const r of kept) {
    const t = ttls.get(`${r.name} ${r.type}`)!;
    if (r.ttl !== t) {
      notes.push({ line: r.line, record: `${r.name} ${r.type}`, reason: `ttl ${r.ttl} differs within its set; the set shares ${t} (RFC 2181 §5.2)` });
      r.ttl = t;
    }
  }
  return { records: kept, skipped, notes };
}
