/**
 * Offline diffs: old outputs (from state) against new, already checked and normalized inputs. No API
 * call is made, so `pulumi preview` costs nothing and a no-op `up` makes no mutating call.
 *
 * Each resource kind lists its fields as "replace" (the object is another one), "update" (changed in
 * place) or nothing (create-only or bookkeeping inputs, which never cause a diff).
 */
import { containsUnknown } from "./check";
import { sameJson } from "../shared/normalize";

export interface DiffResult {
  changes: boolean;
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  /** Every field that differs (replaces included). */
  diffs: string[];
}

/** Equality of an old (state) and a new (checked input) value; each equality narrows what it compares. */
export type Equal = (a: unknown, b: unknown) => boolean;

/** A field of a kind: a key of its inputs that its outputs carry too. */
export interface Field<I, O> {
  key: keyof I & keyof O;
  mode: "replace" | "update";
  /** Compare only when the program gives the field (unmanaged otherwise). */
  optional?: boolean;
  equal?: Equal;
}

export const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

export const setEqual =
  (canon: (v: readonly string[]) => string[]): Equal =>
  (a, b) =>
    isStrings(a) && isStrings(b) && sameJson(canon(a), canon(b));

export function diffFields<I, O>(olds: Partial<O>, news: I, fields: readonly Field<I, O>[], deleteBeforeReplace = false): DiffResult {
  const replaces: string[] = [];
  const diffs: string[] = [];
  for (const f of fields) {
    const n = news[f.key];
    if (f.optional && (n === undefined || n === null)) continue;
    const o = olds[f.key];
    const differs = containsUnknown(n) || !(f.equal ? f.equal(o, n) : sameJson(o, n));
    if (!differs) continue;
    diffs.push(String(f.key));
    if (f.mode === "replace") replaces.push(String(f.key));
  }
  const stables = replaces.length === 0 ? fields.filter((f) => f.mode === "replace").map((f) => String(f.key)) : [];
  return { changes: diffs.length > 0, replaces, stables, deleteBeforeReplace: replaces.length > 0 && deleteBeforeReplace, diffs };
}

/** What a diff reads from state: the last outputs, of which it compares the fields the inputs have. */
export type Held<I> = { [K in keyof I]?: unknown };
