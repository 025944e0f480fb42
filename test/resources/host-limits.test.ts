/**
 * The validation limits a host context hands to `check`: taken from the account's contract, one
 * object per contract, and the schemas that depend on them built once per distinct limits (a
 * schema rebuilt on every check cost the host most of a record's check: zod compiles each new
 * schema on its first parse).
 */
import { z } from "zod";
import { checkRecordInputs } from "../../resources/dns-record/schema";
import { DEFAULT_LIMITS, withLimits, type Limits } from "../../resources/kit/check";
import { testHost } from "../support/host-context";

const settings = { baseUrl: "http://127.0.0.1:9", apiKey: "k", apiSecret: "s" };

test("without overrides: the default limits, one object for every call", () => {
  const { ctx } = testHost();
  expect(ctx.limits()).toEqual(DEFAULT_LIMITS);
  expect(ctx.limits()).toBe(ctx.limits());
});

test("with a contract override: its limits, one object until the settings change, and check follows them", () => {
  const { host, ctx } = testHost();
  host.useSettings({ ...settings, contract: { ttl: { min: 300 } } });
  const limits = ctx.limits();
  expect(limits.ttl).toEqual({ min: 300, max: DEFAULT_LIMITS.ttl.max });
  expect(ctx.limits()).toBe(limits);
  const r = checkRecordInputs({ zone: "example.com", type: "A", name: "www", content: "192.0.2.1", ttl: 120 }, ctx.limits());
  expect(r.failures).toEqual([{ property: "ttl", reason: "ttl: 120 is below the minimum of 300 seconds" }]);

  host.useSettings({ ...settings, contract: { ttl: { min: 600 } } });
  expect(ctx.limits()).not.toBe(limits);
  expect(ctx.limits().ttl.min).toBe(600);
});

test("a schema of the limits is built once per distinct limits, whatever object carries them", () => {
  const builds: Limits[] = [];
  const schemaFor = withLimits((l) => {
    builds.push(l);
    return z.number().max(l.ttl.max);
  });
  const copy = (l: Limits): Limits => JSON.parse(JSON.stringify(l)) as Limits;
  const first = schemaFor(copy(DEFAULT_LIMITS));
  expect(schemaFor(copy(DEFAULT_LIMITS))).toBe(first);
  expect(builds).toHaveLength(1);
  const other = schemaFor({ ...copy(DEFAULT_LIMITS), ttl: { min: 60, max: 600 } });
  expect(other).not.toBe(first);
  expect(builds).toHaveLength(2);
  expect(other.safeParse(601).success).toBe(false);
  expect(first.safeParse(601).success).toBe(true);
});
