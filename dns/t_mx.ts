/** MX: preference and exchange (RFC 1035 §3.3.9); null MX is preference 0 and "." (RFC 7505 §3). */
import { canonicalTarget, decimal, fail, integerField, words } from "./common";
import { absoluteNames, dotted, type FieldKind, type RecordTypeEntry } from "./entry";

const FIELDS: readonly FieldKind[] = ["int", "name"];

export const MX: RecordTypeEntry = {
  type: "MX",
  rfc: "RFC 1035 §3.3.9, RFC 7505",
  priority: true,
  extra: [],
  fields: FIELDS,
  parse(i, zone) {
    const w = words(i.content);
    let priority: number;
    let target: string;
    if (w.length === 2) {
      if (i.priority !== undefined && i.priority !== null)
        fail("content", i.content, "carries a preference and priority is also set: give the preference once, in priority (RFC 1035 §3.3.9)");
      priority = decimal(w[0], "content", 0, 65535, "the MX preference", "RFC 1035 §3.3.9");
      target = w[1];
    } else if (w.length === 1) {
      if (i.priority === undefined || i.priority === null) fail("priority", i.priority, "is required for MX records: the preference, 0 to 65535 (RFC 1035 §3.3.9); set priority (e.g. 10), or write it before the host in content (\"10 mail.example.com\")");
      priority = integerField(i.priority, "priority", 0, 65535, "MX preference, RFC 1035 §3.3.9");
      target = w[0];
    } else return fail("content", i.content, "is not one mail exchanger host name (RFC 1035 §3.3.9)");
    const content = canonicalTarget(target, zone, "content", true);
    if (content === "." && priority !== 0) fail("priority", priority, 'must be 0 for a null MX (exchange ".") (RFC 7505 §3)');
    return { content, priority, extra: null };
  },
  print: (f) => `${f.priority} ${dotted(f.content)}`,
  fromZone(tokens, origin) {
    return { content: absoluteNames(FIELDS, tokens, origin).join(" ") };
  },
};
