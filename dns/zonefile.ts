/**
 * A BIND zone-file reader (RFC 1035 §5): $ORIGIN, $TTL, relative names, "@", an omitted owner (the
 * previous one), TTL and class in either order, TTL units (1h30m, 1d, 1w), parentheses across lines,
 * quoted strings, escapes and comments. It yields raw entries; `toRecords` turns them into API
 * records through the table, and lists every record it cannot turn, with the reason, never
 * dropping one silently.
 */
import { NOT_HELD, canonicalize, isGenericTypeName, parseCharacterStrings, problemText, recordIdentity, recordType, recordTypeRule, relativeName, zoneName, type CanonicalRecord } from "./index";
import { isServiceManagedRecord } from "./service-managed";
import { absolute } from "./entry";
import { DS_PLACEMENT } from "./t_hex";

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
  /** The included file the record is in (as `$INCLUDE` named it, resolved); absent for the file read. */
  file?: string;
  /** How the record was read where BIND's rules chose for it (e.g. its TTL from the SOA minimum). */
  note?: string;
}

export class ZoneFileError extends Error {
  override readonly name = "ZoneFileError";
  constructor(
    readonly line: number,
    readonly reason: string,
    /** The included file the line is in; absent for the file read. */
    readonly file?: string,
  ) {
    super(`${file ? `${file}: ` : ""}line ${line}: ${reason}`);
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

/** How `$INCLUDE` files are read: the product stays free of the file system; the CLI passes one. */
export interface ZoneFileOptions {
  /** The file's name, shown in refusals and entries of included files. */
  file?: string;
  /**
   * The text of an included file, `name` as written in `$INCLUDE`, resolved against the including
   * file's directory (`from`: its path, undefined for the top file). Without it `$INCLUDE` is refused.
   */
  include?: (name: string, from: string | undefined) => { path: string; text: string };
  /** Type names the service holds beyond IANA's (the contract's recordTypes); any other unknown name is listed, with the nearest known type. */
  recordTypes?: readonly string[];
}

/** `$GENERATE` makes at most this many records per line (BIND has no limit; a typo should not make millions). */
export const GENERATE_LIMIT = 65536;
/** `$INCLUDE` nesting deeper than this is taken for a loop. */
const INCLUDE_DEPTH = 16;

/** One `$GENERATE` iteration's text: `$`, `${offset,width,base}`, `\$` and `$$` a literal "$" (BIND's rules). */
function generated(template: string, i: number, line: number): string {
  return template.replace(/\\\$|\$\$|\$(?:\{([^}]*)\})?/g, (m, mod: string | undefined) => {
    if (m === "\\$" || m === "$$") return "$";
    if (mod === undefined) return String(i);
    const [offText = "0", widthText = "0", base = "d"] = mod.split(",");
    if (!/^[+-]?\d+$/.test(offText) || !/^\d+$/.test(widthText) || !/^[doxXnN]$/.test(base))
      throw new ZoneFileError(line, `has the $GENERATE modifier \${${mod}}, which is not {offset[,width[,base d|o|x|X|n|N]]}`);
    const v = i + Number(offText);
    if (v < 0) throw new ZoneFileError(line, `has the $GENERATE modifier \${${mod}}, which makes a negative number`);
    const width = Number(widthText);
    if (base === "n" || base === "N") {
      const hex = v.toString(16).padStart(width, "0");
      const nibbles = [...hex].reverse().join(".");
      return base === "N" ? nibbles.toUpperCase() : nibbles;
    }
    const text = base === "o" ? v.toString(8) : base === "x" ? v.toString(16) : base === "X" ? v.toString(16).toUpperCase() : String(v);
    return text.padStart(width, "0");
  });
}

/** Load state shared by a file and the files it includes. */
interface Loader {
  out: ZoneEntry[];
  defaultTtl?: number;
  lastTtl?: number;
  opts: ZoneFileOptions;
}

/** Entries of a zone file; `origin` is the zone, used until a $ORIGIN line. */
export function readZoneFile(text: string, origin: string, opts: ZoneFileOptions = {}): ZoneEntry[] {
  const loader: Loader = { out: [], opts };
  load(loader, text, opts.file, zoneName(origin), 0);
  return loader.out;
}

/** TTL and class in either order, then the type: index of the type, and the TTL if one was given. */
function ttlAndClass(words: string[], k: number, line: number): { k: number; ttl: number | undefined } {
  let ttl: number | undefined;
  let cls = false;
  for (let n = 0; n < 2 && k < words.length; n++) {
    const w = words[k];
    if (!cls && CLASSES.has(w.toUpperCase())) {
      if (w.toUpperCase() !== "IN") throw new ZoneFileError(line, `has class ${w}; only IN is DNS hosting`);
      cls = true;
      k++;
    } else if (ttl === undefined && parseTtl(w) !== undefined) {
      ttl = parseTtl(w);
      k++;
    }
  }
  return { k, ttl };
}

function load(l: Loader, text: string, file: string | undefined, origin: string, depth: number): void {
  try {
    loadLines(l, text, file, origin, depth);
  } catch (e) {
    // A refusal made below without its file (a helper's) gets the file it was in.
    if (e instanceof ZoneFileError && e.file === undefined && file !== l.opts.file) throw new ZoneFileError(e.line, e.reason, file);
    throw e;
  }
}

function loadLines(l: Loader, text: string, file: string | undefined, origin: string, depth: number): void {
  let org = origin;
  let lastOwner: string | undefined;
  const where = () => (file === l.opts.file ? {} : { file });
  const refuse = (line: number, message: string) => new ZoneFileError(line, message, file === l.opts.file ? undefined : file);
  for (const { tokens, line, indented } of logicalLines(text)) {
    const words = tokens.map((t) => t.text);
    const head = words[0].toUpperCase();
    if (head === "$ORIGIN") {
      if (words.length < 2) throw refuse(line, "has $ORIGIN without a name");
      org = zoneName(absolute(words[1], org));
      continue;
    }
    if (head === "$TTL") {
      const t = words[1] === undefined ? undefined : parseTtl(words[1]);
      if (t === undefined) throw refuse(line, `has $TTL ${words[1] ?? ""}, which is not a TTL`);
      l.defaultTtl = t;
      continue;
    }
    if (head === "$INCLUDE") {
      // RFC 1035 §5.1: the origin argument applies to the included file only; the parent's is unaffected.
      if (words.length < 2) throw refuse(line, "has $INCLUDE without a file name");
      if (!l.opts.include) throw refuse(line, `has $INCLUDE ${words[1]}, and this reading has no file to resolve it against`);
      if (depth >= INCLUDE_DEPTH) throw refuse(line, `has $INCLUDE ${words[1]} nested ${INCLUDE_DEPTH} deep: an include loop?`);
      const name = words[1].replace(/^"(.*)"$/, "$1");
      let inc: { path: string; text: string };
      try {
        inc = l.opts.include(name, file);
      } catch (e) {
        throw refuse(line, `has $INCLUDE ${name}, which cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      load(l, inc.text, inc.path, words[2] === undefined ? org : zoneName(absolute(words[2], org)), depth + 1);
      continue;
    }
    if (head === "$GENERATE") {
      const m = /^(\d+)-(\d+)(?:\/(\d+))?$/.exec(words[1] ?? "");
      if (!m) throw refuse(line, `has $GENERATE ${words[1] ?? ""}: the range is start-stop[/step]`);
      const [start, stop, step] = [Number(m[1]), Number(m[2]), Number(m[3] ?? "1")];
      if (stop < start || step < 1) throw refuse(line, `has the $GENERATE range ${words[1]}, which runs backwards or has a step of 0`);
      if (Math.floor((stop - start) / step) + 1 > GENERATE_LIMIT) throw refuse(line, `has the $GENERATE range ${words[1]}: more than ${GENERATE_LIMIT} records`);
      if (words[2] === undefined) throw refuse(line, "has $GENERATE without an owner template");
      const { k, ttl } = ttlAndClass(words, 3, line);
      const type = words[k];
      if (type === undefined || !isType(type) || k + 1 >= words.length) throw refuse(line, "has $GENERATE without a type and data (range owner [ttl] [class] type data)");
      const effective = ttl ?? l.defaultTtl ?? l.lastTtl;
      if (effective === undefined) throw refuse(line, "has no TTL, and no $TTL or earlier TTL to take one from");
      for (let i = start; i <= stop; i += step) {
        const owner = zoneName(absolute(generated(words[2], i, line), org));
        l.out.push({ line, owner, ttl: effective, type: type.toUpperCase(), rdata: words.slice(k + 1).map((w) => generated(w, i, line)), origin: org, ...where() });
      }
      continue;
    }
    if (head.startsWith("$")) throw refuse(line, `has the directive ${words[0]}, which BIND does not know ($ORIGIN, $TTL, $INCLUDE, $GENERATE)`);
    let k = 0;
    let owner: string;
    if (indented) {
      if (lastOwner === undefined) throw refuse(line, "has no owner name and no record before it to take it from");
      owner = lastOwner;
    } else {
      owner = zoneName(absolute(words[0], org));
      k = 1;
    }
    const tc = ttlAndClass(words, k, line);
    k = tc.k;
    const ttl = tc.ttl;
    const type = words[k];
    if (type === undefined || !isType(type)) throw refuse(line, `has no record type where one is expected (found ${JSON.stringify(type ?? "")})`);
    lastOwner = owner;
    const rdata = words.slice(k + 1);
    let note: string | undefined;
    // RFC 2308 §4: $TTL is the default; before it, the last TTL given (RFC 1035 §5.1).
    let effective = ttl ?? l.defaultTtl ?? l.lastTtl;
    if (effective === undefined && type.toUpperCase() === "SOA" && rdata.length === 7 && parseTtl(rdata[6]) !== undefined) {
      // BIND: "no TTL specified; using SOA MINTTL instead", which is then the default TTL.
      effective = parseTtl(rdata[6])!;
      l.defaultTtl = effective;
      note = `no $TTL and no TTL on the SOA: its minimum, ${effective} seconds, is the zone's default TTL, as BIND loads it`;
    }
    if (effective === undefined) throw refuse(line, "has no TTL, and no $TTL, earlier TTL or SOA before it to take one from");
    if (ttl !== undefined) l.lastTtl = ttl;
    l.out.push({ line, owner, ttl: effective, type: type.toUpperCase(), rdata, origin: org, ...where(), ...(note ? { note } : {}) });
  }
}

export interface Skipped {
  line: number;
  /** The included file the line is in; absent for the file read. */
  file?: string;
  record: string;
  reason: string;
}

export interface ZoneImport {
  records: (CanonicalRecord & { line: number; file?: string })[];
  skipped: Skipped[];
  /** Records taken with a change the service needed (TTL moved into range or shared), said aloud. */
  notes: Skipped[];
}

/** `f`'s value, or undefined when it throws (the table reports the refusal itself). */
const attempt = <T>(f: () => T): T | undefined => {
  try {
    return f();
  } catch {
    return undefined;
  }
};

type Read = CanonicalRecord & { line: number; file?: string };
const at = (r: { line: number; file?: string }) => (r.file ? { line: r.line, file: r.file } : { line: r.line });
const where = (r: { line: number; file?: string }) => `${r.file ? `${r.file} ` : ""}line ${r.line}`;
const shown = (r: CanonicalRecord) => `${r.name} ${r.type} ${r.priority ?? ""}${r.priority === null ? "" : " "}${r.content}`.slice(0, 160);

/**
 * API records of a zone file, through the table. In order, as BIND loads a zone:
 * 1. identical records (same name, type and data) are one record (RFC 2181 §5): later copies are
 *    folded into the first and listed, before any other rule sees them;
 * 2. not held, with the reason: SOA and the apex NS (the service's), DNSSEC records (the signer's),
 *    records outside the zone, records the table refuses, a DS at the apex or at a name with no NS
 *    (RFC 4035 §2.4), a CNAME sharing its name (naming the records it shares it with);
 * 3. TTLs outside the service's range are moved into it and one name+type gets one TTL
 *    (RFC 2181 §5.2), each change noted.
 */
export function toRecords(text: string, zone: string, ttlRange: { min: number; max: number } = { min: 60, max: 86400 }, opts: ZoneFileOptions = {}): ZoneImport {
  const z = zoneName(zone);
  const read: Read[] = [];
  const skipped: Skipped[] = [];
  const notes: Skipped[] = [];
  for (const e of readZoneFile(text, z, opts)) {
    const show = `${e.owner} ${e.type} ${e.rdata.join(" ")}`.slice(0, 160);
    if (e.note) notes.push({ ...at(e), record: show, reason: e.note });
    const skip = (reason: string) => skipped.push({ ...at(e), record: show, reason });
    if (e.owner !== z && !e.owner.endsWith("." + z)) {
      skip(`outside the zone ${z}`);
      continue;
    }
    if (Object.hasOwn(NOT_HELD, e.type)) {
      skip(`not held: ${NOT_HELD[e.type]}`);
      continue;
    }
    if (isServiceManagedRecord(z, { type: e.type, name: e.owner })) {
      skip("not held: the service manages the zone apex NS records");
      continue;
    }
    // A typo (CNAM) is listed with the nearest type, as check refuses it; TYPEnnn of an unassigned number is carried as written.
    const typeRule = recordTypeRule(e.type, opts.recordTypes);
    if (typeRule) {
      skip(`refused: type: ${JSON.stringify(e.type)} ${typeRule}`);
      continue;
    }
    if (e.rdata[0] === "\\#" && !isGenericTypeName(e.type)) {
      skip(`not held: RFC 3597 generic data (\\#) of ${e.type} cannot be carried as its content; write the data in ${e.type}'s own form`);
      continue;
    }
    const fields = recordType(e.type).fromZone(e.rdata, e.origin);
    if (e.type === "TXT" || e.type === "SPF") {
      // RFC 1035 §3.3: a character-string holds 255 octets; a longer quoted string goes as several.
      const long = e.rdata.filter((t) => t.startsWith('"')).map((t) => Buffer.byteLength(attempt(() => parseCharacterStrings(t, "content").join("")) ?? "", "utf8")).filter((n) => n > 255);
      if (long.length) notes.push({ ...at(e), record: show, reason: `a quoted string of ${long.join(", ")} octets is more than one character-string holds (RFC 1035 §3.3): carried as strings of 255 octets` });
    }
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
    // A name the API reads back as another owner cannot be carried: "ns.example.com" written
    // relative in example.com is ns.example.com.example.com, which the service's name reads as ns.
    if (c.record.name !== name) {
      skip(`not carried: the owner ${e.owner} ends in the zone's name twice (a missing trailing dot?); a record name ending in ${z} is taken as absolute, so it would become ${c.record.name === "@" ? z : `${c.record.name}.${z}`}`);
      continue;
    }
    read.push({ ...c.record, ...at(e) });
  }
  // 1. Identical records are one record, before any rule counts them (RFC 2181 §5).
  const first = new Map<string, Read>();
  const records: Read[] = [];
  for (const r of read) {
    const key = recordIdentity(r);
    const kept = first.get(key);
    if (kept) {
      skipped.push({ ...at(r), record: shown(r), reason: `identical to the record on ${where(kept)}: one record (RFC 2181 §5), folded into it` });
      continue;
    }
    first.set(key, r);
    records.push(r);
  }
  const byName = new Map<string, Read[]>();
  for (const r of records) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
  const drop = new Set<Read>();
  for (const [name, rs] of byName) {
    // DS only at a delegation point below the apex (RFC 4035 §2.4); the apex is check's refusal already.
    if (!rs.some((r) => r.type === "NS"))
      for (const r of rs.filter((x) => x.type === "DS")) {
        drop.add(r);
        skipped.push({ ...at(r), record: shown(r), reason: `refused: name: ${JSON.stringify(name)} ${DS_PLACEMENT.notDelegation(name)}` });
      }
    // A type that stands alone (CNAME) with anything beside it is refused; the rest is carried.
    for (const r of rs) {
      const alone = recordType(r.type).alone;
      if (alone === undefined || rs.length === 1) continue;
      drop.add(r);
      const others = rs.filter((x) => x !== r).map((x) => `${where(x)} (${x.type} ${x.content})`.slice(0, 100));
      skipped.push({ ...at(r), record: shown(r), reason: `refused: ${alone}; ${name} also holds ${others.join(", ")}` });
    }
  }
  const kept: Read[] = [];
  for (const r of records) {
    if (drop.has(r)) continue;
    if (r.ttl < ttlRange.min || r.ttl > ttlRange.max) {
      const to = Math.min(ttlRange.max, Math.max(ttlRange.min, r.ttl));
      notes.push({ ...at(r), record: `${r.name} ${r.type}`, reason: `ttl ${r.ttl} is outside the service's ${ttlRange.min} to ${ttlRange.max} seconds; taken as ${to}` });
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
      notes.push({ ...at(r), record: `${r.name} ${r.type}`, reason: `ttl ${r.ttl} differs within its set; the set shares ${t} (RFC 2181 §5.2)` });
      r.ttl = t;
    }
  }
  // Listed in file order (folds and conflicts are found after the reading).
  const order = (a: Skipped, b: Skipped) => (a.file ?? "").localeCompare(b.file ?? "") || a.line - b.line;
  return { records: kept, skipped: skipped.sort(order), notes: notes.sort(order) };
}
