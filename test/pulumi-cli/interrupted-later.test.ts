/**
 * An interrupted `pulumi up` after the registration, through the real Pulumi CLI against the sandbox
 * (the program and the method: interrupted.test.ts and ../support/interrupted-program.ts): SIGKILL at
 * the add-on's purchase and at a record's create; at a renewal, SIGINT once (a CI job's cancel: the
 * engine's Cancel reaches the provider host while the renewal is held in flight) and then, the
 * renewal due again, SIGINT twice. The add-on is bought once and its charge recorded, the record made
 * before the kill is taken over and not made twice, each renewal is paid once and recorded.
 *
 * Not run through the CLI again (each command costs a program run and a provider host): that
 * nothing is due once the renewal's new expiry is in state (test/resources/lifecycle/domain.test.ts,
 * "renewal policy"); that the up after a replayed renewal or add-on, or a record taken over, changes
 * nothing (test/hostile/killed-host.test.ts, test/resources/lifecycle/dns.test.ts, through the SDK's
 * provider host); `refresh --clear-pending-creates` after the up (once, in interrupted.test.ts's
 * README recovery).
 */
import { ResellerClient } from "../../api/client";
import { HEARD_CANCEL, pendingOf } from "../support/interrupt";
import { interruptedSuite, resourceOf, SETUP_UP, YES } from "../support/interrupted-program";

jest.setTimeout(900_000);

const suite = interruptedSuite("interrupted-later");
const pending = pendingOf;

test("SIGKILL at the add-on purchase: the stack stays locked until `pulumi cancel`; up takes the add-on over with its charge; bought once", async () => {
  const domain = "killed-addon.com";
  const stack = await suite.stackFor(domain);
  await suite.interruptedUp(stack, "/privacy", "SIGKILL");
  // The zone's create runs beside the add-on's: it may be pending too.
  expect(pending(await stack.exportState())).toContain("creating privacy");
  expect(suite.charges(domain)).toEqual(["register", "privacy"]);

  const locked = await stack.run(["up", ...YES]);
  expect(locked.code).not.toBe(0);
  expect(locked.stderr).toContain("the stack is currently locked");
  expect((await stack.run(["cancel", ...YES])).code).toBe(0);

  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  expect(up.stdout).toMatch(/WHOIS Privacy is on already, bought by an earlier run of this resource that was interrupted before it recorded the purchase; the service replayed that purchase's answer/);
  expect(resourceOf(await stack.exportState(), "privacy")).toMatchObject({ id: domain, outputs: expect.objectContaining({ charged: expect.stringMatching(/^\d+\.\d\d$/) }) });
  expect(suite.charges(domain)).toEqual(["register", "privacy"]);
});

test("SIGKILL at the record create: up takes the record made before the kill over, and makes no second one", async () => {
  const domain = "killed-record.com";
  const stack = await suite.stackFor(domain);
  await suite.interruptedUp(stack, "/records", "SIGKILL");
  expect(pending(await stack.exportState())).toEqual(["creating www"]);
  const wwws = () => suite.sandbox().operator.state().zones[domain].records.filter((r) => r.type === "CNAME" && r.name === "www");
  expect(wwws()).toHaveLength(1);

  expect((await stack.run(["cancel", ...YES])).code).toBe(0);
  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  const [live] = wwws();
  expect(up.stdout).toContain(`CNAME www.${domain}: the record exists already`);
  expect(up.stdout).toContain(`is the service's record id: ${live.id}`);
  expect(wwws()).toHaveLength(1);
  expect(resourceOf(await stack.exportState(), "www")).toMatchObject({ id: live.id });
});

test("a renewal interrupted: SIGINT once while it is in flight records it with its charge at once; due again, SIGINT twice leaves it pending and the next up replays it and records its charge; each paid once", async () => {
  const domain = "renew-twice.com";
  const stack = await suite.stackFor(domain);
  expect((await stack.run(SETUP_UP)).code).toBe(0);
  const shop = async () => resourceOf(await stack.exportState(), "shop")!;
  const before = (await shop()).outputs!;
  // A renewal due now: a one-year term has fewer than 400 days left.
  await stack.configSet("renewDays", "400");
  const once = await suite.interruptedUp(stack, `/domains/${domain}/renew`, "SIGINT");
  expect(once.code).not.toBe(0);
  expect(once.stdout).toContain("^C received; cancelling");
  expect(once.stdout).toContain(HEARD_CANCEL);
  const [renewal] = suite
    .sandbox()
    .operator.ledger()
    .filter((e) => e.domain === domain && e.action === "renew");
  const client = new ResellerClient({ baseUrl: suite.sandbox().url, apiKey: suite.sandbox().credentials.key, apiSecret: suite.sandbox().credentials.secret, rateLimitLogDir: null });
  const live = await client.getDomain(domain);
  await client.close();
  // The renewal, its new expiry and its charge are in state, and the output says what it charged.
  expect(live.expiry_date).not.toBe(before.expiryDate);
  expect((await shop()).outputs).toMatchObject({ charged: renewal.amount, currency: "USD", invoice: renewal.invoice, expiryDate: live.expiry_date });
  const printed = `${once.stdout}\n${once.stderr}`;
  expect(printed).toMatch(new RegExp(`${domain.replace(".", "\\.")}: the renewal from ${before.expiryDate} to \\d{4}-\\d{2}-\\d{2} charged ${renewal.amount.replace(".", "\\.")} USD \\(invoice ${renewal.invoice}\\); the charge is recorded in state`));
  expect(printed).not.toMatch(/changed or charged nothing/);
  expect(pending(await stack.exportState())).toEqual([]);
  expect(suite.charges(domain)).toEqual(["register", "privacy", "renew"]);

  // Due again: a two-year term left has fewer than 800 days.
  await stack.configSet("renewDays", "800");
  const twice = await suite.interruptedUp(stack, `/domains/${domain}/renew`, "SIGINT twice");
  expect(twice.code).not.toBe(0);
  expect(pending(await stack.exportState())).toEqual(["updating shop"]);
  expect(suite.charges(domain)).toEqual(["register", "privacy", "renew", "renew"]);

  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  expect(up.stdout).toMatch(/by a renewal of an earlier run of this resource, interrupted before it recorded it; the service replayed that renewal's answer/);
  expect(pending(await stack.exportState())).toEqual([]);
  expect(suite.charges(domain)).toEqual(["register", "privacy", "renew", "renew"]);
});
