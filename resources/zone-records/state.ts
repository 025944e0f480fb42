/** DnsZoneRecords' host-side types: the inputs check makes of the program's arguments, and the outputs state keeps. Types only. */
import type { HeldOutputs } from "./plan";
import type { Safety } from "./safety";

export interface ZoneRecordsInputs {
  resourceUrn?: string;
  zone: string;
  /** The canonical records, packed (plan.ts `packRecords`): TTL by key. */
  records: Record<string, number>;
  /** Content, priority and extra of the records whose key does not hold them as is. */
  fields?: Record<string, string>;
  authoritative: boolean;
  safety: Safety;
  allowLargeChanges: boolean;
}

/** A DnsZoneRecords in state: its settings, the records it holds by key, and what else the zone held when last seen. */
export type ZoneRecordsOutputs = Omit<ZoneRecordsInputs, "records" | "fields"> &
  HeldOutputs & {
  /** Keys of live records neither declared nor held (left alone unless authoritative), as last seen. */
  unmanaged: string[];
  /** Keys of live records a DnsRecord of the stack declares or holds, as last seen: never deleted by this resource. */
  elsewhere: string[];
};
