/** ChildHost's handler (host side): create, read, update and delete against the service. */
import type { Host } from "../../api/views";
import { isNotFound, isOutcomeUnknown, isRefusedAsInvalid } from "../../api/vocabulary";
import type { ResellerApi } from "../shared/api";
import { objectKey } from "../kit/ownership";
import { diffChildHost } from "./diff";
import { GONE, type Handler, importedAs, claimUnlessReplaced, orGone } from "../kit/handler";
import { canonicalChildHost, canonicalIps, defined, sameJson } from "../shared/normalize";
import { checkChildHostInputs } from "./schema";
import { type ChildHostInputs, ChildHostOutputs } from "./state";
import { one } from "../kit/disguised-inputs";

async function findHost(api: ResellerApi, domain: string, hostname: string): Promise<Host | undefined> {
  const hosts = await orGone(() => api.listHosts(domain));
  return hosts?.find((h) => canonicalChildHost(h.hostname, domain) === hostname);
}

function hostOutputs(inputs: ChildHostInputs, domain: string, h: Host, adopted: boolean): ChildHostOutputs {
  return defined({
    ...inputs,
    hostname: canonicalChildHost(h.hostname, domain),
    ipv4: canonicalIps(h.ipv4, 4),
    ipv6: canonicalIps(h.ipv6 ?? [], 6),
    adopted,
  });
}

/** Same addresses, order and notation aside. */
const sameAddresses = (h: Host, ipv4: string[], ipv6: string[]): boolean =>
  sameJson(canonicalIps(h.ipv4, 4), canonicalIps(ipv4, 4)) && sameJson(canonicalIps(h.ipv6 ?? [], 6), canonicalIps(ipv6, 6));

export const childHostHandler: Handler<ChildHostInputs, ChildHostOutputs> = {
  nameInputs: (news) => [...one(news, "domain"), ...one(news, "hostname")],
  // "<domain>/<hostname>"; state keeps the hostname.
  importId: importedAs(["domain", "hostname"]),

  check: (_ctx, _olds, news) => checkChildHostInputs(news),
  diff: (ctx, id, olds, news) => claimUnlessReplaced(ctx, diffChildHost(olds, news), objectKey.host(olds.domain, id), olds, news),

  async create(ctx, inputs) {
    const api = ctx.api();
    const { domain, hostname, ipv4, ipv6, resourceUrn: urn } = inputs;
    const key = objectKey.host(domain, hostname);
    ctx.owners.refuseIfClaimed(key, urn, `child nameserver ${hostname}`, "ChildHost");
    if (inputs.adopt) {
      const h = await findHost(api, domain, hostname);
      if (h) {
        ctx.owners.claim(key, urn);
        return { id: hostname, outs: hostOutputs(inputs, domain, h, true) };
      }
      ctx.log.info(`${hostname}: adopt: ${domain} has no such child nameserver yet; creating it`);
    }
    let h: Host | undefined;
    try {
      h = await api.createHost(domain, { hostname, ipv4, ipv6 });
    } catch (e) {
      const refused = isRefusedAsInvalid(e);
      if (!isOutcomeUnknown(e) && !refused) throw e;
      // No answer: the create may have been applied. Refused: the host may exist already, held by this
      // resource's old URN (renamed or moved without aliases). Read back; the identical host is ours.
      const live = await findHost(api, domain, hostname);
      if (live && sameAddresses(live, ipv4, ipv6)) {
        if (refused) ctx.log.warn(`${hostname}: the child nameserver exists already with these addresses (renamed or moved without aliases?); taking it`);
        h = live;
      } else if (live && refused)
        throw new Error(`${hostname}: a child nameserver of that name exists already with other addresses (${[...live.ipv4, ...(live.ipv6 ?? [])].join(", ")}); set adopt: true to manage it (its addresses are then set to yours)`);
      else if (refused) throw e;
      else throw new Error(`${hostname}: no answer to the create and the host does not exist; nothing was created. Run again.`);
    }
    ctx.owners.claim(key, urn);
    return { id: hostname, outs: hostOutputs(inputs, domain, { ...h, hostname: h?.hostname ?? hostname, ipv4: h?.ipv4 ?? ipv4, ipv6: h?.ipv6 ?? ipv6 }, false) };
  },

  async read(ctx, id, props) {
    const h = await findHost(ctx.api(), props.domain, id);
    return h ? { id, props: hostOutputs(props, props.domain, h, props.adopted ?? false) } : GONE;
  },

  async update(ctx, id, olds, news) {
    const { domain, ipv4, ipv6 } = news;
    const h = await ctx.api().updateHost(domain, id, { ipv4, ipv6 });
    return { outs: hostOutputs(news, domain, { hostname: id, ipv4: h?.ipv4 ?? ipv4, ipv6: h?.ipv6 ?? ipv6 }, olds.adopted ?? false) };
  },

  async delete(ctx, id, props) {
    const key = objectKey.host(props.domain, id);
    if (ctx.owners.movedAway(key, props.resourceUrn, `child nameserver ${id}`)) return;
    try {
      await ctx.api().deleteHost(props.domain, id);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    ctx.owners.release(key, props.resourceUrn);
  },
};
