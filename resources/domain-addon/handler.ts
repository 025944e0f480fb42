/** ChildHost, PrivacyAddon, Protection and EppCode: objects that hang off one domain. */
import type { PrivacyView, ProtectionView } from "../../api/views";
import { isNotFound, isPrivacyAwaitingVerification, isPrivacyOn, isProtectionOn, protectionStatus } from "../../api/vocabulary";
import { chargeOf, chargeUnknown, confirmByReplay, KEPT_UNCONFIRMED, sendPaidOrder, showCharge, type Charge, type ChargeAnswer } from "../kit/unanswered-order";
import type { ResellerApi } from "../shared/api";
import type { HostContext } from "../kit/context";
import { objectKey } from "../kit/ownership";
import { PartialFailure } from "../kit/partial-failure";
import { pendingCreateHint } from "../kit/pending-create";
import { diffDomainAddon } from "./diff";
import { GONE, type Handler, importedAs, claimUnlessReplaced, orGone } from "../kit/handler";
import { defined } from "../shared/normalize";
import { checkDomainOnlyInputs } from "./schema";
import { addonPriceGuard, addonYears, ceilingOnly } from "../kit/price-guard";
import { acceptedFromState, acknowledgeHint, CHARGE_KEPT, checkCharge, diffOvercharges, holdAccepted, openOvercharges, overchargeOf, unacknowledgedMessage, type AcceptedPrice, type HeldOvercharge } from "../kit/charge-check";
import { moneyDecimals } from "../../api/money";
import type { DomainAddonInputs, AddonHeld, HeldAddonOrder, PrivacyOutputs, ProtectionOutputs } from "./state";
import { previewAddon } from "./preview";
import { domainOnly } from "../kit/disguised-inputs";

/** A purchase's outcome: the view and what it charged, or (its answer lost or unreadable) the view read back on and the order left unconfirmed. */
type Bought<V> = { view: V; charge: Charge } | { view: V; unconfirmed: HeldAddonOrder };

/**
 * One keyed purchase under the one policy for an unanswered order (resources/kit/unanswered-order.ts):
 * read back, never sent again. The charge is parsed inside the paid call, so a malformed one leaves
 * the charge unknown rather than refusing an order that was taken.
 */
async function keyed<V>(ctx: HostContext, what: string, operation: HeldAddonOrder["operation"], key: string, accepted: AcceptedPrice | undefined, send: (key: string) => Promise<V & ChargeAnswer>, readOn: () => Promise<V | undefined>): Promise<Bought<V>> {
  const placedAt = new Date(ctx.clock.now()).toISOString();
  const money = ctx.contract().money;
  const outcome = await sendPaidOrder(
    what,
    async () => {
      const view = await send(key);
      return { view, charge: chargeOf(view, money) };
    },
    readOn,
  );
  if ("answered" in outcome) return outcome.answered;
  return { view: outcome.unconfirmed, unconfirmed: defined({ operation, idempotencyKey: key, reason: outcome.reason, placedAt, accepted: accepted && holdAccepted(accepted) }) };
}

/**
 * Buys (or enables) an add-on under the resource's key. That key is stable, so a create after the
 * add-on was turned off (out of band, or in the portal) within the service's retention gets the first
 * purchase's answer replayed and nothing is enabled. The live state decides: still off means enabling
 * again is a new operation, sent under a key of its own. `readOn` is the live view when it is on.
 */
async function buy<V>(ctx: HostContext, what: string, urn: string, operation: HeldAddonOrder["operation"], domain: string, accepted: AcceptedPrice | undefined, send: (key: string) => Promise<V & ChargeAnswer>, readOn: () => Promise<V | undefined>): Promise<Bought<V>> {
  const first = await keyed(ctx, what, operation, ctx.purchaseKey({ urn, operation, domain }), accepted, send, readOn);
  if ("unconfirmed" in first || (await readOn().catch(() => first.view)) !== undefined) return first;
  ctx.log.warn(`${what}: the service answered with an earlier purchase of this resource, but it is off now (turned off since); enabling it again`);
  return keyed(ctx, what, operation, ctx.purchaseKey({ urn, operation, domain, after: new Date(ctx.clock.now()).toISOString() }), accepted, send, readOn);
}

/** No purchase by this resource (adopted, or taken over as found). */
const NOT_BOUGHT: Charge = { charged: null, currency: null, invoice: null };

/** What differs between the add-ons bought for a domain (WHOIS Privacy, Domain Protection). */
interface DomainAddon<V extends { enabled: boolean }, O> {
  /** The resource class, for messages. */
  kind: "PrivacyAddon" | "Protection";
  /** The add-on's name in messages, e.g. "WHOIS Privacy". */
  label: string;
  /** The operation its Idempotency-Key names. */
  operation: HeldAddonOrder["operation"];
  key(domain: string): string;
  get(api: ResellerApi, domain: string): Promise<V>;
  /** The purchase: its answer is the view and what it charged. */
  enable(api: ResellerApi, domain: string, idempotencyKey: string): Promise<V & ChargeAnswer>;
  isOn(view: V): boolean;
  /** The outputs the view gives (the rest: inputs and AddonHeld). */
  fields(view: V): Omit<O, keyof DomainAddonInputs | keyof AddonHeld>;
  /** Said after a purchase, when the view calls for it. */
  bought?(ctx: HostContext, domain: string, view: V): void;
  /** Takes the add-on off, or says why it stays. */
  remove(ctx: HostContext, domain: string): Promise<void>;
}

/**
 * An add-on of one domain: on already, it is taken as it is and nothing is bought (adopt, or the
 * resource renamed or moved without aliases); adopt never buys; otherwise it is bought under the
 * resource's key (buy). A read that finds it off drops it from state.
 */
function domainAddon<V extends { enabled: boolean }, O extends DomainAddonInputs & AddonHeld>(a: DomainAddon<V, O>): Handler<DomainAddonInputs, O> {
  const outputs = (base: DomainAddonInputs, view: V, held: AddonHeld): O => defined({ ...base, ...a.fields(view), ...held }) as O;
  /** What state holds of a purchase (none before charges were recorded). */
  const heldOf = (o: Partial<AddonHeld>): AddonHeld => defined({ charged: o.charged ?? null, currency: o.currency ?? null, invoice: o.invoice ?? null, adopted: o.adopted ?? false, unconfirmedOrder: o.unconfirmedOrder });
  /** A purchase's charge held against what it was accepted at: a warning is logged, a problem returned. */
  const holdCharge = (ctx: HostContext, what: string, charge: Charge, accepted: AcceptedPrice | undefined): HeldOvercharge | undefined => {
    const v = checkCharge(what, charge, accepted, moneyDecimals(ctx.contract().money));
    if (!v.ok) return overchargeOf(v.problem, charge);
    if (v.warning) ctx.log.warn(v.warning);
    return undefined;
  };
  /** The partial failure of a purchase whose charge does not hold: kept in state with what it charged, never bought again, and as an overcharge until acknowledged. */
  const chargeFailure = (domain: string, problem: HeldOvercharge, outs: O): PartialFailure => {
    const hint = acknowledgeHint([problem]);
    return new PartialFailure(`${problem.problem} ${CHARGE_KEPT} ${hint}`, domain, { ...outs, overcharges: [problem] }, [problem.problem, CHARGE_KEPT, hint]);
  };
  /**
   * What the purchase is accepted at before it is sent (../host/price-guard.ts addonPriceGuard):
   * maxPrice in the account's currency, not below the contract's price for the years charged.
   */
  async function guard(ctx: HostContext, inputs: DomainAddonInputs): Promise<AcceptedPrice | undefined> {
    if (inputs.maxPrice === undefined) return undefined;
    const api = ctx.api();
    const years = addonYears(await api.getDomain(inputs.domain), undefined, ctx.clock.now());
    return addonPriceGuard(api, { key: a.operation, label: a.label, domain: inputs.domain, years, maxPrice: inputs.maxPrice, money: ctx.contract().money });
  }
  const unconfirmedFailure = (domain: string, o: HeldAddonOrder, outs: O): PartialFailure =>
    new PartialFailure(`${domain}: the ${a.label} purchase may have been charged: ${o.reason}. The service shows it on, so it was bought, once (every re-send carried the same Idempotency-Key). ${KEPT_UNCONFIRMED}`, domain, outs);
  /**
   * An add-on create finds on, not adopted: a resource renamed or moved without aliases, one enabled
   * outside this stack, or this resource's own purchase by a run interrupted (its host killed) before
   * it recorded it. The purchase is asked for again under the resource's key: the service replays it
   * (a charge above zero, recorded), or, the add-on being present, answers that it bought nothing (200
   * with the current state, or 409: contract errors.alreadyEnabled), and nothing is bought.
   */
  async function takeOver(ctx: HostContext, domain: string, urn: string, maxPrice: string | undefined): Promise<{ charge: Charge; problem?: HeldOvercharge }> {
    const what = `${domain}: ${a.label} is on already`;
    // Its price is not known (it was not recorded): a replayed charge is held against maxPrice alone.
    const accepted = await ceilingOnly(ctx.api(), maxPrice, ctx.contract().money);
    let answer: string;
    try {
      const charge = chargeOf(await a.enable(ctx.api(), domain, ctx.purchaseKey({ urn, operation: a.operation, domain })), ctx.contract().money);
      if (charge.charged !== null && /[1-9]/.test(charge.charged)) {
        ctx.log.info(
          `${what}, bought by an earlier run of this resource that was interrupted before it recorded the purchase; the service replayed that purchase's answer to the same Idempotency-Key: it charged ${showCharge(charge)}. Taking it; nothing was bought again. ${pendingCreateHint(domain, "the domain name")}`,
        );
        return { charge, problem: holdCharge(ctx, `${domain}: the ${a.label} purchase of an earlier run`, charge, accepted) };
      }
      answer = `it answered that this request bought nothing${charge.charged === null ? "" : ` (charged ${charge.charged})`}`;
    } catch (e) {
      const reason = chargeUnknown(e);
      answer = reason === undefined ? `it refused: ${e instanceof Error ? e.message : String(e)}` : `its charge is unknown: ${reason}`;
    }
    ctx.log.warn(
      `${what} (a ${a.kind} renamed or moved without aliases, enabled outside this stack, or bought longer ago than the service keeps a purchase's answer): asked for this resource's purchase again under its Idempotency-Key, the service replayed none (${answer}). Taking it over: this run buys nothing; what it cost is on the account's invoices. ${pendingCreateHint(domain, "the domain name")}`,
    );
    return { charge: NOT_BOUGHT };
  }

  return {
    importId: importedAs(["domain"]),
    preview: previewAddon(a),
    nameInputs: domainOnly,
    check: (ctx, _olds, news) => checkDomainOnlyInputs(news, ctx.limits()),
    diff(ctx, id, olds, news) {
      const d = diffDomainAddon(olds, news);
      diffOvercharges((line) => ctx.log.warn(line), `${id}: ${a.label}`, olds, news.acknowledgedCharges, d);
      return claimUnlessReplaced(ctx, d, a.key(id), olds, news);
    },

    async create(ctx, inputs) {
      const api = ctx.api();
      const { domain, resourceUrn: urn } = inputs;
      const key = a.key(domain);
      ctx.owners.refuseIfClaimed(key, urn, `${a.label} of ${domain}`, a.kind);
      const current = await orGone(() => a.get(api, domain));
      if (current && a.isOn(current)) {
        ctx.owners.claim(key, urn);
        const held = inputs.adopt ? { charge: NOT_BOUGHT } : await takeOver(ctx, domain, urn ?? "", inputs.maxPrice);
        const outs = outputs(inputs, current, { ...held.charge, adopted: !!inputs.adopt });
        if (held.problem) throw chargeFailure(domain, held.problem, outs);
        return { id: domain, outs };
      }
      if (inputs.adopt) throw new Error(`adopt: ${a.label} is not on for ${domain}, and adopt never buys; nothing was charged. Remove adopt to buy and enable it`);
      const accepted = await guard(ctx, inputs);
      ctx.owners.claim(key, urn);
      const bought = await buy(
        ctx,
        `${domain}: ${a.label} purchase`,
        urn ?? "",
        a.operation,
        domain,
        accepted,
        (idempotencyKey) => a.enable(api, domain, idempotencyKey),
        async () => {
          const live = await a.get(api, domain);
          return a.isOn(live) ? live : undefined;
        },
      );
      if ("unconfirmed" in bought) throw unconfirmedFailure(domain, bought.unconfirmed, outputs(inputs, bought.view, { ...NOT_BOUGHT, adopted: false, unconfirmedOrder: bought.unconfirmed }));
      ctx.log.info(`${domain}: ${a.label} bought; it charged ${showCharge(bought.charge)}`);
      a.bought?.(ctx, domain, bought.view);
      const outs = outputs(inputs, bought.view, { ...bought.charge, adopted: false });
      const problem = holdCharge(ctx, `${domain}: the ${a.label} purchase`, bought.charge, accepted);
      if (problem) throw chargeFailure(domain, problem, outs);
      return { id: domain, outs };
    },

    async read(ctx, id, props) {
      const view = await orGone(() => a.get(ctx.api(), id));
      return view && a.isOn(view) ? { id, props: outputs(props, view, heldOf(props)) } : GONE;
    },

    /** Nothing to change in place (only the domain, a replace, is an input); confirms a purchase an earlier run left unconfirmed. */
    async update(ctx, id, olds, news) {
      // An overcharge of an earlier run not acknowledged: nothing changes until it is.
      const open = openOvercharges(olds, news.acknowledgedCharges);
      if (open.length) throw new PartialFailure(unacknowledgedMessage(`${id}: ${a.label}`, open), id, olds);
      if (olds.overcharges?.length) ctx.log.info(`${id}: ${a.label}: acknowledged: ${olds.overcharges.map((o) => o.acknowledge).join(", ")}; cleared from state`);
      const api = ctx.api();
      const view = await a.get(api, id);
      const held = heldOf(olds);
      const o = held.unconfirmedOrder;
      if (!o) return { outs: outputs(news, view, held) };
      const money = ctx.contract().money;
      const r = await confirmByReplay(ctx, `${id}: the ${a.label} purchase of an earlier run`, o, async () => chargeOf(await a.enable(api, id, o.idempotencyKey), money));
      if (r && "unconfirmed" in r) throw unconfirmedFailure(id, r.unconfirmed, outputs(news, view, { ...held, unconfirmedOrder: r.unconfirmed }));
      const outs = outputs(news, view, { ...held, ...(r ? r.charge : {}), unconfirmedOrder: undefined });
      const problem = r && holdCharge(ctx, `${id}: the ${a.label} purchase of an earlier run`, r.charge, acceptedFromState(o.accepted, money.decimals));
      if (problem) throw chargeFailure(id, problem, outs);
      return { outs };
    },

    async delete(ctx, id, props) {
      if (ctx.owners.movedAway(a.key(id), props.resourceUrn, `${id}: ${a.label}`)) return;
      await a.remove(ctx, id);
      ctx.owners.release(a.key(id), props.resourceUrn);
    },
  };
}

export const privacyHandler = domainAddon<PrivacyView, PrivacyOutputs>({
  kind: "PrivacyAddon",
  label: "WHOIS Privacy",
  operation: "privacy",
  key: objectKey.privacy,
  get: (api, domain) => api.getPrivacy(domain),
  enable: (api, domain, idempotencyKey) => api.enablePrivacy(domain, { idempotencyKey }),
  isOn: isPrivacyOn,
  fields: (p) => ({ enabled: p.enabled, status: p.status, expiresAt: p.expires_at ?? null }),
  bought(ctx, domain, p) {
    if (isPrivacyAwaitingVerification(p)) ctx.log.info(`${domain}: WHOIS Privacy bought; it goes live when the registrant confirms the e-mail (status ${p.status})`);
  },
  async remove(ctx, domain) {
    try {
      await ctx.api().disablePrivacy(domain);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  },
});

export const protectionHandler = domainAddon<ProtectionView, ProtectionOutputs>({
  kind: "Protection",
  label: "Domain Protection",
  operation: "protection",
  key: objectKey.protection,
  get: (api, domain) => api.getProtection(domain),
  enable: (api, domain, idempotencyKey) => api.enableProtection(domain, { idempotencyKey }),
  isOn: isProtectionOn,
  fields: (p) => ({ enabled: p.enabled, status: protectionStatus(p) }),
  // Spec: DELETE protection always answers 403 requires_portal_verification. No call is made.
  async remove(ctx, domain) {
    ctx.log.warn(`${domain}: Domain Protection stays on: the API cannot remove it. Remove it in the reseller portal (it needs the portal's verification); it was only removed from this stack.`);
  },
});
