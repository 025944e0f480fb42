/** Register, transfer, renew: validation, charging, idempotency, approval, KYC, async stages. */
import { DEFAULT_CONTRACT, ERROR_CODES } from "../../api/contract";
import { ERROR_STATUS } from "../../sandbox/rules";
import * as V from "../../api/views";
import { startSandbox, type SandboxHandle, type SandboxOptions } from "../../sandbox/index";
import { CONTACT, makeApi, type Api } from "./signed-fetch";

const code = (r: { body: unknown }) => V.ErrorBody.parse(r.body).error.code;
let keyNo = 0;
const ik = () => `test-key-${++keyNo}`;

async function boot(opts: SandboxOptions = {}): Promise<{ sb: SandboxHandle; api: Api }> {
  const sb = await startSandbox({ requestsPerMinute: 10000, processingDelaySeconds: 0, ...opts });
  return { sb, api: makeApi(sb.url, sb.credentials) };
}

const order = (domain: string, extra: Record<string, unknown> = {}) => ({ domain, years: 1, contacts: { registrant: CONTACT }, ...extra });

describe("register", () => {
  let sb: SandboxHandle;
  let api: Api;
  beforeAll(async () => ({ sb, api } = await boot()));
  afterAll(() => sb.close());

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ["domain not a name", order("not a name"), "domain"],
    ["domain wrong type", order(42 as unknown as string), "domain"],
    ["TLD not offered", order("name.xyz"), "domain"],
    ["years missing", { domain: "ok-name.com", contacts: { registrant: CONTACT } }, "years"],
    ["years above the TLD limit", order("ok-name.de", { years: 2 }), "years"],
    ["years not an integer", order("ok-name.com", { years: 1.5 }), "years"],
    ["contacts missing", { domain: "ok-name.com", years: 1 }, "contacts"],
    ["registrant e-mail invalid", order("ok-name.com", { contacts: { registrant: { ...CONTACT, email: "nope" } } }), "contacts.registrant.email"],
    ["registrant phone invalid", order("ok-name.com", { contacts: { registrant: { ...CONTACT, phone: "555" } } }), "contacts.registrant.phone"],
    ["admin country invalid", order("ok-name.com", { contacts: { registrant: CONTACT, admin: { ...CONTACT, country: "USA" } } }), "contacts.admin.country"],
    ["one nameserver", order("ok-name.com", { nameservers: ["ns1.example.net"] }), "nameservers"],
    ["six nameservers", order("ok-name.com", { nameservers: [1, 2, 3, 4, 5, 6].map((n) => `ns${n}.example.net`) }), "nameservers"],
    ["nameserver not a host", order("ok-name.com", { nameservers: ["ns1.example.net", "bad host"] }), "nameservers[1]"],
    ["unknown add-on", order("ok-name.com", { addons: ["free_money"] }), "addons[0]"],
    ["client_reference wrong type", order("ok-name.com", { client_reference: 7 }), "client_reference"],
  ];
  it.each(bad)("refuses %s with 422 naming the field, charging nothing", async (_label, body, field) => {
    const before = sb.operator.state();
    const r = await api("POST", "/domains/register", body, { idempotencyKey: ik() });
    expect(r.status).toBe(422);
    expect(code(r)).toBe("validation_error");
    expect(r.body.error.field).toBe(field);
    expect(r.body.error.message).toContain(field);
    const after = sb.operator.state();
    expect(after.ledger).toEqual(before.ledger);
    expect(after.account.balance).toBe(before.account.balance);
    expect(Object.keys(after.domains)).toEqual(Object.keys(before.domains));
  });

  it("requires an Idempotency-Key", async () => {
    const r = await api("POST", "/domains/register", order("keyless.com"));
    expect(r.status).toBe(400);
    expect(code(r)).toBe("idempotency_key_required");
    expect(sb.operator.state().domains["keyless.com"]).toBeUndefined();
  });

  it("charges the account price, fills omitted contacts and nameservers from the defaults", async () => {
    const balance = sb.operator.state().account.balance;
    const r = await api("POST", "/domains/register", order("brand-new.com", { years: 3, client_reference: "ref-9" }), { idempotencyKey: ik() });
    expect(r.status).toBe(201);
    const o = V.DomainOrder.parse(r.body.data);
    expect(o.charged).toBe("36.00");
    expect(o.currency).toBe("USD");
    expect(o.balance).toBe(((balance - 3600) / 100).toFixed(2));
    const info = V.DomainInfo.parse((await api("GET", "/domains/brand-new.com")).body.data);
    expect(info.nameservers).toEqual(["ns1.sandbox-registrar.test", "ns2.sandbox-registrar.test"]);
    expect(info.client_reference).toBe("ref-9");
    const contacts = V.Contacts.parse((await api("GET", "/domains/brand-new.com/contacts")).body.data);
    expect(contacts.admin).toEqual(contacts.registrant);
    expect(contacts.billing?.email).toBe(CONTACT.email);
    const led = sb.operator.ledger().filter((e) => e.domain === "brand-new.com");
    expect(led).toHaveLength(1);
    expect(led[0]).toMatchObject({ action: "register", years: 3, amount: "36.00", invoice: o.invoice });
  });

  it("refuses a registered name with 409 domain_unavailable and charges nothing", async () => {
    const n = sb.operator.ledger().length;
    for (const name of ["demo-reseller.com", "example.com"]) {
      const r = await api("POST", "/domains/register", order(name), { idempotencyKey: ik() });
      expect(r.status).toBe(409);
      expect(code(r)).toBe("domain_unavailable");
    }
    expect(sb.operator.ledger()).toHaveLength(n);
  });

  it("replays the first response for the same key and body, never charging twice", async () => {
    const key = ik();
    const first = await api("POST", "/domains/register", order("once-only.net"), { idempotencyKey: key });
    expect(first.status).toBe(201);
    const again = await api("POST", "/domains/register", order("once-only.net"), { idempotencyKey: key });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(sb.operator.ledger().filter((e) => e.domain === "once-only.net")).toHaveLength(1);
    const log = sb.operator.requests().filter((e) => e.idempotency_key === key);
    expect(log.map((e) => [e.replayed, e.mutating])).toEqual([[false, true], [true, false]]);
  });

  it("refuses the same key with another body (422 idempotency_key_reused) and scopes keys per credential", async () => {
    const key = ik();
    await api("POST", "/domains/register", order("keyed-a.org"), { idempotencyKey: key });
    const other = await api("POST", "/domains/register", order("keyed-b.org"), { idempotencyKey: key });
    expect(other.status).toBe(422);
    expect(code(other)).toBe("idempotency_key_reused");
    expect(sb.operator.state().domains["keyed-b.org"]).toBeUndefined();
  });

  it("refuses an order the credit does not cover with 402 and charges nothing", async () => {
    sb.operator.settings({ balance: "5.00" });
    const r = await api("POST", "/domains/register", order("too-dear.io"), { idempotencyKey: ik() });
    expect(r.status).toBe(402);
    expect(code(r)).toBe("insufficient_credit");
    expect(r.body.error.details).toMatchObject({ required: "39.00", balance: "5.00" });
    expect(sb.operator.state().account.balance).toBe(500);
    expect(sb.operator.state().domains["too-dear.io"]).toBeUndefined();
    sb.operator.settings({ balance: "1000.00" });
  });
});

describe("idempotency keys are per credential", () => {
  it("does not replay another credential's response", async () => {
    const { sb, api } = await boot({ credentials: [{ key: "one", secret: "s1" }, { key: "two", secret: "s2" }] });
    try {
      const first = await api("POST", "/domains/register", order("shared-key.com"), { idempotencyKey: "same" });
      expect(first.status).toBe(201);
      const two = makeApi(sb.url, { key: "two", secret: "s2" });
      const r = await two("POST", "/domains/register", order("shared-key.com"), { idempotencyKey: "same" });
      expect(r.status).toBe(409); // evaluated afresh, not replayed
      expect(r.headers.get("idempotent-replayed")).toBeNull();
    } finally {
      await sb.close();
    }
  });
});

describe("order stages", () => {
  it("stays pending until the processing delay passes on the virtual clock", async () => {
    const { sb, api } = await boot({ processingDelaySeconds: 30 });
    try {
      const r = await api("POST", "/domains/register", order("slow-one.com"), { idempotencyKey: ik() });
      expect(r.body.data.stage).toBe("pending");
      expect((await api("GET", "/domains/slow-one.com")).body.data.stage).toBe("pending");
      sb.operator.advanceClock(31);
      expect((await api("GET", "/domains/slow-one.com")).body.data.stage).toBe("active");
    } finally {
      await sb.close();
    }
  });

  it("holds orders for approval; approve completes, reject cancels and refunds", async () => {
    const { sb, api } = await boot({ approval: { orders: true } });
    try {
      const a = await api("POST", "/domains/register", order("approve-me.com"), { idempotencyKey: ik() });
      expect(a.body.data.stage).toBe("pending_approval");
      sb.operator.approve("approve-me.com");
      expect((await api("GET", "/domains/approve-me.com")).body.data.stage).toBe("active");

      const balance = sb.operator.state().account.balance;
      await api("POST", "/domains/register", order("reject-me.com"), { idempotencyKey: ik() });
      expect(sb.operator.state().account.balance).toBe(balance - 1200);
      sb.operator.reject("reject-me.com");
      expect((await api("GET", "/domains/reject-me.com")).body.data.stage).toBe("cancelled");
      expect(sb.operator.state().account.balance).toBe(balance);
      expect(sb.operator.ledger().filter((e) => e.domain === "reject-me.com").map((e) => e.amount)).toEqual(["12.00", "-12.00"]);
    } finally {
      await sb.close();
    }
  });

  it("keeps a KYC TLD in pending_kyc until KYC completes", async () => {
    const { sb, api } = await boot({ kycTlds: ["de"] });
    try {
      const r = await api("POST", "/domains/register", order("kyc-name.de"), { idempotencyKey: ik() });
      expect(r.body.data.stage).toBe("pending_kyc");
      sb.operator.completeKyc("kyc-name.de");
      expect((await api("GET", "/domains/kyc-name.de")).body.data.stage).toBe("active");
    } finally {
      await sb.close();
    }
  });

  it("transfers with an auth code: pending_transfer until completed", async () => {
    const { sb, api } = await boot({ processingDelaySeconds: 3600 });
    try {
      const noCode = await api("POST", "/domains/transfer", order("transfer-me.com"), { idempotencyKey: ik() });
      expect(noCode.status).toBe(422);
      expect(noCode.body.error.field).toBe("auth_code");
      const refused = await api("POST", "/domains/transfer", order("transfer-me.com", { auth_code: "INVALID-CODE" }), { idempotencyKey: ik() });
      expect([refused.status, refused.body.error.field]).toEqual([422, "auth_code"]);
      expect(JSON.stringify(refused.body)).not.toContain("INVALID-CODE");
      const free = await api("POST", "/domains/transfer", order("nobody-has-this.com", { auth_code: "ABC-123-XYZ" }), { idempotencyKey: ik() });
      expect(free.status).toBe(409);
      expect(code(free)).toBe("domain_unavailable");
      const r = await api("POST", "/domains/transfer", order("transfer-me.com", { auth_code: "ABC-123-XYZ" }), { idempotencyKey: ik() });
      expect(r.status).toBe(201);
      expect(V.DomainOrder.parse(r.body.data)).toMatchObject({ stage: "pending_transfer", charged: "12.00" });
      expect(JSON.stringify(r.body)).not.toContain("ABC-123-XYZ");
      sb.operator.completeTransfer("transfer-me.com");
      expect((await api("GET", "/domains/transfer-me.com")).body.data.stage).toBe("active");
    } finally {
      await sb.close();
    }
  });
});

describe("renew", () => {
  let sb: SandboxHandle;
  let api: Api;
  beforeAll(async () => ({ sb, api } = await boot()));
  afterAll(() => sb.close());

  it("moves the expiry forward by the years and charges the renew price", async () => {
    const info = V.DomainInfo.parse((await api("GET", "/domains/demo-labs.io")).body.data);
    const r = await api("POST", "/domains/demo-labs.io/renew", { years: 2, current_expiry: info.expiry_date }, { idempotencyKey: ik() });
    expect(r.status).toBe(201);
    const o = V.DomainOrder.parse(r.body.data);
    expect(o.charged).toBe("78.00");
    const y = Number(info.expiry_date!.slice(0, 4));
    expect(o.expiry_date).toBe(`${y + 2}${info.expiry_date!.slice(4)}`);
  });

  it("answers 409 expiry_mismatch for a stale current_expiry and charges nothing", async () => {
    const n = sb.operator.ledger().length;
    const r = await api("POST", "/domains/demo-shop.net/renew", { years: 1, current_expiry: "2001-01-01" }, { idempotencyKey: ik() });
    expect(r.status).toBe(409);
    expect(code(r)).toBe("expiry_mismatch");
    expect(r.body.error.details.expiry_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(sb.operator.ledger()).toHaveLength(n);
  });

  it("validates years and current_expiry", async () => {
    const n = sb.operator.ledger().length;
    const a = await api("POST", "/domains/demo-shop.net/renew", { years: 0, current_expiry: "2030-01-01" }, { idempotencyKey: ik() });
    expect([a.status, a.body.error.field]).toEqual([422, "years"]);
    const b = await api("POST", "/domains/demo-shop.net/renew", { years: 1, current_expiry: "2030-02-30" }, { idempotencyKey: ik() });
    expect([b.status, b.body.error.field]).toEqual([422, "current_expiry"]);
    const c = await api("POST", "/domains/unknown-name.com/renew", { years: 1, current_expiry: "2030-01-01" }, { idempotencyKey: ik() });
    expect([c.status, code(c)]).toEqual([404, "not_found"]);
    expect(sb.operator.ledger()).toHaveLength(n);
  });

  it("renews an expired domain back to active", async () => {
    const info = V.DomainInfo.parse((await api("GET", "/domains/lapsed-name.net")).body.data);
    expect(info.stage).toBe("expired");
    const r = await api("POST", "/domains/lapsed-name.net/renew", { years: 1, current_expiry: info.expiry_date }, { idempotencyKey: ik() });
    expect(r.body.data.stage).toBe("active");
  });
});

describe("Idempotency-Key required on every charging POST", () => {
  let sb: SandboxHandle;
  let api: Api;
  beforeEach(async () => ({ sb, api } = await boot()));
  afterEach(() => sb.close());

  // Bodies that succeed once a key is sent, so the refusal can only be the missing key.
  const cases: Array<[string, string, (expiry: string) => Record<string, unknown>]> = [
    ["register", "/domains/register", () => order("keyless-new.com")],
    ["transfer", "/domains/transfer", () => order("transfer-me.net", { auth_code: "ABC-123-XYZ" })],
    ["renew", "/domains/demo-shop.net/renew", (expiry) => ({ years: 1, current_expiry: expiry })],
    ["privacy", "/domains/demo-shop.net/privacy", () => ({})],
    ["protection", "/domains/demo-shop.net/protection", () => ({})],
  ];
  it.each(cases)("%s without a key: 400 idempotency_key_required, no state change, no ledger entry; with a key it succeeds", async (_label, path, body) => {
    const expiry = V.DomainInfo.parse((await api("GET", "/domains/demo-shop.net")).body.data).expiry_date!;
    const before = sb.operator.state();
    const r = await api("POST", path, body(expiry));
    const required = ERROR_CODES.idempotencyKeyRequired;
    expect([r.status, code(r)]).toEqual([ERROR_STATUS[required], required]);
    expect([required, ERROR_STATUS[required]]).toEqual(["idempotency_key_required", 400]);
    expect(r.body.error.message).toContain(DEFAULT_CONTRACT.headers.idempotencyKey);
    expect(sb.operator.state()).toEqual(before);
    expect(sb.operator.requests().at(-1)).toMatchObject({ method: "POST", status: 400, mutating: false, idempotency_key: null });

    const keyed = await api("POST", path, body(expiry), { idempotencyKey: ik() });
    expect(keyed.status).toBe(201);
    expect(sb.operator.ledger().length).toBeGreaterThan(before.ledger.length);
  });
});
