/**
 * Domain: register (or transfer, with authCode), adopt, manage nameservers, contacts and lock, renew
 * by policy. Money moves only in create (register/transfer) and in update (renew), each behind the
 * price guard and under an Idempotency-Key derived from the resource URN.
 */
import { waitForRegistry } from "../../api/waits";
import type { Contacts, DomainInfo, DomainOrder, RegisterRequest } from "../../api/views";
import { fromServiceContact, toServiceContact, withOurContactNames } from "../../api/contact-names";
import type { Contact, ContactSet, ContactType, RenewalPolicy } from "../../api/shapes";
import { isActiveStage, isCancelledBeforeSending, isExpiryMismatch, isGoneStage, isNotFound, isProcessingStage, isProtectionEnabled, isRenewableStage, STAGE } from "../../api/vocabulary";
import type { ResellerApi } from "../shared/api";
import { diffDomain, renewalDue } from "./diff";
import { GONE, type Handler, importedAs, type Props } from "../kit/handler";
import type { HostContext } from "../kit/context";
import { objectKey } from "../kit/ownership";
import { PartialFailure } from "../kit/partial-failure";
import { resourceName } from "../kit/urn";
import { chargeOf, chargeUnknown, confirmByReplay, KEPT_UNCONFIRMED, sendPaidOrder, showCharge, type Charge } from "../kit/unanswered-order";
import { ceilingOnly, priceGuard } from "../kit/price-guard";
import { acceptedFromState, acknowledgeHint, CHARGE_KEPT, checkCharge, diffOvercharges, holdAccepted, openOvercharges, overchargeOf, unacknowledgedMessage, type AcceptedPrice, type HeldOvercharge } from "../kit/charge-check";
import { pendingCreateHint } from "../kit/pending-create";
import type { MoneyContract } from "../../api/contract";
import { moneyDecimals } from "../../api/money";
import { adoptDomainMissing } from "../kit/preview-messages";
import { CONTACT_TYPES, canonicalContact, canonicalNameservers, defined, effectiveContacts, sameJson } from "../shared/normalize";
import { checkDomainInputs, processingWaitSeconds } from "./schema";
import { containsUnknown } from "../kit/check";
import { zonesInRun } from "../dns-zone/zones-in-run";
import type { DomainInputs, DomainOutputs, HeldContacts, UnconfirmedOrder } from "./state";
import { previewDomain, previewDomainDiff } from "./preview";
import { each, one } from "../kit/disguised-inputs";

/** What outputs() overlays on the inputs besides the live view. */
type Overlay = Partial<Pick<DomainOutputs, "charged" | "currency" | "invoice" | "adopted" | "contactsStatus" | "contacts" | "unconfirmedOrder">>;

const isoNow = (ctx: HostContext): string => new Date(ctx.clock.now()).toISOString();

/** What to do about an order that failed or ended: the next steps, in Pulumi's words. */
const ORDER_AGAIN = "`pulumi refresh` drops it from the state (or run `pulumi up --refresh`); the next `pulumi up` then orders it again, once, under a new idempotency key";

/** The registration wait (api/waits.ts): bounded, logged, on the host's clock. */
async function waitWhileProcessing(ctx: HostContext, api: ResellerApi, domain: string, seconds: number): Promise<DomainInfo> {
  return (await waitForRegistry(api, domain, seconds, { clock: ctx.clock, log: ctx.log })).value;
}

/**
 * Contacts for the outputs: the program's own form when the registry holds the same (an omitted
 * admin/tech/billing is the registrant), else what the registry holds, so refresh shows real drift only.
 */
function contactsOutput(known: HeldContacts, live: HeldContacts): HeldContacts {
  return sameJson(effectiveContacts(known), effectiveContacts(live)) ? known : live;
}

/** Each contact of a set through `f`; the types it does not hold stay out. */
function eachContact<A, B>(set: Partial<Record<ContactType, A | null | undefined>>, f: (c: A) => B): Partial<Record<ContactType, B>> {
  const out: Partial<Record<ContactType, B>> = {};
  for (const t of CONTACT_TYPES) {
    const v = set[t];
    if (v) out[t] = f(v);
  }
  return out;
}

/** The registry's contacts in canonical form, in our names, the types it reports. */
const liveContacts = (c: Contacts): HeldContacts => eachContact(c, (v) => canonicalContact(fromServiceContact(v)));

/**
 * A Domain's property bag with its contacts' fields in this version's names: 0.2.0 and before used
 * the service's (`postal_code`), in programs, stack config (`requireSecretObject`) and state alike.
 * `renamed` names each renamed field ("contacts.registrant.postal_code → postalCode"), never a value.
 * Anything that is not a contact object (an unknown in preview, a wrong type) is left to validation.
 */
function withCurrentContactNames(bag: Props): { bag: Props; renamed: string[] } {
  const set = bag.contacts;
  if (typeof set !== "object" || set === null || Array.isArray(set)) return { bag, renamed: [] };
  const renamed: string[] = [];
  const contacts: Record<string, unknown> = { ...set };
  for (const [type, c] of Object.entries(set as Record<string, unknown>)) {
    if (typeof c !== "object" || c === null || Array.isArray(c)) continue;
    const r = withOurContactNames(c as Record<string, unknown>);
    contacts[type] = r.contact;
    renamed.push(...r.renamed.map(([old, ours]) => `contacts.${type}.${old} → ${ours}`));
  }
  return renamed.length ? { bag: { ...bag, contacts }, renamed } : { bag, renamed };
}

/** Outputs: the inputs, overlaid with what the service reports. Used by create, read and update alike. */
function outputs(base: DomainInputs | DomainOutputs, live: DomainInfo, extra: Overlay): DomainOutputs {
  const held: Partial<DomainOutputs> = "stage" in base ? base : {};
  return defined({
    ...base,
    domain: live.domain,
    stage: live.stage,
    status: live.status,
    expiryDate: live.expiry_date ?? null,
    expiresAt: live.expires_at ?? null,
    nameservers: live.nameservers ?? base.nameservers ?? null,
    locked: live.locked ?? null,
    registryStatuses: live.registry_statuses ?? [],
    charged: held.charged ?? null,
    currency: held.currency ?? null,
    invoice: held.invoice ?? null,
    adopted: held.adopted ?? false,
    ...extra,
  });
}

/** Sends one paid order: the first time, or again under the same key to have its answer replayed. */
function sendOrder(api: ResellerApi, domain: string, o: Omit<UnconfirmedOrder, "reason" | "placedAt">, inputs?: DomainInputs): Promise<DomainOrder> {
  const keyed = { idempotencyKey: o.idempotencyKey };
  if (o.operation === "renew") return api.renew(domain, { years: o.years, current_expiry: o.from ?? "" }, keyed);
  // Unreachable from create (it checks first); a replay needs the body the order was sent with.
  if (!inputs?.contacts) throw new Error(`contacts: is required to send the ${o.operation} of ${domain} (its replay needs the contacts it was sent with); nothing was sent`);
  const contacts = { ...eachContact(inputs.contacts, toServiceContact), registrant: toServiceContact(inputs.contacts.registrant) };
  const body: RegisterRequest = defined({ domain, years: o.years, contacts, nameservers: inputs.nameservers, client_reference: inputs.clientReference });
  return o.operation === "register" ? api.register(body, keyed) : api.transfer({ ...body, auth_code: inputs.authCode ?? "" }, keyed);
}

/** An order and what it charged; a malformed charge throws inside the paid call, so its charge counts as unknown. */
async function charged(order: Promise<DomainOrder>, money: MoneyContract): Promise<{ order: DomainOrder; fields: Charge }> {
  const o = await order;
  return { order: o, fields: chargeOf(o, money) };
}

/** The partial failure of an order that may have been charged and shows as applied. */
const unconfirmedFailure = (domain: string, o: UnconfirmedOrder, found: string, outs: DomainOutputs): PartialFailure =>
  new PartialFailure(`${domain}: the ${o.operation === "renew" ? `renewal from ${o.from}` : o.operation} may have been charged: ${o.reason}. ${found}. ${KEPT_UNCONFIRMED}`, domain, outs);

/**
 * An update the engine cancelled (its requests refused before they were sent) after one of its orders
 * was answered: a renewal, or the replay of an earlier run's order. The requests after the cancel
 * are refused, but what the order charged must not be lost with them, nor be said to be nothing:
 * the step ends as a partial failure keeping `outs` (the charge, the renewal's expiry) in state, the
 * charge held against maxPrice as any other, and the message says what was charged. Any other
 * error, or a cancel before any order of this update was answered, is `e` itself.
 */
function cancelledAfterCharge(e: unknown, domain: string, olds: DomainOutputs, outs: DomainOutputs, problems: HeldOvercharge[]): unknown {
  if (!isCancelledBeforeSending(e)) return e;
  const o = outs.unconfirmedOrder;
  const charged = outs.charged !== (olds.charged ?? null) || outs.currency !== (olds.currency ?? null) || outs.invoice !== (olds.invoice ?? null);
  const unconfirmed = o !== undefined && !sameJson(o, olds.unconfirmedOrder);
  if (!charged && !unconfirmed) return e;
  const why = e instanceof Error && "reason" in e ? String(e.reason) : "the command was cancelled";
  const cancelled = `Then ${why}, before the update finished: the requests after it were not sent, and the next \`pulumi up\` does the rest.`;
  if (problems.length) {
    const f = chargeFailure(domain, problems, outs);
    return new PartialFailure(`${f.message} ${cancelled}`, domain, f.properties, [...f.reasons, cancelled]);
  }
  if (unconfirmed) return new PartialFailure(`${unconfirmedFailure(domain, o, "The expiry has moved on, so it was applied", outs).message} ${cancelled}`, domain, outs);
  const what = outs.expiryDate !== olds.expiryDate ? `the renewal from ${olds.expiryDate} to ${outs.expiryDate}` : "the order of an earlier run, confirmed by its replay,";
  return new PartialFailure(`${domain}: ${what} charged ${showCharge(outs)}; the charge is recorded in state. ${cancelled}`, domain, outs);
}

/**
 * Holds an order's charge against what it was accepted at (../kit/charge-check.ts): a warning is
 * logged; a problem (another currency, above maxPrice) is added to `problems`, which fail the step
 * once the resource's outputs are known, so the order stays in state and is never bought again.
 */
function holdCharge(ctx: HostContext, what: string, fields: Charge, accepted: AcceptedPrice | undefined, problems: HeldOvercharge[]): void {
  const v = checkCharge(what, fields, accepted, moneyDecimals(ctx.contract().money));
  if (!v.ok) problems.push(overchargeOf(v.problem, fields));
  else if (v.warning) ctx.log.warn(v.warning);
}

/**
 * The partial failure of orders whose charges do not hold against what was accepted: kept in state
 * with what they charged, and as overcharges that fail every later up until acknowledged.
 */
function chargeFailure(domain: string, problems: HeldOvercharge[], outs: DomainOutputs): PartialFailure {
  const texts = problems.map((p) => p.problem);
  const hint = acknowledgeHint(problems);
  return new PartialFailure(`${texts.join(" ")} ${CHARGE_KEPT} ${hint}`, domain, { ...outs, overcharges: [...(outs.overcharges ?? []), ...problems] }, [...texts, CHARGE_KEPT, hint]);
}

/**
 * Asks again for an order an earlier run left unconfirmed, under its own key: the service replays its
 * answer, so what it charged is known and nothing is bought again. Its charge still unknown, it stays
 * unconfirmed; refused (the inputs changed since, or the service no longer keeps the answer), it was
 * applied all the same (the domain is in the account) and the invoices say what it cost.
 */
async function confirmOrder(ctx: HostContext, api: ResellerApi, domain: string, o: UnconfirmedOrder, inputs: DomainInputs, problems: HeldOvercharge[]): Promise<Overlay> {
  const what = `${domain}: the ${o.operation === "renew" ? `renewal from ${o.from}` : o.operation} of an earlier run`;
  if (o.operation !== "renew" && !inputs.contacts) {
    ctx.log.warn(`${what} cannot be confirmed: asking for it again needs the contacts it was sent with, and the program gives none now (adopt); none was sent. It was applied, once; the account's invoices say what it cost.`);
    return { unconfirmedOrder: undefined };
  }
  const r = await confirmByReplay(ctx, what, o, async () => (await charged(sendOrder(api, domain, o, inputs), ctx.contract().money)).fields);
  if (!r) return { unconfirmedOrder: undefined };
  if (!("charge" in r)) return { unconfirmedOrder: r.unconfirmed };
  holdCharge(ctx, what, r.charge, acceptedFromState(o.accepted, moneyDecimals(ctx.contract().money)), problems);
  return { ...r.charge, unconfirmedOrder: undefined };
}

function protectionHint(e: unknown, domain: string, what: string): Error {
  if (isProtectionEnabled(e))
    return new Error(`${domain}: ${what} was refused because Domain Protection is on. Protection can only be removed in the reseller portal (the API always refuses); remove it there, then run again.`);
  return e instanceof Error ? e : new Error(String(e));
}

/** Contacts to send: the types whose effective value differs from the live one. */
function changedContacts(live: HeldContacts, wanted: ContactSet): Partial<Record<ContactType, Contact>> {
  const l = effectiveContacts(live);
  const w = effectiveContacts(wanted);
  const out: Partial<Record<ContactType, Contact>> = {};
  for (const t of CONTACT_TYPES) {
    const want = w[t];
    if (want && !sameJson(l[t], want)) out[t] = want;
  }
  return out;
}

/** A renewal's outcome: what state overlays, and the order's answer when one came (its expiry is the domain's now). */
interface Renewal {
  overlay: Overlay;
  order?: DomainOrder;
}

async function renew(ctx: HostContext, api: ResellerApi, urn: string, domain: string, live: DomainInfo, policy: RenewalPolicy, maxPrice: string | undefined, problems: HeldOvercharge[]): Promise<Renewal> {
  const years = policy.years ?? 1;
  const expiry = live.expiry_date;
  if (!expiry) throw new Error(`${domain}: the service reports no expiry date, so a renewal cannot say which term it renews; nothing was charged`);
  const accepted = await priceGuard(api, { action: "renew", domain, years, maxPrice, money: ctx.contract().money });
  const placed = { operation: "renew" as const, idempotencyKey: ctx.purchaseKey({ urn, operation: "renew", domain, years, from: expiry }), years, from: expiry, placedAt: isoNow(ctx), accepted: accepted && holdAccepted(accepted) };
  try {
    // Applied without a readable answer: the expiry has moved on.
    const outcome = await sendPaidOrder(
      `${domain}: the renewal from ${expiry}`,
      () => charged(sendOrder(api, domain, placed), ctx.contract().money),
      async () => ((await api.getDomain(domain)).expiry_date !== expiry ? {} : undefined),
    );
    if ("unconfirmed" in outcome) return { overlay: { unconfirmedOrder: { ...placed, reason: outcome.reason } } };
    const { order, fields } = outcome.answered;
    ctx.log.info(`${domain}: renewed for ${years} year(s) from ${expiry}; charged ${fields.charged} ${fields.currency}, stage ${order.stage}`);
    holdCharge(ctx, `${domain}: the renewal from ${expiry}`, fields, accepted, problems);
    return { overlay: fields, order };
  } catch (e) {
    if (!isExpiryMismatch(e)) throw e;
    ctx.log.info(`${domain}: the service will not renew from ${expiry} (expiry_mismatch: another renewal was made, or is waiting for approval); nothing charged`);
    return { overlay: {} };
  }
}

/**
 * A domain create finds in the account, not adopted: a Domain renamed or moved without aliases, one
 * bought outside this stack, or one this resource ordered in an earlier run that was interrupted (its
 * host killed) before the order was recorded. Nothing is bought. The order this resource places is
 * sent under its own key (the same inputs give the same key and body): the service answers with the
 * replay of that earlier order when there was one, so what it charged is recorded, and otherwise
 * refuses it, the name being this account's already (spec, Authentication 7: a retry with the same
 * key never charges twice; a register or transfer of a name the account holds is no new order).
 * An answer lost again keeps the order unconfirmed for the next up.
 */
async function takeOver(ctx: HostContext, api: ResellerApi, inputs: DomainInputs, owned: DomainInfo, extra: Overlay): Promise<DomainOutputs> {
  const { domain, years, resourceUrn: urn = "" } = inputs;
  const action = inputs.authCode ? "transfer" : "register";
  // Its quote is not known (it was not recorded): a replayed charge is held against maxPrice alone.
  const accepted = await ceilingOnly(api, inputs.maxPrice, ctx.contract().money);
  const order = { operation: action, idempotencyKey: ctx.purchaseKey({ urn, operation: action, domain, years }), years, accepted: accepted && holdAccepted(accepted) } as const;
  let answer = "";
  let replayed: Charge | undefined;
  try {
    replayed = (await charged(sendOrder(api, domain, order, inputs), ctx.contract().money)).fields;
  } catch (e) {
    const reason = chargeUnknown(e);
    if (reason !== undefined) {
      const o: UnconfirmedOrder = { ...order, reason };
      throw unconfirmedFailure(domain, o, `The domain is in the account (stage ${owned.stage}), perhaps ordered by an earlier run of this resource that was interrupted`, outputs(inputs, owned, { ...extra, unconfirmedOrder: o }));
    }
    answer = e instanceof Error ? e.message : String(e);
  }
  if (replayed) {
    ctx.log.info(
      `${domain}: is in this account already (stage ${owned.stage}), ordered by an earlier run of this resource that was interrupted before it recorded the order; the service replayed that order's answer to the same Idempotency-Key: it charged ${showCharge(replayed)}. Taking it; nothing was bought again. ${pendingCreateHint(domain, "the domain name")}`,
    );
    const problems: HeldOvercharge[] = [];
    holdCharge(ctx, `${domain}: the ${action} of an earlier run`, replayed, accepted, problems);
    const outs = outputs(inputs, owned, { ...extra, ...replayed });
    if (problems.length) throw chargeFailure(domain, problems, outs);
    return outs;
  }
  ctx.log.warn(
    `${domain}: is in this account already (stage ${owned.stage}; a Domain renamed or moved without aliases, bought outside this stack, or ordered longer ago than the service keeps an order's answer): the service has no order of this resource to replay (${answer}). Taking it over: this run buys and changes nothing; what it cost is on the account's invoices. ${pendingCreateHint(domain, "the domain name")}`,
  );
  return outputs(inputs, owned, extra);
}

/**
 * A renewal an earlier run of this resource may have made without recording it (its host killed
 * mid-renew): the expiry in state was due and has moved on. The renewal this resource would have
 * sent from that expiry is sent again under its own key: the service replays it (what it charged is
 * recorded) or, the renewal not being this resource's (renewed in the portal, by a colleague),
 * answers 409 expiry_mismatch, which charges nothing (spec, Register, transfer, renew: rule 3).
 */
async function earlierRenewal(ctx: HostContext, api: ResellerApi, urn: string, domain: string, r: { from: string; to: string; years: number }, maxPrice: string | undefined, problems: HeldOvercharge[]): Promise<Overlay> {
  // Its quote is not known (it was not recorded): a replayed charge is held against maxPrice alone.
  const accepted = await ceilingOnly(api, maxPrice, ctx.contract().money);
  const order = { operation: "renew" as const, idempotencyKey: ctx.purchaseKey({ urn, operation: "renew", domain, years: r.years, from: r.from }), years: r.years, from: r.from, accepted: accepted && holdAccepted(accepted) };
  try {
    const { fields } = await charged(sendOrder(api, domain, order), ctx.contract().money);
    ctx.log.info(
      `${domain}: the expiry moved on from ${r.from} to ${r.to} by a renewal of an earlier run of this resource, interrupted before it recorded it; the service replayed that renewal's answer to the same Idempotency-Key: it charged ${showCharge(fields)}. Nothing was bought again.`,
    );
    holdCharge(ctx, `${domain}: the renewal from ${r.from} of an earlier run`, fields, accepted, problems);
    return fields;
  } catch (e) {
    const reason = chargeUnknown(e);
    if (reason !== undefined) return { unconfirmedOrder: { ...order, reason } };
    if (isExpiryMismatch(e)) ctx.log.info(`${domain}: the expiry moved on from ${r.from} to ${r.to} outside this resource's recorded runs (the service will not replay a renewal of it from ${r.from}: expiry_mismatch); its own last charge stays as recorded`);
    else ctx.log.warn(`${domain}: the expiry moved on from ${r.from} to ${r.to}, and whether by a renewal of this resource cannot be read (${e instanceof Error ? e.message : String(e)}); the account's invoices say.`);
    return {};
  }
}

/**
 * What an unanswered register/transfer finds applied (resources/kit/unanswered-order.ts): the domain in
 * the account. Kept in state (partial failure) so the next run reconciles it instead of ordering again.
 */
const liveOrder = async (api: ResellerApi, domain: string): Promise<DomainInfo | undefined> => {
  const live = await api.getDomain(domain);
  return isGoneStage(live.stage) ? undefined : live;
};

export const domainHandler: Handler<DomainInputs, DomainOutputs> = {
  nameInputs: (news) => [...one(news, "domain"), ...each(news.nameservers, "nameservers")],
  importId: importedAs(["domain"]),

  preview: previewDomain,
  previewDiff: previewDomainDiff,
  // Contacts secret in part (one field, one contact) are kept secret whole: check renames and
  // canonicalizes their fields, and the registry's answer replaces them on read.
  secretDerived: { contacts: ["contacts"] },

  check(ctx, _olds, news) {
    const { bag, renamed } = withCurrentContactNames(news);
    if (renamed.length)
      ctx.log.warn(
        `${resourceName(String(news.resourceUrn ?? "Domain"))}: ${renamed.join(", ")}: contact fields are camelCase since 0.3.0; the old names are read as the new ones for now. Rename them in your program or stack config; a later version will refuse them.`,
      );
    const result = checkDomainInputs(bag, ctx.limits());
    // The nameservers this program sets: a zone of the domain that they rule out fails at preview, and up never waits for it (dns-zone/delegation.ts).
    if (result.ok && !containsUnknown([result.inputs.domain, result.inputs.nameservers])) zonesInRun(ctx).planNameservers(result.inputs.domain, result.inputs.nameservers);
    return result;
  },

  upgrade: (state) => withCurrentContactNames(state).bag,

  diff(ctx, id, olds, news) {
    const d = diffDomain(olds, news, ctx.clock.now());
    diffOvercharges((line) => ctx.log.warn(line), id, olds, news.acknowledgedCharges, d);
    if (!d.replaces.length) ctx.owners.claim(objectKey.domain(id), news.resourceUrn ?? olds.resourceUrn);
    return d;
  },

  async create(ctx, inputs) {
    try {
      return await createDomain(ctx, inputs);
    } catch (e) {
      // Not bought (a partial failure keeps a domain in state): what waits for its zone fails at once.
      if (!(e instanceof PartialFailure)) zonesInRun(ctx).abandon(inputs.domain, e instanceof Error ? e.message : String(e));
      throw e;
    }
  },

  async read(ctx, id, props) {
    const api = ctx.api();
    let live: DomainInfo;
    try {
      // From GET /domains where its entries carry the information view (one call for every domain), else alone.
      live = (await ctx.reads.listedDomain(id)) ?? (await api.getDomain(id));
    } catch (e) {
      if (isNotFound(e)) return GONE;
      throw e;
    }
    if (isGoneStage(live.stage)) return GONE;
    const contacts = props.contacts ? contactsOutput(props.contacts, liveContacts(await api.getContacts(id))) : undefined;
    return { id, props: outputs(props, live, { contacts }) };
  },

  async update(ctx, id, olds, news) {
    const api = ctx.api();
    const domain = id;
    const urn = news.resourceUrn ?? olds.resourceUrn ?? "";
    // An overcharge of an earlier run not acknowledged: nothing changes or is bought until it is.
    const open = openOvercharges(olds, news.acknowledgedCharges);
    if (open.length) throw new PartialFailure(unacknowledgedMessage(domain, open), domain, olds);
    if (olds.overcharges?.length) ctx.log.info(`${domain}: acknowledged: ${olds.overcharges.map((o) => o.acknowledge).join(", ")}; cleared from state`);
    let live = await api.getDomain(domain);
    // An order that failed or ended since (or a transfer out): nothing here can change or charge it.
    if (isGoneStage(live.stage)) throw new Error(`${domain}: is in stage ${live.stage}, no longer this account's; nothing was changed or charged. ${ORDER_AGAIN}`);
    const extra: Overlay = { charged: olds.charged ?? null, currency: olds.currency ?? null, invoice: olds.invoice ?? null, adopted: olds.adopted ?? false };
    // Charges that do not hold against what their orders were accepted at: the step fails once the outputs are known.
    const problems: HeldOvercharge[] = [];
    try {
      if (olds.unconfirmedOrder) Object.assign(extra, await confirmOrder(ctx, api, domain, olds.unconfirmedOrder, news, problems));
      const managed: string[] = [];
      const wantNs = news.nameservers;
      if (wantNs && !sameJson(canonicalNameservers(live.nameservers ?? []), canonicalNameservers(wantNs))) managed.push("nameservers");
      let contactChanges: Partial<Record<ContactType, Contact>> = {};
      if (news.contacts) {
        contactChanges = changedContacts(liveContacts(await api.getContacts(domain)), news.contacts);
        if (Object.keys(contactChanges).length) managed.push("contacts");
      }
      if (typeof news.locked === "boolean" && live.locked !== news.locked) managed.push("locked");

      if (managed.length && !isActiveStage(live.stage)) {
        ctx.log.warn(`${domain}: is in stage ${live.stage}; ${managed.join(", ")} will be changed once it is active (run again then)`);
      } else {
        let contactsStatus: string | undefined;
        if (wantNs && managed.includes("nameservers")) await api.setNameservers(domain, wantNs);
        if (managed.includes("contacts")) {
          contactsStatus = (await api.updateContacts(domain, eachContact(contactChanges, toServiceContact))).status;
          if (contactsStatus === "pending") ctx.log.info(`${domain}: contact change is pending until the registrant confirms it by e-mail`);
        }
        if (typeof news.locked === "boolean" && managed.includes("locked")) {
          try {
            await api.setLock(domain, news.locked);
          } catch (e) {
            throw protectionHint(e, domain, "removing the registrar lock");
          }
        }
        if (contactsStatus) extra.contactsStatus = contactsStatus;
      }
      if (managed.length) live = await api.getDomain(domain);

      const policy = news.renewal;
      // The expiry moved on from the one in state, which asked for a renewal: perhaps this resource's own, by a run interrupted before it recorded it.
      const from = olds.expiryDate;
      if (policy && !extra.unconfirmedOrder && from && live.expiry_date && live.expiry_date !== from && renewalDue(policy, from, ctx.clock.now()))
        Object.assign(extra, await earlierRenewal(ctx, api, urn, domain, { from, to: live.expiry_date, years: policy.years ?? 1 }, news.maxPrice, problems));
      // Never a renewal while an order's charge is unknown: it may be that very renewal.
      if (policy && !extra.unconfirmedOrder && renewalDue(policy, live.expiry_date, ctx.clock.now())) {
        if (!isRenewableStage(live.stage)) ctx.log.warn(`${domain}: renewal is due but the domain is in stage ${live.stage}; not renewing now${live.stage === STAGE.redemption ? " (restore it in the reseller portal; getPricing with action restore quotes it)" : ""}`);
        else {
          const r = await renew(ctx, api, urn, domain, live, policy, news.maxPrice, problems);
          Object.assign(extra, r.overlay);
          // Until it is read again (a cancel may refuse the read), the domain is what the order's answer says.
          if (r.order) live = { ...live, stage: r.order.stage, status: r.order.status, expiry_date: r.order.expiry_date ?? live.expiry_date, expires_at: r.order.expires_at ?? live.expires_at };
          live = await api.getDomain(domain);
        }
      }
      const contacts = news.contacts ? contactsOutput(news.contacts, liveContacts(await api.getContacts(domain))) : undefined;
      // Contacts pending confirmation still read as the old ones; keep the wanted ones so no diff repeats the request.
      const outs = outputs(news, live, { ...extra, contacts: extra.contactsStatus === "pending" ? news.contacts : contacts });
      if (problems.length) throw chargeFailure(domain, problems, outs);
      const o = extra.unconfirmedOrder;
      if (o) throw unconfirmedFailure(domain, o, o.operation === "renew" ? "The expiry has moved on, so it was applied" : `The domain is in the account (stage ${live.stage})`, outs);
      return { outs };
    } catch (e) {
      // Cancelled after an order of this update was answered: what it charged is kept, not lost with the refused requests after it.
      throw cancelledAfterCharge(e, domain, olds, outputs(news, live, extra), problems);
    }
  },

  async delete(ctx, id, props) {
    if (ctx.owners.movedAway(objectKey.domain(id), props.resourceUrn, id)) return;
    ctx.log.warn(
      `${id}: a domain cannot be deleted through the API; it stays registered${props.expiryDate ? ` until ${props.expiryDate}` : ""} and was only removed from this stack. To cancel it, use the reseller portal.`,
    );
  },
};

/** A Domain's create: taken over when in the account, else bought (register or transfer) after the price guard. */
async function createDomain(ctx: HostContext, inputs: DomainInputs): Promise<{ id: string; outs: DomainOutputs }> {
  const api = ctx.api();
  const { domain, resourceUrn: urn = "" } = inputs;
  const ownerKey = objectKey.domain(domain);
  const other = ctx.owners.claimedByOther(ownerKey, urn);
  if (other) throw new Error(`${domain}: the domain is declared by both ${[resourceName(other), resourceName(urn)].sort().map((n) => `"${n}"`).join(" and ")} in this stack; declare one Domain per name: remove one of them. Nothing was charged.`);
  // Already in the account: taken as it is, never bought again (adopt, or a Domain renamed or moved
  // without aliases, whose old URN's delete then leaves it to this one).
  let owned: DomainInfo | undefined;
  try {
    owned = await api.getDomain(domain);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  // A failed order leaves nothing to take (the service lets the name be ordered again).
  // An earlier order that ended (cancelled, failed) makes this a new order: its key must not replay
  // that one's answer within the service's retention, so it names the earlier order (derived, stable).
  let after: string | undefined;
  if (owned && isGoneStage(owned.stage)) {
    if (inputs.adopt) throw new Error(`adopt: ${domain} is in stage ${owned.stage}; it no longer belongs to this account, and adopt never buys; nothing was charged`);
    after = `${owned.stage}:${owned.created_at ?? owned.expires_at ?? ""}`;
    owned = undefined;
  }
  if (owned) {
    ctx.owners.claim(ownerKey, urn);
    const contacts = inputs.contacts ? contactsOutput(inputs.contacts, liveContacts(await api.getContacts(domain))) : undefined;
    if (!inputs.adopt) return { id: domain, outs: await takeOver(ctx, api, inputs, owned, { adopted: false, contacts }) };
    ctx.log.info(`${domain}: adopted (stage ${owned.stage}); nothing charged or changed`);
    return { id: domain, outs: outputs(inputs, owned, { adopted: true, contacts }) };
  }
  if (inputs.adopt) throw new Error(adoptDomainMissing(domain));
  ctx.owners.claim(ownerKey, urn);

  const years = inputs.years;
  const action: "register" | "transfer" = inputs.authCode ? "transfer" : "register";
  const accepted = await priceGuard(api, { action, domain, years, maxPrice: inputs.maxPrice, money: ctx.contract().money });
  // check() requires contacts unless adopt is set, and adopt never reaches here.
  if (!inputs.contacts) throw new Error(`contacts: is required to ${action} ${domain}; nothing was charged`);
  // One key per purchase (account, resource, action, name, years): a retried or re-run create is replayed, never charged again.
  const placed = { operation: action, idempotencyKey: ctx.purchaseKey({ urn, operation: action, domain, years, after }), years, placedAt: isoNow(ctx), accepted: accepted && holdAccepted(accepted) };
  // The client re-sends a keyed order itself when an answer is lost: a replay, never a second charge.
  const outcome = await sendPaidOrder(`${domain}: the ${action} request`, () => charged(sendOrder(api, domain, placed, inputs), ctx.contract().money), () => liveOrder(api, domain));
  if ("unconfirmed" in outcome) {
    const o = { ...placed, reason: outcome.reason };
    throw unconfirmedFailure(domain, o, `The domain is in the account now (stage ${outcome.unconfirmed.stage})`, outputs(inputs, outcome.unconfirmed, { adopted: false, unconfirmedOrder: o }));
  }
  const { order, fields } = outcome.answered;
  const extra: Overlay = { ...fields, adopted: false };
  // The order was taken: a charge that does not hold fails the step now, the domain kept in state with it.
  const problems: HeldOvercharge[] = [];
  holdCharge(ctx, `${domain}: the ${action}`, fields, accepted, problems);
  if (problems.length) throw chargeFailure(domain, problems, outputs(inputs, await api.getDomain(domain).catch(() => order), extra));
  // The command was cancelled while the order was under way, or during the wait for the registry
  // (its reads refused): the order's answer is recorded now, without the wait or the lock.
  const answeredAfterCancel = () => {
    ctx.log.info(`${domain}: ${action} answered (stage ${order.stage}, charged ${showCharge(fields)}) after the command was cancelled; recorded without waiting for the registry: \`pulumi refresh\` or the next \`pulumi up\` follows its stage`);
    return { id: domain, outs: outputs(inputs, { domain: order.domain, status: order.status, stage: order.stage, expires_at: order.expires_at, expiry_date: order.expiry_date }, extra) };
  };
  if (ctx.cancelled()) return answeredAfterCancel();
  let live: DomainInfo;
  try {
    live = await waitWhileProcessing(ctx, api, domain, processingWaitSeconds(inputs));
  } catch (e) {
    if (isCancelledBeforeSending(e)) return answeredAfterCancel();
    // Bought but not readable: keep it in state so a refresh can follow it.
    throw new PartialFailure(`${domain}: ${action} accepted (${order.stage}, charged ${showCharge(fields)}) but reading it failed: ${e instanceof Error ? e.message : String(e)}`, domain, defined({ ...inputs, ...extra, domain, stage: order.stage, status: order.status }));
  }
  if (live.stage === STAGE.failed) throw new PartialFailure(`${domain}: the ${action} failed at the registry (stage failed). ${ORDER_AGAIN}`, domain, outputs(inputs, live, extra));
  // Stages that end an apply successfully while someone else acts (spec: pending_approval completes after review).
  if (isProcessingStage(live.stage)) ctx.log.info(`${domain}: ${action} is in stage ${live.stage}; the apply ends here and later refreshes follow it`);
  else if (isActiveStage(live.stage) && typeof inputs.locked === "boolean" && live.locked !== inputs.locked) {
    try {
      await api.setLock(domain, inputs.locked);
      live = await api.getDomain(domain);
    } catch (e) {
      throw new PartialFailure(`${domain}: ${action === "register" ? "registered" : "transferred"} (charged ${showCharge(fields)}; recorded in state), but setting the lock failed: ${protectionHint(e, domain, "changing the lock").message}`, domain, outputs(inputs, live, extra));
    }
  }
  return { id: domain, outs: outputs(inputs, live, extra) };
}
