/**
 * The client against the package's sandbox over HTTP: the sandbox verifies every signature,
 * nonce and timestamp with the shared contract, so this proves both sides agree end to end.
 */
import { ResellerClient } from "../../api/client";
import { deriveIdempotencyKey } from "../../api/idempotency";
import { startSandbox } from "../../sandbox/index";
import * as F from "./fixtures";

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

let sandbox: Sandbox;
const clients: ResellerClient[] = [];
const clientOf = (opts: { now?: () => number } = {}): ResellerClient => {
  const c = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 6000, burst: 100, ...opts });
  clients.push(c);
  return c;
};

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 6000, seed: false });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await sandbox.close();
});

describe("client against the sandbox", () => {
  it("reads the catalogue and account", async () => {
    const c = clientOf();
    const ping = await c.ping();
    expect(ping.scopes.length).toBeGreaterThan(0);
    const tlds = await c.listTlds();
    expect(tlds.length).toBeGreaterThan(0);
    const name = `bench-${Date.now()}.${tlds[0].tld}`;
    const [avail] = await c.checkAvailability([name], 1);
    expect(avail).toMatchObject({ domain: name, available: true });
    await expect(c.getBalance()).resolves.toMatchObject({ currency: expect.any(String) });
  });

  it("a register repeated with the same derived key is charged once", async () => {
    const c = clientOf();
    const tld = (await c.listTlds())[0].tld;
    const req = { domain: `once-${Date.now()}.${tld}`, years: 1, contacts: { registrant: F.contact } };
    const key = deriveIdempotencyKey("urn:test::Domain::once", "register");
    const before = await c.getBalance();
    const first = await c.register(req, { idempotencyKey: key });
    const again = await c.register(req, { idempotencyKey: key });
    expect(again).toEqual(first);
    const after = await c.getBalance();
    expect(Number(before.balance) - Number(after.balance)).toBeCloseTo(Number(first.charged), 2);
    const info = await c.getDomain(req.domain);
    expect(info.domain).toBe(req.domain);
    expect((await c.listDomains()).map((d) => d.domain)).toContain(req.domain);
  });

  it("a client whose clock is 20 minutes fast recovers from the sandbox's timestamp refusal", async () => {
    const c = clientOf({ now: () => Date.now() + 20 * 60_000 });
    await expect(c.listZones()).resolves.toEqual([]);
    expect(Math.abs(c.clockOffsetMs + 20 * 60_000)).toBeLessThan(5000);
  });

  it("a wrong secret is an AuthenticationError that does not contain the secret", async () => {
    const c = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: "wrong-secret-value-XYZ" });
    clients.push(c);
    const e = (await c.listZones().catch((x: unknown) => x)) as Error;
    expect(e.name).toBe("AuthenticationError");
    expect(`${e.message}${e.stack}${JSON.stringify(e)}`).not.toContain("wrong-secret-value-XYZ");
  });
});
