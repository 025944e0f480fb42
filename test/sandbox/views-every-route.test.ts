/**
 * Every method+path pair of the contract (OPERATIONS), called once with a valid request: each success parses
 * with its view from api/views.ts (the client's only idea of the response), every list with
 * the contract's paging shape, and the one stated refusal with ErrorBody.
 */
import type { z } from "zod";
import { DEFAULT_CONTRACT } from "../../api/contract";
import { OPERATIONS } from "../../api/operations";
import * as V from "../../api/views";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { ROUTES } from "../../sandbox/routes";
import { CONTACT, makeApi, type Api } from "./signed-fetch";

const P = DEFAULT_CONTRACT.paging;

describe("every endpoint's answer parses with its view", () => {
  let sb: SandboxHandle;
  let api: Api;
  const called = new Set<string>();
  let keyNo = 0;

  beforeAll(async () => {
    sb = await startSandbox({ requestsPerMinute: 100_000, processingDelaySeconds: 0 });
    api = makeApi(sb.url, sb.credentials);
  });
  afterAll(() => sb.close());

  /** Call, expect the status, parse data with the view; the route pattern is recorded as covered. */
  async function call<T extends z.ZodType>(pattern: string, method: string, path: string, view: T, body?: unknown, status = 200): Promise<z.infer<T>> {
    called.add(`${method} ${pattern}`);
    const r = await api(method, path, body, { idempotencyKey: `views-${++keyNo}` });
    expect({ route: `${method} ${path}`, status: r.status, success: r.body.success }).toEqual({ route: `${method} ${path}`, status, success: status < 400 });
    return view.parse(status < 400 ? r.body.data : r.body);
  }

  /** A list: status 200, the paging block, then each item with the view. */
  async function list<T extends z.ZodType>(pattern: string, path: string, item: T): Promise<Array<z.infer<T>>> {
    called.add(`GET ${pattern}`);
    const r = await api("GET", path);
    expect({ route: `GET ${path}`, status: r.status }).toEqual({ route: `GET ${path}`, status: 200 });
    V.Pagination.parse(r.body.data[P.paginationField]);
    return (r.body.data[P.itemsField] as unknown[]).map((x) => item.parse(x));
  }

  it("covers all routes", async () => {
    const d = "demo-reseller.com";
    expect((await call("/ping", "GET", "/ping", V.Ping)).scopes.length).toBe(4);
    expect((await list("/tlds", "/tlds", V.Tld)).length).toBeGreaterThan(5);
    expect((await call("/domains/availability", "POST", "/domains/availability", V.AvailabilityBatch, { domains: ["view-a.com", d], years: 1 })).results).toHaveLength(2);
    expect((await call("/domains/check", "POST", "/domains/check", V.Availability, { domain: "view-a.com" })).available).toBe(true);
    expect((await call("/pricing", "POST", "/pricing", V.Quote, { action: "renew", domain: d, years: 2 })).amount).toMatch(/^\d+\.\d\d$/);
    expect((await list("/domains", "/domains", V.DomainListEntry)).map((x) => x.domain)).toContain(d);
    await call("/account/balance", "GET", "/account/balance", V.Balance);
    await call("/account/tier", "GET", "/account/tier", V.Tier);

    const order = { years: 1, contacts: { registrant: CONTACT } };
    await call("/domains/register", "POST", "/domains/register", V.DomainOrder, { domain: "view-new.com", ...order }, 201);
    await call("/domains/transfer", "POST", "/domains/transfer", V.DomainOrder, { domain: "transfer-me.com", auth_code: "ABC-123-XYZ", ...order }, 201);
    const info = await call("/domains/{domain}", "GET", "/domains/demo-labs.io", V.DomainInfo);
    await call("/domains/{domain}/renew", "POST", "/domains/demo-labs.io/renew", V.DomainOrder, { years: 1, current_expiry: info.expiry_date }, 201);

    await call("/domains/{domain}/nameservers", "PUT", "/domains/demo-shop.net/nameservers", V.NameserversView, { nameservers: ["ns1.view.net", "ns2.view.net"] });
    await call("/domains/{domain}/contacts", "GET", "/domains/demo-shop.net/contacts", V.Contacts);
    expect((await call("/domains/{domain}/contacts", "PUT", "/domains/demo-shop.net/contacts", V.ContactsUpdate, { contacts: { tech: CONTACT } })).status).toBe("updated");
    await call("/domains/{domain}/lock", "PUT", "/domains/demo-shop.net/lock", V.LockView, { locked: true });
    await call("/domains/{domain}/epp-code", "POST", "/domains/demo-shop.net/epp-code", V.EppCode);

    expect((await list("/domains/{domain}/hosts", `/domains/${d}/hosts`, V.Host)).map((h) => h.hostname)).toContain(`ns1.${d}`);
    await call("/domains/{domain}/hosts", "POST", `/domains/${d}/hosts`, V.Host, { hostname: `ns7.${d}`, ipv4: ["192.0.2.7"] }, 201);
    await call("/domains/{domain}/hosts/{hostname}", "PUT", `/domains/${d}/hosts/ns7.${d}`, V.Host, { ipv6: ["2001:db8::7"] });
    await call("/domains/{domain}/hosts/{hostname}", "DELETE", `/domains/${d}/hosts/ns7.${d}`, V.Host.partial().loose());

    await call("/domains/{domain}/privacy", "GET", "/domains/demo-shop.net/privacy", V.PrivacyView);
    expect((await call("/domains/{domain}/privacy", "POST", "/domains/demo-shop.net/privacy", V.PrivacyView, {}, 201)).status).toBe("awaiting_verification");
    await call("/domains/{domain}/privacy", "DELETE", "/domains/demo-shop.net/privacy", V.PrivacyView);
    await call("/domains/{domain}/protection", "GET", "/domains/demo-shop.net/protection", V.ProtectionView);
    expect((await call("/domains/{domain}/protection", "POST", "/domains/demo-shop.net/protection", V.ProtectionView, {}, 201)).enabled).toBe(true);
    expect((await call("/domains/{domain}/protection", "DELETE", "/domains/demo-shop.net/protection", V.ErrorBody, undefined, 403)).error.code).toBe("requires_portal_verification");

    expect((await list("/dns/zones", "/dns/zones", V.DnsZone)).map((z) => z.domain)).toContain(d);
    await call("/dns/zones", "POST", "/dns/zones", V.DnsZone, { domain: "demo-labs.io" }, 201);
    expect((await call("/dns/zones/{domain}/check", "POST", "/dns/zones/demo-labs.io/check", V.DnsZone)).status).toBe("pending_nameserver");
    await call("/dns/zones/{domain}", "DELETE", "/dns/zones/demo-labs.io", V.DnsZone.pick({ domain: true }).loose());
    expect((await call("/dns/zones/{domain}", "GET", `/dns/zones/${d}`, V.DnsZoneWithRecords)).records.length).toBeGreaterThan(5);
    expect((await list("/dns/zones/{domain}/records", `/dns/zones/${d}/records?type=MX`, V.DnsRecord)).every((r) => r.type === "MX")).toBe(true);
    const rec = await call("/dns/zones/{domain}/records", "POST", `/dns/zones/${d}/records`, V.DnsRecord, { type: "TXT", name: "views", content: "hello", ttl: 600 }, 201);
    expect(rec.id).toMatch(/^rec_\d+$/);
    await call("/dns/zones/{domain}/records/{id}", "PUT", `/dns/zones/${d}/records/${rec.id}`, V.DnsRecord, { content: "hello again" });
    await call("/dns/zones/{domain}/records/{id}", "DELETE", `/dns/zones/${d}/records/${rec.id}`, V.DnsRecord.pick({ id: true }).loose());
    expect((await list("/dns/templates", "/dns/templates", V.Template)).map((t) => t.id)).toEqual(expect.arrayContaining(["google-workspace", "custom-mail", "web"]));
    const applied = await call("/dns/zones/{domain}/templates/{id}", "POST", `/dns/zones/${d}/templates/web`, V.TemplateApplied, { variables: { ipv4: "192.0.2.80" }, conflict_strategy: "skip" });
    expect(applied.created.length + applied.replaced.length + applied.skipped.length).toBe(2);

    const all = ROUTES.map((r) => `${r.method} ${r.template}`);
    expect(all).toHaveLength(Object.keys(OPERATIONS).length);
    expect(all.filter((r) => !called.has(r))).toEqual([]);
  });
});
