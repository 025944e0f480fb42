// Preloaded (`node --require`) into every process the engine starts, the program and the provider
// host. Node builtins only: it runs before the SDK loads, in whatever project the process runs in.
// The module object itself (not an interop copy), so the SDK's later `util.inspect` sees the guard.
import util = require("node:util");

/**
 * The engine's own pid, as this process saw its parent at start. When the engine dies, however it
 * ends (SIGKILL, a jest worker torn down at a timeout, process.exit without closing), this process
 * is re-parented and kills itself: a leftover program or host held 1.7 GB after 10 CPU-minutes.
 */
const enginePid = process.ppid;
const ORPHAN_CHECK_MS = 500;

setInterval(() => {
  if (process.ppid !== enginePid) process.kill(process.pid, "SIGKILL");
}, ORPHAN_CHECK_MS).unref();

/**
 * A stack line whose last `node_modules` segment has no separator after the package name (the SDK's
 * source-mapped frames read `.../node_modules/@pulumi/resource.ts:1598:22`). Node 20.20's
 * colored util.inspect (markNodeModules) then searches from index -1 forever and fails with
 * "Invalid string length" after a minute or more; the SDK's handler of an uncaught error inspects it
 * with colors and, on that failure, prints it without them. Inspecting such an error without colors
 * at once gives that same text in milliseconds.
 */
export const LOOPING_STACK_LINE = /[\\/]node_modules[\\/](?:@[^\\/\n]*[\\/])?[^\\/\n]*$/m;

const inspect = util.inspect;
function guardedInspect(this: unknown, value: unknown, ...rest: unknown[]): string {
  const opts = rest[0];
  if (
    value instanceof Error &&
    typeof value.stack === "string" &&
    LOOPING_STACK_LINE.test(value.stack) &&
    opts !== null &&
    typeof opts === "object" &&
    (opts as util.InspectOptions).colors
  ) {
    return inspect(value, { ...(opts as util.InspectOptions), colors: false });
  }
  return (inspect as (...a: unknown[]) => string).apply(this, [value, ...rest]);
}
// Keeps inspect.custom, defaultOptions (an accessor over inspect's own settings), colors and styles.
Object.defineProperties(guardedInspect, Object.getOwnPropertyDescriptors(inspect));
(util as { inspect: typeof util.inspect }).inspect = guardedInspect as unknown as typeof util.inspect;
