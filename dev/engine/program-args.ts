// How a program run by the engine receives its arguments: the engine puts `args` (JSON) in the child
// process's environment, the program reads them back. Kept tiny: programs import it at start-up.

/** The environment variable the engine sets for the program's process. */
export const PROGRAM_ARGS_ENV = "RESELLER_PULUMI_PROGRAM_ARGS";

/** The `args` the engine was given with this program (`{ file, args }`), or undefined when none. */
export function programArgs<T>(): T {
  const raw = process.env[PROGRAM_ARGS_ENV];
  return (raw === undefined || raw === "" ? undefined : JSON.parse(raw)) as T;
}
