/** Scale benches' program: `records` A records named `<prefix>-NNNN` in one zone. */
import { programArgs } from "../../engine/program-args";
import * as reseller from "../../resources";

function prefixedRecordsProgram(): void {
  const { records, zone, prefix } = programArgs<prefixedRecordsProgram.Args>();
  for (let i = 0; i < records; i++) {
    const name = `${prefix}-${String(i).padStart(4, "0")}`;
    new reseller.DnsRecord(name, { zone, type: "A", name, content: `198.51.100.${(i % 250) + 1}`, ttl: 300 });
  }
}

declare namespace prefixedRecordsProgram {
  interface Args {
    records: number;
    zone: string;
    prefix: string;
  }
}

// The CLI's runner calls `module.exports` when it is a function.
export = prefixedRecordsProgram;
