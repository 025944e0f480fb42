/** A: one IPv4 address (RFC 1035 §3.4.1). */
import { fail, ipv4 } from "./common";
import type { RecordTypeEntry } from "./entry";

export const A: RecordTypeEntry = {
  type: "A",
  rfc: "RFC 1035 §3.4.1",
  priority: false,
  extra: [],
  fields: ["word"],
  parse(i) {
    const t = i.content.trim();
    if (t === "") fail("content", i.content, "is empty; an A record holds an IPv4 address (RFC 1035 §3.4.1)");
    return { content: ipv4(t, "content", i.content), priority: null, extra: null };
  },
  print: (f) => f.content,
  fromZone: (tokens) => ({ content: tokens.join(" ") }),
};
