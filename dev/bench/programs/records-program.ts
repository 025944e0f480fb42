/** The records bench's program: `records` A records with distinct names in one zone. */
import { programArgs } from "../../engine/program-args";
import * as reseller from "../../../resources";

function recordsProgram(): void {
  const { records, zone } = programArgs<recordsProgram.Args>();
  for (let i = 0; i < records; i++) {
    const name = `bench-${String(i).padStart(4, "0")}`;
    new reseller.DnsRecord(name, { zone, type: "A", name, content: `198.51.100.${i % 250}`, ttl: 300 });
  }
}

/** The arguments the caller passes (`{ file, args }`). */
declare namespace recordsProgram {
  interface Args {
    records: number;
    zone: string;
  }
}

// The CLI's runner (@pulumi/pulumi/cmd/run) calls `module.exports` when it is a function; it would
// not call a CommonJS `exports.default`.
export = recordsProgram;
