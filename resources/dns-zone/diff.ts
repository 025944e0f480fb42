/** DnsZone's diff table (host side, offline): which fields replace it and which change in place. */
import { type ZoneInputs } from "./state";
import { DiffResult, Held, diffFields } from "../kit/diff";

/** DnsZone: the domain names the zone (replace); the rest is bookkeeping or a wait in update. */
export function diffZone(olds: Held<ZoneInputs>, news: ZoneInputs): DiffResult {
  return diffFields<ZoneInputs, Held<ZoneInputs>>(olds, news, [
    { key: "domain", mode: "replace" },
    { key: "waitForDelegation", mode: "update" },
    { key: "forceDestroy", mode: "update" },
    { key: "waitTimeoutSeconds", mode: "update" },
  ]);
}
