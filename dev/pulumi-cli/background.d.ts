// The types of background.js (plain Node: for-tests.js runs it before anything is compiled).

/** The background builds whose state is in one folder (see background.js). */
export interface BackgroundBuilds {
  /** The runner's output. */
  readonly logFile: string;
  /** Whether a runner is at work (started, not ended, not gone). */
  running(): boolean;
  /** Starts a detached runner for `steps` (each the arguments of one `node` command) unless one is at work. */
  start(steps: string[][]): void;
  /**
   * Blocks while a runner is at work, or until `until` holds; how the last run ended (`code` -1: gone
   * without saying), `{}` when `until` held first, or undefined when none was started.
   */
  wait(until?: () => boolean): { code?: number } | undefined;
  /** What to say when a run ended with `code` and left something unbuilt: the code and the log's end. */
  failureMessage(code: number): string;
  /** The end of the log. */
  logTail(lines?: number): string;
}

export function backgroundBuilds(dir: string): BackgroundBuilds;

/** npm test's: state in the checkout's `.pulumi-cli/`. */
export const npmTestBuilds: BackgroundBuilds;
