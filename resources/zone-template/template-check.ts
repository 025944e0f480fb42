/**
 * ZoneTemplate inputs against the service's template list, at `check` (so at preview): an unknown
 * template id or a variable the template needs and the program does not give is refused before
 * apply. One list read per provider process and credential. When the list cannot be read (no
 * credentials yet, service down) nothing is refused here: apply still reports it.
 */
import type { Template } from "../../api/views";
import { isUnknown, type CheckFailure } from "../kit/check";
import { type TemplateInputs } from "./state";

/** Failures for `templateId` and `variables` of checked ZoneTemplate inputs; [] when they hold or cannot be judged. */
export async function templateFailures(inputs: TemplateInputs, templates: () => Promise<Template[]>): Promise<CheckFailure[]> {
  const id = inputs.templateId;
  if (isUnknown(id)) return [];
  let list: Template[];
  try {
    list = await templates();
  } catch {
    return [];
  }
  const template = list.find((t) => t.id === id);
  if (!template) {
    const known = list.map((t) => t.id).join(", ");
    return [{ property: "templateId", reason: `templateId: ${JSON.stringify(id)} is not a template of the service (known: ${known || "none"}; see getTemplates)` }];
  }
  const vars = inputs.variables;
  if (isUnknown(vars)) return [];
  // The service names the variables: an own key only ("constructor" is not given by every object).
  const missing = template.variables.filter((v) => !Object.hasOwn(vars, v));
  return missing.map((v) => ({
    property: `variables.${v}`,
    reason: `variables.${v}: missing; template ${id} needs ${template.variables.map((n) => JSON.stringify(n)).join(", ")}: add ${JSON.stringify(v)} to variables`,
  }));
}
