/**
 * Progress lines for long waits (registry processing, delegation): a line when the wait starts and
 * then one every PROGRESS_EVERY_MS saying what is awaited and how long remains, so a CI log shows the
 * apply is alive rather than one line and minutes of silence.
 */

/** How often a wait says it is still waiting. */
export const PROGRESS_EVERY_MS = 30_000;

export interface Progress {
  /** Call after each poll with what the poll saw; logs when a line is due. */
  (state: string): void;
}

/** A progress reporter for `subject` waiting for `awaited` until `deadline` (ms, on `now`'s clock). */
export function waitProgress(
  subject: string,
  awaited: string,
  deadline: number,
  log: (line: string) => void,
  now: () => number = Date.now,
  everyMs = PROGRESS_EVERY_MS,
): Progress {
  const started = now();
  let last: number | undefined;
  return (state) => {
    const t = now();
    if (last !== undefined && t - last < everyMs) return;
    const left = Math.max(0, Math.ceil((deadline - t) / 1000));
    log(
      last === undefined
        ? `${subject}: waiting up to ${left} s for ${awaited} (${state})`
        : `${subject}: still waiting for ${awaited} after ${Math.round((t - started) / 1000)} s (${state}); ${left} s left`,
    );
    last = t;
  };
}
