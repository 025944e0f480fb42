/** Types whose data is one domain name: CNAME (RFC 1035 §3.3.1), NS (§3.3.11), PTR (§3.3.12), DNAME (RFC 6672). */
import { isServiceManagedRecord } from "./service-managed";
import { canonicalTarget, fail, words } from "./common";
import { absoluteNames, dotted, type FieldKind, type RecordTypeEntry } from "./entry";

const FIELDS: readonly FieldKind[] = ["name"];

function nameType(type: string, rfc: string, owner?: (name: string, recordTypes: readonly string[]) => string | undefined, alone?: string): RecordTypeEntry {
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

/** What to put at the apex instead of a CNAME: the target's addresses, or the service's own alias type when the contract lists one. */
function apexAliasFix(recordTypes: readonly string[]): string {
  const alias = recordTypes.find((t) => /^(ALIAS|ANAME|FLATTEN|CNAMEFLAT)/i.test(t));
  const instead = alias ? `a ${alias.toUpperCase()} record (reseller:contract's recordTypes lists it) with this content, or A and AAAA records` : "A and AAAA records";
  return `Declare ${instead} with the target's addresses at @ instead; a CNAME fits below the apex (e.g. name "www")`;
}

const CNAME_ALONE = "a CNAME cannot share its name with other records (RFC 1034 §3.6.2, RFC 2181 §10.1)";
export const CNAME = nameType(
  "CNAME",
  "RFC 1035 §3.3.1",
  (name, recordTypes) => (name === "@" ? `cannot hold a CNAME: the zone apex has SOA and NS records, and a CNAME allows no other data at its name (RFC 1034 §3.6.2, RFC 2181 §10.1). ${apexAliasFix(recordTypes)}` : undefined),
  CNAME_ALONE,
);
// Which NS records the service manages is the contract's one predicate (the apex set; a delegation below it is the user's).
export const NS = nameType("NS", "RFC 1035 §3.3.11", (name) => (isServiceManagedRecord("", { type: "NS", name }) ? "cannot hold an NS record: the service manages the zone apex NS records" : undefined));
export const PTR = nameType("PTR", "RFC 1035 §3.3.12");
export const DNAME = nameType("DNAME", "RFC 6672 §2.1", (name) => (name === "@" ? "cannot hold a DNAME at the zone apex here (RFC 6672 §2.3 allows it, the service's apex holds SOA/NS it manages)" : undefined));
