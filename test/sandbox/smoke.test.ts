import { resolveContract } from "../../api/contract";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import * as V from "../../api/views";
import { CONTACT, makeApi, type Api } from "./signed-fetch";

describe("sandbox smoke", () => {
  let sb: SandboxHandle;
  let api: Api;
  beforeAll(async () => {
    sb = await startSandbox({ requestsPerMinute: 10000, processingDelaySeconds: 0 });
    api = makeApi(sb.url, sb.credentials);
  });
  afterAll(() => sb.close());

  it("answers the read endpoints with parseable views", async () => {
    const ping = await api("GET", "/ping");
    expect(ping.status).toBe(200);
    expect(V.Ping.parse(ping.body.data).balance).toBe("1000.00");
    const tlds = await api("GET", "/tlds");
    expect(tlds.body.data.items.map((t: unknown) => V.Tld.parse(t).tld)).toContain("com");
    const info = await api("GET", "/domains/demo-reseller.com");
    expect(V.DomainInfo.parse(info.body.data).stage).toBe("active");
    const zone = await api("GET", "/dns/zones/demo-reseller.com");
    expect(V.DnsZoneWithRecords.parse(zone.body.data).records.length).toBeGreaterThan(10);
  });

  it("registers a domain", async () => {
    const r = await api("POST", "/domains/register", { domain: "fresh-name.com", years: 2, contacts: { registrant: CONTACT } }, { idempotencyKey: "k1" });
    expect(r.status).toBe(201);
    const o = V.DomainOrder.parse(r.body.data);
    expect(o.charged).toBe("24.00");
    expect(o.stage).toBe("active");
    expect(sb.operator.ledger().length).toBe(2);
  });
});

describe("contract overrides", () => {
  it("serves under another prefix with other header names and signs with them", async () => {
    const contract = resolveContract({ apiPrefix: "/api/v9", headers: { key: "X-Other-Key", signature: "X-Other-Sig" }, signing: { clockSkewSeconds: 30 } });
    const sb = await startSandbox({ contract });
    try {
      const api = makeApi(sb.url, sb.credentials, contract);
      expect((await api("GET", "/domains/demo-shop.net")).status).toBe(200);
      const old = makeApi(sb.url, sb.credentials);
      expect((await old("GET", "/ping")).status).toBe(404);
      const skew = await api("GET", "/domains", undefined, { timestampMs: Date.now() - 120_000 });
      expect(skew.body.error.code).toBe("timestamp_out_of_range");
    } finally {
      await sb.close();
    }
  });
});
