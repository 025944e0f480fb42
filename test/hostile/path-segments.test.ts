/**
 * Path segments that would escape: a lying service hands out a record id of "..", "a/b" or "%2e%2e"
 * (once stored, destroy sent `DELETE .../records/..`, which a path-normalising proxy takes to the
 * zone's delete, and whose 404 read as "already deleted"), and calls are made with an empty, "." or
 * ".." parameter. Through the SDK's provider host and the real client, against the sandbox behind the
 * rewriting proxy: an answer's id of another shape is refused before it is stored; a stored one is
 * never sent, so no 404 of it reads as gone; a dot segment is refused before signing, for every call.
 */
import { isResponseShapeError, isUnsafePathError } from "../../api/errors";
import { Managed } from "../resources/lifecycle/harness";
import { dataWith } from "../support/rewriting-proxy";
import { clientThroughProxy, failureOf, lyingService } from "./lying-service";

jest.setTimeout(120_000);

const service = lyingService();
const ZONE = "demo-reseller.com";
const live = () => service.env.client.listRecords(ZONE);
const sentSince = (n: number) => service.proxy.requests.slice(n).filter((r) => r.method !== "GET");

const proxied = clientThroughProxy(service);

const BAD_IDS = ["..", ".", "a/b", "%2e%2e", "rec_1/../..", ""];

describe.each(BAD_IDS)("a record id %j", (bad) => {
  test("in a create's answer: refused before it is stored", async () => {
    const name = `bad-answer-${BAD_IDS.indexOf(bad)}`;
    service.proxy.rewrite({ method: "POST", path: new RegExp(`/dns/zones/${ZONE}/records$`), lie: dataWith("id", bad) });
    const r = new Managed(service.env, "DnsRecord", name);
    const f = await failureOf(r.up({ zone: ZONE, type: "A", name, content: "192.0.2.80", ttl: 300 }));
    service.proxy.clear();
    expect(f.message).toContain(`with an unexpected body at data.id: ${JSON.stringify(bad)} is not a record id of the service's shape`);
    expect(r.state?.id).not.toBe(bad);
    expect(r.state?.outputs.recordId).not.toBe(bad);
  });

  test("in a list's answer: refused", async () => {
    service.proxy.rewrite({ method: "GET", path: new RegExp(`/dns/zones/${ZONE}/records\\?`), lie: (a) => {
      const b = JSON.parse(a.body) as { data: { items: { id: string }[] } };
      b.data.items[0].id = bad;
      return { body: JSON.stringify(b) };
    } });
    const e = await proxied.client.listRecords(ZONE).catch((x: unknown) => x);
    service.proxy.clear();
    expect(isResponseShapeError(e) && e.fieldPath).toBe("data.items[0].id");
  });

  test("in state (an earlier version kept it): destroy sends nothing, so no 404 reads as gone; the record and its zone stay", async () => {
    const name = `bad-state-${BAD_IDS.indexOf(bad)}`;
    const r = new Managed(service.env, "DnsRecord", name);
    expect(await r.up({ zone: ZONE, type: "A", name, content: "192.0.2.81", ttl: 300 })).toBe("create");
    const id = r.state!.id;
    r.state = { ...r.state!, id: bad, outputs: { ...r.state!.outputs, recordId: bad } };
    const sent = service.proxy.requests.length;
    const f = await failureOf(r.destroy());
    expect(f.message).toContain(`: not sent: its path parameter id is ${JSON.stringify(bad)}, which `);
    expect(sentSince(sent)).toEqual([]);
    expect(r.state?.id).toBe(bad);
    expect((await live()).some((x) => x.id === id)).toBe(true);
    expect((await service.env.client.getZone(ZONE)).domain).toBe(ZONE);
  });
});

describe("a dot segment is refused before signing, for every kind of parameter", () => {
  const calls: [string, (v: string) => Promise<unknown>][] = [
    ["domain of a read", (v) => proxied.client.getDomain(v)],
    ["domain of a zone delete", (v) => proxied.client.deleteZone(v)],
    ["domain of a paid order (renew)", (v) => proxied.client.renew(v, { years: 1, current_expiry: "2030-01-01" }, { idempotencyKey: "dot-renew" })],
    ["hostname of a host delete", (v) => proxied.client.deleteHost(ZONE, v)],
    ["template id of a template apply", (v) => proxied.client.applyTemplate(ZONE, v, { variables: {}, conflict_strategy: "skip" })],
    ["record id of a record update", (v) => proxied.client.updateRecord(ZONE, v, { ttl: 600 })],
  ];
  test.each(calls.flatMap(([what, call]) => ["", ".", ".."].map((v) => [what, v, call] as const)))("%s %j", async (_what, v, call) => {
    const sent = service.proxy.requests.length;
    const e = await call(v).catch((x: unknown) => x);
    expect(isUnsafePathError(e) && e.value).toBe(v);
    expect(service.proxy.requests.length).toBe(sent);
  });
});
