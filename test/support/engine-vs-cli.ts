// What a run of dev/engine/ and a run of the real CLI are compared by (test/pulumi-cli/conformance.test.ts):
// the step kinds, the provider calls, the final state. Each is reduced here to what both must agree
// on; what legitimately differs is normalised away, each normalisation saying why (the differences
// that are not normalised but stated are in dev/engine/README.md, "Where dev/engine/ differs from the CLI").
import type { Step } from "../../dev/engine/display";
import type { ResourceState } from "../../dev/engine/state";
import type { CliRun, StackExport } from "../../dev/pulumi-cli";

/** resource.MakeSecret's signature key, as in the CLI's exported state. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** The qualified type in a URN (`urn:pulumi:S::P::T::name`), its last segment: the resource's own type. */
const typeOf = (urn: string): string => {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
};

/**
 * Step kinds are compared for custom resources other than providers: dev/engine/ records none for the
 * root stack and components (its `steps` count custom resources), and has no provider resources
 * (every custom resource is dynamic, one host, no `pulumi:providers:pulumi-nodejs` entry).
 */
const isComparedResource = (urn: string): boolean => {
  const t = typeOf(urn);
  return t !== "pulumi:pulumi:Stack" && !t.startsWith("pulumi:providers:") && t.startsWith("pulumi-nodejs:dynamic");
};

/** Per URN, its step kinds, sorted (steps of different resources may run in parallel). */
export type StepKinds = Record<string, string[]>;

function byUrn(steps: { urn: string; op: string }[]): StepKinds {
  const out: StepKinds = {};
  for (const s of steps) if (isComparedResource(s.urn)) (out[s.urn] ??= []).push(s.op);
  for (const k of Object.keys(out)) out[k].sort();
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** dev/engine/'s steps: a replace is one "replace" step and the delete of its old half (`replacing`) a "delete". */
export function engineStepKinds(steps: Step[]): StepKinds {
  return byUrn(steps.map((s) => ({ urn: s.urn, op: s.op })));
}

/**
 * The CLI's steps, from `preview --json` (its `steps`) or from the engine events `up|refresh|destroy
 * --json` prints (a `resourcePreEvent` per step started, failed ones included). The CLI shows a
 * replace as three steps (create-replacement, replace, delete-replaced, in either order): the first
 * is the replace, the second a marker, the third the delete of the old half, as dev/engine/ records them.
 * A refresh step is "refresh" when it starts; its outcome (same, update, delete) is the op of the
 * step's outputs event, or, where that says "refresh", what the CLI's display makes of it (no new
 * state: delete; outputs changed: update; else same).
 */
export function cliStepKinds(run: CliRun): StepKinds {
  const steps: { urn: string; op: string }[] = [];
  const add = (op: string, urn: string): void => {
    if (op === "replace") return;
    if (op === "create-replacement") op = "replace";
    if (op === "delete-replaced") op = "delete";
    steps.push({ urn, op });
  };
  const whole = tryJson(run.stdout);
  if (whole && Array.isArray(whole.steps)) {
    for (const s of whole.steps as { op: string; urn: string }[]) add(s.op, s.urn);
    return byUrn(steps);
  }
  // A URN can have several steps (a refresh with --run-program refreshes it, then answers its
  // registration): each start takes the URN's next outputs event.
  const finished = new Map<string, StepMeta[]>();
  const started: StepMeta[] = [];
  for (const e of cliEvents(run)) {
    if (e.resourcePreEvent) started.push(e.resourcePreEvent.metadata);
    if (e.resOutputsEvent) {
      const m = e.resOutputsEvent.metadata;
      finished.set(m.urn, [...(finished.get(m.urn) ?? []), m]);
    }
  }
  const outcome = (m: StepMeta | undefined): string => {
    if (!m) return "refresh";
    if (m.op !== "refresh") return m.op;
    if (!m.new) return "delete";
    return JSON.stringify(m.old?.outputs ?? {}) === JSON.stringify(m.new.outputs ?? {}) ? "same" : "update";
  };
  for (const s of started) add(s.op === "refresh" ? outcome(finished.get(s.urn)?.shift()) : (finished.get(s.urn)?.shift(), s.op), s.urn);
  return byUrn(steps);
}

function tryJson(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

type StepMeta = { op: string; urn: string; old?: { outputs?: unknown } | null; new?: { outputs?: unknown } | null };
interface CliEvent {
  resourcePreEvent?: { metadata: StepMeta };
  resOutputsEvent?: { metadata: StepMeta };
  diagnosticEvent?: { message: string; severity: string; urn?: string };
  summaryEvent?: { resourceChanges?: Record<string, number> };
}

/** The engine events of an `up|refresh|destroy --json`, one JSON object a line. */
export function cliEvents(run: CliRun): CliEvent[] {
  return run.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => tryJson(l) as CliEvent | undefined)
    .filter((e): e is CliEvent => !!e);
}

/** The error diagnostics the CLI reported (events of `--json` runs, or `preview --json`'s `diagnostics`), and its stderr. */
export function cliErrors(run: CliRun): string {
  const whole = tryJson(run.stdout);
  const fromPreview = Array.isArray(whole?.diagnostics) ? (whole.diagnostics as { message: string; severity: string }[]) : [];
  const fromEvents = cliEvents(run).flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent] : []));
  return [...fromPreview, ...fromEvents]
    .filter((d) => d.severity === "error")
    .map((d) => d.message)
    .concat(run.stderr)
    .join("\n");
}

/**
 * The fixture provider's calls (`check <name> ...`, `diff <id>`, `create <name>`, `created <name>`,
 * `read <id>`, `update <id>`, `delete <id>`), per object (the second word), each object's in the
 * order made; its reads apart, since a `.get()` of an object is another resource's step. Steps of
 * different resources run in parallel (up to --parallel, in either engine), so across objects the
 * calls compare as sets; an order across objects that a rule fixes (a delete before a create, a
 * chain of dependents) is asserted by the scenario on both logs.
 */
export function callsByObject(calls: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const c of calls) {
    const [op, object, ...rest] = c.split(" ");
    (out[op === "read" ? `${object} (reads)` : object] ??= []).push([op, ...rest].join(" "));
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** A resource of the final state, reduced to what both must agree on. */
export interface ComparedResource {
  urn: string;
  type: string;
  id?: string;
  custom: boolean;
  parent?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
  protect?: true;
  retainOnDelete?: true;
  deletedWith?: string;
  external?: true;
  delete?: true;
  pendingReplacement?: true;
  initErrors?: string[];
}

/**
 * The serialized dynamic provider (`__provider`) is the same SDK's serialization of the same code in
 * both; it is left out as a provider reference, like the CLI's `provider` field (dev/engine/ has no
 * provider resources). Secrets compare as "[secret]": the CLI's are encrypted, dev/engine/'s are
 * plain text in memory with their keys listed.
 */
function props(p: Record<string, unknown> | undefined, secretKeys: string[] = []): Record<string, unknown> | undefined {
  if (!p) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) {
    if (k === "__provider") continue;
    const isSecret = secretKeys.includes(k) || (!!v && typeof v === "object" && SECRET_SIG in (v as object));
    out[k] = isSecret ? "[secret]" : v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

const sortedDeps = (d: Record<string, string[]> | undefined): Record<string, string[]> | undefined => {
  if (!d) return undefined;
  const e = Object.entries(d)
    .filter(([, v]) => v.length > 0)
    .map(([k, v]) => [k, [...v].sort()] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  return e.length > 0 ? Object.fromEntries(e) : undefined;
};

function compact(r: ComparedResource): ComparedResource {
  return Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0))) as ComparedResource;
}

/** The root stack is compared by its outputs alone (dev/engine/ records no inputs or timestamps for it). */
const isStack = (type: string): boolean => type === "pulumi:pulumi:Stack";

/** `pulumi stack export`'s resources, without the provider resources and their references, the timestamps and source positions. */
export function cliState(exported: StackExport): ComparedResource[] {
  type Exported = StackExport["deployment"]["resources"] extends (infer R)[] | undefined ? R & Record<string, unknown> : never;
  const resources = (exported.deployment.resources ?? []) as Exported[];
  return resources
    .filter((r) => !r.type.startsWith("pulumi:providers:"))
    .map((r) =>
      compact({
        urn: r.urn,
        type: r.type,
        custom: !!r.custom,
        ...(isStack(r.type)
          ? { outputs: props(r.outputs) }
          : {
              id: r.custom ? (r.id as string | undefined) : undefined,
              parent: r.parent as string | undefined,
              inputs: props(r.inputs),
              outputs: props(r.outputs),
              dependencies: [...((r.dependencies as string[] | undefined) ?? [])].sort(),
              propertyDependencies: sortedDeps(r.propertyDependencies as Record<string, string[]> | undefined),
              protect: r.protect ? true : undefined,
              retainOnDelete: r.retainOnDelete ? true : undefined,
              deletedWith: (r.deletedWith as string | undefined) || undefined,
              external: r.external ? true : undefined,
              delete: r.delete ? true : undefined,
              pendingReplacement: r.pendingReplacement ? true : undefined,
              initErrors: r.initErrors as string[] | undefined,
            }),
      }),
    )
    .sort((a, b) => a.urn.localeCompare(b.urn));
}

/** dev/engine/'s state (`allResources()`), reduced the same way. */
export function engineState(resources: ResourceState[]): ComparedResource[] {
  return resources
    .map((r) =>
      compact({
        urn: r.urn,
        type: r.type,
        custom: r.custom,
        ...(isStack(r.type)
          ? { outputs: props(r.outputs, r.secretKeys) }
          : {
              id: r.custom ? r.id : undefined,
              parent: r.parent,
              inputs: props(r.inputs, r.secretKeys),
              outputs: props(r.outputs, r.secretKeys),
              dependencies: [...r.dependencies].sort(),
              propertyDependencies: sortedDeps(r.propertyDependencies),
              protect: r.protect ? true : undefined,
              retainOnDelete: r.retainOnDelete ? true : undefined,
              deletedWith: r.deletedWith || undefined,
              external: r.external ? true : undefined,
              delete: r.delete ? true : undefined,
              pendingReplacement: r.pendingReplacement ? true : undefined,
              initErrors: r.initErrors,
            }),
      }),
    )
    .sort((a, b) => a.urn.localeCompare(b.urn));
}
