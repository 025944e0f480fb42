/** Reading the sandbox's request log: shared by the tests and the bench. */
import type { RequestLogEntry } from "../../sandbox/server";
import type { SandboxHandle } from "../../sandbox/index";
import { isReadRequest } from "../../sandbox/rules";

/** Requests that may change something: every method but GET and HEAD. */
export const isMutatingMethod = (e: Pick<RequestLogEntry, "method">): boolean => !["GET", "HEAD"].includes(e.method.toUpperCase());

/** Milliseconds since the epoch of a log entry (the sandbox logs ISO times with milliseconds). */
export const atMs = (e: Pick<RequestLogEntry, "at">): number => Date.parse(e.at);

/** The largest number of entries that fall in any window of `windowMs` (entries sorted by time). */
export function maxInWindow(times: number[], windowMs: number): number {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let lo = 0, hi = 0; hi < t.length; hi++) {
    while (t[hi] - t[lo] >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

/** The sandbox's requests since `mark` (an index into its log) that are not reads, as "METHOD path". */
export const writesSince = (sandbox: SandboxHandle, mark: number): string[] =>
  sandbox.operator
    .requests()
    .slice(mark)
    .filter((r) => r.mutating || !isReadRequest(r))
    .map((r) => `${r.method} ${r.path}`);
