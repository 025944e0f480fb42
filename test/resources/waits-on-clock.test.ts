/**
 * The handlers' waits, in process, on virtual time: the registration wait of a Domain create, the
 * delegation wait of a DnsZone create, and a zone delete's wait for this command's record deletes
 * and its quiet span. A real Host and HostContext (test/support/host-context.ts) on a ManualClock
 * that moves by itself to the next wake-up, against a sandbox on the same clock: minutes of waiting
 * take the time the requests take. The lifecycle tests keep one run of each path through the SDK's
 * provider host, with short or no waits.
 */
import { ManualClock } from "../../api/clock";
import type { ResellerClient } from "../../api/client";
import type { SandboxHandle } from "../../sandbox/index";
import { sandboxOnClock } from "../support/sandbox-on-clock";
import type { HostContext } from "../../resources/kit/context";
import { domainHandler } from "../../resources/domain/handler";
import { recordHandler } from "../../resources/dns-record/handler";
import { zoneHandler, ZONE_DELETE_QUIET_MS } from "../../resources/dns-zone/handler";
import { type RecordOutputs } from "../../resources/dns-record/state";
import { type ZoneOutputs } from "../../resources/dns-zone/state";
import { checkDomainInputs } from "../../resources/domain/schema";
import { checkRecordInputs } from "../../resources/dns-record/schema";
import { checkZoneInputs } from "../../resources/dns-zone/schema";
import { type CheckResult } from "../../resources/kit/check";
import { testHost } from "../support/host-context";

const contacts = {
  registrant: { name: "Wait Test", email: "wait@example.test", phone: "+441234567890", addressLine1: "1 Test Road", city: "London", state: "", postalCode: "E1 6AN", country: "GB" },
};
const SERVICE_NS = ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"];
const API = "/api/v1";

let clock: ManualClock;
let sandbox: SandboxHandle;
let client: ResellerClient;
let ctx: HostContext;
let hostLines: string[];
/**
 * The host's log lines but the client's clock-skew notice: the host hands its client no clock, so
 * the client signs by the real time and corrects itself, once, when virtual time has run 300 s ahead.
 */
const logged = (): string[] => hostLines.filter((l) => !/ off the service clock; signing with the service's time$/.test(l));

async function start(processingDelaySeconds: number): Promise<void> {
  clock = new ManualClock({ start: Date.now(), autoAdvance: true });
  ({ sandbox, client } = await sandboxOnClock(clock, 100_000, processingDelaySeconds));
  const t = testHost({ clock });
  t.host.useSettings({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 100_000 });
  ({ ctx, lines: hostLines } = t);
}
afterEach(async () => {
  await client?.close();
  await sandbox?.close();
});

function inputs<T>(r: CheckResult<T>): T {
  if (!r.ok) throw new Error(`check failed: ${JSON.stringify(r)}`);
  return r.inputs;
}

/**
 * Seconds from the first answered request matching `what` to each one, by the sandbox's (virtual)
 * clock. Answered: the host's client signs by the real clock, so once virtual time runs ahead a
 * request may be refused for skew and re-sent, corrected, by the client.
 */
function secondsOf(what: (e: { method: string; path: string }) => boolean): number[] {
  const hits = sandbox.operator.requests().filter((e) => e.status === 200 && what(e));
  return hits.map((e) => (Date.parse(e.at) - Date.parse(hits[0].at)) / 1000);
}

/** A context whose API answers a call of `method` only after `ms` of the clock (a slow answer, as the engine may meet). */
function slowOn(method: "deleteRecord", ms: number): HostContext {
  const api = ctx.api();
  const slow = new Proxy(api, {
    get: (target, prop, receiver) => {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== method || typeof v !== "function") return typeof v === "function" ? v.bind(target) : v;
      return async (...args: unknown[]) => {
        await clock.sleep(ms);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { ...ctx, api: () => slow };
}

describe("Domain create: the registration wait", () => {
  test("a registration processed in 5 minutes: polled on the product's schedule, logged every 30 s with what remains, active at the poll after", async () => {
    await start(300);
    const domain = "slow-registry.com";
    const t0 = clock.now();
    const { outs } = await domainHandler.create(ctx, inputs(checkDomainInputs({ domain, contacts, waitTimeoutSeconds: 600, resourceUrn: "urn:pulumi:test::p::reseller:index:Domain::slow" })));
    expect(outs).toMatchObject({ domain, stage: "active", charged: "12.00" });
    expect(clock.now() - t0).toBeGreaterThanOrEqual(367_000);
    expect(secondsOf((e) => e.method === "GET" && e.path === `${API}/domains/${domain}`).slice(0, 10)).toEqual([0, 1, 3, 7, 15, 31, 63, 127, 247, 367]);
    const wait = logged().filter((l) => l.includes("registry"));
    expect(wait[0]).toBe(`reseller: ${domain}: waiting up to 600 s for the registry to finish (stage pending)`);
    expect(wait.slice(1)).toEqual([30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 330, 360].map((s) => `reseller: ${domain}: still waiting for the registry to finish after ${s} s (stage pending); ${600 - s} s left`));
  });

  test("at the deadline the create ends in stage pending with a warning, charged once; refresh follows it to active once processed", async () => {
    await start(3600);
    const domain = "bounded-wait.com";
    const urn = "urn:pulumi:test::p::reseller:index:Domain::bounded";
    const t0 = clock.now();
    const { outs } = await domainHandler.create(ctx, inputs(checkDomainInputs({ domain, contacts, waitTimeoutSeconds: 120, resourceUrn: urn })));
    expect(clock.now() - t0).toBeGreaterThanOrEqual(120_000);
    expect(outs).toMatchObject({ domain, stage: "pending", charged: "12.00" });
    expect(secondsOf((e) => e.method === "GET" && e.path === `${API}/domains/${domain}`).slice(0, 8)).toEqual([0, 1, 3, 7, 15, 31, 63, 120]);
    expect(logged()).toContain(`reseller: ${domain}: waiting up to 120 s for the registry to finish (stage pending)`);
    expect(logged()).toContain(`reseller: ${domain}: still waiting for the registry to finish after 90 s (stage pending); 30 s left`);
    expect(logged().slice(-2)).toEqual([
      `reseller: ${domain}: still in stage pending after 120 s; the next refresh will follow it`,
      `reseller: ${domain}: register is in stage pending; the apply ends here and later refreshes follow it`,
    ]);
    expect(sandbox.operator.ledger().filter((e) => e.domain === domain).map((e) => e.action)).toEqual(["register"]);

    // The registry's hour passes on the same clock: a read shows the domain active.
    clock.advance(3600_000);
    const read = await domainHandler.read(ctx, domain, outs);
    expect(read).toMatchObject({ id: domain, props: { stage: "active" } });
  });

  test("waitTimeoutSeconds 0: one read, no wait, the warning", async () => {
    await start(3600);
    const domain = "no-wait.com";
    const t0 = clock.now();
    const { outs } = await domainHandler.create(ctx, inputs(checkDomainInputs({ domain, contacts, waitTimeoutSeconds: 0, resourceUrn: "urn:pulumi:test::p::reseller:index:Domain::nowait" })));
    expect(clock.now()).toBe(t0);
    expect(outs.stage).toBe("pending");
    expect(logged().filter((l) => l.includes("registry") || l.includes("stage pending"))).toEqual([
      `reseller: ${domain}: still in stage pending after 0 s; the next refresh will follow it`,
      `reseller: ${domain}: register is in stage pending; the apply ends here and later refreshes follow it`,
    ]);
    expect(secondsOf((e) => e.method === "GET" && e.path === `${API}/domains/${domain}`)).toEqual([0]);
  });
});

describe("DnsZone create: the delegation wait", () => {
  const zoneUrn = "urn:pulumi:test::p::reseller:index:DnsZone::labs";

  test("never delegated: polls the check on the product's schedule up to the deadline, logs what remains, warns what to do; the zone is in state, pending", async () => {
    await start(0);
    const domain = "demo-labs.io";
    await client.setNameservers(domain, ["ns1.elsewhere.test", "ns2.elsewhere.test"]);
    const t0 = clock.now();
    const { outs } = await zoneHandler.create(ctx, inputs(checkZoneInputs({ domain, waitForDelegation: true, waitTimeoutSeconds: 300, resourceUrn: zoneUrn })));
    expect(clock.now() - t0).toBe(300_000);
    expect(outs).toMatchObject({ domain, status: "pending_nameserver", delegated: false, nameservers: SERVICE_NS });
    expect(secondsOf((e) => e.method === "POST" && e.path === `${API}/dns/zones/${domain}/check`)).toEqual([0, 1, 3, 7, 15, 31, 63, 127, 247, 300]);
    const awaited = `delegation to ${SERVICE_NS.join(", ")}`;
    expect(logged()).toEqual([
      `reseller: ${domain}: waiting up to 300 s for ${awaited} (zone pending_nameserver)`,
      ...[30, 60, 90, 120, 150, 180, 210, 240, 270].map((s) => `reseller: ${domain}: still waiting for ${awaited} after ${s} s (zone pending_nameserver); ${300 - s} s left`),
      `reseller: ${domain}: not delegated after 300 s (status pending_nameserver); point the domain's nameservers at ${SERVICE_NS.join(", ")}. Records cannot be changed until the zone is active.`,
    ]);
  });

  test("delegated while the wait polls: the next poll ends it, active", async () => {
    await start(0);
    const domain = "demo-labs.io";
    await client.setNameservers(domain, ["ns1.elsewhere.test", "ns2.elsewhere.test"]);
    // The registrant delegates 20 s into the wait, before the poll at 31 s.
    const t0 = clock.now();
    const api = ctx.api();
    const delegating = new Proxy(api, {
      get: (target, prop, receiver) => {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (prop === "checkZone")
          return async (d: string) => {
            if (clock.now() - t0 >= 20_000) await client.setNameservers(d, SERVICE_NS);
            return target.checkZone(d);
          };
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const { outs } = await zoneHandler.create({ ...ctx, api: () => delegating }, inputs(checkZoneInputs({ domain, waitForDelegation: true, waitTimeoutSeconds: 300, resourceUrn: zoneUrn })));
    expect(outs).toMatchObject({ domain, status: "active", delegated: true });
    expect(secondsOf((e) => e.method === "POST" && e.path === `${API}/dns/zones/${domain}/check`)).toEqual([0, 1, 3, 7, 15, 31]);
    expect(clock.now() - t0).toBeLessThan(32_000);
    expect(logged().filter((l) => l.includes("not delegated"))).toEqual([]);
  });
});

describe("DnsZone delete: this command's record deletes, then a quiet span", () => {
  const DOMAIN = "demo-shop.net";
  const zoneUrn = "urn:pulumi:test::p::reseller:index:DnsZone::shop";

  async function zone(): Promise<ZoneOutputs> {
    await client.setNameservers(DOMAIN, SERVICE_NS);
    return (await zoneHandler.create(ctx, inputs(checkZoneInputs({ domain: DOMAIN, waitForDelegation: true, waitTimeoutSeconds: 30, resourceUrn: zoneUrn })))).outs;
  }
  async function record(name: string, content: string): Promise<{ id: string; outs: RecordOutputs }> {
    return recordHandler.create(ctx, inputs(checkRecordInputs({ zone: DOMAIN, type: "A", name, content, resourceUrn: `urn:pulumi:test::p::reseller:index:DnsRecord::${name}` })));
  }
  const zoneExists = async (): Promise<boolean> => (await client.listZones()).some((z) => z.domain === DOMAIN);

  test("records nobody manages: refused once no record delete of the zone has run for the quiet span, the zone kept; nothing logged", async () => {
    await start(0);
    const outs = await zone();
    await client.createRecord(DOMAIN, { type: "TXT", name: "hand", content: "nobody's", ttl: 3600 });
    hostLines.length = 0;
    const t0 = clock.now();
    await expect(zoneHandler.delete(ctx, DOMAIN, outs)).rejects.toThrow(
      `${DOMAIN}: refusing to delete the zone: it still holds 1 record(s) this stack does not manage (TXT hand). Deleting a zone deletes all its records. Remove them, or set forceDestroy: true on the DnsZone.`,
    );
    expect(clock.now() - t0).toBe(ZONE_DELETE_QUIET_MS);
    expect(ZONE_DELETE_QUIET_MS).toBe(2000);
    expect(logged()).toEqual([]);
    expect(await zoneExists()).toBe(true);
  });

  test("a delegation NS below the apex is the user's record: it blocks the delete; the service's apex NS do not; forceDestroy deletes at once", async () => {
    await start(0);
    const outs = await zone();
    await client.createRecord(DOMAIN, { type: "NS", name: "dev", content: "ns1.elsewhere.test", ttl: 3600 });
    await expect(zoneHandler.delete(ctx, DOMAIN, outs)).rejects.toThrow(/it still holds 1 record\(s\) this stack does not manage \(NS dev\)/);
    expect(await zoneExists()).toBe(true);
    const t0 = clock.now();
    await zoneHandler.delete(ctx, DOMAIN, { ...outs, forceDestroy: true });
    expect(clock.now()).toBe(t0);
    expect(await zoneExists()).toBe(false);
    expect(logged().at(-1)).toBe(`reseller: ${DOMAIN}: zone deleted with 1 unmanaged record(s) (forceDestroy)`);
  });

  test("deleted in parallel with its own records, whose deletes take 10 s: it waits for them, says so, then deletes the zone", async () => {
    await start(0);
    const outs = await zone();
    const records = await Promise.all(["a", "b", "c"].map((n, i) => record(n, `192.0.2.${100 + i}`)));
    hostLines.length = 0;
    const slow = slowOn("deleteRecord", 10_000);
    const t0 = clock.now();
    const zoneGone = zoneHandler.delete(ctx, DOMAIN, outs);
    await Promise.all([zoneGone, ...records.map((r) => recordHandler.delete(slow, r.id, r.outs))]);
    expect(clock.now() - t0).toBeGreaterThanOrEqual(10_000);
    expect(clock.now() - t0).toBeLessThan(10_000 + ZONE_DELETE_QUIET_MS);
    expect(await zoneExists()).toBe(false);
    expect(logged()[0]).toBe(`reseller: ${DOMAIN}: waiting up to 120 s for this run's record deletes in the zone before deleting it (3 record(s) left)`);
    expect(logged().at(-1)).toBe(`reseller: ${DOMAIN}: zone deleted`);
    expect(logged().join("\n")).not.toMatch(/refusing/);
  });

  test("a record nobody manages still blocks it: refused the quiet span after this command's last record delete ended", async () => {
    await start(0);
    const outs = await zone();
    const mine = await record("mine", "192.0.2.120");
    await client.createRecord(DOMAIN, { type: "TXT", name: "hand", content: "nobody's", ttl: 3600 });
    const slow = slowOn("deleteRecord", 10_000);
    let mineDeletedAt = 0;
    const refused = zoneHandler.delete(ctx, DOMAIN, outs).then(
      () => undefined,
      (e: Error) => ({ e, at: clock.now() }),
    );
    await recordHandler.delete(slow, mine.id, mine.outs);
    mineDeletedAt = clock.now();
    const r = await refused;
    expect(r?.e.message).toMatch(/refusing to delete the zone: it still holds 1 record\(s\) this stack does not manage \(TXT hand\)/);
    expect(r!.at - mineDeletedAt).toBeGreaterThanOrEqual(ZONE_DELETE_QUIET_MS);
    expect(r!.at - mineDeletedAt).toBeLessThan(ZONE_DELETE_QUIET_MS + 400);
    expect(await zoneExists()).toBe(true);
  });
});
