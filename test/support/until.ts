/**
 * Waiting in a test for what it must see before it goes on (a log line that reaches the test after
 * the answer to the call that logged it, a request's arrival, a late write), with no margin of time
 * that a loaded machine could exceed: it waits for the thing itself. The guard only ends a hang,
 * saying what never came.
 */

/** Resolves once `ok()` holds; throws, naming `what`, when it has not after `guardMs` (a hang, not a margin). */
export async function until(what: string, ok: () => boolean | Promise<boolean>, guardMs = 120_000): Promise<void> {
  const end = Date.now() + guardMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`waited ${Math.round(guardMs / 1000)} s for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
