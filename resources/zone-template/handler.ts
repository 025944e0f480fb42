/** ZoneTemplate's handler (host side): create, read, update and delete against the service. */
import type { DnsRecord } from "../../api/views";
import { isNotFound, isTemplateConflict } from "../../api/vocabulary";
import { objectKey } from "../kit/ownership";
import { diffTemplate } from "./diff";
import { GONE, type Handler, importedAs } from "../kit/handler";
import { templateFailures } from "./template-check";
import { defined } from "../shared/normalize";
import { checkTemplateInputs } from "./schema";
import { failed } from "../kit/check";
import { type TemplateInputs, TemplateOutputs } from "./state";
import { getZoneOrUndefined } from "../dns-zone/handler";
import { one } from "../kit/disguised-inputs";

function templateOutputs(inputs: TemplateInputs, made: Pick<TemplateOutputs, "recordIds" | "created" | "replaced" | "skipped" | "adopted">): TemplateOutputs {
  return defined({ ...inputs, ...made });
}

export const templateHandler: Handler<TemplateInputs, TemplateOutputs> = {
  nameInputs: (news) => one(news, "zone"),
  // "<zone>/<template id>", which is also the id state keeps.
  importId: importedAs(["zone", "templateId"], (_parts, whole) => whole),

  async check(ctx, _olds, news) {
    const result = checkTemplateInputs(news);
    if (!result.ok) return result;
    // A template id or variable the service does not have fails at preview, not at apply.
    const unknownToService = await templateFailures(result.inputs, () => ctx.reads.templates());
    return unknownToService.length ? failed(news, unknownToService) : result;
  },

  diff(ctx, _id, olds, news) {
    const d = diffTemplate(olds, news);
    if (!d.replaces.length) for (const r of olds.recordIds ?? []) ctx.owners.claim(objectKey.record(olds.zone, r), news.resourceUrn ?? olds.resourceUrn);
    return d;
  },

  async create(ctx, inputs) {
    const api = ctx.api();
    const { zone, templateId } = inputs;
    const id = `${zone}/${templateId}`;
    if (inputs.adopt) {
      const templates = await api.listTemplates();
      if (!templates.some((t) => t.id === templateId)) throw new Error(`adopt: there is no template ${templateId}`);
      if (!(await getZoneOrUndefined(ctx, zone))) throw new Error(`adopt: there is no DNS zone for ${zone}`);
      return { id, outs: templateOutputs(inputs, { recordIds: [], created: 0, replaced: 0, skipped: [], adopted: true }) };
    }
    try {
      const res = await api.applyTemplate(zone, templateId, { variables: inputs.variables, conflict_strategy: inputs.conflictStrategy });
      let ids = [...res.created, ...res.replaced].map((r) => r.id);
      if (res.replaced.length) {
        // `replaced` may name the records the apply deleted (the sandbox's reading; the spec is silent):
        // keep only ids that exist, or the first refresh would show recordIds shrinking.
        ctx.reads.invalidateZone(zone);
        const present = new Set((await ctx.reads.zoneRecords(zone)).map((r) => r.id));
        ids = ids.filter((i) => present.has(i));
      }
      for (const r of ids) ctx.owners.claim(objectKey.record(zone, r), inputs.resourceUrn);
      return {
        id,
        outs: templateOutputs(inputs, {
          recordIds: ids,
          created: res.created.length,
          replaced: res.replaced.length,
          skipped: res.skipped.map((s) => `${s.type} ${s.name}`),
          adopted: false,
        }),
      };
    } catch (e) {
      if (isTemplateConflict(e))
        throw new Error(
          `${zone}: template ${templateId} meets existing records and conflictStrategy is cancel; nothing was changed. Use conflictStrategy "skip" or "replace". If this ZoneTemplate was renamed or moved under a component, those are its own records: add the old name with the aliases resource option instead (see README, "Moving resources"). (${e instanceof Error ? e.message : String(e)})`,
        );
      throw e;
    } finally {
      ctx.reads.invalidateZone(zone);
    }
  },

  async read(ctx, id, props) {
    let records: DnsRecord[];
    try {
      records = await ctx.reads.zoneRecords(props.zone);
    } catch (e) {
      if (isNotFound(e)) return GONE;
      throw e;
    }
    const present = new Set(records.map((r) => r.id));
    return { id, props: { ...props, recordIds: (props.recordIds ?? []).filter((r) => present.has(r)) } };
  },

  async update(_ctx, _id, olds, news) {
    return { outs: templateOutputs(news, { recordIds: olds.recordIds, created: olds.created, replaced: olds.replaced, skipped: olds.skipped, adopted: olds.adopted }) };
  },

  async delete(ctx, _id, props) {
    const zone = props.zone;
    const api = ctx.api();
    await ctx.recordDeletes.track(zone, async () => {
      for (const recordId of props.recordIds ?? []) {
        const key = objectKey.record(zone, recordId);
        if (ctx.owners.movedAway(key, props.resourceUrn, `record ${recordId} of template ${props.templateId}`)) continue;
        try {
          await api.deleteRecord(zone, recordId);
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
        ctx.owners.release(key, props.resourceUrn);
      }
      ctx.reads.invalidateZone(zone);
    });
  },
};
