/**
 * What a purchase's answer says it charged, held against what was accepted before it was sent: the
 * ceiling (maxPrice) and, when one is known, the expected price (the quote of a register, transfer or
 * renew; the contract's yearly price of an add-on). Pure: the caller decides what a verdict does.
 * A charge in another currency, or above maxPrice, is a problem: the order was taken, so the
 * resource stays in state with what its answer says it charged (a partial failure: nothing is bought
 * again) and the step fails, naming the invoice. A charge within maxPrice that differs from the
 * expected price (a price change between quote and order, or an add-on priced otherwise than the
 * contract says) is only a warning: the user accepted up to maxPrice.
 */
import { compareAmounts, formatAmount, parseAmount, type Amount } from "../../api/money";

/** What a paid order charged, as state records it (null: not known from the service's answer). */
export interface Charge {
  charged: string | null;
  currency: string | null;
  invoice: string | null;
}

/** What a purchase was accepted at, before it was sent. */
export interface AcceptedPrice {
  /** The ceiling: the charge must not pass it. */
  maxPrice: Amount;
  /** The currency the purchase must be charged in (the quote's, maxPrice's or the account's). */
  currency: string;
  /** The price expected, when one is known, and what stated it ("the quote", "the contract's price"). */
  expected?: { amount: Amount; source: string };
}

/** The accepted price as state keeps it (decimal text), for a purchase confirmed in a later run. */
export interface HeldAcceptedPrice {
  maxPrice: string;
  currency: string;
  expected?: string;
  expectedSource?: string;
}

export const holdAccepted = (a: AcceptedPrice): HeldAcceptedPrice =>
  a.expected ? { maxPrice: formatAmount(a.maxPrice), currency: a.currency, expected: formatAmount(a.expected.amount), expectedSource: a.expected.source } : { maxPrice: formatAmount(a.maxPrice), currency: a.currency };

/** The accepted price back from state; undefined when state holds none (or one this version cannot read). */
export function acceptedFromState(h: HeldAcceptedPrice | undefined, decimals: number): AcceptedPrice | undefined {
  if (!h) return undefined;
  try {
    const maxPrice = parseAmount("accepted.maxPrice", h.maxPrice, decimals);
    if (h.expected === undefined) return { maxPrice, currency: h.currency };
    return { maxPrice, currency: h.currency, expected: { amount: parseAmount("accepted.expected", h.expected, decimals), source: h.expectedSource ?? "the quote" } };
  } catch {
    return undefined;
  }
}

/** What the check found: nothing to say, a warning, or a problem that fails the step. */
export type ChargeVerdict = { ok: true; warning?: string } | { ok: false; problem: string };

const invoiceOf = (c: Charge): string => (c.invoice ? `check invoice ${c.invoice}` : "its answer names no invoice: check the account's invoices");

/**
 * Holds `charge` (as parsed by chargeOf: canonical amount and currency, or nulls when the answer
 * states none) against `accepted`. `what` names the purchase ("example.com: the register").
 * Undefined `accepted` (no maxPrice set) accepts any charge: the program set no ceiling.
 */
export function checkCharge(what: string, charge: Charge, accepted: AcceptedPrice | undefined, decimals: number): ChargeVerdict {
  if (!accepted) return { ok: true };
  const max = `maxPrice ${formatAmount(accepted.maxPrice)} ${accepted.currency}`;
  const expected = accepted.expected ? `${accepted.expected.source} ${formatAmount(accepted.expected.amount)} ${accepted.currency}` : undefined;
  const against = expected ? `${max} / ${expected}` : max;
  if (charge.charged === null || charge.currency === null)
    return { ok: true, warning: `${what}: its answer states no charge, so it cannot be held against ${against}; the account's invoices say what it cost.` };
  const shown = `charged ${charge.charged} ${charge.currency}`;
  if (charge.currency !== accepted.currency) return { ok: false, problem: `${what} ${shown}, not in ${accepted.currency}, the currency of ${against}: ${invoiceOf(charge)}.` };
  const amount = parseAmount("charged", charge.charged, decimals);
  if (compareAmounts(amount, accepted.maxPrice) > 0) return { ok: false, problem: `${what} ${shown}, above ${max}${expected ? ` / ${expected}` : ""}: ${invoiceOf(charge)}.` };
  if (accepted.expected && compareAmounts(amount, accepted.expected.amount) !== 0) {
    const side = compareAmounts(amount, accepted.expected.amount) > 0 ? "above" : "below";
    return { ok: true, warning: `${what} ${shown}, ${side} ${expected} (within ${max}): ${invoiceOf(charge)}.` };
  }
  return { ok: true };
}

/** Said after a problem: the purchase stands, once, and what happens next. */
export const CHARGE_KEPT =
  "The purchase was made: it stays in state with what its answer says it charged, so no later `pulumi up` buys it again. Compare the invoice with the reseller portal, and take a wrong charge up with the service.";

/**
 * A charge that failed its check, kept in state (`overcharges`) until the program acknowledges it:
 * until then every `up` that reaches the resource fails on it, and the resource changes and buys
 * nothing, so re-running CI never turns an overcharge green. `acknowledge` is what the program adds
 * to the resource's `acknowledgedCharges`: the invoice, or "<amount> <currency>" when the answer
 * named none.
 */
export interface HeldOvercharge {
  problem: string;
  acknowledge: string;
}

/** The overcharge of a problem `checkCharge` found in `charge`. */
export const overchargeOf = (problem: string, charge: Charge): HeldOvercharge => ({ problem, acknowledge: charge.invoice ?? `${charge.charged} ${charge.currency}` });

/** What state holds of a resource's overcharges, and what its program acknowledges. */
export interface OverchargeHolder {
  overcharges?: HeldOvercharge[];
}

/** The overcharges `held` in state that `acknowledged` does not name. */
export const openOvercharges = (held: OverchargeHolder, acknowledged: readonly string[] | undefined): HeldOvercharge[] =>
  (held.overcharges ?? []).filter((o) => !(acknowledged ?? []).includes(o.acknowledge));

/** How to go on after an overcharge: check, then acknowledge (each with its own value). */
export const acknowledgeHint = (open: readonly HeldOvercharge[]): string =>
  `Until ${open.length === 1 ? "it is" : "they are"} acknowledged, every \`pulumi up\` fails here and this resource changes and buys nothing. Once you have checked ${open.length === 1 ? "the charge" : "the charges"}, acknowledge ${open.length === 1 ? "it" : "them"}: add ${open.map((o) => JSON.stringify(o.acknowledge)).join(", ")} to this resource's acknowledgedCharges.`;

/** The message of an update refused for overcharges of earlier runs not acknowledged. */
export const unacknowledgedMessage = (what: string, open: readonly HeldOvercharge[]): string =>
  `${what}: ${open.length === 1 ? "a charge" : `${open.length} charges`} of an earlier run failed ${open.length === 1 ? "its" : "their"} check and ${open.length === 1 ? "is" : "are"} not acknowledged: ${open.map((o) => o.problem).join(" ")} ${acknowledgeHint(open)}`;

/**
 * A diff's part of it: while state holds an overcharge, the resource has a change ("overcharges"),
 * so `up` calls its update, which fails while one is open and clears the acknowledged ones. Warns
 * about the open ones, so preview says it too.
 */
export function diffOvercharges(warn: (line: string) => void, what: string, olds: OverchargeHolder, acknowledged: readonly string[] | undefined, d: { changes: boolean; diffs: string[] }): void {
  if (!olds.overcharges?.length) return;
  d.diffs.push("overcharges");
  d.changes = true;
  const open = openOvercharges(olds, acknowledged);
  if (open.length) warn(unacknowledgedMessage(what, open));
}
