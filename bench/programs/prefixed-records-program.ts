/**
 * Scale benches' program: `records` A records named `<prefix>-NNNN` in one zone. With `yieldEvery`,
 * the program is async and gives the event loop a turn after every `yieldEvery` records, so the SDK
 * sends the first registrations while the rest are still being declared (the Pulumi runner awaits
 * the promise a program returns); without it, one synchronous loop, as most programs are.
 */
import { programArgs } from "../../engine/program-args";
import * as reseller from "../../resources";

function prefixedRecordsProgram(): void | Promise<void> {
  const { records, zone, prefix, yieldEvery } = programArgs<prefixedRecordsProgram.Args>();
  const declare = (i: number): void => {
    const name = `${prefix}-${String(i).padStart(4, "0")}`;
    new reseller.DnsRecord(name, { zone, type: "A", name, content: `198.51.100.${(i % 250) + 1}`, ttl: 300 });
  };
  if (!yieldEvery) {
    for (let i = 0; i < records; i++) declare(i);
    return;
  }
  return (async () => {
    for (let i = 0; i < records; i++) {
      declare(i);
      if ((i + 1) % yieldEvery === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  })();
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
