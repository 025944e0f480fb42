/**
 * Two stacks with equal project, stack and resource names on one account, through the engine: each
 * registers its own domain and then renews it (both expire the same day). Every purchase's
 * Idempotency-Key covers the account, the domain, the operation and its term, so the two stacks never
 * share a key: each domain is bought once and renewed once (a shared renewal key would replay the
 * first stack's renewal for the second, or be refused, and leave its domain unrenewed).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Engine } from "../../engine/engine";
import { packageRoot } from "../../engine/host";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import type { StackSpec } from "./fixtures/spec";

jest.setTimeout(600_000);

const STACK = path.join(packageRoot(), "dist", "test", "safety", "fixtures", "stack.js");
const contacts = {
  registrant: { name: "Jane Tester", email: "jane@private-mail.test", phone: "+44 20 7946 0001", addressLine1: "2 Test Lane", city: "London", postalCode: "E1 6AN", country: "gb" },
};

let dir: string;
let sandbox: SandboxHandle;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "two-stacks-"));
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
});
afterEach(async () => {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `pulumi up` of one of the two stacks: same project ("reseller") and stack ("dev"), its own state. */
const up = (state: string, domain: string) =>
  new Engine({
    stateFile: path.join(dir, state, "dev.json"),
    config: { "reseller:baseUrl": sandbox.url, "reseller:apiKey": sandbox.credentials.key, "reseller:apiSecret": sandbox.credentials.secret, "reseller:requestsPerMinute": "100000" },
    secretConfigKeys: ["reseller:apiSecret"],
    host: { cwd: packageRoot() },
    log: () => undefined,
  }).up({ file: STACK, args: { resources: [{ kind: "Domain", name: "d", args: { domain, contacts, renewal: { minDaysRemaining: 3000 } } }] } satisfies StackSpec });

test("equal names on one account: each domain is bought and renewed once, under keys of its own", async () => {
  await up("a", "alpha-shop.com");
  await up("b", "beta-shop.com");
  const expiry = (domain: string) => new Date(sandbox.operator.state().domains[domain].expiresAt).toISOString().slice(0, 10);
  const registered = expiry("alpha-shop.com");
  expect(expiry("beta-shop.com")).toBe(registered);

  // The renewal is due (3000 days before expiry): each second up renews from the same expiry date.
  const renewedA = await up("a", "alpha-shop.com");
  const renewedB = await up("b", "beta-shop.com");
  expect([renewedA.summary, renewedB.summary]).toMatchObject([{ update: 1 }, { update: 1 }]);

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
