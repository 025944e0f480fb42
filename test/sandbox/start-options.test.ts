/**
 * startSandbox options at their defaults and at their edges: the default credential, rate
 * (60 per minute) and processing delay (2 s of virtual clock), an injected clock, and seed: false.
 */
import * as V from "../../api/views";
import { startSandbox } from "../../sandbox/index";
import { CONTACT, makeApi } from "./signed-fetch";

const DAY = 86_400_000;

describe("startSandbox defaults", () => {
  it("one credential sandbox-key / sandbox-secret with every scope, 60 requests per minute, then 429", async () => {
    const fixed = Date.UTC(2031, 5, 1, 12);
    const sb = await startSandbox({ now: () => fixed });
    try {
      expect(sb.credentials).toEqual({ key: "sandbox-key", secret: "sandbox-secret" });
      expect(sb.url).toBe(`http://127.0.0.1:${sb.port}`);
      const api = makeApi(sb.url, sb.credentials);
      const ping = await api("GET", "/ping", undefined, { timestampMs: fixed });
      expect(V.Ping.parse(ping.body.data).scopes.sort()).toEqual(["dns", "domains", "purchase", "read"]);
      // The injected clock does not move, so all 60 fall in one window.
      for (let i = 1; i < 60; i++) expect((await api("GET", "/tlds", undefined, { timestampMs: fixed })).status).toBe(200);
      const limited = await api("GET", "/tlds", undefined, { timestampMs: fixed });
      expect([limited.status, limited.body.error.code]).toEqual([429, "rate_limited"]);
      expect(limited.headers.get("retry-after")).toBe("60");
      expect(limited.body.error.details.retry_after).toBe(60);
    } finally {
      await sb.close();
    }
  });

  it("an order stays pending for 2 s of virtual clock, then is active", async () => {
    // A still clock: only advanceClock moves business time, so nothing depends on how fast this runs.
    const fixed = Date.UTC(2031, 5, 1, 12);
    const sb = await startSandbox({ requestsPerMinute: 1000, now: () => fixed });
    try {
      const api = makeApi(sb.url, sb.credentials);
      const at = { timestampMs: fixed };
      const r = await api("POST", "/domains/register", { domain: "two-seconds.com", years: 1, contacts: { registrant: CONTACT } }, { idempotencyKey: "two-seconds", ...at });
      expect(V.DomainOrder.parse(r.body.data).stage).toBe("pending");
      sb.operator.advanceClock(1.999);
      expect((await api("GET", "/domains/two-seconds.com", undefined, at)).body.data.stage).toBe("pending");
      sb.operator.advanceClock(0.001);
      expect((await api("GET", "/domains/two-seconds.com", undefined, at)).body.data.stage).toBe("active");
    } finally {
      await sb.close();
    }
  });
});

describe("startSandbox with an injected clock", () => {
  it("dates the seed from it and checks signatures against it", async () => {
    const fixed = Date.UTC(2031, 5, 1, 12);
    const sb = await startSandbox({ requestsPerMinute: 1000, now: () => fixed });
    try {
      const api = makeApi(sb.url, sb.credentials);
      const info = V.DomainInfo.parse((await api("GET", "/domains/demo-shop.net", undefined, { timestampMs: fixed })).body.data);
      const day = Math.floor(fixed / DAY) * DAY;
      expect(info.expiry_date).toBe(new Date(day + 45 * DAY).toISOString().slice(0, 10));
      // Signed with the real clock, years away from the sandbox's: refused with the server time.
      const skewed = await api("GET", "/domains/demo-shop.net");
      expect([skewed.status, skewed.body.error.code, skewed.body.error.details.server_time]).toEqual([401, "timestamp_out_of_range", fixed / 1000]);
    } finally {
      await sb.close();
    }
  });
});

describe("startSandbox({ seed: false })", () => {
  it("starts an empty account with the catalogue and 1000.00 of credit", async () => {
    const sb = await startSandbox({ seed: false, requestsPerMinute: 1000 });
    try {
      const api = makeApi(sb.url, sb.credentials);
      expect((await api("GET", "/domains")).body.data.items).toEqual([]);
      expect((await api("GET", "/dns/zones")).body.data.items).toEqual([]);
      expect(V.Balance.parse((await api("GET", "/account/balance")).body.data)).toMatchObject({ balance: "1000.00", active_domains: 0 });
      expect((await api("GET", "/tlds")).body.data.items.length).toBeGreaterThanOrEqual(8);
      expect(sb.operator.ledger()).toEqual([]);
    } finally {
      await sb.close();
    }
  });
});

describe("startSandbox({ state })", () => {
  it("serves a copy of the state given, held in memory; a state that cannot be copied or is not a sandbox's is refused by name", async () => {
    const first = await startSandbox({ requestsPerMinute: 1000 });
    const state = first.operator.state();
    await first.close();
    const domains = Object.keys(state.domains).length;
    expect(domains).toBeGreaterThan(0);

    const sb = await startSandbox({ state, requestsPerMinute: 1000 });
    try {
      const api = makeApi(sb.url, sb.credentials);
      expect((await api("GET", "/domains")).body.data.items).toHaveLength(domains);
      // Its own copy: emptying the caller's object after the start changes nothing the sandbox serves.
      const given = state.domains;
      state.domains = {};
      expect((await api("GET", "/domains")).body.data.items).toHaveLength(domains);
      state.domains = given;
    } finally {
      await sb.close();
    }

    await expect(startSandbox({ state: { ...state, settings: undefined } as never })).rejects.toThrow("startSandbox: the state given is not a sandbox state file");
    await expect(startSandbox({ state: { ...state, hook: () => undefined } as never })).rejects.toThrow(/^startSandbox: the state given cannot be copied \(.*\); give a state as operator\.state\(\) returns it$/);
  });
});
