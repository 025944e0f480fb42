/**
 * `pulumi preview` with inputs not known yet (another resource's outputs arrive as UNKNOWN): check and
 * diff of ChildHost, PrivacyAddon, Protection, EppCode and ZoneTemplate through the SDK's provider
 * host over gRPC. Check must not fail on an unknown, must still fail on a known bad value next to
 * one, and diff must say what may happen: replace when the unknown field names the object, update
 * when it changes in place. Neither reads nor writes anything on the service.
 */
import { UNKNOWN } from "../../../engine/host";
import type { Kind } from "../../../resources/kinds";
import { Managed, startEnv, type Env } from "./harness";

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => env?.close());

type Args = Record<string, unknown>;

/** Known inputs of each kind, and the same with one value (or a nested value) unknown. */
const KNOWN: Record<string, { kind: Kind; args: Args; unknowns: Record<string, Args> }> = {
  childHost: {
    kind: "ChildHost",
    args: { domain: "demo-labs.io", hostname: "ns1", ipv4: ["192.0.2.53"], ipv6: ["2001:db8::53"] },
    unknowns: {
      domain: { domain: UNKNOWN },
      hostname: { hostname: UNKNOWN },
      ipv4: { ipv4: UNKNOWN },
      "ipv4[1]": { ipv4: ["192.0.2.53", UNKNOWN] },
      ipv6: { ipv6: UNKNOWN },
    },
  },
  privacy: { kind: "PrivacyAddon", args: { domain: "demo-reseller.com", adopt: true }, unknowns: { domain: { domain: UNKNOWN }, adopt: { adopt: UNKNOWN } } },
  protection: { kind: "Protection", args: { domain: "protected-brand.com", adopt: true }, unknowns: { domain: { domain: UNKNOWN }, adopt: { adopt: UNKNOWN } } },
  eppCode: { kind: "EppCode", args: { domain: "demo-shop.net", trigger: 1 }, unknowns: { domain: { domain: UNKNOWN }, trigger: { trigger: UNKNOWN } } },
  template: {
    kind: "ZoneTemplate",
    args: { zone: "demo-reseller.com", templateId: "web", variables: { ipv4: "192.0.2.1" }, conflictStrategy: "skip", adopt: true },
    unknowns: {
      zone: { zone: UNKNOWN },
      templateId: { templateId: UNKNOWN },
      variables: { variables: UNKNOWN },
      "variables.ipv4": { variables: { ipv4: UNKNOWN } },
      conflictStrategy: { conflictStrategy: UNKNOWN },
    },
  },
};

test("check passes with any input unknown, alone or all at once, and still fails on a known bad value beside an unknown", async () => {
  const mark = env.mark();
  for (const [name, { kind, args, unknowns }] of Object.entries(KNOWN)) {
    const r = new Managed(env, kind, `check-${name}`);
    expect({ name, failures: (await r.check(args)).failures }).toEqual({ name, failures: [] });
    for (const [field, patch] of Object.entries(unknowns)) {
      const c = await r.check({ ...args, ...patch });
      expect({ name, field, failures: c.failures }).toEqual({ name, field, failures: [] });
      // The unknown reaches diff as sent.
      const key = Object.keys(patch)[0];
      expect(c.inputs[key]).toEqual(patch[key]);
    }
    const allUnknown = Object.fromEntries(Object.keys(args).map((k) => [k, UNKNOWN]));
    expect({ name, failures: (await r.check(allUnknown)).failures }).toEqual({ name, failures: [] });
  }

  // Unknowns do not hide what is known to be wrong.
  const bad: [Kind, Args, string][] = [
    ["ChildHost", { domain: UNKNOWN, hostname: "ns1", ipv4: ["192.0.2.300"] }, "ipv4[0]"],
    ["ChildHost", { domain: "demo-labs.io", hostname: "ns1.elsewhere.test", ipv4: [UNKNOWN] }, "hostname"],
    ["PrivacyAddon", { domain: "not a domain", adopt: UNKNOWN }, "domain"],
    ["Protection", { domain: "demo-labs.io", adopt: "yes" }, "adopt"],
    ["EppCode", { domain: "-bad-.com", trigger: UNKNOWN }, "domain"],
    ["ZoneTemplate", { zone: UNKNOWN, templateId: "web", variables: UNKNOWN, conflictStrategy: "merge" }, "conflictStrategy"],
    ["ZoneTemplate", { zone: "demo-reseller.com", templateId: UNKNOWN, variables: { ipv4: 4 } }, "variables.ipv4"],
  ];
  for (const [kind, args, property] of bad) {
    const c = await new Managed(env, kind, "bad").check(args);
    expect({ kind, properties: c.failures.map((f) => f.property) }).toEqual({ kind, properties: [property] });
  }
  // Check writes nothing (its reads predict up: resources/host/preflight.ts).
  expect(env.mutatingSince(mark)).toEqual([]);
});

test("diff with unknowns: replace when the unknown names the object, update when it changes in place; the resolved values then change nothing", async () => {
  // One of each in state: made (child host, EPP code) or adopted (privacy, protection, template).
  const made: Record<string, Managed> = {};
  for (const [name, { kind, args }] of Object.entries(KNOWN)) {
    made[name] = new Managed(env, kind, `diff-${name}`);
    expect(await made[name].up(args)).toBe("create");
  }

  const expected: Record<string, Record<string, { step: string; replaces: string[] }>> = {
    childHost: {
      // "ns1" means ns1.<domain>: with the domain unknown, the full host name is unknown too.
      domain: { step: "replace", replaces: ["domain", "hostname"] },
      hostname: { step: "replace", replaces: ["hostname"] },
      ipv4: { step: "update", replaces: [] },
      "ipv4[1]": { step: "update", replaces: [] },
      ipv6: { step: "update", replaces: [] },
    },
    privacy: { domain: { step: "replace", replaces: ["domain"] }, adopt: { step: "same", replaces: [] } },
    protection: { domain: { step: "replace", replaces: ["domain"] }, adopt: { step: "same", replaces: [] } },
    eppCode: { domain: { step: "replace", replaces: ["domain"] }, trigger: { step: "replace", replaces: ["trigger"] } },
    template: {
      zone: { step: "replace", replaces: ["zone"] },
      templateId: { step: "replace", replaces: ["templateId"] },
      variables: { step: "replace", replaces: ["variables"] },
      "variables.ipv4": { step: "replace", replaces: ["variables"] },
      conflictStrategy: { step: "update", replaces: [] },
    },
  };

  const mark = env.mark();
  for (const [name, { args, unknowns }] of Object.entries(KNOWN)) {
    const r = made[name];
    expect({ name, step: (await r.preview(args)).step }).toEqual({ name, step: "same" });
    for (const [field, patch] of Object.entries(unknowns)) {
      const p = await r.preview({ ...args, ...patch });
      expect({ name, field, step: p.step, replaces: p.diff!.replaces }).toEqual({ name, field, ...expected[name][field] });
    }
  }
  // A template replace removes the old application's records first; the others create before deleting.
  expect((await made.template.preview({ ...KNOWN.template.args, zone: UNKNOWN })).diff!.deleteBeforeReplace).toBe(true);
  expect((await made.childHost.preview({ ...KNOWN.childHost.args, hostname: UNKNOWN })).diff!.deleteBeforeReplace).toBe(false);
  expect((await made.eppCode.preview({ ...KNOWN.eppCode.args, trigger: UNKNOWN })).diff!.deleteBeforeReplace).toBe(false);
  // Preview writes nothing (its reads predict up: resources/host/preflight.ts).
  expect(env.mutatingSince(mark)).toEqual([]);

  // The unknowns resolve to the values already applied: up changes nothing.
  for (const [name, { args }] of Object.entries(KNOWN)) expect({ name, step: await made[name].up(args) }).toEqual({ name, step: "same" });
  expect(env.mutatingSince(mark)).toEqual([]);
  await made.childHost.destroy();
});
