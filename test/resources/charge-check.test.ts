/** A purchase's charge held against what it was accepted at (resources/kit/charge-check.ts): the rules, one by one. */
import { parseAmount } from "../../api/money";
import { acceptedFromState, checkCharge, holdAccepted, openOvercharges, overchargeOf, type AcceptedPrice } from "../../resources/kit/charge-check";

const a = (v: string) => parseAmount("x", v, 2);
const quoted: AcceptedPrice = { maxPrice: a("25.00"), currency: "USD", expected: { amount: a("12.00"), source: "the quote" } };
const charge = (charged: string | null, currency: string | null = "USD", invoice: string | null = "INV-1") => ({ charged, currency, invoice });
const what = "x.com: the register";

test("no maxPrice: any charge passes, unremarked", () => {
  expect(checkCharge(what, charge("999.00", "JPY"), undefined, 2)).toEqual({ ok: true });
});

test("the quote exactly (however written): passes, unremarked", () => {
  expect(checkCharge(what, charge("12.00"), quoted, 2)).toEqual({ ok: true });
  expect(checkCharge(what, charge("12.0"), quoted, 2)).toEqual({ ok: true });
});

test.each([
  ["above maxPrice", charge("25.01"), "x.com: the register charged 25.01 USD, above maxPrice 25.00 USD / the quote 12.00 USD: check invoice INV-1."],
  ["in another currency, at the quote's amount", charge("12.00", "JPY"), "x.com: the register charged 12.00 JPY, not in USD, the currency of maxPrice 25.00 USD / the quote 12.00 USD: check invoice INV-1."],
  ["above maxPrice, no invoice named", charge("999.00", "USD", null), "x.com: the register charged 999.00 USD, above maxPrice 25.00 USD / the quote 12.00 USD: its answer names no invoice: check the account's invoices."],
])("%s: a problem", (_name, c, problem) => {
  expect(checkCharge(what, c, quoted, 2)).toEqual({ ok: false, problem });
});

test.each([
  ["above the quote, at maxPrice", charge("25.00"), "x.com: the register charged 25.00 USD, above the quote 12.00 USD (within maxPrice 25.00 USD): check invoice INV-1."],
  ["below the quote", charge("10.00"), "x.com: the register charged 10.00 USD, below the quote 12.00 USD (within maxPrice 25.00 USD): check invoice INV-1."],
  ["no charge stated", charge(null, null), "x.com: the register: its answer states no charge, so it cannot be held against maxPrice 25.00 USD / the quote 12.00 USD; the account's invoices say what it cost."],
])("%s: a warning, not a failure", (_name, c, warning) => {
  expect(checkCharge(what, c, quoted, 2)).toEqual({ ok: true, warning });
});

test("maxPrice alone (no expected price): only the ceiling and the currency count", () => {
  const ceiling: AcceptedPrice = { maxPrice: a("20.00"), currency: "USD" };
  expect(checkCharge(what, charge("3.00"), ceiling, 2)).toEqual({ ok: true });
  expect(checkCharge(what, charge("20.50"), ceiling, 2)).toEqual({ ok: false, problem: "x.com: the register charged 20.50 USD, above maxPrice 20.00 USD: check invoice INV-1." });
});

test("as state holds it and back: the same verdicts; what this version cannot read is no accepted price", () => {
  const held = holdAccepted(quoted);
  expect(held).toEqual({ maxPrice: "25.00", currency: "USD", expected: "12.00", expectedSource: "the quote" });
  expect(acceptedFromState(held, 2)).toEqual(quoted);
  expect(acceptedFromState({ maxPrice: "25.00", currency: "USD" }, 2)).toEqual({ maxPrice: a("25.00"), currency: "USD" });
  expect(acceptedFromState({ maxPrice: "-1", currency: "USD" }, 2)).toBeUndefined();
  expect(acceptedFromState(undefined, 2)).toBeUndefined();
});

test("an overcharge is acknowledged by its invoice, or by amount and currency when the answer named none; only those values clear it", () => {
  const named = overchargeOf("x.com: the register charged 25.01 USD ...", charge("25.01"));
  const unnamed = overchargeOf("x.com: the register charged 999.00 USD ...", charge("999.00", "USD", null));
  expect([named.acknowledge, unnamed.acknowledge]).toEqual(["INV-1", "999.00 USD"]);
  const held = { overcharges: [named, unnamed] };
  expect(openOvercharges(held, undefined)).toEqual([named, unnamed]);
  expect(openOvercharges(held, ["INV-1"])).toEqual([unnamed]);
  expect(openOvercharges(held, ["INV-1", "999.00 USD"])).toEqual([]);
  expect(openOvercharges({}, ["INV-1"])).toEqual([]);
});
