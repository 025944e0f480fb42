/** api/money.ts: the one decimal type (exact, strict) and the quote guard, which fails closed. */
import { addonChargeYears, resolveContract } from "../../api/contract";
import { checkQuote, compareAmounts, formatAmount, parseAmount, parseMaxPrice, type QuoteExpectation } from "../../api/money";

describe("parseAmount", () => {
  it.each([
    ["12.50", 1250n],
    ["12.5", 1250n],
    ["12", 1200n],
    ["0", 0n],
    ["0.01", 1n],
    ["999999999999.99", 99999999999999n],
    [12.5, 1250n],
    [1000, 100000n],
  ])("%j is exactly %s cents", (text, minor) => {
    expect(parseAmount("charged", text, 2).minor).toBe(minor);
  });

  it.each(["", ".99", "-500.00", "+5", "12.999", "1e3", " 12.50", "12.50 ", "12.", "0x10", "1,000.00", "NaN", "Infinity", "1234567890123"])("refuses %j naming the field, the value and the rule", (text) => {
    expect(() => parseAmount("quote.amount", text, 2)).toThrow(`quote.amount: ${JSON.stringify(text)} must be a decimal amount: digits, optionally a point and 1 to 2 decimals`);
  });

  it.each([[-5], [12.999], [1e21], [Number.NaN], [null], [undefined], [true], [{}]])("refuses the JSON value %p", (v) => {
    expect(() => parseAmount("charged", v, 2)).toThrow(/^charged: .* must be a decimal amount/);
  });

  it("follows the contract's decimals: 0 takes whole amounts only, 3 takes a third place", () => {
    expect(parseAmount("a", "1200", 0).minor).toBe(1200n);
    expect(() => parseAmount("a", "12.5", 0)).toThrow(/must be a whole amount/);
    expect(parseAmount("a", "12.999", 3).minor).toBe(12999n);
    expect(() => resolveContract({ money: { decimals: 7 } })).toThrow(/money\.decimals.*0 to 6/);
  });

  it("takes an add-on's yearly price from the contract: unknown by default, an amount of the contract's decimals when stated", () => {
    expect(resolveContract({}).money.addonPricesPerYear).toEqual({ privacy: "", protection: "" });
    expect(resolveContract({ money: { addonPricesPerYear: { privacy: "5.00" } } }).money.addonPricesPerYear).toEqual({ privacy: "5.00", protection: "" });
    expect(resolveContract({ money: { decimals: 0, addonPricesPerYear: { privacy: "5" } } }).money.addonPricesPerYear.privacy).toBe("5");
    expect(() => resolveContract({ money: { decimals: 0, addonPricesPerYear: { privacy: "5.0" } } })).toThrow(/addonPricesPerYear\.privacy/);
    // The amount rule of the money type (its pattern, one module), so a price preview would refuse is refused here.
    for (const bad of ["5.001", "five", "-5.00", "5.", "1234567890123.00"])
      expect(() => resolveContract({ money: { addonPricesPerYear: { protection: bad } } })).toThrow(`contract override: "money.addonPricesPerYear.protection" must be "" (unknown) or an amount such as "5.00" with at most 2 decimals; got ${JSON.stringify(bad)}`);
    // Charged for the calendar years left of the term, a started year counting whole, at least one.
    const day = 86_400_000;
    expect([45, 365, 366, 700, -3].map((days) => addonChargeYears(days * day, 0))).toEqual([1, 1, 2, 2, 1]);
    // A term of exactly two years across a leap day (731 days) is two years, not three.
    expect(addonChargeYears(Date.parse("2029-03-01T12:00:00Z"), Date.parse("2027-03-01T12:00:00Z"))).toBe(2);
    expect(addonChargeYears(Date.parse("2029-03-01T12:00:01Z"), Date.parse("2027-03-01T12:00:00Z"))).toBe(3);
  });

  it("compares and formats exactly, across places", () => {
    expect(compareAmounts(parseAmount("a", "12.5", 2), parseAmount("b", "12.50", 3))).toBe(0);
    expect(compareAmounts(parseAmount("a", "12.01", 2), parseAmount("b", "12.009", 3))).toBe(1);
    expect(compareAmounts(parseAmount("a", "0.09", 2), parseAmount("b", "0.1", 2))).toBe(-1);
    expect(formatAmount(parseAmount("a", "7.5", 2))).toBe("7.50");
    expect(formatAmount(parseAmount("a", "0.05", 2))).toBe("0.05");
    expect(formatAmount(parseAmount("a", "42", 0))).toBe("42");
  });
});

describe("parseMaxPrice", () => {
  it("takes an amount, optionally with the currency it is stated in", () => {
    expect(parseMaxPrice("25.00")).toEqual({ amount: { minor: 2500n, decimals: 2 } });
    expect(parseMaxPrice("25 EUR")).toEqual({ amount: { minor: 2500n, decimals: 2 }, currency: "EUR" });
  });
  it.each(["", "25.00 usd", "25.00  USD", "USD 25.00", "25.00 USD x", "-1", "25.001"])("refuses %j", (v) => {
    expect(() => parseMaxPrice(v)).toThrow(`maxPrice: ${JSON.stringify(v)} must be digits`);
  });
});

describe("checkQuote", () => {
  const expect_: QuoteExpectation = { action: "register", domain: "shop.io", years: 2, maxPrice: parseMaxPrice("30.00"), accountCurrency: "USD" };
  const good = { action: "register", domain: "shop.io", years: 2, amount: "29.99", currency: "USD" };

  it("accepts a quote for this purchase at or below maxPrice", () => {
    expect(checkQuote(good, expect_)).toEqual({ amount: { minor: 2999n, decimals: 2 }, currency: "USD" });
    expect(checkQuote({ ...good, amount: "30", domain: "SHOP.io." }, expect_).amount.minor).toBe(3000n);
  });

  it("refuses a quote above maxPrice, saying what it costs", () => {
    expect(() => checkQuote({ ...good, amount: "30.01" }, expect_)).toThrow("shop.io: register for 2 year(s) costs 30.01 USD, above maxPrice 30.00; nothing was charged");
  });

  it.each([
    ["amount", "", 'quote.amount "" must be a decimal amount'],
    ["amount", ".99", 'quote.amount ".99" must be a decimal amount'],
    ["amount", "-500.00", 'quote.amount "-500.00" must be a decimal amount'],
    ["amount", "12.999", 'quote.amount "12.999" must be a decimal amount'],
    ["amount", "1e3", 'quote.amount "1e3" must be a decimal amount'],
    ["amount", undefined, "quote.amount nothing must be a decimal amount"],
    ["currency", "EUR", 'quote.currency "EUR" is not the currency maxPrice is compared in ("USD")'],
    ["currency", undefined, "quote.currency nothing is not the currency"],
    ["domain", "other.io", 'quote.domain "other.io" is not the domain asked for ("shop.io")'],
    ["domain", undefined, "quote.domain nothing is not the domain"],
    ["action", "renew", 'quote.action "renew" is not the operation asked for ("register")'],
    ["years", 1, 'quote.years 1 is not the term asked for (2)'],
    ["years", "2", 'quote.years "2" is not the term asked for (2)'],
  ])("refuses a quote whose %s is %j", (field, value, message) => {
    expect(() => checkQuote({ ...good, [field]: value }, expect_)).toThrow(`the register quote for shop.io (2 year(s)): ${message}`);
    expect(() => checkQuote({ ...good, [field]: value }, expect_)).toThrow(/nothing was charged$/);
  });

  it("compares in maxPrice's own currency when it states one, else refuses without the account's", () => {
    const eur = { ...expect_, maxPrice: parseMaxPrice("30.00 EUR") };
    expect(() => checkQuote(good, eur)).toThrow('quote.currency "USD" is not the currency maxPrice is compared in ("EUR")');
    expect(checkQuote({ ...good, currency: "EUR" }, eur).currency).toBe("EUR");
    expect(() => checkQuote(good, { ...expect_, accountCurrency: undefined })).toThrow(/maxPrice states no currency and the account's is unknown/);
  });
});
