/** ChildHost, PrivacyAddon, Protection and EppCode: objects that hang off one domain. */
import type { Host, PrivacyView, ProtectionView } from "../provider/views";
import { hasCode, isNotFound, isOutcomeUnknown, type ResellerApi } from "./api";
import { sendPaidOrder } from "./unanswered-order";
import { claim, claimedByOther, client, defined, idempotencyKey, info, movedAway, objectKey, release, resourceName, warn } from "./context";
import { diffChildHost, diffDomainAddon, diffEppCode } from "./diff";
import { GONE, type Handler, type Props } from "./handler";
import { canonicalChildHost, canonicalIps, sameJson } from "./normalize";
import { checkChildHostInputs, checkDomainOnlyInputs, checkEppCodeInputs, type CheckResult } from "./validate";
import type { DiffResult } from "./diff";

/** Runs a read; a missing domain or object reads as undefined (gone). */
async function orGone<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** A keyed purchase under the one policy for an unanswered order (resources/unanswered-order.ts): read back, never sent again. */
async function keyed<T>(what: string, send: () => Promise<T>, readOn: () => Promise<T | undefined>): Promise<T> {
  const outcome = await sendPaidOrder(what, send, readOn);
  if ("answered" in outcome) return outcome.answered;
  warn(`${what}: no answer, but the service shows it on now; taking it`);
  return outcome.unanswered;
}

/**
 * Buys (or enables) an add-on under the resource's key. That key is stable, so a create after the
 * add-on was turned off (out of band, or in the portal) within the service's retention gets the first
 * purchase's answer replayed and nothing is enabled. The live state decides: still off means enabling
 * again is a new operation, sent under a key of its own. `readOn` is the live view when it is on.
 */
async function buy<T>(what: string, urn: string, operation: string, domain: string, send: (key: string) => Promise<T>, readOn: () => Promise<T | undefined>): Promise<T> {
  const first = await keyed(what, () => send(idempotencyKey(urn, operation, domain)), readOn);
  if ((await readOn().catch(() => first)) !== undefined) return first;
  warn(`${what}: the service answered with an earlier purchase of this resource, but it is off now (turned off since); enabling it again`);
  const again = idempotencyKey(urn, operation, `${domain}@${new Date().toISOString()}`);
  return keyed(what, () => send(again), readOn);
}

/** A diff that keeps the object with this resource unless it is replaced (see context.ts, ownership). */
function claimUnlessReplaced(d: DiffResult, key: string, olds: Props, news: Props): DiffResult {
  if (!d.replaces.length) claim(key, news.resourceUrn ?? olds.resourceUrn);
  return d;
}

/** Refuses a create of an object another resource of this run already holds. */
function refuseIfClaimed(key: string, urn: unknown, what: string, kind: string): void {
  const other = claimedByOther(key, urn);
  if (other) throw new Error(`${what} is already managed by "${resourceName(other)}" in this stack; declare one ${kind} for it`);
}

async function findHost(api: ResellerApi, domain: string, hostname: string): Promise<Host | undefined> {
  const hosts = await orGone(() => api.listHosts(domain));
  return hosts?.find((h) => canonicalChildHost(h.hostname, domain) === hostname);
}

function hostOutputs(inputs: Props, domain: string, h: Host, adopted: boolean): Props {
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

export const childHostHandler: Handler = {
  check: (_olds, news) => checkChildHostInputs(news),
  diff: (id, olds, news) => claimUnlessReplaced(diffChildHost(olds, news), objectKey.host(olds.domain as string, id), olds, news),

  async create(inputs) {
    const api = client();
    const domain = inputs.domain as string;
    const hostname = inputs.hostname as string;
    const urn = inputs.resourceUrn;
    const key = objectKey.host(domain, hostname);
    refuseIfClaimed(key, urn, `child nameserver ${hostname}`, "ChildHost");
    const ipv4 = inputs.ipv4 as string[];
    const ipv6 = (inputs.ipv6 as string[] | undefined) ?? [];
    if (inputs.adopt) {
      const h = await findHost(api, domain, hostname);
      if (h) {
        claim(key, urn);
        return { id: hostname, outs: hostOutputs(inputs, domain, h, true) };
      }
      info(`${hostname}: adopt: ${domain} has no such child nameserver yet; creating it`);
    }
    let h: Host | undefined;
    try {
      h = await api.createHost(domain, { hostname, ipv4, ipv6 });
    } catch (e) {
      const refused = hasCode(e, "validation_error");
      if (!isOutcomeUnknown(e) && !refused) throw e;
      // No answer: the create may have been applied. Refused: the host may exist already, held by this
      // resource's old URN (renamed or moved without aliases). Read back; the identical host is ours.
      const live = await findHost(api, domain, hostname);
      if (live && sameAddresses(live, ipv4, ipv6)) {
        if (refused) warn(`${hostname}: the child nameserver exists already with these addresses (renamed or moved without aliases?); taking it`);
        h = live;
      } else if (live && refused)
        throw new Error(`${hostname}: a child nameserver of that name exists already with other addresses (${[...live.ipv4, ...(live.ipv6 ?? [])].join(", ")}); set adopt: true to manage it (its addresses are then set to yours)`);
      else if (refused) throw e;
      else throw new Error(`${hostname}: no answer to the create and the host does not exist; nothing was created. Run again.`);
    }
    claim(key, urn);
    return { id: hostname, outs: hostOutputs(inputs, domain, { ...h, hostname: h?.hostname ?? hostname, ipv4: h?.ipv4 ?? ipv4, ipv6: h?.ipv6 ?? ipv6 }, false) };
  },

  async read(id, props) {
    const domain = props.domain as string;
    const h = await findHost(client(), domain, id);
    return h ? { id, props: hostOutputs(props, domain, h, (props.adopted as boolean | undefined) ?? false) } : GONE;
  },

  async update(id, olds, news) {
    const domain = news.domain as string;
    const ipv4 = news.ipv4 as string[];
    const ipv6 = (news.ipv6 as string[] | undefined) ?? [];
    const h = await client().updateHost(domain, id, { ipv4, ipv6 });
    return { outs: hostOutputs(news, domain, { hostname: id, ipv4: h?.ipv4 ?? ipv4, ipv6: h?.ipv6 ?? ipv6 }, (olds.adopted as boolean | undefined) ?? false) };
  },

  async delete(id, props) {
    const key = objectKey.host(props.domain as string, id);
    if (movedAway(key, props.resourceUrn, `child nameserver ${id}`)) return;
    try {
      await client().deleteHost(props.domain as string, id);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    release(key, props.resourceUrn);
  },
};

function privacyOutputs(inputs: Props, p: PrivacyView, adopted: boolean): Props {
  return defined({ ...inputs, enabled: p.enabled, status: p.status, expiresAt: p.expires_at ?? null, adopted });
}

/** Privacy that is not off: enabled, or bought and awaiting the registrant's confirmation. */
const privacyOn = (p: PrivacyView): boolean => p.enabled || (p.status !== "disabled" && p.status !== "off");

export const privacyHandler: Handler = {
  check: (_olds, news) => checkDomainOnlyInputs(news),
  diff: (id, olds, news) => claimUnlessReplaced(diffDomainAddon(olds, news), objectKey.privacy(id), olds, news),

  async create(inputs) {
    const api = client();
    const domain = inputs.domain as string;
    const urn = inputs.resourceUrn;
    const key = objectKey.privacy(domain);
    refuseIfClaimed(key, urn, `WHOIS Privacy of ${domain}`, "PrivacyAddon");
    // Already on: taken as it is, nothing bought (adopt, or a PrivacyAddon renamed or moved without aliases).
    const current = await orGone(() => api.getPrivacy(domain));
    if (current && privacyOn(current)) {
      claim(key, urn);
      if (!inputs.adopt) warn(`${domain}: WHOIS Privacy is on already (a PrivacyAddon renamed or moved without aliases, or enabled outside this stack); taking it over, nothing bought`);
      return { id: domain, outs: privacyOutputs(inputs, current, !!inputs.adopt) };
    }
    if (inputs.adopt) throw new Error(`adopt: WHOIS Privacy is not on for ${domain}, and adopt never buys; nothing was charged. Remove adopt to buy and enable it`);
    claim(key, urn);
    const p = await buy(
      `${domain}: WHOIS Privacy purchase`,
      inputs.resourceUrn as string,
      "privacy",
      domain,
      (key) => api.enablePrivacy(domain, { idempotencyKey: key }),
      async () => {
        const p = await api.getPrivacy(domain);
        return privacyOn(p) ? p : undefined;
      },
    );
    if (p.status === "awaiting_verification") info(`${domain}: WHOIS Privacy bought; it goes live when the registrant confirms the e-mail (status awaiting_verification)`);
    return { id: domain, outs: privacyOutputs(inputs, p, false) };
  },

  async read(id, props) {
    const p = await orGone(() => client().getPrivacy(id));
    return p && privacyOn(p) ? { id, props: privacyOutputs(props, p, (props.adopted as boolean | undefined) ?? false) } : GONE;
  },

  async update(id, olds, news) {
    const p = await client().getPrivacy(id);
    return { outs: privacyOutputs(news, p, (olds.adopted as boolean | undefined) ?? false) };
  },

  async delete(id, props) {
    const key = objectKey.privacy(id);
    if (movedAway(key, props.resourceUrn, `${id}: WHOIS Privacy`)) return;
    try {
      await client().disablePrivacy(id);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    release(key, props.resourceUrn);
  },
};

function protectionOutputs(inputs: Props, p: ProtectionView, adopted: boolean): Props {
  return defined({ ...inputs, enabled: p.enabled, status: p.status ?? (p.enabled ? "on" : "off"), adopted });
}

export const protectionHandler: Handler = {
  check: (_olds, news) => checkDomainOnlyInputs(news),
  diff: (id, olds, news) => claimUnlessReplaced(diffDomainAddon(olds, news), objectKey.protection(id), olds, news),

  async create(inputs) {
    const api = client();
    const domain = inputs.domain as string;
    const urn = inputs.resourceUrn;
    const key = objectKey.protection(domain);
    refuseIfClaimed(key, urn, `Domain Protection of ${domain}`, "Protection");
    // Already on: taken as it is, nothing bought (adopt, or a Protection renamed or moved without aliases).
    const current = await orGone(() => api.getProtection(domain));
    if (current?.enabled) {
      claim(key, urn);
      if (!inputs.adopt) warn(`${domain}: Domain Protection is on already (a Protection renamed or moved without aliases, or enabled outside this stack); taking it over, nothing bought`);
      return { id: domain, outs: protectionOutputs(inputs, current, !!inputs.adopt) };
    }
    if (inputs.adopt) throw new Error(`adopt: Domain Protection is not on for ${domain}, and adopt never buys; nothing was charged. Remove adopt to buy and enable it`);
    claim(key, urn);
    const p = await buy(
      `${domain}: Domain Protection purchase`,
      inputs.resourceUrn as string,
      "protection",
      domain,
      (key) => api.enableProtection(domain, { idempotencyKey: key }),
      async () => {
        const p = await api.getProtection(domain);
        return p.enabled ? p : undefined;
      },
    );
    return { id: domain, outs: protectionOutputs(inputs, p, false) };
  },

  async read(id, props) {
    const p = await orGone(() => client().getProtection(id));
    return p?.enabled ? { id, props: protectionOutputs(props, p, (props.adopted as boolean | undefined) ?? false) } : GONE;
  },

  async update(id, olds, news) {
    const p = await client().getProtection(id);
    return { outs: protectionOutputs(news, p, (olds.adopted as boolean | undefined) ?? false) };
  },

  async delete(id, props) {
    if (movedAway(objectKey.protection(id), props.resourceUrn, `${id}: Domain Protection`)) return;
    // Spec: DELETE protection always answers 403 requires_portal_verification. No call is made.
    warn(`${id}: Domain Protection stays on: the API cannot remove it. Remove it in the reseller portal (it needs the portal's verification); it was only removed from this stack.`);
  },
};

export const eppCodeHandler: Handler = {
  check(olds, news) {
    const result: CheckResult = checkEppCodeInputs(news);
    // No olds: the engine will create (a new resource, or a replacement). Said before it happens,
    // because a create cannot be undone or avoided: it sets a new code and e-mails the registrant.
    if (Object.keys(olds).length === 0 && result.failures.length === 0 && typeof news.domain === "string")
      warn(
        `${news.domain}: EppCode${typeof news.resourceUrn === "string" ? ` "${resourceName(news.resourceUrn)}"` : ""} will request a new transfer code, which replaces the current one and e-mails the registrant. If this resource was renamed or moved under a component, add its old name with the aliases resource option instead (README, "Moving resources").`,
      );
    return result;
  },
  diff: (id, olds, news) => claimUnlessReplaced(diffEppCode(olds, news), objectKey.eppCode(id), olds, news),

  /** Each create sets a new code at the registry and e-mails the registrant: only ever done in an apply. */
  async create(inputs) {
    const domain = inputs.domain as string;
    const key = objectKey.eppCode(domain);
    refuseIfClaimed(key, inputs.resourceUrn, `the transfer code of ${domain}`, "EppCode");
    claim(key, inputs.resourceUrn);
    try {
      const { auth_code } = await client().requestEppCode(domain);
      info(`${domain}: a new transfer (EPP) code was set; the registrant is notified by e-mail`);
      return { id: domain, outs: defined({ ...inputs, authCode: auth_code, requestedAt: new Date().toISOString() }) };
    } catch (e) {
      if (hasCode(e, "protection_enabled"))
        throw new Error(`${domain}: the EPP code cannot be requested while Domain Protection is on. Remove protection in the reseller portal (the API cannot), then run again.`);
      throw e;
    }
  },

  /** No API call: reading the code would mean requesting a new one. */
  async read(id, props) {
    return { id, props };
  },

  async update(_id, olds, news) {
    return { outs: { ...olds, ...news, authCode: olds.authCode, requestedAt: olds.requestedAt } };
  },

  async delete() {
    /* A transfer code cannot be withdrawn; nothing to do. */
  },
};

/** The kinds this file implements, by the name their shims use. */
export const addonKinds = {
  ChildHost: childHostHandler,
  PrivacyAddon: privacyHandler,
  Protection: protectionHandler,
  EppCode: eppCodeHandler,
};
