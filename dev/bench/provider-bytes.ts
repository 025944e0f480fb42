/**
 * Bench section: size of the serialized `__provider` text, for every resource type. A program
 * declaring one resource of each of the eight types (dev/bench/programs/every-kind-program.ts) runs through the Engine against a sandbox;
 * the engine sends each registration's inputs, `__provider` included, to the host's Check, and
 * keeps the checked inputs (which the host returns with `__provider` unchanged) in its state.
 * The figure is the largest of those texts, in UTF-8 bytes. Read-only functions (getAvailability,
 * ...) run in the program's process and serialize no provider, so there is nothing to measure.
 */
import { startSandbox } from "../../sandbox/index";
import type { Measurement } from "./section";
import { sandboxEngine } from "./measure";
import { compiledProgram } from "../engine/program-file";

export function providerBytes(): Measurement {
  return {
    id: "provider-bytes",
    name: "serialized __provider size (one resource of each type, engine)",
    metrics: ["providerBytes", "providerBytesLargestType", "providerBytesSmallest"],
    async run(progress) {
      const sandbox = await startSandbox({ port: 0, requestsPerMinute: 600, processingDelaySeconds: 0 });
      try {
        const engine = sandboxEngine(sandbox, 600);
        await engine.up({ file: compiledProgram("dev/bench/programs/every-kind-program.ts"), args: { domain: "bench-bytes.com", protectedDomain: "demo-labs.io" } });
        const bytes = new Map<string, number>();
        for (const r of engine.resources()) {
          const text = r.inputs.__provider;
          if (typeof text !== "string") throw new Error(`${r.urn}: no __provider in the inputs the engine sent`);
          const kind = r.type.split(":").pop()!;
          bytes.set(kind, Math.max(bytes.get(kind) ?? 0, Buffer.byteLength(text, "utf8")));
        }
        if (bytes.size !== 8) throw new Error(`expected 8 resource types in state, got ${[...bytes.keys()].join(", ")}`);
        const sorted = [...bytes].sort((a, b) => b[1] - a[1]);
        progress(sorted.map(([k, n]) => `${k} ${n}`).join(", "));
        return { providerBytes: sorted[0][1], providerBytesLargestType: sorted[0][0], providerBytesSmallest: sorted[sorted.length - 1][1] };
      } finally {
        await sandbox.close();
      }
    },
  };
}
