/** DnsZoneRecords' prediction at preview (called by ../kit/preflight.ts): a new declaration of a zone's records needs a zone the account can host, and one that can become active; its other rules are its own check's. */
import { creating, type Prediction } from "../kit/preflight";
import { previewRecordZone, previewRecordZoneHeld } from "../dns-zone/preview";
import type { ZoneRecordsInputs } from "./state";

export const previewZoneRecords: Prediction = async (p, ctx, olds, i) => {
  if (!creating(olds)) return;
  await previewRecordZoneHeld(p, ctx, i.zone as string);
  if (!Array.isArray((i as unknown as ZoneRecordsInputs).records)) await previewRecordZone(p, ctx, i.zone as string, `the records of ${String(i.zone)}`);
};
