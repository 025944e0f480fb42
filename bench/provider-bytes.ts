/**
 * Bench section: size of the serialized `__provider` text, for every resource type. A program
 * declaring one resource of each of the eight types runs through the Engine against a sandbox;
 * the engine sends each registration's inputs, `__provider` included, to the host's Check, and
 * keeps the checked inputs (which the host returns with `__provider` unchanged) in its state.
 * The figure is the largest of those texts, in UTF-8 bytes. Read-only functions (getAvailability,
 * ...) run in the program's process and serialize no provider, so there is nothing to measure.
 */
import { startSandbox } from "../sandbox/index";
import type { Measurement } from "./bench";
import { BENCH_REGISTRANT, sandboxEngine } from "./measure";

const DOMAIN = "bench-bytes.com";

/** One resource of each type, all of them created for real. */
export async function everyKindProgram(): Promise<void> {
  const reseller = (require("../resources") as typeof import("../resources"));
  const domain = new reseller.Domain("site", {
    domain: DOMAIN,
    contacts: { registrant: BENCH_REGISTRANT },
    nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"],
    maxPrice: "25.00",
  });
  const zone = new reseller.DnsZone("zone", { domain: domain.domain, waitForDelegation: true, waitTimeoutSeconds: 30 });
  new reseller.DnsRecord("api", { zone: zone.domain, type: "A", name: "api", content: "192.0.2.80", ttl: 600 });
  new reseller.ZoneTemplate("web", { zone: zone.domain, templateId: "web", variables: { ipv4: "192.0.2.44" } });
  new reseller.ChildHost("ns1", { domain: domain.domain, hostname: `ns1.${DOMAIN}`, ipv4: ["192.0.2.53"] });
  new reseller.PrivacyAddon("privacy", { domain: domain.domain });
  new reseller.EppCode("code", { domain: domain.domain, trigger: 1 });
  // Protection on another (seeded) domain: it would refuse the EPP code request above.
  new reseller.Protection("protection", { domain: "demo-labs.io" });
}

export function providerBytes(): Measurement {
  return {
    id: "provider-bytes",
    name: "serialized __provider size (one resource of each type, engine)",
    async run(progress) {
      const sandbox = await startSandbox({ port: 0, requestsPerMinute: 600, processingDelaySeconds: 0 });
      try {
        const { SECRET_OUTPUTS } = (require("../resources") as typeof import("../resources"));
        const engine = sandboxEngine(sandbox, 600, { secretOutputs: (type) => SECRET_OUTPUTS[type] ?? [] });
        await engine.up(everyKindProgram);
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
