/** Types whose data is one domain name: CNAME (RFC 1035 §3.3.1), NS (§3.3.11), PTR (§3.3.12), DNAME (RFC 6672). */
import { isServiceManagedRecord } from "./service-managed";
import { canonicalTarget, fail, words } from "./common";
import { absoluteNames, dotted, type FieldKind, type RecordTypeEntry } from "./entry";

const FIELDS: readonly FieldKind[] = ["name"];

function nameType(type: string, rfc: string, owner?: (name: string) => string | undefined, alone?: string): RecordTypeEntry {
  return {
    type,
    rfc,
    alone,
    priority: false,
    extra: [],
    fields: FIELDS,
    parse(i, zone) {
      const w = words(i.content);
      if (w.length !== 1) fail("content", i.content, `is not one host name (${type}, ${rfc})`);
      return { content: canonicalTarget(w[0], zone, "content"), priority: null, extra: null };
    },
    owner,
    print: (f) => dotted(f.content),
    fromZone(tokens, origin) {
      return { content: absoluteNames(FIELDS, tokens, origin).join(" ") };
    },
  };
}

const CNAME_ALONE = "a CNAME cannot share its name with other records (RFC 1034 §3.6.2, RFC 2181 §10.1)";
export const CNAME = nameType(
  "CNAME",
  "RFC 1035 §3.3.1",
  (name) => (name === "@" ? "cannot hold a CNAME: the zone apex has SOA and NS records, and a CNAME allows no other data at its name (RFC 1034 §3.6.2, RFC 2181 §10.1)" : undefined),
  CNAME_ALONE,
);
// Which NS records the service manages is the contract's one predicate (the apex set; a delegation below it is the user's).
export const NS = nameType("NS", "RFC 1035 §3.3.11", (name) => (isServiceManagedRecord("", { type: "NS", name }) ? "cannot hold an NS record: the service manages the zone apex NS records" : undefined));
export const PTR = nameType("PTR", "RFC 1035 §3.3.12");
export const DNAME = nameType("DNAME", "RFC 6672 §2.1", (name) => (name === "@" ? "cannot hold a DNAME at the zone apex here (RFC 6672 §2.3 allows it, the service's apex holds SOA/NS it manages)" : undefined));
