/**
 * Two stacks with equal project, stack and resource names on one account: each registers its own
 * domain and then renews it (both expire the same day). Every purchase's Idempotency-Key covers the
 * account, the domain, the operation and its term, so the two stacks never share a key: each domain
 * is bought once and renewed once (a shared renewal key would replay the first stack's renewal for
 * the second, or be refused, and leave its domain unrenewed).
 *
 * The keys are the provider's: each stack is a resource of the same URN with a state of its own,
 * run through dev/engine/'s step rules, and a provider host of its own over gRPC (the lifecycle harness).
 */
import { startProviderHost } from "../../dev/engine/host";
import { contact, Managed, ROOT, startEnv, type Env } from "../resources/lifecycle/harness";

jest.setTimeout(600_000);

let env: Env;
/** The second stack's own provider host, on the same account. */
let other: Env;
beforeAll(async () => {
  env = await startEnv();
  const host = await startProviderHost({ cwd: ROOT, env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined } });
  other = { ...env, host };
  await host.configure(env.config);
});
afterAll(async () => {
  await other?.host.close();
  await env?.close();
});

test("equal names on one account: each domain is bought and renewed once, under keys of its own", async () => {
  const sandbox = env.sandbox;
  // Resource "d" of project "lifecycle", stack "test", in each stack: the same URN.
  const a = new Managed(env, "Domain", "d");
  const b = new Managed(other, "Domain", "d");
  expect(a.urn).toBe(b.urn);
  const args = (domain: string) => ({ domain, contacts: { registrant: contact }, renewal: { minDaysRemaining: 3000 } });
  expect(await a.up(args("alpha-shop.com"))).toBe("create");
  expect(await b.up(args("beta-shop.com"))).toBe("create");
  const expiry = (domain: string) => new Date(sandbox.operator.state().domains[domain].expiresAt).toISOString().slice(0, 10);
  const registered = expiry("alpha-shop.com");
  expect(expiry("beta-shop.com")).toBe(registered);

  // The renewal is due (3000 days before expiry): each second up renews from the same expiry date.
  expect(await a.up(args("alpha-shop.com"))).toBe("update");
  expect(await b.up(args("beta-shop.com"))).toBe("update");

  const paid = sandbox.operator.ledger().filter((e) => e.domain.endsWith("-shop.com"));
  expect(paid.map((e) => [e.domain, e.action])).toEqual([
    ["alpha-shop.com", "register"],
    ["beta-shop.com", "register"],
    ["alpha-shop.com", "renew"],
    ["beta-shop.com", "renew"],
  ]);
  expect(new Set(paid.map((e) => e.idempotency_key)).size).toBe(4);
  expect(expiry("alpha-shop.com")).toBe(expiry("beta-shop.com"));
  expect(expiry("alpha-shop.com") > registered).toBe(true);
});
