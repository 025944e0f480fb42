/**
 * `npm run bench`: runs each measurement in turn, prints one table, and with --json a last line
 * holding one JSON object with every metric. Keys are unique across sections (a clash is an
 * error); a section whose keys clash with another's in a full run renames them there
 * (`fullRunKeys`) and keeps its own names when run alone with `--only <id>`.
 * Add a section by appending to SECTIONS. The figures and their goals: dev/bench/README.md.
 */
import { coldStart } from "./cold-start";
import { engineStartup } from "./engine-startup";
import { pacing } from "./pacing";
import { sandboxScale } from "./sandbox-scale";
import { stateSize } from "./state-size";
import { estate } from "./estate";
import { linear } from "./linear";
import { sharedCredential, sharedCredentialCli } from "./shared-credential";
import { polls } from "./polls";
import { providerBytes } from "./provider-bytes";
import { previewReads } from "./preview-reads";
import { readBurst } from "./read-burst";
import { records } from "./records";
import { zoneRecords } from "./zone-records";
import { cliBaseline } from "./cli-baseline";

export type Metrics = Record<string, number | string>;

export interface Measurement {
  /** Short name for `--only`. */
  id: string;
  name: string;
  /** Renames of this section's keys in a full run, where another section owns the same names. */
  fullRunKeys?: Record<string, string>;
  /** `progress` prints a line so a long section shows it is alive. */
  run(progress: (line: string) => void): Promise<Metrics>;
}

export const SECTIONS: Measurement[] = [records(), providerBytes(), coldStart(), polls(), readBurst(), pacing(), sandboxScale(), stateSize(), estate(), previewReads(), sharedCredential(), sharedCredentialCli(), engineStartup(), linear(), zoneRecords(), cliBaseline()];

/** One table: section, metric, value. */
export function formatTable(results: { name: string; metrics: Metrics }[]): string {
  const rows = results.flatMap((r) => Object.entries(r.metrics).map(([k, v]) => [r.name, k, String(v)]));
  const head = ["section", "metric", "value"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

export interface Args {
  json: boolean;
  only?: string;
}

export function parseArgs(argv: string[], sections: Measurement[] = SECTIONS): Args {
  const args: Args = { json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--json") args.json = true;
    else if (a === "--only" || a.startsWith("--only=")) {
      const v = a === "--only" ? argv[++i] : a.slice("--only=".length);
      if (!v || !sections.some((s) => s.id === v)) {
        throw new Error(`--only needs one of: ${sections.map((s) => s.id).join(", ")} (got ${v === undefined ? "nothing" : JSON.stringify(v)})`);
      }
      args.only = v;
    } else throw new Error(`unknown option ${JSON.stringify(a)}; usage: npm run bench -- [--only <section>] [--json]`);
  }
  return args;
}

/** Metrics as reported: renamed for a full run when the section says so. */
export function reportedMetrics(section: Measurement, metrics: Metrics, fullRun: boolean): Metrics {
  if (!fullRun || !section.fullRunKeys) return metrics;
  const renames = section.fullRunKeys;
  return Object.fromEntries(Object.entries(metrics).map(([k, v]) => [renames[k] ?? k, v]));
}

/** One object with every metric; a key reported by two sections is a bug in the sections. */
export function mergeMetrics(results: { name: string; metrics: Metrics }[]): Metrics {
  const merged: Metrics = {};
  const owner: Record<string, string> = {};
  for (const r of results) {
    for (const [k, v] of Object.entries(r.metrics)) {
      if (k in merged) throw new Error(`bench: metric ${k} is reported by both "${owner[k]}" and "${r.name}"`);
      merged[k] = v;
      owner[k] = r.name;
    }
  }
  return merged;
}

export async function main(argv: string[], out: (line: string) => void = console.log, sections: Measurement[] = SECTIONS): Promise<void> {
  const args = parseArgs(argv, sections);
  const chosen = args.only ? sections.filter((s) => s.id === args.only) : sections;
  const fullRun = !args.only;
  const results: { name: string; metrics: Metrics }[] = [];
  const started = performance.now();
  for (const section of chosen) {
    out(`running: ${section.name}`);
    const t = performance.now();
    const metrics = await section.run((l) => out(`  ${l}`));
    out(`  done in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    results.push({ name: section.name, metrics: reportedMetrics(section, metrics, fullRun) });
  }
  const merged = mergeMetrics(results);
  out(formatTable(results));
  out(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (args.json) out(JSON.stringify(merged));
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  });
}
