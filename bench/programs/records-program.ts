/** The records bench's program: `records` A records with distinct names in one zone. */
import { programArgs } from "../../engine";
import * as reseller from "../../resources";

export interface RecordsProgramArgs {
  records: number;
  zone: string;
}

export default function recordsProgram(): void {
  const { records, zone } = programArgs<RecordsProgramArgs>();
  for (let i = 0; i < records; i++) {
    const name = `bench-${String(i).padStart(4, "0")}`;
    new reseller.DnsRecord(name, { zone, type: "A", name, content: `198.51.100.${i % 250}`, ttl: 300 });
  }
}
