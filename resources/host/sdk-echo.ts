/**
 * The SDK's dynamic provider host sends an error thrown by check, diff, read or delete to the engine,
 * which reports it on the resource (inline and in the CLI's Diagnostics), and also prints it to its
 * own stderr as `${e}: ${e.stack}`, which the engine shows as a message of the Stack: every such
 * error twice more, with a trailing ":" (`@pulumi/pulumi/cmd/dynamic-provider/index.js`; create and
 * update errors go to the engine only). `expectEcho` names the line the SDK will print for an error
 * this package hands it; the host's console.error drops that line once, so the user reads it on its
 * resource alone. Any other line, a bug's stack trace among them, is printed as before.
 */
const expected = new Map<string, number>();

/** The SDK will print `${e}: ${e.stack}` for `e`, which the engine also gets: drop that line once. */
export function expectEcho(e: Error): void {
  const line = `${String(e)}: ${e.stack ?? ""}`;
  expected.set(line, (expected.get(line) ?? 0) + 1);
}

/** Whether `args` is a line expected by expectEcho (then forgotten once). */
export function isExpectedEcho(args: unknown[]): boolean {
  if (args.length !== 1 || typeof args[0] !== "string") return false;
  const n = expected.get(args[0]);
  if (n === undefined) return false;
  if (n <= 1) expected.delete(args[0]);
  else expected.set(args[0], n - 1);
  return true;
}

/** Installs the filter on this process's console.error, once. */
export function dropExpectedEchoes(): void {
  if ((console.error as { dropsEchoes?: true }).dropsEchoes) return;
  const print = console.error.bind(console);
  const filtered = (...args: unknown[]): void => {
    if (!isExpectedEcho(args)) print(...args);
  };
  console.error = Object.assign(filtered, { dropsEchoes: true as const });
}
