/**
 * Hostile values in every field of every endpoint that reads a body: each field of a valid body is
 * replaced in turn by hostile values (wrong types, empty, huge, traversal, NUL, prototype keys). Two invariants
 * are checked after every single request: the server never answers 5xx, and a refused request
 * (4xx) leaves the whole state exactly as it was (no charge, no ledger entry, no change).
 * The same holds for hostile path segments in every parameter of every route.
 */
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { ROUTES } from "../../sandbox/routes";
import { templateParams } from "../../api/operations";
import { FOREIGN_AUTH_CODE } from "../../sandbox/state";
import { CONTACT, makeApi, type Api } from "./signed-fetch";

type Body = Record<string, unknown>;

const HOSTILE: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  "",
  " ",
  "x".repeat(5000),
  "../../etc/passwd",
  "a\u0000b",
  "%2e%2e%2f",
  "<script>",
  "\u{1F600}",
  [],
  [null],
  {},
  JSON.parse('{"__proto__": {"polluted": true}}'),
];

/** A valid body per endpoint (method, path, body). Each field is replaced in turn. */
function endpoints(expiry: string): Array<[string, string, Body]> {
  return [
    ["POST", "/domains/availability", { domains: ["sweep-a.com"], years: 1 }],
    ["POST", "/domains/check", { domain: "sweep-a.com", years: 1 }],
    ["POST", "/pricing", { action: "register", domain: "sweep-a.com", years: 1 }],
    ["POST", "/domains/register", { domain: "sweep-reg.com", years: 1, contacts: { registrant: CONTACT }, nameservers: ["ns1.sweep.net", "ns2.sweep.net"], addons: [], client_reference: "r-1" }],
    ["POST", "/domains/transfer", { domain: "transfer-me.net", years: 1, contacts: { registrant: CONTACT }, auth_code: FOREIGN_AUTH_CODE }],
    ["POST", "/domains/demo-labs.io/renew", { years: 1, current_expiry: expiry }],
    ["PUT", "/domains/demo-shop.net/nameservers", { nameservers: ["ns1.sweep.net", "ns2.sweep.net"] }],
    ["PUT", "/domains/demo-shop.net/contacts", { contacts: { admin: CONTACT, tech: CONTACT } }],
    ["PUT", "/domains/demo-shop.net/lock", { locked: true }],
    ["POST", "/domains/demo-reseller.com/hosts", { hostname: "ns9.demo-reseller.com", ipv4: ["192.0.2.9"], ipv6: [] }],
    ["PUT", "/domains/demo-reseller.com/hosts/ns1.demo-reseller.com", { ipv4: ["192.0.2.54"], ipv6: ["2001:db8::54"] }],
    ["POST", "/dns/zones", { domain: "demo-labs.io" }],
    ["POST", "/dns/zones/demo-reseller.com/records", { type: "SRV", name: "_xmpp._tcp", content: "xmpp.demo-reseller.com", ttl: 300, priority: 5, extra: { weight: 1, port: 5222 } }],
    ["PUT", "/dns/zones/demo-reseller.com/records/rec_3", { content: "192.0.2.11", ttl: 3600 }],
    ["POST", "/dns/zones/demo-reseller.com/templates/custom-mail", { variables: { mx_host: "mx.sweep.net" }, conflict_strategy: "skip" }],
  ];
}

/** Every body with one field (or one nested field) replaced by a hostile value. */
function* variants(body: Body): Generator<[string, Body]> {
  for (const field of Object.keys(body)) {
    for (const v of HOSTILE) yield [field, { ...body, [field]: v }];
    const inner = body[field];
    if (inner && typeof inner === "object" && !Array.isArray(inner)) {
      for (const sub of Object.keys(inner)) for (const v of HOSTILE) yield [`${field}.${sub}`, { ...body, [field]: { ...(inner as Body), [sub]: v } }];
    }
  }
  const contacts = body.contacts as Body | undefined;
  const registrant = contacts?.registrant as Body | undefined;
  if (registrant) {
    for (const k of Object.keys(registrant)) {
      for (const v of HOSTILE) yield [`contacts.registrant.${k}`, { ...body, contacts: { ...contacts, registrant: { ...registrant, [k]: v } } }];
    }
  }
}

/** A sandbox of the describe's own, admitting the thousands of requests its test sends. */
function ownSandbox(): { sb: SandboxHandle; api: Api } {
  const own = {} as { sb: SandboxHandle; api: Api };
  beforeAll(async () => {
    own.sb = await startSandbox({ requestsPerMinute: 1_000_000, processingDelaySeconds: 0 });
    own.api = makeApi(own.sb.url, own.sb.credentials);
  });
  afterAll(() => own.sb.close());
  return own;
}

describe("hostile values in every field of every body", () => {
  const own = ownSandbox();

  it("never answers 5xx, and a refused request changes nothing", async () => {
    const { sb, api } = own;
    const expiry = (await api("GET", "/domains/demo-labs.io")).body.data.expiry_date as string;
    const statuses = new Map<number, number>();
    const broken: string[] = [];
    let n = 0;
    for (const [method, path, body] of endpoints(expiry)) {
      for (const [field, variant] of variants(body)) {
        const before = sb.operator.state();
        const r = await api(method, path, variant, { idempotencyKey: `hostile-${++n}` });
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        const label = `${method} ${path} ${field}=${JSON.stringify(variant[field.split(".")[0]])?.slice(0, 40)} -> ${r.status}`;
        if (r.status >= 500) broken.push(`${label} (server error)`);
        else if (r.status >= 400) {
          const after = sb.operator.state();
          // Idempotency keys are stored for successes only, so the whole state must be equal.
          if (JSON.stringify(after) !== JSON.stringify(before)) broken.push(`${label} (state changed on refusal)`);
          if (typeof r.body?.error?.code !== "string" || typeof r.body?.error?.message !== "string") broken.push(`${label} (no structured error)`);
        }
      }
    }
    expect(broken).toEqual([]);
    // The requests did exercise refusals of both kinds and some accepted values.
    expect(statuses.get(422)).toBeGreaterThan(500);
    expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await api("GET", "/ping")).status).toBe(200);
  }, 120_000);
});

/** Raw path segments as an attacker would send them (already percent-encoded where needed). */
const HOSTILE_SEGMENTS = [
  "..",
  ".",
  "%2e%2e",
  "%2E%2E%2F%2E%2E",
  "demo-reseller.com%2F..%2F..",
  "demo-reseller.com%00",
  "%00",
  "%ZZ",
  "%",
  "a".repeat(300),
  `${"a".repeat(63)}.`.repeat(5) + "com",
  "demo-reseller.com%5C..",
  "%E2%80%AE",
  "__proto__",
  "constructor",
  "rec_0",
  "rec_-1",
  "rec_99999999999999999999",
];

const VALID: Record<string, string> = { domain: "demo-reseller.com", hostname: "ns1.demo-reseller.com", id: "rec_3" };

describe("hostile path segments in every parameter of every route", () => {
  const own = ownSandbox();

  it("never answers 5xx, and a refused request changes nothing", async () => {
    const { sb, api } = own;
    const broken: string[] = [];
    let tried = 0;
    for (const route of ROUTES.filter((r) => r.template.includes("{"))) {
      const params = templateParams(route.template);
      for (const param of params) {
        for (const seg of HOSTILE_SEGMENTS) {
          // The template route's :id is a template id; the others use the valid record id.
          const value = (name: string) => (name === param ? seg : route.template.includes("templates") && name === "id" ? "web" : VALID[name]);
          const path = route.template.replace(/\{(\w+)\}/g, (_m, name: string) => value(name));
          const before = sb.operator.state();
          const r = await api(route.method, path, route.method === "GET" ? undefined : {}, { idempotencyKey: `hostile-path-${++tried}` });
          const label = `${route.method} ${path.slice(0, 80)} -> ${r.status}`;
          if (r.status >= 500) broken.push(`${label} (server error)`);
          else if (r.status >= 400 && JSON.stringify(sb.operator.state()) !== JSON.stringify(before)) broken.push(`${label} (state changed on refusal)`);
          else if (r.status < 400) broken.push(`${label} (accepted a hostile segment)`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(tried).toBeGreaterThan(500);
    expect((await api("GET", "/dns/zones/demo-reseller.com")).body.data.records.length).toBeGreaterThan(10);
  }, 120_000);
});
