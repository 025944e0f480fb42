/** The one policy for a paid order whose charge is unknown (no answer, an unreadable answer, a 5xx): read back, never send again. */
import { OutcomeUnknownError, ResellerApiError, ResellerNetworkError, ResponseShapeError } from "../../provider/errors";
import { parseAmount } from "../../provider/money";
import { RUN_AGAIN, sendPaidOrder } from "../../resources/unanswered-order";

const ctx = { method: "POST", template: "/domains/register", path: "/api/v1/domains/register", secrets: [] };

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
  ["outcome unknown", new OutcomeUnknownError(ctx, "no answer in time"), "no answer came back (no answer in time)"],
  ["network failure after sending", new ResellerNetworkError(ctx, "socket hang up", 4, true), "no answer came back (socket hang up)"],
  ["an answer of the wrong shape", new ResponseShapeError("POST /domains/register", "data.charged", "Invalid input", 201), "its answer could not be read (POST /domains/register answered 201 with an unexpected body at data.charged)"],
  ["a malformed charge", malformedCharge, 'its answer could not be read (charged: "-12.00" must be a decimal amount'],
  ["a server error", ResellerApiError.from(500, { success: false, error: { code: "internal_error", message: "boom" } }, ctx), "the service answered 500 internal_error"],
])("%s and applied: unconfirmed, with what the read back found and why, sent once", async (_name, e, reason) => {
  const o = order([e, { charged: "12.00" }]);
  const outcome = await sendPaidOrder("x.com: the register request", o.send, o.readBack({ stage: "pending" }));
  expect(outcome).toMatchObject({ unconfirmed: { stage: "pending" } });
  expect("reason" in outcome && outcome.reason).toContain(reason);
  expect(o.counts()).toEqual({ sends: 1, reads: 1 });
});

test("no answer and nothing applied (or the read fails): says to run again under the same key, sent once", async () => {
  const o = order([new OutcomeUnknownError(ctx, "no answer in time"), { charged: "12.00" }]);
  await expect(sendPaidOrder("x.com: the register request", o.send, o.readBack(undefined))).rejects.toThrow(
    `x.com: the register request may have been charged: no answer came back (no answer in time), and the service does not show it applied yet. ${RUN_AGAIN}`,
  );
  expect(o.counts()).toEqual({ sends: 1, reads: 1 });
  const failing = order([new OutcomeUnknownError(ctx, "no answer in time")]);
  await expect(
    sendPaidOrder("x.com: the register request", failing.send, async () => {
      throw new Error("read failed");
    }),
  ).rejects.toThrow(/may have been charged: no answer came back/);
});

test("an answer that refuses (or a request that never left) is the caller's, with no read back", async () => {
  const refused = ResellerApiError.from(402, { success: false, error: { code: "insufficient_credit", message: "no credit" } }, ctx);
  const o = order([refused]);
  await expect(sendPaidOrder("x.com: the register request", o.send, o.readBack({ stage: "active" }))).rejects.toBe(refused);
  const never = order([new ResellerNetworkError(ctx, "connection refused", 1, false)]);
  await expect(sendPaidOrder("x.com: the register request", never.send, never.readBack({ stage: "active" }))).rejects.toThrow(/connection refused/);
  expect([o.counts(), never.counts()]).toEqual([
    { sends: 1, reads: 0 },
    { sends: 1, reads: 0 },
  ]);
});
