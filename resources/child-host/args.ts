/** ChildHost's types: the program's arguments, the inputs check makes of them, the outputs state keeps. Types only. */
import type { Common } from "../kinds";

export interface ChildHostInputs extends Common {
  domain: string;
  hostname: string;
  ipv4: string[];
  ipv6: string[];
}

export type ChildHostOutputs = ChildHostInputs & { adopted: boolean };
