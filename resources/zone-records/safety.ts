/**
 * The safety threshold, as octoDNS has it (`update_pcent_threshold`, `delete_pcent_threshold`, 30 %,
 * applied to zones of `MIN_EXISTING_RECORDS` = 10 or more): an up that would change or delete more
 * than a share of a zone's existing records fails, in preview and in up, before anything changes.
 * Creates never count (a new zone is all creates). Changes and deletes count together: a record
 * rewritten is as gone as a record removed to anything that resolves it.
 */
import { counts, type Step } from "./plan";

export interface Safety {
  /** Largest share (0 < share ≤ 1) of the existing records one up may change or delete. */
  maxChangeShare: number;
  /** Zones with fewer existing records than this are not held to the share (a small zone changes by large shares). */
  minExistingRecords: number;
}

export const DEFAULT_SAFETY: Safety = { maxChangeShare: 0.3, minExistingRecords: 10 };

const pct = (x: number): string => `${Math.round(x * 1000) / 10} %`;

/**
 * Why the steps may not run (undefined: they may), for `name` (the resource) in `zone` holding
 * `existing` user records.
 */
export function thresholdRefusal(steps: readonly Step[], existing: number, safety: Safety, where: { zone: string; resource: string }): string | undefined {
  if (existing < safety.minExistingRecords || existing === 0) return undefined;
  const c = counts(steps);
  const touched = c.change + c.delete;
  const share = touched / existing;
  if (share <= safety.maxChangeShare) return undefined;
  return (
    `${where.zone}: this up would change ${c.change} and delete ${c.delete} of the zone's ${existing} records (${pct(share)}), ` +
    `more than the safety threshold of ${pct(safety.maxChangeShare)} (zones of ${safety.minExistingRecords} records or more). Nothing was changed. ` +
    `If this is intended, set allowLargeChanges: true on "${where.resource}" for this up (and back to false after), ` +
    `or raise safety.maxChangeShare.`
  );
}
