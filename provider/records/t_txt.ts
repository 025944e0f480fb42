/**
 * TXT (RFC 1035 §3.3.14) and SPF (RFC 7208 §3.1, same data). The API's content is the record's text:
 * - content made only of quoted strings ("a" "b") is read as RFC 1035 §5.1 character-strings, escapes
 *   (\X, \DDD) decoded and the strings joined (their 255-octet boundaries are wire detail);
 * - any other content is the text itself, exactly as written, spaces at either end included;
 * - the empty text is refused: the service's content is a non-empty string, and `""` carries nothing.
 * Printing splits the text into quoted strings of at most 255 octets.
 */
import { chunk255, fail, parseCharacterStrings, quoteString } from "./common";
import type { RecordTypeEntry } from "./entry";

/** Content written as quoted strings only: starts with a quote after optional space. */
const isQuotedForm = (c: string): boolean => /^\s*"/.test(c);

function txtType(type: string, rfc: string): RecordTypeEntry {
  return {
    type,
    rfc,
    priority: false,
    extra: [],
    parse(i) {
      let text = i.content;
      if (isQuotedForm(text)) {
        text = parseCharacterStrings(text, "content", true).join("");
      }
      if (text === "") fail("content", i.content, `is empty: the service holds no empty ${type} text (a TXT of one empty string, RFC 1035 §3.3.14, carries nothing)`);
      if (text.includes("\0")) fail("content", i.content, "holds a NUL character, which the API's text cannot carry");
      if (Buffer.byteLength(text, "utf8") > 4000) fail("content", i.content, "is longer than 4000 octets (the service's limit; RFC 1035 allows 65535 octets of RDATA)");
      return { content: text, priority: null, extra: null };
    },
    print: (f) => chunk255(f.content).map(quoteString).join(" "),
    // Each zone-file token is one character-string; bare ones are quoted so the API reads them as strings.
    fromZone: (tokens) => ({ content: tokens.map((t) => (t.startsWith('"') ? t : `"${t}"`)).join(" ") }),
  };
}

export const TXT = txtType("TXT", "RFC 1035 §3.3.14, §5.1");
export const SPF = txtType("SPF", "RFC 7208 §3.1 (RFC 4408 type 99)");
