/** The one policy for a paid order whose charge is unknown (no answer, an unreadable answer, a 5xx or 3xx): read back, never send again. */
import { OutcomeUnknownError, RequestCancelledError, ResellerApiError, ResellerNetworkError, ResponseShapeError } from "../../api/errors";
import { isMoneyError, parseAmount } from "../../api/money";
import { chargeOf, chargeUnknown, confirmByReplay, RUN_AGAIN, sendPaidOrder } from "../../resources/kit/unanswered-order";
import { testHost } from "../support/host-context";

const req = { method: "POST", template: "/domains/register", path: "/api/v1/domains/register", secrets: [] };

function order(outcomes: (unknown | Error)[]) {
  let sends = 0;
  let reads = 0;
  return {
    send: async () => {
      const o = outcomes[sends++];
      if (o instanceof Error) throw o;
      return o;
    },
    readBack: (live: unknown) => async () => (reads++, live),
    counts: () => ({ sends, reads }),
  };
}

test("answered: the answer, no read back", async () => {
  const o = order([{ charged: "12.00" }]);
  expect(await sendPaidOrder("x.com: the register request", o.send, o.readBack({ stage: "active" }))).toEqual({ answered: { charged: "12.00" } });
  expect(o.counts()).toEqual({ sends: 1, reads: 0 });
});

const malformedCharge = (() => {
  try {
    return parseAmount("charged", "-12.00");
  } catch (e) {
    return e;
  }
})();

test.each([
  ["outcome unknown", new OutcomeUnknownError(req, "no answer in time"), "no answer came back (no answer in time)"],
  ["network failure after sending", new ResellerNetworkError(req, "socket hang up", 4, true), "no answer came back (socket hang up)"],
  ["an answer of the wrong shape", new ResponseShapeError("POST /domains/register", "data.charged", "Invalid input", 201), "its answer could not be read (POST /domains/register answered 201 with an unexpected body at data.charged)"],
  ["a malformed charge", malformedCharge, 'its answer could not be read (charged: "-12.00" must be a decimal amount'],
  ["a server error", ResellerApiError.from(500, { success: false, error: { code: "internal_error", message: "boom" } }, req), "the service answered 500 internal_error"],
  ["a redirect (never followed)", ResellerApiError.from(307, {}, req), "the service answered 307 "],
  ["a 303 See Other", ResellerApiError.from(303, "", req), "the service answered 303 "],
])("%s and applied: unconfirmed, with what the read back found and why, sent once", async (_name, e, reason) => {
  const o = order([e, { charged: "12.00" }]);
  const outcome = await sendPaidOrder("x.com: the register request", o.send, o.readBack({ stage: "pending" }));
  expect(outcome).toMatchObject({ unconfirmed: { stage: "pending" } });
  expect("reason" in outcome && outcome.reason).toContain(reason);
  expect(o.counts()).toEqual({ sends: 1, reads: 1 });
});

test("no answer and nothing applied (or the read fails): says to run again under the same key, sent once", async () => {
  const o = order([new OutcomeUnknownError(req, "no answer in time"), { charged: "12.00" }]);
  await expect(sendPaidOrder("x.com: the register request", o.send, o.readBack(undefined))).rejects.toThrow(
    `x.com: the register request may have been charged: no answer came back (no answer in time), and the service does not show it applied yet. ${RUN_AGAIN}`,
  );
  expect(o.counts()).toEqual({ sends: 1, reads: 1 });
  const failing = order([new OutcomeUnknownError(req, "no answer in time")]);
  await expect(
    sendPaidOrder("x.com: the register request", failing.send, async () => {
      throw new Error("read failed");
    }),
  ).rejects.toThrow(/may have been charged: no answer came back/);
});

test("an answer that refuses (or a request that never left) is the caller's, with no read back", async () => {
  const refused = ResellerApiError.from(402, { success: false, error: { code: "insufficient_credit", message: "no credit" } }, req);
  const o = order([refused]);
  await expect(sendPaidOrder("x.com: the register request", o.send, o.readBack({ stage: "active" }))).rejects.toBe(refused);
  const never = order([new ResellerNetworkError(req, "connection refused", 1, false)]);
  await expect(sendPaidOrder("x.com: the register request", never.send, never.readBack({ stage: "active" }))).rejects.toThrow(/connection refused/);
  expect([o.counts(), never.counts()]).toEqual([
    { sends: 1, reads: 0 },
    { sends: 1, reads: 0 },
  ]);
});

describe("chargeOf: what an order's answer says it charged, exactly", () => {
  const money = { decimals: 2 };
  test.each([
    ["a stated charge", { charged: "12.50", currency: "USD", invoice: "INV-1" }, { charged: "12.50", currency: "USD", invoice: "INV-1" }],
    ["a JSON number", { charged: "9.5", currency: "EUR" }, { charged: "9.50", currency: "EUR", invoice: null }],
    ["no charge stated", { invoice: "INV-2" }, { charged: null, currency: null, invoice: "INV-2" }],
  ])("%s", (_name, answer, charge) => {
    expect(chargeOf(answer, money)).toEqual(charge);
  });

  test.each([
    ["a signed amount", { charged: "-1.00", currency: "USD" }, /charged: "-1\.00"/],
    ["too many decimals", { charged: "1.005", currency: "USD" }, /charged: "1\.005"/],
    ["an amount without its currency", { charged: "1.00" }, /currency: nothing must be a currency code/],
    ["a currency without an amount", { currency: "USD" }, /charged: nothing must be a decimal amount/],
  ])("%s is refused, naming the field (inside a paid call: its charge is unknown)", (_name, answer, message) => {
    let e: unknown;
    try {
      chargeOf(answer, money);
    } catch (x) {
      e = x;
    }
    expect(isMoneyError(e)).toBe(true);
    expect((e as Error).message).toMatch(message);
    expect(chargeUnknown(e)).toMatch(/its answer could not be read/);
  });
});

describe("confirmByReplay: an earlier run's unconfirmed order, asked for again under its key", () => {
  const NOW = Date.parse("2026-03-01T12:00:00.000Z");
  const o = { operation: "privacy", idempotencyKey: "rp1-k", reason: "no answer came back (test)", placedAt: "2026-03-01T11:00:00.000Z" };
  const charge = { charged: "5.00", currency: "USD", invoice: "INV-9" };
  const setup = () => testHost({ clock: { now: () => NOW, sleep: async () => undefined } });

  test("replayed: the charge, said so", async () => {
    const { ctx, lines } = setup();
    const send = jest.fn(async () => charge);
    expect(await confirmByReplay(ctx, "x.com: the purchase of an earlier run", o, send)).toEqual({ charge });
    expect(send).toHaveBeenCalledTimes(1);
    expect(lines.join("\n")).toContain("x.com: the purchase of an earlier run is confirmed: it charged 5.00 USD (invoice INV-9)");
  });

  test("unanswered again: still unconfirmed, with the new reason", async () => {
    const { ctx } = setup();
    const lost = new OutcomeUnknownError(req, "no answer in time");
    expect(await confirmByReplay(ctx, "x.com: p", o, async () => Promise.reject(lost))).toEqual({ unconfirmed: { ...o, reason: "no answer came back (no answer in time)" } });
  });

  test("refused: nothing, said so with the invoices as the source", async () => {
    const { ctx, lines } = setup();
    const refused = ResellerApiError.from(422, { success: false, error: { code: "idempotency_key_reused", message: "other body" } }, req);
    expect(await confirmByReplay(ctx, "x.com: p", o, async () => Promise.reject(refused))).toBeUndefined();
    expect(lines.join("\n")).toMatch(/x\.com: p cannot be confirmed: the service would not replay its answer \(.*other body.*\)\. It was applied, and charged once; the account's invoices say what it cost/);
  });

  test("past the service's retention of keys: not sent at all (a re-send would be a new order)", async () => {
    const { ctx, lines } = setup();
    const send = jest.fn(async () => charge);
    const old = { ...o, placedAt: new Date(NOW - (ctx.contract().idempotency.retentionSeconds + 1) * 1000).toISOString() };
    expect(await confirmByReplay(ctx, "x.com: p", old, send)).toBeUndefined();
    expect(send).not.toHaveBeenCalled();
    expect(lines.join("\n")).toMatch(/x\.com: p cannot be confirmed any more: it was sent at .*; none was sent/);
    // Just inside it, it is sent.
    const recent = { ...o, placedAt: new Date(NOW - (ctx.contract().idempotency.retentionSeconds - 1) * 1000).toISOString() };
    expect(await confirmByReplay(ctx, "x.com: p", recent, send)).toEqual({ charge });
    expect(send).toHaveBeenCalledTimes(1);
  });
});

test("no answer, and the read back refused by a cancel: says the service could not be asked, not that it shows nothing applied", async () => {
  const o = order([new OutcomeUnknownError(req, "no answer in time")]);
  const refused = async () => {
    throw new RequestCancelledError({ ...req, method: "GET", template: "/domains/{domain}", path: "/api/v1/domains/x.com" }, "the command was cancelled (test)");
  };
  await expect(sendPaidOrder("x.com: the register request", o.send, refused)).rejects.toThrow(
    `x.com: the register request may have been charged: no answer came back (no answer in time), and the command was cancelled before the service could be asked whether it applied it. ${RUN_AGAIN}`,
  );
});
