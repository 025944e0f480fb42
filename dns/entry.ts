/**
 * The shape of one record type's entry (DNSControl's models/t_<type>.go habit): how its API
 * content parses, its canonical form, its rules with the RFC they follow, which fields it needs,
 * how it reads from and prints to a zone file.
 */
import type { RecordFields } from "./common";

/**
 * What one rdata field is, in presentation order: the table's one statement of which fields are
 * domain names. The zone-file reader makes "name" fields absolute under the current $ORIGIN
 * (RFC 1035 §5.1); check and the sandbox canonicalize them as names (absolute, see README).
 * - "name": a domain name;
 * - "string": one character-string (RFC 1035 §5.1), its bytes kept exactly;
 * - "strings": this and every later field: character-strings;
 * - "int": a decimal number; "word": one token as written (a flag, a tag, a key);
 * - "rest": this and every later token as written (hex data, SVCB parameters, ...).
 */
export type FieldKind = "name" | "string" | "strings" | "int" | "word" | "rest";

/** The kind of the i-th rdata token under a layout; a trailing "strings" or "rest" covers the rest. */
export function fieldAt(fields: readonly FieldKind[], i: number): FieldKind | undefined {
  if (i < fields.length) return fields[i];
  const last = fields[fields.length - 1];
  return last === "strings" || last === "rest" ? last : undefined;
}

/** Zone-file rdata tokens with every "name" field made absolute under origin (no trailing dot). */
export function absoluteNames(fields: readonly FieldKind[], tokens: string[], origin: string): string[] {
  return tokens.map((t, i) => (fieldAt(fields, i) === "name" ? absolute(t, origin) : t));
}

export interface RecordInputFields {
  content: string;
  /** As given: the entry judges it (a whole number in range, where the type has one). */
  priority?: unknown;
  /** As given: the entry judges each field (SRV {weight, port}, CAA {flag, tag}). */
  extra?: { readonly [field: string]: unknown } | null;
}

export interface RecordTypeEntry {
  type: string;
  /** The RFC (and section) the entry follows. */
  rfc: string;
  /** Carries the API's priority field (MX preference, SRV priority). */
  priority: boolean;
  /** Keys of the API's extra object this type carries. */
  extra: readonly ("weight" | "port" | "flag" | "tag")[];
  /** The rdata fields in presentation order (zone-file form, priority and extra included). */
  fields: readonly FieldKind[];
  /**
   * API fields to canonical fields; zone-file shorthand in content ("10 mail.example.com") is read
   * when the structured fields are absent. Throws RecordSyntaxError naming field, value and rule.
   */
  parse(input: RecordInputFields, zone: string): RecordFields;
  /**
   * A rule on the owner name (relative, canonical; "@" is the apex), or undefined. `recordTypes`:
   * the type names the service holds beyond IANA's (the contract's), so a refusal can name one as the fix.
   */
  owner?(name: string, recordTypes: readonly string[]): string | undefined;
  /**
   * The type stands alone at its name: no other record may share it (CNAME, RFC 1034 §3.6.2). The
   * rule as a refusal states it, with its RFC; rules.ts `exclusivityClash` applies it.
   */
  alone?: string;
  /** Zone-file rdata (presentation form) of canonical fields; names absolute with a trailing dot. */
  print(f: RecordFields): string;
  /**
   * Zone-file rdata tokens (raw, quotes and escapes kept) to the API's content form, relative
   * names made absolute under `origin` (no trailing dot).
   */
  fromZone(tokens: string[], origin: string): RecordInputFields;
}

/** Absolute name under origin from zone-file text: "@" the origin, "x." absolute, "x" relative. */
export function absolute(name: string, origin: string): string {
  if (name === "@") return origin;
  if (name === ".") return ".";
  if (name.endsWith(".") && !name.endsWith("\\.")) return name.slice(0, -1);
  return origin === "" ? name : `${name}.${origin}`;
}

/** A name for a zone file: absolute, trailing dot; "." stays. */
export const dotted = (name: string): string => (name === "." ? "." : `${name}.`);
