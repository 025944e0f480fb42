// Output lines shaped like the Pulumi CLI's, so a Pulumi user reads the engine's runs at a glance.

export type Operation = "preview" | "update" | "refresh" | "destroy";
/**
 * The CLI's step kinds for what dev/engine/ does (pkg/resource/deploy/step.go Op*): a replace is one
 * "replace" here (the CLI's create-replacement, replace and delete-replaced), its old half's delete a
 * "delete" with `replacing`; "discard" is the delete of a `.get()` resource (no provider call,
 * OpReadDiscard), "import" a resource's `import` option (ImportStep, OpImport).
 */
export type StepOp = "create" | "update" | "replace" | "delete" | "same" | "read" | "discard" | "import";

export interface Step {
  op: StepOp;
  urn: string;
  type: string;
  name: string;
  id?: string;
  /** Changed input properties, Pulumi style: "+added", "-removed", "~changed". */
  diffs: string[];
  /** Properties whose change forces the replace. */
  replaces: string[];
  error?: string;
  /** The delete of the old half of a replace: shown, not counted (the replace is). */
  replacing?: boolean;
  /**
   * A planned create of a resource whose checked inputs say `adopt: true`: counted apart in a
   * preview's summary. The CLI counts it as a create (a provider cannot change a step's kind);
   * the provider's own line says whether it adopts or creates.
   */
  adopt?: boolean;
}

export interface Summary {
  create: number;
  update: number;
  replace: number;
  delete: number;
  same: number;
  read: number;
  discard: number;
  import: number;
  /** Planned creates that adopt (`adopt: true`), in a preview only. */
  adopt: number;
}

export function emptySummary(): Summary {
  return { create: 0, update: 0, replace: 0, delete: 0, same: 0, read: 0, discard: 0, import: 0, adopt: 0 };
}

const SYMBOL: Record<StepOp, string> = { create: "+", update: "~", replace: "+-", delete: "-", same: " ", read: ">", discard: "-", import: "=" };
const PAST: Record<StepOp, string> = {
  create: "created",
  update: "updated",
  replace: "replaced",
  delete: "deleted",
  same: "unchanged",
  read: "read",
  discard: "discarded",
  import: "imported",
};

export function header(op: Operation, stack: string): string {
  const verb = { preview: "Previewing update", update: "Updating", refresh: "Refreshing", destroy: "Destroying" }[op];
  return `${verb} (${stack}):`;
}

/** `[diff: +a~b,c]`: property names grouped by kind, as the CLI prints them. */
export function diffSuffix(diffs: readonly string[]): string {
  if (diffs.length === 0) return "";
  let text = "";
  for (const kind of ["+", "-", "~"]) {
    const names = diffs.filter((d) => d.startsWith(kind)).map((d) => d.slice(1));
    if (names.length) text += kind + names.join(",");
  }
  return ` [diff: ${text}]`;
}

export function stepLine(step: Step, planned: boolean, seconds?: number): string {
  if (step.replacing) {
    const time = seconds === undefined ? "" : ` (${seconds.toFixed(1)}s)`;
    const tail = step.error ? ` **failed**${time}\n        error: ${step.error}` : time;
    return `    -- ${step.type}  ${step.name}  ${planned ? "delete original" : "deleted original"}${tail}`;
  }
  const verb = planned ? (step.adopt ? "adopt" : step.op) : PAST[step.op];
  const time = seconds === undefined ? "" : ` (${seconds.toFixed(1)}s)`;
  const tail = step.error ? ` **failed**${time}\n        error: ${step.error}` : `${time}${diffSuffix(step.diffs)}`;
  return `    ${SYMBOL[step.op].padEnd(2)} ${step.type}  ${step.name}  ${verb}${tail}`;
}

export function summaryLines(summary: Summary, planned: boolean, seconds: number): string[] {
  const lines = ["Resources:"];
  const rows: [StepOp, number][] = [
    ["create", summary.create],
    ["update", summary.update],
    ["replace", summary.replace],
    ["delete", summary.delete],
    ["import", summary.import],
    ["discard", summary.discard],
  ];
  for (const [op, n] of rows) {
    if (n > 0) lines.push(`    ${SYMBOL[op]} ${n} ${planned ? `to ${op}` : PAST[op]}`);
  }
  if (summary.adopt > 0) lines.push(`    = ${summary.adopt} to adopt (adopt: true; the CLI counts these as creates)`);
  if (summary.same > 0) lines.push(`    ${summary.same} unchanged`);
  if (lines.length === 1) lines.push("    no changes");
  lines.push("", `Duration: ${seconds < 60 ? `${Math.max(1, Math.round(seconds))}s` : `${Math.floor(seconds / 60)}m${Math.round(seconds % 60)}s`}`);
  return lines;
}
