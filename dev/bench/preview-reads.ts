/**
 * Bench section: the reads a `pulumi preview` makes (resources/kit/preflight.ts: the account, lists of
 * domains and zones, quotes, a zone's records for its adoptions), against the rule of at most one
 * read per object the program declares. Two programs, each previewed with nothing in state: the demo
 * (examples/main: a domain to buy, its zone and records) and the 100-domain estate as an import
 * writes it (every Domain, DnsZone and DnsRecord adopting), then the estate again after its up.
 */
import * as path from "node:path";
import { packageRoot } from "../engine/host";
import type { RunResult } from "../engine/engine";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { isReadRequest } from "../../sandbox/rules";
import type { Measurement } from "./section";
import { buildEstate } from "../../test/support/estate";
import { estateProgram } from "./estate";
import { sandboxEngine } from "./measure";

/**
 * The requests a run sent: all of them; those that changed anything, and those other than GET and the
 * spec's read-only POSTs (a preview must send none of either); and the most times one object was
 * read (the same GET path; coalesced reads make it 1); and the creates the run planned (an adoption
 * is counted apart by dev/engine/, as "to adopt").
 */
async function counted(sb: SandboxHandle, run: () => Promise<RunResult>): Promise<{ reads: number; writes: number; unsafe: number; mostPerObject: number; objects: number; creates: number }> {
  sb.operator.clearRequests();
  const result = await run();
  const requests = sb.operator.requests().filter((r) => r.path.startsWith("/api/"));
  const perPath = new Map<string, number>();
  for (const r of requests) if (r.method === "GET") perPath.set(r.path, (perPath.get(r.path) ?? 0) + 1);
  return {
    reads: requests.filter((r) => !r.mutating).length,
    writes: requests.filter((r) => r.mutating).length,
    unsafe: requests.filter((r) => !isReadRequest(r)).length,
    mostPerObject: Math.max(0, ...perPath.values()),
    objects: result.steps.length,
    creates: result.summary.create,
  };
}

export function previewReads(domains = 100): Measurement {
  return {
    id: "previewReads",
    name: `reads a preview makes: the demo, and an imported estate of ${domains} domains, against one read per object`,
    metrics: [
      "previewDemoObjects",
      "previewDemoReads",
      "previewDemoWrites",
      "previewDemoUnsafe",
      "previewDemoMostReadsOfOnePath",
      "previewEstateObjects",
      "previewEstateReads",
      "previewEstateWrites",
      "previewEstateUnsafe",
      "previewEstateMostReadsOfOnePath",
      "previewEstateCreates",
      "previewEstateAfterUpReads",
      "previewEstateAfterUpWrites",
    ],
    async run(progress) {
      const out: Record<string, number> = {};
      const sb = await startSandbox({ port: 0, requestsPerMinute: 1_000_000, processingDelaySeconds: 0 });
      try {
        const demo = await counted(sb, () => sandboxEngine(sb, 1_000_000).preview(path.join(packageRoot(), "dist", "examples", "main", "index.js")));
        Object.assign(out, { previewDemoObjects: demo.objects, previewDemoReads: demo.reads, previewDemoWrites: demo.writes, previewDemoUnsafe: demo.unsafe, previewDemoMostReadsOfOnePath: demo.mostPerObject });
        progress(`demo: ${demo.reads} reads for ${demo.objects} objects (one path read at most ${demo.mostPerObject} times), ${demo.writes} writes, ${demo.unsafe} requests other than reads`);
      } finally {
        await sb.close();
      }
      const es = await startSandbox({ port: 0, requestsPerMinute: 1_000_000, processingDelaySeconds: 0 });
      try {
        await buildEstate(es, domains);
        const engine = sandboxEngine(es, 1_000_000, { parallel: 16 });
        const imported = await counted(es, () => engine.preview(estateProgram(domains, false)));
        Object.assign(out, { previewEstateObjects: imported.objects, previewEstateReads: imported.reads, previewEstateWrites: imported.writes, previewEstateUnsafe: imported.unsafe, previewEstateMostReadsOfOnePath: imported.mostPerObject, previewEstateCreates: imported.creates });
        progress(`estate as imported: ${imported.reads} reads for ${imported.objects} objects (one path read at most ${imported.mostPerObject} times), ${imported.writes} writes, ${imported.unsafe} requests other than reads, ${imported.creates} to create`);
        await engine.up(estateProgram(domains, false));
        const after = await counted(es, () => engine.preview(estateProgram(domains, false)));
        Object.assign(out, { previewEstateAfterUpReads: after.reads, previewEstateAfterUpWrites: after.writes });
        progress(`estate after its up: ${after.reads} reads, ${after.writes} writes`);
      } finally {
        await es.close();
      }
      return out;
    },
  };
}
