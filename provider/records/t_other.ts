/**
 * Any other type (the service's list is open-ended: NAPTR, LOC, HINFO, URI, ...): the content is
 * kept as written, trimmed, and only checked to be non-empty text. No canonical form is invented
 * for data this package does not read.
 */
import { fail } from "./common";
import type { RecordTypeEntry } from "./entry";

export function passThrough(type: string): RecordTypeEntry {
  return {
    type,
    rfc: "RFC 3597 (types this package does not read: content kept as written)",
    priority: false,
    extra: [],
    parse(i) {
      const t = i.content.trim().replace(/\s+/g, " ");
      if (t === "") fail("content", i.content, `is empty; a ${type} record needs its data`);
      if (t.includes("\0")) fail("content", i.content, "holds a NUL character, which the API's text cannot carry");
      if (t.length > 4096) fail("content", i.content, "is longer than 4096 characters (the service's limit)");
      return { content: t, priority: null, extra: null };
    },
    print: (f) => f.content,
    fromZone: (tokens) => ({ content: tokens.join(" ") }),
  };
}
