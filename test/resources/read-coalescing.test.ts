/**
 * Reads coalesced when the engine refreshes a stack, through the SDK's provider host against the sandbox:
 * - an estate of 100 domains, each with contacts, a zone and 5 records, refreshes in at most 210
 *   calls (one list of domains, one of zones, contacts and one record list per domain), and in at
 *   most 110 when the program manages no contacts; an out-of-band change is still found. One
 *   estate serves both programs, each adopted by a stack of its own before the changes;
 * - with contract.listEntries saying the list entries lack what a read needs ("summary"; the
 *   sandbox then answers so), reads fall back to one call per object and still see everything;
 * - concurrent reads of one zone share one list in flight: one call per page, whatever the parallelism.
 *
 * Each command is dev/engine/'s own code in this process with a provider host of its own, as the CLI
 * starts one per command: the up is a Deployment given the registrations the estate's program
 * (dev/bench/programs/estate-program.ts, literal arguments only) sends (the lifecycle harness's
 * deployDeclared), the refresh dev/engine/'s RefreshStep
 * for every resource, 16 at once (Engine.refresh with parallel 16). No program process: the count
 * is the provider host's.
 */
import { startProviderHost } from "../../dev/engine/host";
import type { ResourceState } from "../../dev/engine/state";
import { Gate, refreshOne } from "../../dev/engine/step-executor";
import { ResellerClient } from "../../api/client";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { buildEstate as buildEstateIn, ESTATE_CONTACT, estateDomain, ESTATE_RECORDS } from "../support/estate";
import { deployDeclared, ROOT, type Declared } from "./lifecycle/harness";

const DOMAINS = 100;
const RECORDS = ESTATE_RECORDS;
const name = estateDomain;
const buildEstate = (sb: SandboxHandle) => buildEstateIn(sb, DOMAINS);
const PARALLEL = 16;

/** What dev/bench/programs/estate-program.ts declares. */
function estateProgram(withContacts: boolean): Declared[] {
  return Array.from({ length: DOMAINS }, (_x, i): Declared[] => {
    const d = estateDomain(i);
    return [
      { kind: "Domain", name: d, args: { domain: d, adopt: true, ...(withContacts ? { contacts: { registrant: ESTATE_CONTACT } } : {}) } },
      { kind: "DnsZone", name: `${d}-zone`, args: { domain: d, adopt: true } },
      ...Array.from({ length: RECORDS }, (_y, k): Declared => ({ kind: "DnsRecord", name: `${d}-host${k}`, args: { zone: d, type: "A", name: `host${k}`, content: `198.51.100.${k + 1}`, ttl: 300, adopt: true } })),
    ];
  }).flat();
}

/** A program that adopts one seeded domain and one seeded zone. */
const ADOPT_PAIR: Declared[] = [
  { kind: "Domain", name: "d", args: { domain: "demo-labs.io", adopt: true } },
  { kind: "DnsZone", name: "z", args: { domain: "demo-reseller.com", adopt: true } },
];

/** A stack over `sb`: `up` of declared resources and `refresh`, each a command with a host of its own. */
function stackFor(sb: SandboxHandle, contract?: object, stackName = "dev") {
  const config = {
    "reseller:apiKey": sb.credentials.key,
    "reseller:apiSecret": sb.credentials.secret,
    "reseller:baseUrl": sb.url,
    "reseller:requestsPerMinute": "1000000",
    ...(contract ? { "reseller:contract": JSON.stringify(contract) } : {}),
  };
  let state: ResourceState[] = [];
  const withHost = async <T>(body: (host: Awaited<ReturnType<typeof startProviderHost>>) => Promise<T>): Promise<T> => {
    const host = await startProviderHost({ cwd: ROOT, env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined } });
    try {
      await host.configure(config);
      return await body(host);
    } finally {
      await host.close();
    }
  };
  return {
    resources: () => state,
    /** `pulumi up` of a program declaring `declared`: its steps. */
    up: (declared: Declared[]) =>
      withHost(async (host) => {
        const run = await deployDeclared(host, { preview: false, olds: state, parallel: PARALLEL, project: "reseller", stack: stackName }, declared);
        if (run.errors.length) throw new Error(run.errors.join("; "));
        state = run.state;
        return run.steps;
      }),
    /** `pulumi refresh`: every resource read, 16 at once; its steps. */
    refresh: () =>
      withHost(async (host) => {
        const gate = new Gate(PARALLEL);
        const results = await Promise.all(state.filter((r) => r.custom).map((r) => gate.run(() => refreshOne(host, r))));
        const steps = results.map((x) => x.step);
        expect(steps.filter((x) => x.error)).toEqual([]);
        state = state.filter((r) => !steps.some((x) => x.op === "delete" && x.urn === r.urn));
        return steps;
      }),
  };
}

/** Requests of a refresh, by endpoint kind. */
function refreshCalls(sb: SandboxHandle) {
  const log = sb.operator.requests();
  const count = (re: RegExp) => log.filter((e) => re.test(e.path.split("?")[0])).length;
  return {
    total: log.length,
    domainList: count(/\/domains$/),
    zoneList: count(/\/dns\/zones$/),
    contacts: count(/\/contacts$/),
    recordLists: count(/\/records$/),
    domainGets: count(/\/domains\/[^/]+$/),
    zoneGets: count(/\/dns\/zones\/[^/]+$/),
  };
}

describe("an estate of 100 domains with zones and 5 records each", () => {
  // One estate serves both programs: each is a stack of its own adopting it (the CLI's state is per
  // stack), both adopt before the out-of-band changes, and the ups change nothing, so each stack's
  // refresh sees the estate exactly as it would alone.
  let sb: SandboxHandle;
  const cases = [
    { withContacts: true, goal: 210 },
    { withContacts: false, goal: 110 },
  ];
  const stacks = new Map<boolean, ReturnType<typeof stackFor>>();
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, requestsPerMinute: 1_000_000, processingDelaySeconds: 0 });
    await buildEstate(sb);
  }, 120_000);
  afterAll(async () => sb?.close());

  test("a program adopts all of it, contacts managed or not, and changes nothing", async () => {
    sb.operator.clearRequests();
    for (const { withContacts } of cases) {
      const stack = stackFor(sb, undefined, withContacts ? "dev" : "dev-no-contacts");
      const up = await stack.up(estateProgram(withContacts));
      expect(up.filter((x) => x.op === "create")).toHaveLength(DOMAINS * (2 + RECORDS));
      stacks.set(withContacts, stack);
    }
    expect(sb.operator.requests().filter((r) => r.mutating)).toEqual([]);
    // Slow by design: two ups that adopt 700 resources each, each a call to the SDK's provider host.
  }, 600_000);

  describe("after out-of-band changes (a domain unlocked, a record changed, one deleted)", () => {
    beforeAll(async () => {
      const c = new ResellerClient({ baseUrl: sb.url, apiKey: sb.credentials.key, apiSecret: sb.credentials.secret, requestsPerMinute: 1_000_000, rateLimitLogDir: null });
      try {
        await c.setLock(name(7), false);
        const recs = await c.listRecords(name(42));
        await c.updateRecord(name(42), recs.find((r) => r.name === "host1")!.id, { content: "203.0.113.9" });
        await c.deleteRecord(name(43), (await c.listRecords(name(43))).find((r) => r.name === "host4")!.id);
      } finally {
        await c.close();
      }
    });

    test.each(cases)("refreshes in at most $goal calls and still finds them (contacts managed: $withContacts)", async ({ withContacts, goal }) => {
      const stack = stacks.get(withContacts);
      if (!stack) throw new Error("the up of this program failed (see the test before)");
      sb.operator.clearRequests();
      const refreshed = await stack.refresh();
      const calls = refreshCalls(sb);
      expect(calls.total).toBeLessThanOrEqual(goal);
      expect(calls).toMatchObject({ domainList: 1, zoneList: 1, recordLists: DOMAINS, contacts: withContacts ? DOMAINS : 0, domainGets: 0, zoneGets: 0 });

      // The records' changes show as steps; the unlock shows in the domain's refreshed outputs (the
      // engine classifies a refresh through Diff, and the program declares no lock state).
      const changed = refreshed.filter((s) => s.op !== "same" && !s.urn.endsWith(`::${name(7)}`)).map((s) => `${s.op} ${s.urn.split("::").pop()}`).sort();
      expect(changed).toEqual([`delete ${name(43)}-host4`, `update ${name(42)}-host1`].sort());
      const byName = Object.fromEntries(stack.resources().map((r) => [r.name, r]));
      expect(byName[name(7)].outputs.locked).toBe(false);
      expect(byName[`${name(42)}-host1`].outputs.content).toBe("203.0.113.9");
      // What is tested is the call count, not the time (`npm run bench` measures that); the bound
      // leaves room for a loaded machine rather than for a regression.
    }, 600_000);
  });
});

test("with list entries that lack what a read needs (contract: summary), reads fall back to one call per object", async () => {
  const contract = { listEntries: { domains: "summary", zones: "summary" } } as const;
  const sb = await startSandbox({ port: 0, requestsPerMinute: 1_000_000, processingDelaySeconds: 0, contract });
  try {
    const stack = stackFor(sb, contract);
    await stack.up(ADOPT_PAIR);
    const c = new ResellerClient({ baseUrl: sb.url, apiKey: sb.credentials.key, apiSecret: sb.credentials.secret, contract, rateLimitLogDir: null });
    // The sandbox follows the contract: list entries are summaries.
    expect(Object.keys((await c.listDomains())[0]).sort()).not.toContain("nameservers");
    await c.setLock("demo-labs.io", false);
    await c.close();
    sb.operator.clearRequests();
    const refreshed = await stack.refresh();
    const calls = refreshCalls(sb);
    expect(calls).toMatchObject({ domainList: 0, zoneList: 0, domainGets: 1, zoneGets: 1 });
    expect(refreshed.filter((s) => s.urn.endsWith("::d"))).toHaveLength(1);
    expect(stack.resources().find((r) => r.name === "d")?.outputs.locked).toBe(false);
  } finally {
    await sb.close();
  }
}, 120_000);
