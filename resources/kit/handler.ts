/**
 * The shape every resource kind's implementation has: Pulumi's dynamic ResourceProvider, typed.
 * `check` parses the program's property bag into the kind's canonical inputs `I` (its kind's schema.ts);
 * everything after it is typed: diff, create and update get `I`, and create, read and update return
 * the kind's outputs `O`, which read, update and delete get back from state.
 */
import { isNotFound } from "../../api/vocabulary";
import type { DnsRecord } from "../../api/views";
import type { HostContext } from "./context";
import { type DiffResult } from "./diff";
import type { CheckResult } from "./check";
import type { DiffPrediction, Prediction } from "./preflight";
import type { Props, SecretDerived } from "./props";
export type { SecretDerived } from "./props";

export type { Props };

/** One input that is a host name (or holds host names, as a record's content): its property path and value as sent. */
export type NameInput = [property: string, value: unknown];

/** The inputs of a kind that are host names, from the program's property bag (./disguised-inputs.ts judges them). */
export type NameInputs = (news: Props) => NameInput[];

/**
 * What a write of a kind that is one record (DnsRecord) does to check's reads of its zone's records
 * (./preflight.ts): after an answered create or delete, the records as read follow the write
 * instead of being read again.
 */
export interface RecordWrites<O> {
  /** The record's zone in a property bag of the engine's (inputs or outputs); undefined when it names none. */
  zone(props: Props): string | undefined;
  /** The record a create made (not adopted), as the service answered it; undefined when none was made. */
  created(outs: O): DnsRecord | undefined;
}

/** What read returns for an object that no longer exists: the engine drops it from state. */
export const GONE = { id: "", props: {} } as const;
export type Gone = typeof GONE;

export interface Handler<I, O> {
  check(ctx: HostContext, olds: Props, news: Props): CheckResult<I> | Promise<CheckResult<I>>;
  diff(ctx: HostContext, id: string, olds: O, news: I): DiffResult;
  create(ctx: HostContext, inputs: I): Promise<{ id: string; outs: O }>;
  read(ctx: HostContext, id: string, props: O): Promise<{ id: string; props: O } | Gone>;
  update(ctx: HostContext, id: string, olds: O, news: I): Promise<{ outs: O }>;
  delete(ctx: HostContext, id: string, props: O): Promise<void>;
  /**
   * A state (inputs or outputs) written by an earlier version, in this version's names. State is
   * rewritten only when a resource is next written, so every olds of check, diff, read, update and
   * delete passes through it, and diff's news (a refresh diffs against the inputs in state). Absent:
   * the kind's state has not changed shape.
   */
  upgrade?(state: Props): Props;
  /** Check's prediction of what up will meet, read from the service (its folder's preview.ts, run by kit/preflight.ts). */
  preview?: Prediction;
  /** Diff's, for what only the diff decides. */
  previewDiff?: DiffPrediction;
  /** Which inputs are host names: judged after check passed (./disguised-inputs.ts). */
  nameInputs: NameInputs;
  /** A kind that is one record of a zone: how its writes change the zone's records as check read them. */
  recordWrites?: RecordWrites<O>;
  /**
   * What the kind derives from an input under another name (check's inputs and the outputs), by
   * that input: kept secret in state when the program marked the input secret. The engine marks an
   * output secret only under the name of a secret input (./secret-inputs.ts, markDerivedSecrets).
   */
  secretDerived?: SecretDerived;
  /**
   * What an import id (`pulumi import <type> <name> <id>`) names: the id state keeps and the
   * properties read needs to find the object (e.g. a record's zone). Made with `importedAs`.
   */
  importId(id: string): Imported;
}

/** An object to import: its id in state and what read needs beside it. */
export interface Imported {
  id: string;
  props: Props;
}

/**
 * The import id of a kind whose objects are named by `fields`, joined by "/" (e.g. ["zone",
 * "recordId"]: "example.com/rec_1"); `id` picks the state's id from them (default: the last). An id
 * of another shape is refused, naming the shape.
 */
export function importedAs(fields: readonly string[], id: (parts: Record<string, string>, whole: string) => string = (p) => p[fields[fields.length - 1]]): (whole: string) => Imported {
  return (whole) => {
    const parts = whole.split("/");
    if (parts.length !== fields.length || parts.some((p) => p.trim() === ""))
      throw new Error(`import id ${JSON.stringify(whole)} is not of the form ${fields.map((f) => `<${f}>`).join("/")}`);
    const named = Object.fromEntries(fields.map((f, i) => [f, parts[i].trim()]));
    return { id: id(named, whole), props: named };
  };
}

/** Outputs every kind has: its inputs, and whether it was adopted rather than made. */
export type Adoptable<I> = I & { adopted: boolean };

/** Runs a read; a missing domain or object reads as undefined (gone). */
export async function orGone<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** A diff that keeps the object with this resource unless it is replaced (see kit/ownership.ts, Ownership). */
export function claimUnlessReplaced(ctx: HostContext, d: DiffResult, key: string, olds: { resourceUrn?: string }, news: { resourceUrn?: string }): DiffResult {
  if (!d.replaces.length) ctx.owners.claim(key, news.resourceUrn ?? olds.resourceUrn);
  return d;
}
