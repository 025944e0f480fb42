/** ChildHost's host-side types: the inputs check makes of the program's arguments, and the outputs state keeps. Types only. */
import type { Common } from "../kinds";

export interface ChildHostInputs extends Common {
  domain: string;
  hostname: string;
  ipv4: string[];
  ipv6: string[];
}

export type ChildHostOutputs = ChildHostInputs & { adopted: boolean };
