/** EppCode's host-side types: the inputs check makes of the program's arguments, and the outputs state keeps. Types only. */
import type { Common } from "../kinds";

export interface EppCodeInputs extends Common {
  domain: string;
  /** Any value; a new one asks for a new code. */
  trigger?: unknown;
}

/** The code is secret (the resource class marks it so). */
export type EppCodeOutputs = EppCodeInputs & { authCode: string; requestedAt: string };
