/** The zone-records bench's program: one DnsZoneRecords holding `records` A records; `changed` (an index) gets another address. */
import { programArgs } from "../../engine/program-args";
import * as reseller from "../../../resources";

function zoneRecordsProgram(): void {
  const { records, zone, changed } = programArgs<zoneRecordsProgram.Args>();
  const list = Array.from({ length: records }, (_, i) => ({
    type: "A",
    name: `zr-${String(i).padStart(5, "0")}`,
    content: i === changed ? "203.0.113.1" : `198.51.100.${(i % 250) + 1}`,
    ttl: 300,
  }));
  new reseller.DnsZoneRecords("zone", { zone, records: list });
}

declare namespace zoneRecordsProgram {
  interface Args {
    records: number;
    zone: string;
    changed?: number;
  }
}

export = zoneRecordsProgram;
