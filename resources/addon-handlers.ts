/** ChildHost, PrivacyAddon, Protection and EppCode: objects that hang off one domain. */
import type { Host, PrivacyView, ProtectionView } from "../provider/views";
import { hasCode, isNotFound, isOutcomeUnknown, isUnanswered, type ResellerApi } from "./api";
import { client, defined, idempotencyKey, info, warn } from "./context";
import { diffChildHost, diffDomainAddon, diffEppCode } from "./diff";
import { GONE, type Handler, type Props } from "./handler";
import { canonicalChildHost, canonicalIps } from "./normalize";
import { checkChildHostInputs, checkDomainOnlyInputs, checkEppCodeInputs } from "./validate";

/** Runs a read; a missing domain or object reads as undefined (gone). */
async function orGone<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** Sends a keyed purchase; with no answer, sends it once more with the same key (a replay, never a second charge). */
async function keyed<T>(what: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (e) {
    if (!isUnanswered(e)) throw e;
    warn(`${what}: no answer (it may have been applied); sending it again with the same Idempotency-Key`);
    return send();
  }
}

/**
 * Buys (or enables) an add-on under the resource's key. That key is stable, so a create after the
 * add-on was turned off (out of band, or in the portal) within the service's retention gets the first
 * purchase's answer replayed and nothing is enabled. The live state decides: still off means enabling
 * again is a new operation, sent under a key of its own (its retries inside `keyed` share it).
 */
async function buy<T>(what: string, urn: string, operation: string, domain: string, send: (key: string) => Promise<T>, isOn: () => Promise<boolean>): Promise<T> {
  const first = await keyed(what, () => send(idempotencyKey(urn, operation, domain)));
  if (await isOn().catch(() => true)) return first;
  warn(`${what}: the service answered with an earlier purchase of this resource, but it is off now (turned off since); enabling it again`);
  const again = idempotencyKey(urn, operation, `${domain}@${new Date().toISOString()}`);
  return keyed(what, () => send(again));
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

export const childHostHandler: Handler = {
  check: (_olds, news) => checkChildHostInputs(news),
  diff: (_id, olds, news) => diffChildHost(olds, news),

  async create(inputs) {
    const api = client();
    const domain = inputs.domain as string;
    const hostname = inputs.hostname as string;
    if (inputs.adopt) {
      const h = await findHost(api, domain, hostname);
      if (!h) throw new Error(`adopt: ${domain} has no child nameserver ${hostname}; remove adopt to create it`);
      return { id: hostname, outs: hostOutputs(inputs, domain, h, true) };
    }
    const ipv4 = inputs.ipv4 as string[];
    const ipv6 = (inputs.ipv6 as string[] | undefined) ?? [];
    let h: Host | undefined;
    try {
      h = await api.createHost(domain, { hostname, ipv4, ipv6 });
    } catch (e) {
      if (!isOutcomeUnknown(e)) throw e;
      // The create may have been applied: read back.
      h = await findHost(api, domain, hostname);
      if (!h) throw new Error(`${hostname}: no answer to the create and the host does not exist; nothing was created. Run again.`);
    }
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
    try {
      await client().deleteHost(props.domain as string, id);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  },
};

function privacyOutputs(inputs: Props, p: PrivacyView, adopted: boolean): Props {
  return defined({ ...inputs, enabled: p.enabled, status: p.status, expiresAt: p.expires_at ?? null, adopted });
}

/** Privacy that is not off: enabled, or bought and awaiting the registrant's confirmation. */
const privacyOn = (p: PrivacyView): boolean => p.enabled || (p.status !== "disabled" && p.status !== "off");

export const privacyHandler: Handler = {
  check: (_olds, news) => checkDomainOnlyInputs(news),
  diff: (_id, olds, news) => diffDomainAddon(olds, news),

  async create(inputs) {
    const api = client();
    const domain = inputs.domain as string;
    if (inputs.adopt) {
      const p = await orGone(() => api.getPrivacy(domain));
      if (!p || !privacyOn(p)) throw new Error(`adopt: WHOIS Privacy is not on for ${domain}; remove adopt to buy and enable it`);
      return { id: domain, outs: privacyOutputs(inputs, p, true) };
    }
    const p = await buy(
      `${domain}: WHOIS Privacy purchase`,
      inputs.resourceUrn as string,
      "privacy",
      domain,
      (key) => api.enablePrivacy(domain, { idempotencyKey: key }),
      async () => privacyOn(await api.getPrivacy(domain)),
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

  async delete(id) {
    try {
      await client().disablePrivacy(id);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  },
};

function protectionOutputs(inputs: Props, p: ProtectionView, adopted: boolean): Props {
  return defined({ ...inputs, enabled: p.enabled, status: p.status ?? (p.enabled ? "on" : "off"), adopted });
}

export const protectionHandler: Handler = {
  check: (_olds, news) => checkDomainOnlyInputs(news),
  diff: (_id, olds, news) => diffDomainAddon(olds, news),

  async create(inputs) {
    const api = client();
    const domain = inputs.domain as string;
    if (inputs.adopt) {
      const p = await orGone(() => api.getProtection(domain));
      if (!p?.enabled) throw new Error(`adopt: Domain Protection is not on for ${domain}; remove adopt to buy and enable it`);
      return { id: domain, outs: protectionOutputs(inputs, p, true) };
    }
    const p = await buy(
      `${domain}: Domain Protection purchase`,
      inputs.resourceUrn as string,
      "protection",
      domain,
      (key) => api.enableProtection(domain, { idempotencyKey: key }),
      async () => (await api.getProtection(domain)).enabled,
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

  async delete(id) {
    // Spec: DELETE protection always answers 403 requires_portal_verification. No call is made.
    warn(`${id}: Domain Protection stays on: the API cannot remove it. Remove it in the reseller portal (it needs the portal's verification); it was only removed from this stack.`);
  },
};

export const eppCodeHandler: Handler = {
  check: (_olds, news) => checkEppCodeInputs(news),
  diff: (_id, olds, news) => diffEppCode(olds, news),

  /** Each create sets a new code at the registry and e-mails the registrant: only ever done in an apply. */
  async create(inputs) {
    const domain = inputs.domain as string;
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
