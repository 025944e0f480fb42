/**
 * What check learns from the service (resources/kit/preflight.ts), through the SDK's provider host over
 * gRPC against the sandbox: the account once per host process, delegation, money and adoption. The
 * host cannot tell a preview from an up, so each of these is what both meet.
 *
 * Settings and credentials (a wrong API secret, a missing API key, a base URL without a scheme) are
 * refused at a fresh host's first check with up's message and no other, after the requests they need
 * (one signed read for the secret, none otherwise), and a second check on that host then passes:
 * test/audit/preview-predicts-up.test.ts proves it on the catalogue's mistakes of the settings, each
 * up on a host of its own over gRPC, as here.
 */
import { startProviderHost } from "../../../dev/engine/host";
import { Managed, ROOT, contact, startEnv, type Env } from "./harness";
import { until } from "../../support/until";

const NO_ENV = { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined };
const SERVICE_NS = ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"];

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => env?.close());

/** A second host on the same sandbox, configured with `config` over the good settings. */
async function hostWith(config: Record<string, string | undefined>): Promise<Env> {
  const host = await startProviderHost({ cwd: ROOT, env: NO_ENV });
  const merged = Object.fromEntries(Object.entries({ ...env.config, ...config }).filter(([, v]) => v !== undefined)) as Record<string, string>;
  await host.configure(merged);
  return { ...env, host, close: () => host.close() };
}

const recordArgs = { zone: "demo-reseller.com", type: "TXT", name: "preflight", content: "x", ttl: 300 };
const requestsSince = (mark: number) => env.sandbox.operator.requests().slice(mark);

/**
 * The host's log once it holds every one of `expected`: a line the host prints may reach its stdout
 * after the answer to the call that logged it.
 */
async function logsWith(host: Env, ...expected: (string | RegExp)[]): Promise<string> {
  const text = () => host.host.logs().join("\n");
  const has = (e: string | RegExp) => (typeof e === "string" ? text().includes(e) : e.test(text()));
  await until(`the host to log ${expected.map(String).join(", ")}`, () => expected.every(has));
  return text();
}

describe("the first program: a zone made active on create, records that wait for it", () => {
  test("good settings: one balance read serves every check of the process; a zone whose domain delegates elsewhere is flagged on the zone and its records, with the fix; the full message once", async () => {
    const other = await hostWith({});
    try {
      const mark = env.mark();
      for (const name of ["a", "b", "c"]) expect((await new Managed(other, "DnsRecord", `pf-ok-${name}`).check({ ...recordArgs, name })).failures).toEqual([]);
      const balanceReads = requestsSince(mark).filter((r) => r.path.endsWith("/account/balance"));
      expect(balanceReads).toHaveLength(1);
      // demo-shop.net keeps the registrar's default nameservers and has no zone.
      const zone = new Managed(other, "DnsZone", "elsewhere-zone");
      expect((await zone.check({ domain: "demo-shop.net" })).failures).toEqual([]);
      const full = /demo-shop\.net: the zone is not active and cannot become active: demo-shop\.net is delegated to ns1\.sandbox-registrar\.test, ns2\.sandbox-registrar\.test, not to the zone's nameservers \(ns1\.dns\.sandbox\.test, ns2\.dns\.sandbox\.test\).*Set the Domain's nameservers/;
      expect(await logsWith(other, full)).toMatch(full);
      const r1 = new Managed(other, "DnsRecord", "elsewhere-www");
      const r2 = new Managed(other, "DnsRecord", "elsewhere-mx");
      await expect(r1.check({ zone: "demo-shop.net", type: "A", name: "www", content: "192.0.2.1" })).rejects.toThrow(full);
      await expect(r2.check({ zone: "demo-shop.net", type: "MX", name: "@", content: "10 mx.demo-shop.net" })).rejects.toThrow(/demo-shop\.net: the zone cannot become active \(not delegated to the service; the fix is in the first error about demo-shop\.net\)/);
      // The same zone with a Domain of the program that asks for the service's nameservers is not
      // flagged: another command, on this file's own host (nothing ran on it yet).
      await new Managed(env, "Domain", "shop").check({ domain: "demo-shop.net", contacts: { registrant: contact }, nameservers: SERVICE_NS, adopt: true });
      expect((await new Managed(env, "DnsRecord", "fixed-www").check({ zone: "demo-shop.net", type: "A", name: "www", content: "192.0.2.1" })).failures).toEqual([]);
    } finally {
      await other.close();
    }
  });
  test("a zone whose domain already delegates to the service is active on create, with one delegation check and no wait", async () => {
    // demo-reseller.com delegates to the service; its seeded zone is removed to be made again. The
    // first command runs on this file's own host (no test before it made a zone or a record there).
    let other: Env = env;
    try {
      await env.client.deleteZone("demo-reseller.com");
      const zone = new Managed(other, "DnsZone", "first-zone");
      const mark = env.mark();
      expect(await zone.up({ domain: "demo-reseller.com" })).toBe("create");
      expect(zone.outputs).toMatchObject({ status: "active", delegated: true });
      const checks = requestsSince(mark).filter((r) => r.method === "POST" && r.path.endsWith("/dns/zones/demo-reseller.com/check"));
      expect(checks).toHaveLength(1);
      // A record with the literal zone name, created while the zone's create runs, waits for it.
      await env.client.deleteZone("demo-reseller.com");
      // Another host: a new command (the first one's DnsZone holds the zone in its process).
      other = await hostWith({});
      const zone2 = new Managed(other, "DnsZone", "first-zone-2");
      const record = new Managed(other, "DnsRecord", "first-www");
      await zone2.check({ domain: "demo-reseller.com" });
      const [zoneStep, recordStep] = await Promise.all([
        new Promise((r) => setTimeout(r, 50)).then(() => zone2.up({ domain: "demo-reseller.com" })),
        record.up({ zone: "demo-reseller.com", type: "A", name: "www2", content: "192.0.2.80", ttl: 3600 }),
      ]);
      expect([zoneStep, recordStep]).toEqual(["create", "create"]);
      const waiting = /A www2\.demo-reseller\.com: waiting for zone demo-reseller\.com, which DnsZone "first-zone-2" is creating in this run/;
      expect(await logsWith(other, waiting)).toMatch(waiting);
      expect((await env.client.listRecords("demo-reseller.com")).some((r) => r.content === "192.0.2.80")).toBe(true);
    } finally {
      if (other !== env) await other.close();
    }
  });

});

describe("a zone the program rules out: it fails at preview once, with the fix, and up never waits for it", () => {
  const ELSEWHERE = ["ns1.elsewhere-dns.test", "ns2.elsewhere-dns.test"];
  const programRules = /: the zone can never become active: this program's Domain sets the nameservers of demo-shop\.net to ns1\.elsewhere-dns\.test, ns2\.elsewhere-dns\.test, not to the service's, so records cannot be created in it.*Set the Domain's nameservers to the service's: ns1\.dns\.sandbox\.test, ns2\.dns\.sandbox\.test/;
  const shopDomain = { domain: "demo-shop.net", contacts: { registrant: contact }, nameservers: ELSEWHERE, adopt: true };

  test("the Domain's own nameservers elsewhere and a DnsZone waiting for the delegation: the zone fails, once; its records point to it; nothing is written", async () => {
    const other = await hostWith({});
    try {
      const mark = env.mark();
      expect((await new Managed(other, "Domain", "ruled-shop").check(shopDomain)).failures).toEqual([]);
      const zone = new Managed(other, "DnsZone", "ruled-zone");
      const failure = await zone.check({ domain: "demo-shop.net", waitForDelegation: true }).then(
        () => "passed",
        (e: Error) => e.message,
      );
      expect(failure).toMatch(new RegExp("^demo-shop\\.net" + programRules.source));
      expect(failure).toMatch(/\(nameservers on the Domain\) The DnsZone's wait for the delegation \(waitForDelegation\) would never end\.$/);
      expect(failure).not.toMatch(/set waitForDelegation/);
      // The zone's check failed in this command: its records (one DnsRecord, one DnsZoneRecords) fail at
      // once with the zone's message, naming the zone's resource (no wait on a create that will not run).
      const zoneFailed = (what: string) => new RegExp(`^${what}: not created: zone demo-shop\\.net failed in this run \\(DnsZone "ruled-zone"\\): demo-shop\\.net${programRules.source}`);
      await expect(new Managed(other, "DnsRecord", "ruled-www").check({ zone: "demo-shop.net", type: "A", name: "www", content: "192.0.2.1" })).rejects.toThrow(zoneFailed("A www\\.demo-shop\\.net"));
      await expect(new Managed(other, "DnsZoneRecords", "ruled-records").check({ zone: "demo-shop.net", records: [{ type: "A", name: "api", content: "192.0.2.2" }] })).rejects.toThrow(zoneFailed("the records of demo-shop\\.net"));
      expect(env.mutatingSince(mark)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  test("the record checked before its zone (the real CLI fixes no order): the record tells the same message the zone would, and the zone adds only that its wait is futile", async () => {
    const other = await hostWith({});
    try {
      await new Managed(other, "Domain", "ruled-shop-3").check(shopDomain);
      const failed = (p: Promise<unknown>) => p.then(() => "passed", (e: Error) => e.message);
      const byRecord = await failed(new Managed(other, "DnsRecord", "ruled-www-3").check({ zone: "demo-shop.net", type: "A", name: "www", content: "192.0.2.1" }));
      const byZone = await failed(new Managed(other, "DnsZone", "ruled-zone-3").check({ domain: "demo-shop.net", waitForDelegation: true }));
      expect(byRecord).toMatch(new RegExp("^demo-shop\\.net" + programRules.source + " \\(nameservers on the Domain\\)$"));
      expect(byZone).toBe("demo-shop.net: the zone cannot become active (not delegated to the service; the fix is in the first error about demo-shop.net) The DnsZone's wait for the delegation (waitForDelegation) would never end.");
    } finally {
      await other.close();
    }
  });

  test("without a wait: the zone alone is only warned about (a zone may be made before its domain points here); its first record fails with the fix and no advice to wait", async () => {
    const other = await hostWith({});
    try {
      await new Managed(other, "Domain", "ruled-shop-2").check(shopDomain);
      expect((await new Managed(other, "DnsZone", "ruled-zone-2").check({ domain: "demo-shop.net" })).failures).toEqual([]);
      expect(await logsWith(other, programRules)).toMatch(programRules);
      const first = await new Managed(other, "DnsZoneRecords", "ruled-records-2").check({ zone: "demo-shop.net", records: [{ type: "A", name: "api", content: "192.0.2.2" }] }).then(
        () => "passed",
        (e: Error) => e.message,
      );
      expect(first).toMatch(new RegExp("^demo-shop\\.net" + programRules.source));
      expect(first).not.toMatch(/waitForDelegation/);
    } finally {
      await other.close();
    }
  });

  test("the live delegation elsewhere and a DnsZone that waits: preview says up waits, advises nothing, and refuses nothing", async () => {
    const other = await hostWith({});
    try {
      expect((await new Managed(other, "DnsZone", "live-wait").check({ domain: "demo-shop.net", waitForDelegation: true, waitTimeoutSeconds: 120 })).failures).toEqual([]);
      expect((await new Managed(other, "DnsRecord", "live-wait-www").check({ zone: "demo-shop.net", type: "A", name: "www", content: "192.0.2.1" })).failures).toEqual([]);
      const waits = /DnsZone "live-wait": demo-shop\.net is delegated to ns1\.sandbox-registrar\.test, ns2\.sandbox-registrar\.test, not to the service's nameservers \(ns1\.dns\.sandbox\.test, ns2\.dns\.sandbox\.test\); up waits up to 120 s for the change \(waitForDelegation\)/;
      const text = await logsWith(other, waits);
      expect(text).toMatch(waits);
      expect(text).not.toMatch(/set waitForDelegation/);
    } finally {
      await other.close();
    }
  });

  test("up (preflight off, so nothing refuses first) never waits for a delegation the program rules out; the record's error names the Domain and advises no wait", async () => {
    const other = await hostWith({ "reseller:preflight": "false" });
    try {
      await new Managed(other, "Domain", "up-shop").check(shopDomain);
      const zone = new Managed(other, "DnsZone", "up-ruled-zone");
      const mark = env.mark();
      // A wait would poll for 600 s; the one check the create makes is all.
      expect(await zone.up({ domain: "demo-shop.net", waitForDelegation: true, waitTimeoutSeconds: 600 })).toBe("create");
      const checks = requestsSince(mark).filter((r) => r.method === "POST" && r.path.endsWith("/dns/zones/demo-shop.net/check"));
      expect(checks).toHaveLength(1);
      expect(zone.outputs).toMatchObject({ status: "pending_nameserver", delegated: false });
      const notWaiting = /demo-shop\.net: not waiting for the delegation: demo-shop\.net: the zone can never become active: this program's Domain sets/;
      expect(await logsWith(other, notWaiting)).toMatch(notWaiting);
      const record = new Managed(other, "DnsRecord", "up-ruled-www");
      const failure = await record.up({ zone: "demo-shop.net", type: "A", name: "www", content: "192.0.2.1", ttl: 3600 }).then(
        () => "created",
        (e: Error) => e.message,
      );
      expect(failure).toMatch(programRules);
      expect(failure).not.toMatch(/set waitForDelegation/);
      await zone.destroy();
    } finally {
      await other.close();
    }
  });
});

describe("records created one after another, as the Pulumi CLI checks and creates each in turn", () => {
  test("after a record's create the next check reads nothing again, and the records it holds include the one just created", async () => {
    const other = await hostWith({});
    try {
      const first = new Managed(other, "DnsRecord", "turns-1");
      expect(await first.up({ ...recordArgs, type: "A", name: "turns", content: "192.0.2.1", ttl: 300 })).toBe("create");
      const mark = env.mark();
      const second = new Managed(other, "DnsRecord", "turns-2");
      expect(await second.up({ ...recordArgs, type: "A", name: "turns-b", content: "192.0.2.2", ttl: 300 })).toBe("create");
      const reads = requestsSince(mark).filter((r) => r.method === "GET").map((r) => r.path.replace(/\?.*/, ""));
      // Before: the zone list and the zone (with its records) were read again after every record's write.
      expect(reads).toEqual([]);
      // The records as read hold the second record's create: a check that adopts it finds it.
      const adopter = new Managed(other, "DnsRecord", "turns-adopt");
      expect((await adopter.check({ ...recordArgs, type: "A", name: "turns-b", content: "192.0.2.2", ttl: 300, adopt: true })).failures).toEqual([]);
      expect(await logsWith(other, /adopts A turns-b\.demo-reseller\.com \(record /)).toMatch(/DnsRecord "turns-adopt": adopts A turns-b\.demo-reseller\.com \(record [^)]+\); nothing changes/);
    } finally {
      await other.close();
    }
  });
});

describe("money: what up will charge, the running total, maxPrice and the balance", () => {
  const domainArgs = (name: string, extra: Record<string, unknown> = {}) => ({ domain: name, contacts: { registrant: contact }, maxPrice: "20.00", ...extra });

  test("each purchase is quoted and shown with the stack's running total; above maxPrice fails; nothing is written", async () => {
    // On this file's own host: nothing it checked before was a purchase, so the running total starts at 0.
    const other = env;
    const mark = env.mark();
    await new Managed(other, "Domain", "buy-a").check(domainArgs("preflight-money-a.com"));
    await new Managed(other, "Domain", "buy-b").check(domainArgs("preflight-money-b.net", { years: 2, maxPrice: "30.00" }));
    const expected = [
      /Domain "buy-a": registers preflight-money-a\.com for 1 year\(s\): 12\.00 USD; this stack's purchases so far 12\.00 USD of the balance 1000\.00 USD/,
      /Domain "buy-b": registers preflight-money-b\.net for 2 year\(s\): 26\.00 USD; this stack's purchases so far 38\.00 USD of the balance 1000\.00 USD/,
    ];
    const lines = await logsWith(other, ...expected);
    for (const line of expected) expect(lines).toMatch(line);
    // Above maxPrice: up's own message (domain-handler.ts priceGuard gives the same text).
    await expect(new Managed(other, "Domain", "too-dear").check(domainArgs("preflight-money-c.io", { maxPrice: "10.00" }))).rejects.toThrow(
      "preflight-money-c.io: register for 1 year(s) costs 39.00 USD, above maxPrice 10.00; nothing was charged. Raise maxPrice to proceed.",
    );
    // A name registered elsewhere cannot be registered: said before any money moves.
    await expect(new Managed(other, "Domain", "taken").check(domainArgs("taken-name.com"))).rejects.toThrow(/taken-name\.com: is not available to register/);
    // Two registrations whose total is above the balance (12.00 + 12.00 against 20.00), named both, at
    // a fresh host's checks: test/audit/preview-predicts-up.test.ts's catalogue ("balance too low for
    // the stack's purchases") previews and ups exactly that over gRPC, with this message at both.
    expect(env.mutatingSince(mark)).toEqual([]);
  });

  test("a due renewal is priced at preview from diff: the line, the running total, maxPrice as up refuses it, the balance; nothing is written", async () => {
    // Two seeded domains adopted into state with policies not due (45 and 330 days left), by this file's host.
    const shop = new Managed(env, "Domain", "renew-shop");
    const main = new Managed(env, "Domain", "renew-main");
    const shopArgs = (extra: Record<string, unknown>) => ({ domain: "demo-shop.net", adopt: true, renewal: { minDaysRemaining: 30, years: 1 }, ...extra });
    const mainArgs = (extra: Record<string, unknown>) => ({ domain: "demo-reseller.com", adopt: true, renewal: { minDaysRemaining: 30, years: 1 }, ...extra });
    expect(await shop.up(shopArgs({}))).toBe("create");
    expect(await main.up(mainArgs({}))).toBe("create");
    /** Runs `body` as a new command (its own host, configured with `config`) that finds the two resources in state. */
    const asCommand = async (config: Record<string, string>, body: (s: Managed, m: Managed, host: Env) => Promise<void>) => {
      const host = await hostWith(config);
      try {
        const s = new Managed(host, "Domain", "renew-shop");
        const m = new Managed(host, "Domain", "renew-main");
        s.state = shop.state;
        m.state = main.state;
        await body(s, m, host);
      } finally {
        await host.close();
      }
    };
    const due = { renewal: { minDaysRemaining: 400, years: 1 } };

    // Above maxPrice (asked in the first command, after the lines): preview fails with the message
    // up's renewal gives (its own price guard, reached with preflight off), word for word.
    const dear = { ...due, maxPrice: "10.00" };
    const refusal = "demo-shop.net: renew for 1 year(s) costs 15.00 USD, above maxPrice 10.00; nothing was charged. Raise maxPrice to proceed.";
    const mark = env.mark();
    await asCommand({}, async (s, m, host) => {
      expect([(await s.preview(shopArgs(due))).step, (await m.preview(mainArgs(due))).step]).toEqual(["update", "update"]);
      const expected = [
        `Domain "renew-shop": renews demo-shop.net for 1 year(s): 15.00 USD; this stack's purchases so far 15.00 USD of the balance 1000.00 USD`,
        `Domain "renew-main": renews demo-reseller.com for 1 year(s): 14.00 USD; this stack's purchases so far 29.00 USD of the balance 1000.00 USD`,
      ];
      const lines = await logsWith(host, ...expected);
      for (const line of expected) expect(lines).toContain(line);
      await expect(s.preview(shopArgs(dear))).rejects.toThrow(refusal);
    });
    await asCommand({ "reseller:preflight": "false" }, async (s) => expect(s.up(shopArgs(dear))).rejects.toThrow(refusal));

    // A total above the balance names both; the renewal that still fits is shown.
    env.sandbox.operator.settings({ balance: "20.00" });
    try {
      await asCommand({}, async (s, m) => {
        expect((await s.preview(shopArgs(due))).step).toBe("update");
        await expect(m.preview(mainArgs(due))).rejects.toThrow("the purchases this stack would make total 29.00 USD, above the account balance of 20.00 USD");
      });
    } finally {
      env.sandbox.operator.settings({ balance: "1000.00" });
    }
    // Nothing written; the only requests other than GET are the spec's read-only quotes.
    const sent = requestsSince(mark);
    expect(env.mutatingSince(mark)).toEqual([]);
    expect(sent.filter((r) => r.method !== "GET" && !r.path.endsWith("/pricing")).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect(sent.filter((r) => r.path.endsWith("/pricing")).length).toBeGreaterThan(0);
  });

  test("paid add-ons: priced from the contract's yearly price for the years up charges, in the running total and against the balance; unpriced, said so", async () => {
    const mark = env.mark();
    // The default contract states no add-on price (the API quotes none): the purchase is named,
    // unpriced. This file's own host has the default contract.
    await new Managed(env, "PrivacyAddon", "pa-plain").check({ domain: "demo-shop.net" });
    const unpriced = `PrivacyAddon "pa-plain": buys WHOIS Privacy for demo-shop.net for the rest of its term; the API quotes no price for add-ons and reseller:contract states none (money.addonPricesPerYear.privacy), so it is not in the stack's total`;
    expect(await logsWith(env, unpriced)).toContain(unpriced);
    // The sandbox's prices (sandbox/state.ts), stated as a user states their portal's.
    const priced = { "reseller:contract": JSON.stringify({ money: { addonPricesPerYear: { privacy: "5.00", protection: "15.00" } } }) };
    const other = await hostWith(priced);
    try {
      await new Managed(other, "Domain", "addon-buy").check({ domain: "preflight-addon-a.com", contacts: { registrant: contact }, years: 2 });
      await new Managed(other, "PrivacyAddon", "pa-new").check({ domain: "preflight-addon-a.com" });
      await new Managed(other, "Protection", "pr-labs").check({ domain: "demo-labs.io" });
      await new Managed(other, "PrivacyAddon", "pa-shop").check({ domain: "demo-shop.net" });
      // A domain bought in the run: its add-on is charged for the years bought; a live one for the years left (700 and 45 days).
      const expected = [
        `PrivacyAddon "pa-new": buys WHOIS Privacy for preflight-addon-a.com for the rest of its term, 2 year(s) at 5.00 USD a year (the price reseller:contract states): 10.00 USD; this stack's purchases so far 34.00 USD of the balance 1000.00 USD`,
        `Protection "pr-labs": buys Domain Protection for demo-labs.io for the rest of its term, 2 year(s) at 15.00 USD a year (the price reseller:contract states): 30.00 USD; this stack's purchases so far 64.00 USD of the balance 1000.00 USD`,
        `PrivacyAddon "pa-shop": buys WHOIS Privacy for demo-shop.net for the rest of its term, 1 year(s) at 5.00 USD a year (the price reseller:contract states): 5.00 USD; this stack's purchases so far 69.00 USD of the balance 1000.00 USD`,
      ];
      const lines = await logsWith(other, ...expected);
      for (const line of expected) expect(lines).toContain(line);
      // A total above the balance names both.
      env.sandbox.operator.settings({ balance: "32.00" });
      const poor = await hostWith(priced);
      try {
        await new Managed(poor, "Protection", "pr-labs").check({ domain: "demo-labs.io" });
        await expect(new Managed(poor, "PrivacyAddon", "pa-shop").check({ domain: "demo-shop.net" })).rejects.toThrow(
          "the purchases this stack would make total 35.00 USD, above the account balance of 32.00 USD",
        );
      } finally {
        env.sandbox.operator.settings({ balance: "1000.00" });
        await poor.close();
      }
      expect(env.mutatingSince(mark)).toEqual([]);
      // Requests other than GET: the registration's availability check and quote, both read-only (spec).
      expect(requestsSince(mark).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`).sort()).toEqual(["POST /api/v1/domains/check", "POST /api/v1/pricing"]);
      // What up then charges is what the preview said (the up on the host that showed the lines).
      await new Managed(other, "PrivacyAddon", "pa-shop").up({ domain: "demo-shop.net" });
      await new Managed(other, "Protection", "pr-labs").up({ domain: "demo-labs.io" });
    } finally {
      await other.close();
    }
    const charged = env.sandbox.operator.ledger().filter((e) => (e.domain === "demo-shop.net" && e.action === "privacy") || (e.domain === "demo-labs.io" && e.action === "protection"));
    expect(charged.map((e) => [e.domain, e.action, e.years, e.amount])).toEqual([
      ["demo-shop.net", "privacy", 1, expect.anything()],
      ["demo-labs.io", "protection", 2, expect.anything()],
    ]);
    expect(charged.map((e) => Number(e.amount))).toEqual([5, 30]);
  });
});
