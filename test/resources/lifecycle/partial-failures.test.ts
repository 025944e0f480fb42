/**
 * Domain partial failures through the SDK's provider host against the sandbox, followed by what the
 * real engine runs next: a create that failed with an id is kept with init errors, and the next `up`
 * runs Update for it even when no input changed (pulumi/pulumi step.go). Each must reconcile
 * without a charge or an unplanned renewal.
 */
import { isProviderHostError } from "../../../dev/engine/host";
import { contact, Managed, startEnv, type Env } from "./harness";

// One sandbox and one host for the file: each test uses its own domain and resource names, and
// starts from the sandbox's default settings and no faults. The host configures a provider once for
// its life (a later Configure changes nothing), so the test that needs a short timeout has its own.
let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => env?.close());
function fresh(settings: { approval?: { orders: boolean }; processingDelaySeconds?: number } = {}): void {
  env.sandbox.operator.clearFaults();
  env.sandbox.operator.settings({ approval: { orders: false }, processingDelaySeconds: 0, ...settings });
}

const contacts = { registrant: contact };
const money = (domain: string) => env.sandbox.operator.ledger().filter((e) => e.domain === domain && Number(e.amount) !== 0).map((e) => e.action);

/** The create's failure, which must carry the id (partial failure), as the engine keeps it. */
async function failedCreate(d: Managed, args: Record<string, unknown>) {
  let failure: unknown;
  try {
    await d.up(args);
  } catch (e) {
    failure = e;
  }
  if (!isProviderHostError(failure)) throw failure ?? new Error("the create did not fail");
  expect(failure.id).toBe(args.domain);
  return failure;
}

/** The engine kept the resource with its init errors; its next `up` runs Update though no input changed. */
async function upAfterInitError(d: Managed, failure: { id?: string; reasons?: string[] }, args: Record<string, unknown>) {
  expect(d.state).toMatchObject({ id: failure.id, initErrors: failure.reasons });
  expect(d.state!.initErrors!.length).toBeGreaterThan(0);
  expect(await d.up(args)).toBe("update");
  expect(d.state!.initErrors).toBeUndefined();
  return d.outputs;
}

/** The next up, refresh and preview change nothing and send no write (the engine's "no change next"). */
async function expectNoChangeNext(d: Managed, args: Record<string, unknown>) {
  const mark = env.mark();
  expect(await d.up(args)).toBe("same");
  const outputs = d.outputs;
  expect(await d.refresh()).toBe(true);
  expect(d.outputs).toEqual(outputs);
  expect((await d.preview(args)).step).toBe("same");
  expect(env.mutatingSince(mark)).toEqual([]);
}

test("lock refused after the order: the next up sets the lock, charges nothing, renews nothing", async () => {
  fresh();
  const args = { domain: "lock-after.com", contacts, locked: false, renewal: { minDaysRemaining: 30 } };
  env.sandbox.operator.injectFault({ kind: "error", status: 422, count: 1, match: { path: "/domains/lock-after.com/lock" } });
  const d = new Managed(env, "Domain", "lock-after");
  const failure = await failedCreate(d, args);
  expect(failure.message).toMatch(/registered \(charged 12\.00 USD \(invoice INV-\d+\); recorded in state\), but setting the lock failed/);
  expect(money("lock-after.com")).toEqual(["register"]);
  const outs = await upAfterInitError(d, failure, args);
  expect(outs).toMatchObject({ stage: "active", locked: false });
  expect((await env.client.getDomain("lock-after.com")).locked).toBe(false);
  expect(money("lock-after.com")).toEqual(["register"]);
  await expectNoChangeNext(d, args);
});

test("order unanswered but applied: kept in state; the next up reconciles with no second order", async () => {
  const shared = env;
  env = await startEnv();
  try {
    await unanswered();
  } finally {
    await env.close();
    env = shared;
  }
});

async function unanswered() {
  // Every answer to the register comes after the client gave up (its own retries included), though
  // the first request is applied.
  await env.host.configure({ ...env.config, "reseller:timeoutSeconds": "1" });
  const args = { domain: "lost-answer.com", contacts };
  env.sandbox.operator.injectFault({ kind: "delay", ms: 2500, count: 10, match: { path: "/domains/register" } });
  const d = new Managed(env, "Domain", "lost-answer");
  const failure = await failedCreate(d, args);
  expect(failure.message).toMatch(/lost-answer\.com: the register may have been charged: no answer came back \(.*\)\. The domain is in the account now \(stage active\)\. It is kept in state as an unconfirmed order/);
  expect(money("lost-answer.com")).toEqual(["register"]);
  expect(d.state!.outputs).toMatchObject({ charged: null, unconfirmedOrder: { operation: "register", years: 1 } });
  // The service answers in time again: the next up asks for the order under its key and is answered with a replay.
  env.sandbox.operator.clearFaults();
  await env.host.configure(env.config);
  const registers = env.sandbox.operator.requests().filter((r) => r.path.endsWith("/domains/register")).length;
  const outs = await upAfterInitError(d, failure, args);
  const [order] = env.sandbox.operator.ledger().filter((e) => e.domain === "lost-answer.com");
  expect(outs).toMatchObject({ domain: "lost-answer.com", stage: "active", charged: order.amount, currency: order.currency, invoice: order.invoice });
  expect(outs.unconfirmedOrder).toBeUndefined();
  // The next up's registers only: a retry of the first run still held by the delay is logged when
  // its late answer goes out, after the count above, and carries its fault.
  const nextUps = env.sandbox.operator.requests().filter((r) => r.path.endsWith("/domains/register")).slice(registers).filter((r) => r.fault === null);
  expect(nextUps.map((r) => r.replayed)).toEqual([true]);
  expect(env.host.logs().join("\n")).toContain(`lost-answer.com: the register of an earlier run is confirmed: it charged ${order.amount} ${order.currency} (invoice ${order.invoice})`);
  expect(money("lost-answer.com")).toEqual(["register"]);
  await expectNoChangeNext(d, args);
}

test("order held for review (pending_approval): the apply ends, later ups charge nothing; after approval refresh shows it active", async () => {
  fresh({ approval: { orders: true } });
  const args = { domain: "under-review.com", contacts, renewal: { minDaysRemaining: 30 } };
  const d = new Managed(env, "Domain", "under-review");
  expect(await d.up(args)).toBe("create");
  expect(d.outputs.stage).toBe("pending_approval");
  await expectNoChangeNext(d, args);
  env.sandbox.operator.approve("under-review.com");
  expect(await d.refresh()).toBe(true);
  expect(d.outputs.stage).toBe("active");
  await expectNoChangeNext(d, args);
  expect(money("under-review.com")).toEqual(["register"]);
});

test("order rejected after review (cancelled, refunded): refresh drops it; the next up orders again under a new key, once", async () => {
  fresh({ approval: { orders: true } });
  const args = { domain: "rejected-once.com", contacts };
  const d = new Managed(env, "Domain", "rejected-once");
  expect(await d.up(args)).toBe("create");
  env.sandbox.operator.reject("rejected-once.com");
  expect(await d.refresh()).toBe(false);
  expect(money("rejected-once.com")).toEqual(["register", "refund"]);
  // The name is free again: not taken over (cancelled is not the account's), ordered once more.
  expect(await d.up(args)).toBe("create");
  expect(d.outputs.stage).toBe("pending_approval");
  expect(money("rejected-once.com")).toEqual(["register", "refund", "register"]);
});

test("order refused by the registry (failed) while the create waits: kept with its init error; the next up changes and charges nothing and says what to do; refresh drops it; the up after orders again, once", async () => {
  fresh({ processingDelaySeconds: 3600 });
  const args = { domain: "refused.com", contacts, renewal: { minDaysRemaining: 30 }, waitTimeoutSeconds: 120 };
  const d = new Managed(env, "Domain", "refused");
  const failing = d.up(args).then(
    () => undefined,
    (e: unknown) => e,
  );
  // The create is polling the pending order; the registry refuses it then.
  while (env.sandbox.operator.state().domains["refused.com"]?.stage !== "pending") await new Promise((r) => setTimeout(r, 50));
  env.sandbox.operator.fail("refused.com");
  const failure = await failing;
  expect(String(failure)).toMatch(/refused\.com: the register failed at the registry \(stage failed\)\. `pulumi refresh` drops it/);
  // Kept with its init error: the real engine runs an update next (step_generator.go, hasInitErrors).
  expect(d.state).toMatchObject({ id: "refused.com", outputs: { stage: "failed" } });
  expect(d.state!.initErrors!.length).toBeGreaterThan(0);
  expect(money("refused.com")).toEqual(["register", "refund"]);

  const mark = env.mark();
  await expect(d.up(args)).rejects.toThrow(/refused\.com: is in stage failed, no longer this account's; nothing was changed or charged/);
  expect(env.mutatingSince(mark)).toEqual([]);
  expect(money("refused.com")).toEqual(["register", "refund"]);

  env.sandbox.operator.settings({ processingDelaySeconds: 0 });
  expect(await d.refresh()).toBe(false);
  expect(d.state).toBeUndefined();
  expect(await d.up(args)).toBe("create");
  expect((await env.client.getDomain("refused.com")).stage).toBe("active");
  expect(money("refused.com")).toEqual(["register", "refund", "register"]);
  await expectNoChangeNext(d, args);
});
