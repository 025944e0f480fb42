/**
 * Bench section: bytes of state per DnsRecord, as the engine writes its state file (indented JSON,
 * like a Pulumi checkpoint), for a program of N records in one zone; and the size of the one
 * `__provider` text every resource carries twice (inputs and outputs). Then the same program's
 * state through the real Pulumi CLI (`pulumi stack export`), when it is built.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startSandbox } from "../../sandbox/index";
import type { Measurement, Metrics } from "./section";
import { CliSide, overStandIn } from "./cli-side";
import { round, sandboxEngine } from "./measure";
import { prefixedRecords } from "./programs/prefixed-records";

export function stateSize(records = 100): Measurement {
  return {
    id: "state-size",
    name: `state per DnsRecord (${records} records, engine state file)`,
    metrics: [
      "stateBytesPerDnsRecord",
      "stateFileBytesPerRecord",
      "stateProviderBytes",
      "stateCli",
      "stateCliVersion",
      "stateCliBytesPerDnsRecord",
      "stateCliExportBytesPerRecord",
      "stateCliOverEngineBytesPerDnsRecord",
      "stateCliOverEngineBytesPerRecord",
    ],
    async run(progress) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-state-"));
      const sb = await startSandbox({ port: 0, requestsPerMinute: 1_000_000, processingDelaySeconds: 0 });
      try {
        const stateFile = path.join(dir, "state.json");
        const engine = sandboxEngine(sb, 1_000_000, { stateFile });
        await engine.up(prefixedRecords("size", records));
        const saved = JSON.parse(fs.readFileSync(stateFile, "utf8")) as { resources: { type: string; inputs: { __provider: string } }[] };
        const recs = saved.resources.filter((r) => r.type.endsWith(":DnsRecord"));
        const perRecord = recs.map((r) => Buffer.byteLength(JSON.stringify(r, null, 2)));
        const fileBytes = fs.statSync(stateFile).size;
        progress(`${recs.length} records, state file ${fileBytes} bytes`);
        const out: Metrics = {
          stateBytesPerDnsRecord: Math.max(...perRecord),
          stateFileBytesPerRecord: round(fileBytes / recs.length, 0),
          stateProviderBytes: Buffer.byteLength(recs[0].inputs.__provider),
        };
        // The same program's state through the real CLI, as `pulumi stack export` prints it.
        const side = await CliSide.open(sb, { program: prefixedRecords("cli-size", records), limitPerMinute: 1_000_000 });
        if (!side) return { ...out, stateCli: "skipped: the Pulumi CLI is not built (npm run pulumi-cli)" };
        try {
          await side.run("up", { created: records + 1 });
          const exported = await side.state(":DnsRecord");
          const cliPerRecord = exported.resources.map((r) => Buffer.byteLength(JSON.stringify(r, null, 2)));
          if (cliPerRecord.length !== records) throw new Error(`state-size: the CLI's state holds ${cliPerRecord.length} records, not ${records}`);
          Object.assign(out, {
            stateCliVersion: side.version,
            stateCliBytesPerDnsRecord: Math.max(...cliPerRecord),
            stateCliExportBytesPerRecord: round(exported.bytes / records, 0),
            stateCliOverEngineBytesPerDnsRecord: overStandIn(Math.max(...cliPerRecord), Math.max(...perRecord)),
            stateCliOverEngineBytesPerRecord: overStandIn(exported.bytes, fileBytes),
          });
          progress(`through the CLI ${side.version}: the largest record ${Math.max(...cliPerRecord)} bytes, stack export ${exported.bytes} bytes`);
        } finally {
          await side.close();
        }
        return out;
      } finally {
        await sb.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
