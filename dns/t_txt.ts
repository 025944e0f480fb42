/**
 * TXT (RFC 1035 §3.3.14) and SPF (RFC 7208 §3.1, same data): one or more character-strings, each
 * of at most 255 octets, whose boundaries carry meaning to some readers (DNS-SD keys, RFC 6763 §6)
 * and not to others (SPF and DKIM join them). The wire form: the API's `content` is one string, so
 * the record's strings are kept in it exactly, in one of two forms:
 * - text that is not quoted is one logical text, sent as 255-octet strings (RFC 7208 §3.3 joins
 *   them back): `v=spf1 -all`; every byte is kept, spaces at either end included;
 * - text that starts with a quote is the strings in presentation form (RFC 1035 §5.1), escapes
 *   decoded: `"txtvers=1" "rp=x"` is two strings, never the text `txtvers=1rp=x`.
 * Canonical: the bare text when the strings are exactly that text's 255-octet split (so `"ab"` is
 * `ab`), else every string quoted, one space apart. A quoted string of more than 255 octets cannot
 * be one character-string (RFC 1035 §3.3): it is split at 255 octets, as PowerDNS, miekg/dns and
 * DNSControl read it (BIND refuses the zone). The empty text is refused; `""` is one empty string.
 */
import { chunk255, fail, parseCharacterStrings, quoteString } from "./common";
import type { RecordTypeEntry } from "./entry";

/** Content written as quoted strings: starts with a quote after optional space. */
const isQuotedForm = (c: string): boolean => /^\s*"/.test(c);

/** The record's character-strings, from content in either form; none longer than 255 octets. */
export function txtStrings(content: string): string[] {
  return isQuotedForm(content) ? parseCharacterStrings(content, "content", true).flatMap(chunk255) : chunk255(content);
}

/** The canonical content of a record's strings (see the header). */
export function txtContent(strings: string[]): string {
  const text = strings.join("");
  const split = chunk255(text);
  if (text !== "" && !isQuotedForm(text) && split.length === strings.length && split.every((s, k) => s === strings[k])) return text;
  return strings.map(quoteString).join(" ");
}

function txtType(type: string, rfc: string): RecordTypeEntry {
  return {
    type,
    rfc,
    priority: false,
    extra: [],
    fields: ["strings"],
    parse(i) {
      if (i.content === "") fail("content", i.content, `is empty: a ${type} record holds at least one character-string (RFC 1035 §3.3.14); write "" for one empty string`);
      const strings = txtStrings(i.content);
      if (strings.some((s) => s.includes("\0"))) fail("content", i.content, "holds a NUL character, which the API's text cannot carry");
      if (Buffer.byteLength(strings.join(""), "utf8") > 4000) fail("content", i.content, "is longer than 4000 octets (the service's limit; RFC 1035 allows 65535 octets of RDATA)");
      return { content: txtContent(strings), priority: null, extra: null };
    },
    print: (f) => txtStrings(f.content).map(quoteString).join(" "),
    // Each zone-file token is one character-string; bare ones are quoted so the API reads them as strings.
    fromZone: (tokens) => ({ content: tokens.map((t) => (t.startsWith('"') ? t : `"${t}"`)).join(" ") }),
  };
}

export const TXT = txtType("TXT", "RFC 1035 §3.3.14, §5.1");
export const SPF = txtType("SPF", "RFC 7208 §3.1 (RFC 4408 type 99)");
