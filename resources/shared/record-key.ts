/**
 * A record's identity as one readable line, `<name> <type> <zone-file rdata>` (e.g.
 * `@ MX 10 mx1.example.com.`): type, name, content, priority and extra, never the TTL, which is
 * shared by the name and type and is the record's one changeable value besides its identity.
 * DnsRecord and DnsZoneRecords both key their records by it, so one record has one owner
 * (kit/declared-records.ts).
 */
import { recordType, type HeldRecord } from "../../dns";

/** A declared record: its canonical fields, priority and extra only where the type has them (dns/ HeldRecord). */
export type ZoneRecord = HeldRecord;

/** The identity of a record as one line: `<name> <type> <rdata>`. */
export function recordKey(r: ZoneRecord): string {
  return `${r.name} ${r.type} ${recordType(r.type).print({ content: r.content, priority: r.priority ?? null, extra: r.extra ?? null })}`;
}
