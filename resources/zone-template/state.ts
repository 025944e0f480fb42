/** ZoneTemplate's host-side types: the inputs check makes of the program's arguments, and the outputs state keeps. Types only. */
import type { ConflictStrategy } from "../../api/views";
import type { Common } from "../kinds";

export interface TemplateInputs extends Common {
  zone: string;
  templateId: string;
  variables: Record<string, string>;
  conflictStrategy: ConflictStrategy;
}

/** A ZoneTemplate in state: what the application made. */
export type TemplateOutputs = TemplateInputs & { recordIds: string[]; created: number; replaced: number; skipped: string[]; adopted: boolean };
