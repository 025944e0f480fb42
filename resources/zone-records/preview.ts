/** DnsZoneRecords' prediction at preview (called by ../kit/preflight.ts): a new declaration of a zone's records needs a zone that can become active; its other rules are its own check's. */
import { creating, type Prediction } from "../kit/preflight";
import { previewRecordZone } from "../dns-zone/preview";
import type { ZoneRecordsInputs } from "./state";

export const previewZoneRecords: Prediction = async (p, ctx, olds, i) => {
  if (creating(olds) && !Array.isArray((i as unknown as ZoneRecordsInputs).records)) await previewRecordZone(p, ctx, i.zone as string);
};
