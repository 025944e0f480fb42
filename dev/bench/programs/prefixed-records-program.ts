/**
 * Scale benches' program: `records` A records named `<prefix>-NNNN` in one zone. With `yieldEvery`,
 * the program gives the event loop a turn after every `yieldEvery` records, so the SDK sends the
 * first registrations while the rest are still being declared (the Pulumi runner awaits the promise
 * a program returns); without it, the loop never awaits and runs in one synchronous stretch, as most
 * programs do.
 */
import { programArgs } from "../../engine/program-args";
import * as reseller from "../../../resources";

async function prefixedRecordsProgram(): Promise<void> {
  const { records, zone, prefix, yieldEvery } = programArgs<prefixedRecordsProgram.Args>();
  for (let i = 0; i < records; i++) {
    const name = `${prefix}-${String(i).padStart(4, "0")}`;
    new reseller.DnsRecord(name, { zone, type: "A", name, content: `198.51.100.${(i % 250) + 1}`, ttl: 300 });
    if (yieldEvery && (i + 1) % yieldEvery === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

declare namespace prefixedRecordsProgram {
  interface Args {
    records: number;
    zone: string;
    prefix: string;
    /** Give the event loop a turn after every this many records (default: never). */
    yieldEvery?: number;
  }
}

// The CLI's runner calls `module.exports` when it is a function.
export = prefixedRecordsProgram;
