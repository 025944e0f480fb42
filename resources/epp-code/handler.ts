/** EppCode's handler (host side): create, read, update and delete against the service. */
import { isProtectionEnabled } from "../../api/vocabulary";
import { eppWhileProtected } from "../kit/preview-messages";
import { objectKey } from "../kit/ownership";
import { resourceName } from "../kit/urn";
import { diffEppCode } from "./diff";
import { type Handler, importedAs, claimUnlessReplaced } from "../kit/handler";
import { defined } from "../shared/normalize";
import { checkEppCodeInputs } from "./schema";
import { type EppCodeInputs, EppCodeOutputs } from "./state";
import { previewEppCode } from "./preview";
import { domainOnly } from "../kit/disguised-inputs";

export const eppCodeHandler: Handler<EppCodeInputs, EppCodeOutputs> = {
  nameInputs: domainOnly,
  // Imported without a code (reading one would request a new code): change `trigger` to request one.
  importId: importedAs(["domain"]),

  preview: previewEppCode,

  check(ctx, olds, news) {
    const result = checkEppCodeInputs(news);
    // No olds: the engine will create (a new resource, or a replacement). Said before it happens,
    // because a create cannot be undone or avoided: it sets a new code and e-mails the registrant.
    if (!result.ok || Object.keys(olds).length > 0) return result;
    const { domain, resourceUrn } = result.inputs;
    if (typeof domain === "string")
      ctx.log.warn(
        `${domain}: EppCode${typeof resourceUrn === "string" ? ` "${resourceName(resourceUrn)}"` : ""} will request a new transfer code, which replaces the current one and e-mails the registrant. If this resource was renamed or moved under a component, add its old name with the aliases resource option instead (README, "Moving resources").`,
      );
    return result;
  },
  diff: (ctx, id, olds, news) => claimUnlessReplaced(ctx, diffEppCode(olds, news), objectKey.eppCode(id), olds, news),

  /** Each create sets a new code at the registry and e-mails the registrant: only ever done in an apply. */
  async create(ctx, inputs) {
    const { domain } = inputs;
    const key = objectKey.eppCode(domain);
    ctx.owners.refuseIfClaimed(key, inputs.resourceUrn, `the transfer code of ${domain}`, "EppCode");
    ctx.owners.claim(key, inputs.resourceUrn);
    try {
      const { auth_code } = await ctx.api().requestEppCode(domain);
      ctx.log.info(`${domain}: a new transfer (EPP) code was set; the registrant is notified by e-mail`);
      return { id: domain, outs: defined({ ...inputs, authCode: auth_code, requestedAt: new Date(ctx.clock.now()).toISOString() }) };
    } catch (e) {
      if (isProtectionEnabled(e))
        throw new Error(eppWhileProtected(domain));
      throw e;
    }
  },

  /** No API call: reading the code would mean requesting a new one. */
  async read(_ctx, id, props) {
    return { id, props };
  },

  async update(_ctx, _id, olds, news) {
    return { outs: { ...olds, ...news, authCode: olds.authCode, requestedAt: olds.requestedAt } };
  },

  async delete() {
    /* A transfer code cannot be withdrawn; nothing to do. */
  },
};
