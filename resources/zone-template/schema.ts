/** ZoneTemplate's check (host side), offline; ./template-check.ts judges the variables against the service's template. */
import { z } from "zod";
import { CONFLICT_STRATEGIES } from "../../api/shapes";
import type { ConflictStrategy } from "../../api/views";
import { CheckResult, anyValue, common, domainName, field, isObject, parseInputs, refuse } from "../kit/check";
import { TemplateInputs } from "./state";

export const isStrategy = (v: unknown): v is ConflictStrategy => CONFLICT_STRATEGIES.some((s) => s === v);

export const templateSchema: z.ZodType<TemplateInputs> = z.looseObject({
  ...common,
  zone: domainName,
  templateId: anyValue((v, ctx) => (typeof v === "string" && v.trim() !== "" ? v : refuse(ctx, v, "is not a template id (see getTemplates or the reseller portal)"))),
  variables: field((v, ctx) => {
    if (!isObject(v)) return refuse(ctx, v, "is not an object of name to string");
    const vars: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === "string") vars[k] = x; // an unknown value (preview) is a string too
      else refuse(ctx, x, "is not a string", { path: [k] });
    }
    return vars;
  }, () => ({})),
  conflictStrategy: field<ConflictStrategy>((v, ctx) => (isStrategy(v) ? v : refuse(ctx, v, `is not one of ${CONFLICT_STRATEGIES.join(", ")}`)), () => "cancel"),
});

export const checkTemplateInputs = (news: Record<string, unknown>): CheckResult<TemplateInputs> => parseInputs(templateSchema, news);
