/**
 * A cancel in the deletes, through the real Pulumi CLI against the sandbox (the program and the
 * method: interrupted.test.ts and ../support/interrupted-program.ts): a destroy's, which the CLI ends
 * with exit code 0 though it stopped them, and an up's, which fails; either is finished by running
 * the command again.
 */
import { pendingOf } from "../support/interrupt";
import { interruptedSuite, resourceOf, SETUP_UP, YES } from "../support/interrupted-program";

jest.setTimeout(900_000);

const suite = interruptedSuite("interrupted-deletes");
const pending = pendingOf;

test("SIGINT once at a destroy's record delete: the CLI stops the deletes left yet exits 0 and says they were deleted; the provider says to run it again, which deletes the rest", async () => {
  const domain = "sigint-destroy.com";
  const stack = await suite.stackFor(domain);
  await stack.must(SETUP_UP);
  const run = await suite.interruptedUp(stack, "/records/", "SIGINT", ["destroy", ...YES], "DELETE");
  // The Pulumi CLI (v3.274.1) reports a destroy cancelled in its deletes as a success.
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("^C received; cancelling");
  expect(run.stdout).toContain("The resources in the stack have been deleted");
  expect(run.stdout).toContain("no new request is sent. Run the command again until it changes nothing");
  let state = await stack.exportState();
  expect(resourceOf(state, "www")).toBeUndefined();
  expect(resourceOf(state, "shop")).toMatchObject({ id: domain });
  expect(resourceOf(state, "zone")).toBeDefined();
  expect(suite.sandbox().operator.state().zones[domain]?.records.some((r) => r.name === "www")).toBe(false);
  // The recovery: destroy again.
  const again = await stack.run(["destroy", ...YES]);
  expect(again.code).toBe(0);
  state = await stack.exportState();
  expect((state.deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic"))).toEqual([]);
  expect(pending(state)).toEqual([]);
  expect(suite.charges(domain)).toEqual(["register", "privacy"]);
});

test("SIGINT once at the record delete of an up whose program dropped the record and its add-on: unlike a destroy, the up fails; up again deletes the add-on", async () => {
  const domain = "sigint-drop.com";
  const stack = await suite.stackFor(domain);
  await stack.must(SETUP_UP);
  await stack.configSet("drop", "true");
  const run = await suite.interruptedUp(stack, "/records/", "SIGINT", ["up", ...YES], "DELETE");
  expect(run.code).not.toBe(0);
  expect(run.stdout).toContain("^C received; cancelling");
  // The program is cancelled with the up, which fails on it ("context canceled" or "Program exited
  // with non-zero exit code: -1", as the timing goes).
  expect(run.stdout).toMatch(/pulumi:pulumi:Stack \S+ \*\*failed\*\* 1 error/);
  expect(run.stdout).toContain("Run the command again until it changes nothing");
  let state = await stack.exportState();
  expect(resourceOf(state, "www")).toBeUndefined();
  expect(resourceOf(state, "privacy")).toMatchObject({ id: domain });
  const again = await stack.run(["up", ...YES]);
  expect(again.code).toBe(0);
  state = await stack.exportState();
  expect(resourceOf(state, "privacy")).toBeUndefined();
  expect(pending(state)).toEqual([]);
  expect(suite.charges(domain)).toEqual(["register", "privacy"]);
});
