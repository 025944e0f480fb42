/** DnsZone's host-side types: the inputs check makes of the program's arguments, and the outputs state keeps. Types only. */
import type { Common } from "../kinds";

export interface ZoneInputs extends Common {
  domain: string;
  forceDestroy?: boolean;
  waitForDelegation?: boolean;
  waitTimeoutSeconds?: number;
}

/** A DnsZone in state: its inputs and the zone as the service reports it. */
export type ZoneOutputs = ZoneInputs & { nameservers: string[]; status: string; delegated: boolean; adopted: boolean };
