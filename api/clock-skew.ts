/**
 * Clock-skew correction: when the service refuses a timestamp (401 timestamp_out_of_range) and
 * says what time it is (details.server_time, Unix seconds), the client signs with its own clock
 * plus the difference from then on.
 */

/** The offset (ms) to add to the local clock, or undefined when the details carry no usable server time. */
export function clockOffsetFrom(details: Record<string, unknown> | undefined, localNowMs: number): number | undefined {
  const t = details?.server_time;
  const seconds = typeof t === "number" ? t : typeof t === "string" && /^\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
  if (!Number.isFinite(seconds) || seconds <= 0) return undefined;
  return Math.round(seconds * 1000 - localNowMs);
}
