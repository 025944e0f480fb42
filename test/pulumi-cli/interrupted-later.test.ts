/**
 * An interrupted `pulumi up` after the registration, through the real Pulumi CLI against the sandbox
 * (the program and the method: interrupted.test.ts and ../support/interrupted-program.ts): SIGKILL at
 * the add-on's purchase and at a record's create, SIGINT twice at a renewal, each at the request held
 * in flight by the sandbox. The add-on is bought once and its charge recorded, the record made before
 * the kill is taken over and not made twice, the renewal is paid once.
 */
import { pendingOf } from "../support/interrupt";
import { CLEAR, interruptedSuite, resourceOf, SETUP_UP, YES } from "../support/interrupted-program";

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
  expect((await stack.run(CLEAR)).code).toBe(0);
  expect(pending(await stack.exportState())).toEqual([]);
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
  expect((await stack.run(CLEAR)).code).toBe(0);
  expect((await stack.run(["preview", "--expect-no-changes", "--non-interactive"])).code).toBe(0);
});

test("SIGINT twice at a renewal: the next up replays the renewal and records its charge; it is paid once", async () => {
  const domain = "renew-twice.com";
  const stack = await suite.stackFor(domain);
  expect((await stack.run(SETUP_UP)).code).toBe(0);
  // A renewal due now: a one-year term has fewer than 400 days left.
  await stack.configSet("renewDays", "400");
  const run = await suite.interruptedUp(stack, `/domains/${domain}/renew`, "SIGINT twice");
  expect(run.code).not.toBe(0);
  expect(pending(await stack.exportState())).toEqual(["updating shop"]);
  expect(suite.charges(domain)).toEqual(["register", "privacy", "renew"]);

  const up = await stack.run(["up", ...YES]);
  expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: "" });
  expect(up.stdout).toMatch(/by a renewal of an earlier run of this resource, interrupted before it recorded it; the service replayed that renewal's answer/);
  const state = await stack.exportState();
  expect(pending(state)).toEqual([]);
  expect(suite.charges(domain)).toEqual(["register", "privacy", "renew"]);
  expect((await stack.run(["preview", "--expect-no-changes", "--non-interactive"])).code).toBe(0);
});
