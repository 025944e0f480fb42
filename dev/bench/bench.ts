/**
 * `npm run bench`: runs each measurement in turn, prints one table, and with --json a last line
 * holding one JSON object with every metric. Each section declares the names it reports
 * (`metrics`), and every name belongs to one section: a name declared twice is refused before
 * anything runs, and a section that reports a name it did not declare fails. A metric has the same
 * name in a full run and with `--only <id>`.
 * Add a section (./section.ts) by appending to SECTIONS. The figures and their goals: dev/bench/README.md.
 */
import type { Measurement, Metrics } from "./section";
import { coldStart } from "./cold-start";
import { pluginStart } from "./plugin-start";
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
import { oneChange } from "./one-change";

export type { Measurement, Metrics };

export const SECTIONS: Measurement[] = [records(), providerBytes(), coldStart(), pluginStart(), polls(), readBurst(), pacing(), sandboxScale(), stateSize(), estate(), previewReads(), sharedCredential(), sharedCredentialCli(), engineStartup(), linear(), zoneRecords(), oneChange(), cliBaseline()];

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

/** A declared name as a prefix (`linear*`), or undefined for a plain name. */
const prefixOf = (declared: string): string | undefined => (declared.endsWith("*") ? declared.slice(0, -1) : undefined);

/** Whether `name` is what `declared` declares: the same name, or under its prefix. */
function declares(declared: string, name: string): boolean {
  const prefix = prefixOf(declared);
  return prefix === undefined ? declared === name : name.startsWith(prefix);
}

/** Refuses a name two sections declare (or one under another's prefix), naming both sections. */
export function checkMetricNames(sections: Measurement[]): void {
  const seen: { name: string; section: string }[] = [];
  const clashes: string[] = [];
  for (const s of sections) {
    for (const name of s.metrics) {
      const asName = prefixOf(name) ?? name;
      for (const other of seen) {
        if (declares(other.name, asName) || declares(name, prefixOf(other.name) ?? other.name)) {
          clashes.push(`metric ${name} of "${s.name}" clashes with ${other.name} of "${other.section}"`);
        }
      }
      seen.push({ name, section: s.name });
    }
  }
  if (clashes.length) throw new Error(`bench: every metric has one name, in one section: ${clashes.join("; ")}`);
}

/** The names a section reported that it did not declare. */
export function undeclaredMetrics(section: Measurement, metrics: Metrics): string[] {
  return Object.keys(metrics).filter((k) => !section.metrics.some((d) => declares(d, k)));
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
  checkMetricNames(sections);
  const results: { name: string; metrics: Metrics }[] = [];
  const started = performance.now();
  for (const section of chosen) {
    out(`running: ${section.name}`);
    const t = performance.now();
    const metrics = await section.run((l) => out(`  ${l}`));
    out(`  done in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const undeclared = undeclaredMetrics(section, metrics);
    if (undeclared.length) throw new Error(`bench: "${section.name}" reported ${undeclared.join(", ")}, which it does not declare (its \`metrics\`)`);
    results.push({ name: section.name, metrics });
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
