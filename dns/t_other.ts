/**
 * Any other type the table has no entry for (the service's list is open-ended: LOC, CERT, ...): the
 * content is kept as written, only the white space between tokens made one space; a quoted string
 * keeps every byte, spaces inside included. No canonical form is invented for data this package
 * does not read, and no name in it is made absolute: a type that carries names has an entry.
 */
import { fail, presentationTokens } from "./common";
import type { RecordTypeEntry } from "./entry";

export function passThrough(type: string): RecordTypeEntry {
  return {
    type,
    rfc: "RFC 3597 (types this package does not read: content kept as written)",
    priority: false,
    extra: [],
    fields: ["rest"],
    parse(i) {
      const t = presentationTokens(i.content, i.content).join(" ");
      if (t === "") fail("content", i.content, `is empty; a ${type} record needs its data`);
      if (t.includes("\0")) fail("content", i.content, "holds a NUL character, which the API's text cannot carry");
      if (t.length > 4096) fail("content", i.content, "is longer than 4096 characters (the service's limit)");
      return { content: t, priority: null, extra: null };
    },
    print: (f) => f.content,
    fromZone: (tokens) => ({ content: tokens.join(" ") }),
  };
}
