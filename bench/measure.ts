/** Small helpers shared by the bench sections: rounding, medians, reading the sandbox request log. */
import type { RequestLogEntry } from "../sandbox/server";

export const round = (v: number, digits: number): number => Number(v.toFixed(digits));

export function median(values: number[]): number {
  if (values.length === 0) throw new Error("median of no values");
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Requests that may change something: every method but GET and HEAD. */
export const isMutatingMethod = (e: Pick<RequestLogEntry, "method">): boolean => !["GET", "HEAD"].includes(e.method.toUpperCase());

/** Milliseconds since the epoch of a log entry (the sandbox logs ISO times with milliseconds). */
export const atMs = (e: Pick<RequestLogEntry, "at">): number => Date.parse(e.at);
