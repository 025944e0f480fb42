/** ZoneTemplate's diff table (host side, offline): which fields replace it and which change in place. */
import { type TemplateInputs } from "./state";
import { DiffResult, Held, diffFields } from "../kit/diff";

/**
 * ZoneTemplate: another zone, template or variables means applying again. Delete-before-replace:
 * the old application's records are removed first, so removing them cannot remove what the new
 * application made under the same names.
 */
export function diffTemplate(olds: Held<TemplateInputs>, news: TemplateInputs): DiffResult {
  return diffFields<TemplateInputs, Held<TemplateInputs>>(
    olds,
    news,
    [
      { key: "zone", mode: "replace" },
      { key: "templateId", mode: "replace" },
      { key: "variables", mode: "replace" },
      { key: "conflictStrategy", mode: "update" },
    ],
    true,
  );
}
