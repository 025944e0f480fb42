/**
 * Error codes named like an object's built-in members (`constructor`, `__proto__`, `toString`,
 * `hasOwnProperty`, `valueOf`), sent by a lying service as the code of an error answer. The client's
 * tables indexed by the server's code are Maps, so each is an unknown code: on a read it ends in
 * exactly the error a made-up code gets; on a paid order (register) the service applied, in "may have
 * been charged" with the order kept unconfirmed, charged once.
 */
import { contact, Managed } from "../resources/lifecycle/harness";
import { clientThroughProxy, failureOf, lyingService } from "./lying-service";

jest.setTimeout(120_000);

const service = lyingService();

const MEMBER_CODES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"];
/** A code no table has: the error every member code must equal. */
const UNKNOWN = "no_such_code_anywhere";
/** Every attempt is lied to (a keyed order answered 5xx is re-sent under its key). */
const EVERY_ATTEMPT = 10;

const errorBody = (code: string) => JSON.stringify({ success: false, error: { code, message: "refused" } });

const proxied = clientThroughProxy(service);

/** What a read of a domain answered `status` with `code` throws. */
async function readRefused(domain: string, status: number, code: string): Promise<unknown> {
  service.proxy.rewrite({ method: "GET", path: new RegExp(`/domains/${domain}$`), lie: () => ({ status, body: errorBody(code) }) });
  const e = await proxied.client.getDomain(domain).then(
    () => new Error("the read succeeded"),
    (x: unknown) => x,
  );
  service.proxy.clear();
  return e;
}

describe.each([400, 404])("a read answered %i with a member name as its code", (status) => {
  test.each(MEMBER_CODES)("%s: the ordinary error of an unknown code", async (code) => {
    const domain = `member-read-${status}.com`;
    const ordinary = (await readRefused(domain, status, UNKNOWN)) as Error & { code: string; status: number };
    const e = (await readRefused(domain, status, code)) as Error & { code: string; status: number };
    expect(e).toBeInstanceOf(Error);
    expect(e.constructor).toBe(ordinary.constructor);
    expect(e.name).toBe(ordinary.name);
    expect(e.status).toBe(status);
    expect(e.code).toBe(code);
    expect(e.message).toBe(ordinary.message.replace(UNKNOWN, code));
  });
});

describe("a register answered 500 with a member name as its code, on every attempt", () => {
  test.each(MEMBER_CODES)("%s: may have been charged, kept as an unconfirmed order, charged once", async (code) => {
    const domain = `member-${code.replace(/_/g, "")}.com`.toLowerCase();
    service.proxy.rewrite({ method: "POST", path: /\/domains\/register$/, times: EVERY_ATTEMPT, lie: () => ({ status: 500, body: errorBody(code) }) });
    const d = new Managed(service.env, "Domain", `member-${code}`);
    const f = await failureOf(d.up({ domain, contacts: { registrant: contact } }));
    service.proxy.clear();
    expect(f.message).toContain(`${domain}: the register may have been charged: the service answered 500 ${code}`);
    expect(f.message).toMatch(/kept in state as an unconfirmed order/);
    expect(f.id).toBe(domain);
    expect(d.state!.outputs).toMatchObject({ domain, unconfirmedOrder: { operation: "register" } });
    expect(service.env.sandbox.operator.ledger().filter((e) => e.domain === domain && e.action === "register")).toHaveLength(1);
  });
});
