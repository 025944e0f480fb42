/**
 * What the provider host says when its requests wait for a place in the rate limit (or for the
 * service's 429 pause, or a retry's backoff), with the reason and how long. The client tells of
 * every wait (`waitNoticeMs` 0); a wait is said once it is long, over LOG_WAITS_LONGER_THAN_MS:
 * - one request's wait, or the queue's behind it (the client's estimate of when the last queued
 *   request goes): said as that wait begins;
 * - short waits that follow each other (the CLI checks and creates one resource after another, each
 *   request waiting a second for the place a request of the last minute frees): said once they add
 *   up, with the time waited so far.
 * Said once per stretch of waits (waits less than STRETCH_GAP_MS apart), and again after PROGRESS_EVERY_MS.
 */
import type { WaitEvent } from "../../api/request-loop";
import { PROGRESS_EVERY_MS } from "../../api/wait";
import { LOG_WAITS_LONGER_THAN_MS, type Log } from "../kit/log";

/** Waits this close after one another are one slow stretch. */
const STRETCH_GAP_MS = 2000;

/** The longest finite wait an event tells of, in ms (0 when it knows none: a wait for an answer in flight). */
const longestOf = (w: WaitEvent): number => Math.max(0, ...[w.ms, w.queue?.drainMs ?? 0].filter(Number.isFinite));

const seconds = (ms: number): number => Math.max(1, Math.round(ms / 1000));

/** The line for a long wait; `sinceMs`: how long requests have been waiting in this stretch, when that is what made it long. */
export function waitLine(w: WaitEvent, sinceMs?: number): string {
  const next = Number.isFinite(w.ms) ? `, the next (${w.path}) in about ${seconds(w.ms)} s` : ` (the next: ${w.path})`;
  const how =
    sinceMs !== undefined
      ? `requests have waited ${seconds(sinceMs)} s so far, each for the place a request of the last minute frees${next}`
      : w.queue && w.queue.waiting > 1
        ? `${w.queue.waiting} requests are queued, the last to go in about ${seconds(longestOf(w))} s${next}`
        : `${w.path} waits about ${seconds(longestOf(w))} s`;
  if (w.reason === "retry-backoff") return `waiting ${seconds(w.ms)} s before retrying ${w.path} (backing off after a failed attempt)`;
  if (w.reason === "rate-limited-429") return `waiting for the service's rate limit, which answered 429 and asked for a pause: ${how}`;
  const pace = w.queue ? `${w.queue.perMinute} requests a minute` : "a limited number of requests a minute";
  return `waiting for the rate limit: this API key may send ${pace} (reseller:requestsPerMinute; the requests of every process using the key on this machine count, an earlier command's too), and that many went within the last minute; ${how}`;
}

/** An onWait hook that logs long waits to `log`, as said above, on the clock `now`. */
export function waitNotices(log: Log, now: () => number): (w: WaitEvent) => void {
  let saidAt = -Infinity;
  let saidOf = NaN;
  let stretchStart = -Infinity;
  let stretchEnd = -Infinity;
  return (w) => {
    const t = now();
    const own = longestOf(w);
    if (t > stretchEnd + STRETCH_GAP_MS) stretchStart = t;
    stretchEnd = Math.max(stretchEnd, t + (Number.isFinite(w.ms) ? w.ms : 0));
    const stretch = stretchEnd - stretchStart;
    const longest = Math.max(own, stretch);
    if (!(longest > LOG_WAITS_LONGER_THAN_MS)) return;
    if (saidOf === stretchStart && t - saidAt < PROGRESS_EVERY_MS) return;
    saidAt = t;
    saidOf = stretchStart;
    log.info(waitLine(w, own > LOG_WAITS_LONGER_THAN_MS ? undefined : t - stretchStart));
  };
}
