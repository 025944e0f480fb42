/**
 * The shape of one record type's entry (DNSControl's models/t_<type>.go habit): how its API
 * content parses, its canonical form, its rules with the RFC they follow, which fields it needs,
 * how it reads from and prints to a zone file.
 */
import type { RecordFields } from "./common";

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
  /**
   * API fields to canonical fields; zone-file shorthand in content ("10 mail.example.com") is read
   * when the structured fields are absent. Throws RecordSyntaxError naming field, value and rule.
   */
  parse(input: RecordInputFields, zone: string): RecordFields;
  /** A rule on the owner name (relative, canonical; "@" is the apex), or undefined. */
  owner?(name: string): string | undefined;
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
