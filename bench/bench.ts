/**
 * `npm run bench`: runs each measurement in turn, prints one table, and with --json a last line
 * holding one JSON object with every metric (keys are unique across sections). Add a section by
 * appending to SECTIONS.
 */
import { readBurst } from "./read-burst";

export type Metrics = Record<string, number | string>;

export interface Measurement {
  name: string;
  /** `progress` prints a line so a long section shows it is alive. */
  run(progress: (line: string) => void): Promise<Metrics>;
}

export const SECTIONS: Measurement[] = [readBurst()];

/** One table: section, metric, value. */
export function formatTable(results: { name: string; metrics: Metrics }[]): string {
  const rows = results.flatMap((r) => Object.entries(r.metrics).map(([k, v]) => [r.name, k, String(v)]));
  const head = ["section", "metric", "value"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

export async function main(argv: string[], out: (line: string) => void = console.log): Promise<void> {
  const json = argv.includes("--json");
  const results: { name: string; metrics: Metrics }[] = [];
  for (const section of SECTIONS) {
    out(`running: ${section.name}`);
    results.push({ name: section.name, metrics: await section.run((l) => out(`  ${l}`)) });
  }
  out(formatTable(results));
  if (json) out(JSON.stringify(Object.assign({}, ...results.map((r) => r.metrics))));
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  });
}
