/** DnsZoneRecords' arguments, as a program gives them (public; program side). Types only: what check makes of them and what state keeps are ./state.ts. */
import type * as pulumi from "@pulumi/pulumi";
import type { DnsRecordArgs, RecordExtra } from "../dns-record/args";

/** One record of a zone: DnsRecord's arguments without the zone (the resource's) and adopt (a live identical record is always taken). */
export type ZoneRecordArgs = Omit<DnsRecordArgs, "zone" | "adopt">;

/** Arguments of a {@link DnsZoneRecords}. */
export interface DnsZoneRecordsArgs {
  /** The zone (domain). Changing it replaces the resource: the records are made in the new zone, then deleted from the old. */
  zone: pulumi.Input<string>;
  /** Every record of the zone this resource declares, in DnsRecord's shapes. The service's SOA and apex NS are never declared or touched. */
  records: pulumi.Input<pulumi.Input<ZoneRecordArgs>[]>;
  /**
   * Delete the zone's records that the stack does not declare (neither here nor in a DnsRecord). Default false: they are
   * listed as unmanaged and left alone.
   */
  authoritative?: pulumi.Input<boolean>;
  /** The safety threshold (default: at most 30 % of the records changed or deleted by one up, in zones of 10 records or more). */
  safety?: pulumi.Input<{
    /** Largest share of the zone's records one up may change or delete, above 0 and at most 1 (default 0.3). */
    maxChangeShare?: pulumi.Input<number>;
    /** Zones with fewer records than this are not held to the share (default 10). */
    minExistingRecords?: pulumi.Input<number>;
  }>;
  /** Let one up exceed the safety threshold. Set it for that up, then back. */
  allowLargeChanges?: pulumi.Input<boolean>;
}

export type { RecordExtra };
