/**
 * Pieces every record type shares: host names, character-strings (RFC 1035 §5.1), numbers and hex.
 * Pure and Pulumi-free, so the resources, the import command and the sandbox use the same rules.
 */
import { domainToASCII } from "node:url";
import { isIPv4, isIPv6 } from "node:net";

/** A refusal: the field, the value as given and the rule it breaks (with its RFC). */
export interface Problem {
  field: string;
  value: unknown;
  rule: string;
}

export const problem = (field: string, value: unknown, rule: string): Problem => ({ field, value, rule });

/** Thrown inside a parser; caught by the table and turned into a Problem. */
export class RecordSyntaxError extends Error {
  override readonly name = "RecordSyntaxError";
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly rule: string,
  ) {
    super(`${field}: ${JSON.stringify(value)} ${rule}`);
  }
}

export const fail = (field: string, value: unknown, rule: string): never => {
  throw new RecordSyntaxError(field, value, rule);
};

/** Extra fields of SRV (weight, port) and CAA (flag, tag). A type (not an interface), so it is a plain property map. */
export type RecordExtra = {
  /** SRV weight, 0 to 65535. */
  weight?: number;
  /** SRV port, 0 to 65535. */
  port?: number;
  /** CAA flag, 0 to 255 (128: issuer critical). */
  flag?: number;
  /** CAA tag: issue, issuewild or iodef. */
  tag?: string;
};

/** What a record holds besides its owner, type and TTL, as the API carries it. */
export interface RecordFields {
  content: string;
  priority: number | null;
  extra: RecordExtra | null;
}

/** One host-name label, ASCII: letters, digits and inner hyphens, 1 to 63 characters (RFC 952, RFC 1123 §2.1, RFC 1035 §2.3.4). */
export const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Characters that never belong in a host name; named in the refusal instead of being cut or decoded. */
const FORBIDDEN = /[/?#\\%@:;,"'()<>[\]{}|^`~!$&=+\s]/;

/**
 * One label in canonical form (ASCII, lower case), or a thrown refusal. `underscore` allows the
 * RFC 8552 underscore labels ("_sip", "_domainkey"); `plus` also "+" inside them ("_sip+d2t").
 */
function canonicalLabel(label: string, field: string, whole: string, opts: { underscore: boolean; plus: boolean }): string {
  if (label === "") fail(field, whole, "has an empty label (two dots in a row, or a leading dot) (RFC 1035 §2.3.1)");
  if (/[^\x00-\x7f]/.test(label)) {
    const ascii = domainToASCII(label);
    if (ascii === "") fail(field, whole, `has a label "${label}" that is not a valid internationalized name (IDNA, RFC 5891)`);
    return ascii;
  }
  const l = label.toLowerCase();
  if (l.startsWith("_") && opts.underscore) {
    const body = opts.plus ? /^_[a-z0-9](?:[a-z0-9+-]*[a-z0-9])?$/ : /^_[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
    if (!body.test(l)) fail(field, whole, `has an underscore label "${label}" that is not "_" then letters, digits and inner hyphens (RFC 8552 §2)`);
    return l;
  }
  const bad = FORBIDDEN.exec(l) ?? /[^a-z0-9-]/.exec(l);
  if (bad) {
    const ch = bad[0] === " " ? "a space" : /\s/.test(bad[0]) ? "white space" : `"${bad[0]}"`;
    fail(field, whole, `holds ${ch}, which no host name can (letters, digits and hyphens only, RFC 952/1123${opts.underscore ? '; "_" labels per RFC 8552' : ""})`);
  }
  if (l.startsWith("-") || l.endsWith("-")) fail(field, whole, `has a label "${label}" that starts or ends with a hyphen (RFC 952, RFC 1123 §2.1)`);
  return l;
}

/**
 * A host name (no trailing dot) in canonical form: IDNs as punycode, lower case; a name holding a
 * character no host name can is refused whole, never cut at it.
 */
export function canonicalName(raw: string, field: string, opts: { underscore?: boolean; plus?: boolean; wildcard?: boolean; minLabels?: number } = {}): string {
  const name = raw.endsWith(".") ? raw.slice(0, -1) : raw;
  if (name === "") fail(field, raw, "is empty");
  const labels = name.split(".");
  const out = labels.map((label, i) => {
    if (label === "*") {
      if (!opts.wildcard) fail(field, raw, 'holds "*", which only an owner name can, as its leftmost label (RFC 4592 §2.1.1)');
      if (i !== 0) fail(field, raw, 'has "*" below its leftmost label: that is not a wildcard but a literal asterisk (RFC 4592 §2.1.1); a wildcard is only the leftmost label, e.g. *.www');
      return "*";
    }
    const c = canonicalLabel(label, field, raw, { underscore: opts.underscore ?? true, plus: opts.plus ?? false });
    if (c.length > 63) fail(field, raw, `has a label longer than 63 octets (RFC 1035 §2.3.4)`);
    return c;
  });
  const text = out.join(".");
  if (text.length > 253) fail(field, raw, "is longer than 253 characters (RFC 1035 §2.3.4: 255 octets on the wire)");
  if (out.length < (opts.minLabels ?? 1)) fail(field, raw, `needs at least ${opts.minLabels} labels: a target is a fully qualified name (e.g. mail.example.com)`);
  if ((opts.minLabels ?? 1) >= 2 && /^\d+$/.test(out[out.length - 1]))
    fail(field, raw, "is not a host name: its top-level label is all digits (an IP address?); a name's top label is alphabetic (RFC 1123 §2.1, RFC 3696 §2)");
  return text;
}

/**
 * A target host name as the API carries it: absolute without trailing dot; "@" is the zone apex.
 * `root` allows "." (RFC 2782 SRV, RFC 7505 MX, RFC 9460 SVCB: "no target" / "the owner").
 */
export function canonicalTarget(raw: string, zone: string, field = "content", root = false): string {
  const t = raw.trim();
  if (t === ".") return root ? "." : fail(field, raw, 'is "." (the root), which this record type cannot point to');
  if (t === "@") return zone;
  const name = canonicalName(t, field, { underscore: true, plus: true, minLabels: 2 });
  // Names in content are absolute (README, "Names inside record data"): one that ends in a service
  // label was meant relative, and read as absolute it would point nowhere.
  const top = name.slice(name.lastIndexOf(".") + 1);
  if (top.startsWith("_"))
    fail(field, raw, `has the name ${t}, which ends in the label ${top}, no top-level domain: names in content are absolute with or without the trailing dot; write the whole name (e.g. ${name}.${zone})`);
  return name;
}

/**
 * Presentation-form tokens: white space separates them, a quoted part (with its spaces) stays inside
 * its token, escapes are kept as written. Only the white space between tokens is not data.
 */
export function presentationTokens(text: string, raw: unknown, rfc = "RFC 1035 §5.1"): string[] {
  const out: string[] = [];
  let cur = "";
  let inQuote = false;
  let has = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && i + 1 < text.length) {
      cur += c + text[i + 1];
      i++;
      has = true;
    } else if (c === '"') {
      inQuote = !inQuote;
      cur += c;
      has = true;
    } else if (/\s/.test(c) && !inQuote) {
      if (has) out.push(cur);
      cur = "";
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (inQuote) fail("content", raw, `has an unterminated quoted string (${rfc})`);
  if (has) out.push(cur);
  return out;
}

/** A decimal field in [min, max], named `what` (e.g. "the MX preference") in refusals; leading zeros are read. */
export function decimal(text: string, field: string, min: number, max: number, what: string, rfc: string): number {
  if (!/^\d{1,10}$/.test(text)) fail(field, text, `has ${what} "${text}", which is not a decimal number from ${min} to ${max} (${rfc})`);
  const n = Number(text);
  if (n < min || n > max) fail(field, text, `has ${what} ${n}, outside ${min} to ${max} (${rfc})`);
  return n;
}

/** An integer API field (priority, extra.*) in [min, max]. */
export function integerField(v: unknown, field: string, min: number, max: number, rfc: string): number {
  if (typeof v !== "number" || !Number.isInteger(v)) fail(field, v, `is not a whole number from ${min} to ${max} (${rfc})`);
  const n = v as number;
  if (n < min || n > max) fail(field, v, `is outside ${min} to ${max} (${rfc})`);
  return n;
}

/** Hexadecimal data: white space inside is allowed and dropped (RFC 4034 §5.3, RFC 6698 §2.2), lower case. */
export function hexData(words: string[], field: string, value: string, rfc: string): string {
  const hex = words.join("");
  if (hex === "") fail(field, value, `has no hexadecimal data (${rfc})`);
  if (!/^[0-9a-fA-F]+$/.test(hex)) fail(field, value, `has data that is not hexadecimal (${rfc})`);
  if (hex.length % 2 !== 0) fail(field, value, `has an odd number of hex digits (${hex.length}): data is whole octets (${rfc})`);
  return hex.toLowerCase();
}

export const words = (s: string): string[] => s.trim().split(/\s+/).filter((w) => w !== "");

export function ipv4(text: string, field: string, value: string = text): string {
  // Leading zeros ("010.0.0.1") are refused: some readers take them as octal.
  if (!isIPv4(text) || text.split(".").some((o) => o.length > 1 && o.startsWith("0")))
    fail(field, value, `${text === value ? "is" : `holds "${text}", which is`} not an IPv4 address in dotted-decimal form (RFC 1035 §3.4.1)`);
  return text;
}

/** RFC 5952 text: lower case, longest zero run compressed; IPv4-mapped keeps its dotted tail (§5). */
export function ipv6(text: string, field: string, value: string = text): string {
  if (!isIPv6(text) || text.includes("%")) fail(field, value, `${text === value ? "is" : `holds "${text}", which is`} not an IPv6 address (RFC 4291 §2.2)`);
  const host = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const hi = parseInt(mapped[1], 16);
    const lo = parseInt(mapped[2], 16);
    return `::ffff:${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return host;
}

/**
 * RFC 1035 §5.1 character-strings: a sequence of quoted ("a b") or bare (ab) strings with \X and
 * \DDD escapes, decoded to their octets and read as UTF-8 text. Returns the strings in order.
 */
export function parseCharacterStrings(text: string, field: string, quotedOnly = false): string[] {
  const out: string[] = [];
  let i = 0;
  const s = text;
  while (i < s.length) {
    while (i < s.length && /\s/.test(s[i])) i++;
    if (i >= s.length) break;
    const quoted = s[i] === '"';
    if (quoted) i++;
    else if (quotedOnly) fail(field, text, 'mixes quoted and bare strings; write the text bare, or every part in quotes ("a" "b") (RFC 1035 §5.1)');
    const bytes: number[] = [];
    let closed = !quoted;
    while (i < s.length) {
      const c = s[i];
      if (quoted && c === '"') {
        closed = true;
        i++;
        break;
      }
      if (!quoted && /\s/.test(c)) break;
      if (c === "\\") {
        const ddd = /^\d{3}/.exec(s.slice(i + 1, i + 4));
        if (ddd) {
          const n = Number(ddd[0]);
          if (n > 255) fail(field, text, `has the escape \\${ddd[0]}, above \\255 (RFC 1035 §5.1: \\DDD is one octet)`);
          bytes.push(n);
          i += 4;
          continue;
        }
        if (/^\d/.test(s.slice(i + 1, i + 2))) fail(field, text, "has a \\ followed by fewer than three digits (RFC 1035 §5.1: \\DDD)");
        if (i + 1 >= s.length) fail(field, text, "ends in a lone backslash (RFC 1035 §5.1)");
        bytes.push(...Buffer.from(s[i + 1], "utf8"));
        i += 2;
        continue;
      }
      if (!quoted && c === '"') fail(field, text, 'has a quote inside an unquoted string (RFC 1035 §5.1)');
      bytes.push(...Buffer.from(c, "utf8"));
      i++;
    }
    if (!closed) fail(field, text, "has an unterminated quoted string (RFC 1035 §5.1)");
    if (quoted && i < s.length && !/\s/.test(s[i])) fail(field, text, "has text right after a closing quote; separate strings with a space (RFC 1035 §5.1)");
    out.push(utf8(bytes, field, text));
  }
  return out;
}

function utf8(bytes: number[], field: string, text: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return fail(field, text, "decodes to octets that are not UTF-8 text; the API carries text");
  }
}

/** One character-string in presentation form: quoted, with `"` and `\` escaped and controls as \DDD. */
export function quoteString(value: string): string {
  let out = '"';
  for (const b of Buffer.from(value, "utf8")) {
    if (b === 0x22 || b === 0x5c) out += "\\" + String.fromCharCode(b);
    else if (b < 0x20 || b === 0x7f) out += "\\" + String(b).padStart(3, "0");
    else out += String.fromCharCode(b);
  }
  // Multi-byte UTF-8 was pushed octet by octet above; put the text back together.
  return Buffer.from(out + '"', "latin1").toString("utf8");
}

/** A value split into character-strings of at most 255 octets (RFC 1035 §3.3.14), never inside a UTF-8 sequence. */
export function chunk255(value: string): string[] {
  const buf = Buffer.from(value, "utf8");
  if (buf.length <= 255) return [value];
  const out: string[] = [];
  let start = 0;
  while (start < buf.length) {
    let end = Math.min(start + 255, buf.length);
    while (end < buf.length && (buf[end] & 0xc0) === 0x80) end--;
    out.push(buf.subarray(start, end).toString("utf8"));
    start = end;
  }
  return out;
}
