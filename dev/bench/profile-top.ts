/**
 * `node dist/dev/bench/profile-top.js <file.cpuprofile>... [--top N]`: where a V8 CPU profile (the
 * preload's, dev/bench/cpu-preload.ts) spent its time, offline: self time per function and per area
 * (this package's folder, a dependency under node_modules, Node's internals, the garbage collector),
 * summed over the files given; idle time left out. The profiles of the bench's CLI commands: dev/bench/README.md (BENCH_CLI_PROFILE_DIR).
 */
import * as fs from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** `node_modules/@pulumi/pulumi`, `resources/host`, `node:internal`, `(garbage collector)`. */
export function area(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  if (url.startsWith("node:")) return "node internals";
  const ours = /\/dist\/(.+)\/[^/]+$/.exec(url);
  const nm = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\/(?:([^/]+)\/)?/.exec(url);
  if (nm && nm[1] !== "reseller-pulumi") return nm[1] === "@pulumi/pulumi" && nm[2] ? `@pulumi/pulumi/${nm[2]}` : nm[1];
  if (ours) return `ours ${ours[1].split("/").slice(0, 2).join("/")}`;
  return url.replace(/^file:\/\//, "").split("/").slice(-2).join("/");
}

/** Self milliseconds per function and per area, summed over `profiles`. */
export function selfTimes(profiles: Profile[]): { totalMs: number; functions: Map<string, number>; areas: Map<string, number> } {
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  let totalMs = 0;
  for (const p of profiles) {
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    p.samples.forEach((id, i) => {
      const ms = (p.timeDeltas[i] ?? 0) / 1000;
      const n = byId.get(id);
      // Time the process waited: not CPU.
      if (!n || n.callFrame.functionName === "(idle)") return;
      const { functionName, url, lineNumber } = n.callFrame;
      const fn = `${functionName || "(anonymous)"} ${url ? `${url.replace(/^.*\/(node_modules|dist)\//, "$1/")}:${lineNumber + 1}` : ""}`.trim();
      functions.set(fn, (functions.get(fn) ?? 0) + ms);
      const a = area(url, functionName);
      areas.set(a, (areas.get(a) ?? 0) + ms);
      totalMs += ms;
    });
  }
  return { totalMs, functions, areas };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const topAt = args.indexOf("--top");
  const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
  const { totalMs, functions, areas } = selfTimes(args.map((f) => JSON.parse(fs.readFileSync(f, "utf8")) as Profile));
  const show = (title: string, m: Map<string, number>): void => {
    console.log(`${title} (self ms, share of ${totalMs.toFixed(0)} ms sampled)`);
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${v.toFixed(0).padStart(8)} ${((100 * v) / totalMs).toFixed(1).padStart(5)} %  ${k}`);
  };
  show("areas", areas);
  show("functions", functions);
}
