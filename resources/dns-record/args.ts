/** DnsRecord's arguments, as a program gives them (public; program side). Types only: what check makes of them and what state keeps are ./state.ts. */
import type * as pulumi from "@pulumi/pulumi";
import type { RecordExtra } from "../../api/shapes";

/** SRV: weight and port. CAA: flag and tag. */
export type RecordExtraArgs = { [K in keyof RecordExtra]: pulumi.Input<RecordExtra[K]> };

/** A record's extra fields as the outputs hold them. */
export type { RecordExtra };

/** Arguments of a {@link DnsRecord}. */
export interface DnsRecordArgs {
  /** The zone (domain) the record belongs to. Changing it replaces the record. */
  zone: pulumi.Input<string>;
  /** Any record type: those of the record table (dns/README.md: A, AAAA, CNAME, MX, TXT, SRV, CAA, URI, SVCB, ...) are checked field by field, others passed through. Replace. */
  type: pulumi.Input<string>;
  /** Relative to the zone; "@" (default) is the apex. "www", "www.example.com" and "www.example.com." are the same. Replace. */
  name?: pulumi.Input<string>;
  /** The value. Targets are host names ("@" = apex, trailing dot optional); TXT unquoted or quoted; zone-file shorthand for MX/SRV/CAA is split into fields. */
  content: pulumi.Input<string>;
  /** Seconds, 60 to 86400, default 3600. Shared by all records of one name and type: records of one name and type declaring different TTLs are refused before anything changes. */
  ttl?: pulumi.Input<number>;
  /** Required for MX and SRV. */
  priority?: pulumi.Input<number>;
  /** Required for SRV ({weight, port}) and CAA ({flag, tag}). */
  extra?: pulumi.Input<RecordExtraArgs>;
  /** Take an existing record (same type and name; the content picks among several) into state. */
  adopt?: pulumi.Input<boolean>;
}
