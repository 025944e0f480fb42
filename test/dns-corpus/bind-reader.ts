/**
 * A zone-file reader written for the corpus test, independent of the product's
 * (provider/records/zonefile.ts): it reads the files the way RFC 1035 §5 and BIND do, and turns a
 * record's data, from the file or from the service, into one comparable key. Only what the corpus
 * files use: $ORIGIN, $TTL, parentheses, quotes, comments, blank owners, TTL and class in either
 * order, TTL units, the SOA minimum as the default TTL.
 */
export interface FileRecord {
  line: number;
  /** Absolute, lower case, no trailing dot. */
  owner: string;
  ttl: number;
  type: string;
  /** Data tokens as written (quotes kept). */
  data: string[];
  origin: string;
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

function seconds(t: string): number | undefined {
  if (!/^(\d+[smhdw]?)+$/i.test(t)) return undefined;
  let total = 0;
  for (const [, n, u] of t.matchAll(/(\d+)([smhdw]?)/gi)) total += Number(n) * (u ? UNITS[u.toLowerCase()] : 1);
  return total;
}

function fqdn(name: string, origin: string): string {
  if (name === "@") return origin;
  if (name.endsWith(".")) return name.slice(0, -1).toLowerCase();
  return `${name}.${origin}`.toLowerCase();
}

/** Records of a zone file, each with its line. */
export function readBind(text: string, zone: string): FileRecord[] {
  const out: FileRecord[] = [];
  let origin = zone.toLowerCase();
  let defaultTtl: number | undefined;
  let lastTtl: number | undefined;
  let owner = "";
  let depth = 0;
  let tokens: string[] = [];
  let start = 0;
  let blankOwner = false;
  const lines = text.split("\n");
  const finish = () => {
    if (tokens.length === 0) return;
    const t = tokens;
    tokens = [];
    if (t[0] === "$ORIGIN") return void (origin = fqdn(t[1], origin));
    if (t[0] === "$TTL") return void (defaultTtl = seconds(t[1]));
    let i = 0;
    if (!blankOwner) owner = fqdn(t[i++], origin);
    let ttl: number | undefined;
    while (i < t.length && (/^(IN|CH|HS)$/i.test(t[i]) || (ttl === undefined && seconds(t[i]) !== undefined))) {
      if (!/^(IN|CH|HS)$/i.test(t[i])) ttl = seconds(t[i]);
      i++;
    }
    const type = t[i].toUpperCase();
    const data = t.slice(i + 1);
    if (ttl !== undefined) lastTtl = ttl;
    let use = ttl ?? defaultTtl ?? lastTtl;
    if (use === undefined && type === "SOA") use = defaultTtl = seconds(data[6]);
    out.push({ line: start, owner, ttl: use!, type, data, origin });
  };
  lines.forEach((raw, n) => {
    let k = 0;
    if (depth === 0) {
      start = n + 1;
      blankOwner = /^[ \t]/.test(raw);
    }
    while (k < raw.length) {
      const c = raw[k];
      if (c === ";") break;
      if (c === " " || c === "\t" || c === "\r") k++;
      else if (c === "(") (depth++, k++);
      else if (c === ")") (depth--, k++);
      else if (c === '"') {
        let j = k + 1;
        while (raw[j] !== '"') j += raw[j] === "\\" ? 2 : 1;
        tokens.push(raw.slice(k, j + 1));
        k = j + 1;
      } else {
        let j = k;
        while (j < raw.length && !/[\s;()]/.test(raw[j])) j += raw[j] === "\\" ? 2 : 1;
        tokens.push(raw.slice(k, j));
        k = j;
      }
    }
    if (depth === 0) finish();
  });
  return out;
}

/** RFC 1035 §5.1 character-string: the octets of a quoted or bare token, escapes decoded. */
export function octets(token: string): number[] {
  const body = token.startsWith('"') ? token.slice(1, -1) : token;
  const bytes = Buffer.from(body, "utf8");
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0x5c) {
      out.push(bytes[i]);
      continue;
    }
    const ddd = bytes.subarray(i + 1, i + 4).toString("latin1");
    if (/^\d{3}$/.test(ddd)) {
      out.push(Number(ddd));
      i += 3;
    } else out.push(bytes[++i]);
  }
  return out;
}

/** Strings as the wire carries them: none longer than 255 octets (RFC 1035 §3.3). */
const wireStrings = (strings: number[][]): string[] =>
  strings.flatMap((s) => {
    const parts: number[][] = [];
    for (let i = 0; i < s.length || parts.length === 0; i += 255) parts.push(s.slice(i, i + 255));
    return parts.map((p) => Buffer.from(p).toString("hex"));
  });

/** Tokens of the service's content: white space separates them, quoted parts stay whole. */
function contentTokens(content: string): string[] {
  return content.match(/"(?:\\.|[^"\\])*"|\S+/g) ?? [];
}

/** Where each type carries domain names (RFC 1035, 2782, 3403, 1183, 2230, 2163, 9460). */
const NAMES: Record<string, number[]> = { CNAME: [0], NS: [0], PTR: [0], DNAME: [0], MX: [1], SRV: [3], NAPTR: [5], RP: [0, 1], AFSDB: [1], KX: [1], RT: [1], PX: [1, 2], SVCB: [1], HTTPS: [1] };
const STRINGS: Record<string, number[]> = { NAPTR: [2, 3, 4], HINFO: [0, 1], CAA: [2] };

function ipv6(a: string): string {
  const [head, tail = ""] = a.toLowerCase().split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = a.includes("::") ? [...h, ...Array(8 - h.length - t.length).fill("0"), ...t] : h;
  return groups.map((g) => parseInt(g, 16).toString(16)).join(":");
}

/** SVCB parameters as a set: key and decoded value, order-free (RFC 9460 §2.2). */
function params(tokens: string[]): string {
  return tokens
    .map((p) => {
      const eq = p.indexOf("=");
      if (eq < 0) return p;
      const v = p.slice(eq + 1);
      return `${p.slice(0, eq)}=${Buffer.from(octets(v)).toString("utf8")}`;
    })
    .map((p) => (p.startsWith("mandatory=") ? `mandatory=${p.slice(10).split(",").sort().join(",")}` : p))
    .sort()
    .join(" ");
}

/** One record's data as a comparable key: names absolute and lower case, numbers as numbers, strings as their octets. */
export function dataKey(type: string, tokens: string[], origin: string): string {
  if (type === "TXT" || type === "SPF") return JSON.stringify(wireStrings(tokens.map(octets)));
  if (type === "SVCB" || type === "HTTPS") return JSON.stringify([Number(tokens[0]), fqdnOrRoot(tokens[1], origin), params(tokens.slice(2))]);
  const hex = type === "DS" || type === "TLSA" || type === "SSHFP";
  const fixed = hex ? ({ DS: 3, TLSA: 3, SSHFP: 2 } as Record<string, number>)[type] : tokens.length;
  const key = tokens.slice(0, fixed).map((t, i) => {
    if (NAMES[type]?.includes(i)) return fqdnOrRoot(t, origin);
    if (STRINGS[type]?.includes(i)) return Buffer.from(octets(t)).toString("hex");
    if (type === "AAAA") return ipv6(t);
    if (type === "CAA" && i === 1) return t.toLowerCase();
    return /^\d+$/.test(t) ? String(Number(t)) : t;
  });
  if (hex) key.push(tokens.slice(fixed).join("").toLowerCase());
  return JSON.stringify(key);
}

const fqdnOrRoot = (t: string, origin: string): string => (t === "." ? "." : fqdn(t, origin));

/** A record as the service holds it, as a key comparable with a file record's. */
export function liveKey(r: { type: string; name: string; content: string; priority?: number | null; extra?: Record<string, unknown> | null }, zone: string): string {
  const owner = r.name === "@" ? zone : `${r.name}.${zone}`;
  const absolute = (t: string) => (t === "." || t.endsWith(".") ? t : `${t}.`);
  let tokens: string[];
  if (r.type === "MX") tokens = [String(r.priority), absolute(r.content)];
  else if (r.type === "SRV") tokens = [String(r.priority), String(r.extra?.weight), String(r.extra?.port), absolute(r.content)];
  else if (r.type === "CAA") tokens = [String(r.extra?.flag), String(r.extra?.tag), `"${r.content.replace(/["\\]/g, (c) => "\\" + c)}"`];
  else if (r.type === "TXT" || r.type === "SPF") tokens = r.content.startsWith('"') ? contentTokens(r.content) : [`"${r.content.replace(/["\\]/g, (c) => "\\" + c)}"`];
  else {
    tokens = contentTokens(r.content);
    for (const i of NAMES[r.type] ?? []) if (tokens[i] !== undefined) tokens[i] = absolute(tokens[i]);
  }
  return `${owner} ${r.type} ${dataKey(r.type, tokens, zone)}`;
}

/** A file record's key, comparable with liveKey. */
export const fileKey = (f: FileRecord): string => `${f.owner} ${f.type} ${dataKey(f.type, f.data, f.origin)}`;
