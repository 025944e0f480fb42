/** AAAA: one IPv6 address (RFC 3596 §2.2), canonical as RFC 5952 text. */
import { fail, ipv6 } from "./common";
import type { RecordTypeEntry } from "./entry";

export const AAAA: RecordTypeEntry = {
  type: "AAAA",
  rfc: "RFC 3596 §2.2, RFC 5952",
  priority: false,
  extra: [],
  fields: ["word"],
  parse(i) {
    const t = i.content.trim();
    if (t === "") fail("content", i.content, "is empty; an AAAA record holds an IPv6 address (RFC 3596 §2.2)");
    return { content: ipv6(t, "content", i.content), priority: null, extra: null };
  },
  print: (f) => f.content,
  fromZone: (tokens) => ({ content: tokens.join(" ") }),
};
