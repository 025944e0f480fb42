/**
 * ChildHost, PrivacyAddon, Protection and EppCode through the SDK's provider host over gRPC against
 * the sandbox.
 */
import { accountId, purchaseKey } from "../../../api/idempotency";
import { Managed, startEnv, urnOf, type Env } from "./harness";

let env: Env;
/** The Idempotency-Key of an add-on purchase on the sandbox's account. */
const keyOf = (urn: string, operation: string, domain: string) => purchaseKey({ account: accountId(env.sandbox.url, env.sandbox.credentials.key), urn, operation, domain });
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => env?.close());

const charges = (domain: string, action: string) => env.sandbox.operator.ledger().filter((e) => e.domain === domain && e.action === action);

test("child host: create, no-op up, update addresses in place, replace on hostname, drift, gone, delete", async () => {
  const h = new Managed(env, "ChildHost", "ns1");
  const args = { domain: "demo-labs.io", hostname: "NS1", ipv4: ["192.0.2.53"], ipv6: [] };
  expect(await h.up(args)).toBe("create");
  expect(h.state!.id).toBe("ns1.demo-labs.io");
  expect(h.outputs).toMatchObject({ hostname: "ns1.demo-labs.io", ipv4: ["192.0.2.53"], ipv6: [], adopted: false });
  const mark = env.mark();
  expect(await h.up({ ...args, hostname: "ns1.demo-labs.io." })).toBe("same");
  await h.refresh();
  expect((await h.preview(args)).step).toBe("same");
  expect(env.mutatingSince(mark)).toEqual([]);

  const more = { ...args, ipv4: ["192.0.2.54", "192.0.2.53"], ipv6: ["2001:DB8:0::53"] };
  expect(await h.up(more)).toBe("update");
  const live = (await env.client.listHosts("demo-labs.io")).find((x) => x.hostname === "ns1.demo-labs.io")!;
  expect([...live.ipv4].sort()).toEqual(["192.0.2.53", "192.0.2.54"]);
  expect(live.ipv6).toEqual(["2001:db8::53"]);
  expect(await h.up(more)).toBe("same");

  // Out of band: addresses changed by hand; refresh shows it, up restores.
  await env.client.updateHost("demo-labs.io", "ns1.demo-labs.io", { ipv4: ["192.0.2.99"], ipv6: [] });
  await h.refresh();
  expect(h.outputs.ipv4).toEqual(["192.0.2.99"]);
  expect(await h.up(more)).toBe("update");

  expect(await h.up({ ...more, hostname: "ns2" })).toBe("replace");
  const names = (await env.client.listHosts("demo-labs.io")).map((x) => x.hostname);
  expect(names).toContain("ns2.demo-labs.io");
  expect(names).not.toContain("ns1.demo-labs.io");

  await env.client.deleteHost("demo-labs.io", "ns2.demo-labs.io");
  expect(await h.refresh()).toBe(false);

  // Adopt the seeded host, then delete it.
  const seeded = new Managed(env, "ChildHost", "seeded");
  expect(await seeded.up({ domain: "demo-reseller.com", hostname: "ns1.demo-reseller.com", ipv4: ["192.0.2.53"], ipv6: ["2001:db8::53"], adopt: true })).toBe("create");
  expect(seeded.outputs.adopted).toBe(true);
  await seeded.destroy();
  expect((await env.client.listHosts("demo-reseller.com")).map((x) => x.hostname)).not.toContain("ns1.demo-reseller.com");
});

test("privacy: bought once under a key from the URN, awaiting verification, refresh follows, delete disables", async () => {
  const p = new Managed(env, "PrivacyAddon", "shop-privacy");
  expect(await p.up({ domain: "demo-shop.net" })).toBe("create");
  expect(p.outputs).toMatchObject({ domain: "demo-shop.net", status: "awaiting_verification", adopted: false });
  expect(charges("demo-shop.net", "privacy")).toHaveLength(1);
  const mark = env.mark();
  expect(await p.up({ domain: "demo-shop.net" })).toBe("same");
  expect(env.mutatingSince(mark)).toEqual([]);

  env.sandbox.operator.confirmPrivacy("demo-shop.net");
  await p.refresh();
  expect(p.outputs).toMatchObject({ status: "active", enabled: true });

  // A re-run of the create (state lost) sends the same key: still one charge.
  const rerun = new Managed(env, "PrivacyAddon", "shop-privacy");
  await rerun.up({ domain: "demo-shop.net" });
  expect(charges("demo-shop.net", "privacy")).toHaveLength(1);

  await p.destroy();
  expect((await env.client.getPrivacy("demo-shop.net")).enabled).toBe(false);

  // Adopt: the seeded domain has privacy on.
  const adopted = new Managed(env, "PrivacyAddon", "seeded-privacy");
  const before = env.sandbox.operator.ledger().length;
  expect(await adopted.up({ domain: "demo-reseller.com", adopt: true })).toBe("create");
  expect(adopted.outputs).toMatchObject({ adopted: true, enabled: true });
  expect(env.sandbox.operator.ledger()).toHaveLength(before);
  await expect(new Managed(env, "PrivacyAddon", "no").up({ domain: "demo-labs.io", adopt: true })).rejects.toThrow(/WHOIS Privacy is not on for demo-labs\.io/);
});

test("protection: bought once; delete leaves it on and says to use the portal; EPP refused while on", async () => {
  const p = new Managed(env, "Protection", "labs-protection");
  expect(await p.up({ domain: "demo-labs.io" })).toBe("create");
  expect(p.outputs).toMatchObject({ enabled: true, adopted: false });
  expect(charges("demo-labs.io", "protection")).toHaveLength(1);
  expect(await p.up({ domain: "demo-labs.io" })).toBe("same");

  const code = new Managed(env, "EppCode", "labs-code");
  await expect(code.up({ domain: "demo-labs.io" })).rejects.toThrow(/cannot be requested while Domain Protection is on. Remove protection in the reseller portal/);

  const mark = env.mark();
  await p.destroy();
  expect(env.mutatingSince(mark)).toEqual([]);
  expect((await env.client.getProtection("demo-labs.io")).enabled).toBe(true);
  expect(env.host.logs().join("\n")).toMatch(/demo-labs\.io: Domain Protection stays on: the API cannot remove it. Remove it in the reseller portal/);

  const adopted = new Managed(env, "Protection", "brand");
  expect(await adopted.up({ domain: "protected-brand.com", adopt: true })).toBe("create");
  expect(adopted.outputs.adopted).toBe(true);
});

test("EPP code: requested on create only; a new trigger requests a new one; never read back", async () => {
  const e = new Managed(env, "EppCode", "shop-code");
  expect(await e.up({ domain: "demo-shop.net", trigger: 1 })).toBe("create");
  const first = e.outputs.authCode as string;
  expect(typeof first).toBe("string");
  expect(first.length).toBeGreaterThanOrEqual(6);
  const mark = env.mark();
  expect(await e.up({ domain: "demo-shop.net", trigger: 1 })).toBe("same");
  await e.refresh();
  expect(e.outputs.authCode).toBe(first);
  expect(env.mutatingSince(mark)).toEqual([]);
  expect(await e.up({ domain: "demo-shop.net", trigger: 2 })).toBe("replace");
  expect(e.outputs.authCode).not.toBe(first);
  expect(env.host.logs().join("\n")).not.toContain(first);

  // Destroy: a transfer code cannot be withdrawn, so nothing is sent at all and the code stays valid.
  const current = e.outputs.authCode as string;
  const before = env.mark();
  await e.destroy();
  expect(env.sandbox.operator.requests().slice(before)).toEqual([]);
  expect(env.sandbox.operator.state().domains["demo-shop.net"].authCode).toBe(current);
});

const API = "/api/v1";

test("privacy: disabled out of band reads as gone; a new domain buys it there under its own key, then disables the old", async () => {
  const p = new Managed(env, "PrivacyAddon", "moving-privacy");
  let mark = env.mark();
  expect(await p.up({ domain: "demo-labs.io" })).toBe("create");
  expect(env.mutatingSince(mark)).toEqual([{ method: "POST", path: `${API}/domains/demo-labs.io/privacy` }]);
  expect(charges("demo-labs.io", "privacy")).toHaveLength(1);

  // Replace: bought on the new domain first, then the old one disabled (no refund, no second charge).
  mark = env.mark();
  const ledgerBefore = env.sandbox.operator.ledger().length;
  expect(await p.up({ domain: "protected-brand.com" })).toBe("replace");
  expect(env.mutatingSince(mark)).toEqual([
    { method: "POST", path: `${API}/domains/protected-brand.com/privacy` },
    { method: "DELETE", path: `${API}/domains/demo-labs.io/privacy` },
  ]);
  const bought = charges("protected-brand.com", "privacy");
  expect(bought).toHaveLength(1);
  expect(bought[0].idempotency_key).toBe(keyOf(urnOf("PrivacyAddon", "moving-privacy"), "privacy", "protected-brand.com"));
  expect(bought[0].idempotency_key).not.toBe(charges("demo-labs.io", "privacy")[0].idempotency_key);
  expect(env.sandbox.operator.ledger()).toHaveLength(ledgerBefore + 1);
  expect(p.state!.id).toBe("protected-brand.com");
  expect(p.outputs).toMatchObject({ domain: "protected-brand.com", enabled: true, status: "awaiting_verification" });
  expect((await env.client.getPrivacy("demo-labs.io")).enabled).toBe(false);
  mark = env.mark();
  expect(await p.up({ domain: "protected-brand.com" })).toBe("same");
  expect(env.mutatingSince(mark)).toEqual([]);

  // Turned off by hand: refresh drops it from state, writing nothing.
  await env.client.disablePrivacy("protected-brand.com");
  mark = env.mark();
  expect(await p.refresh()).toBe(false);
  expect(p.state).toBeUndefined();
  expect(env.mutatingSince(mark)).toEqual([]);

  // The next up enables it again. The resource's purchase key only gets the first purchase replayed (nothing
  // enabled), so the live state is read and the enable is sent under a new key; the add-on is already bought: no charge.
  mark = env.mark();
  expect(await p.up({ domain: "protected-brand.com" })).toBe("create");
  const posts = env.sandbox.operator
    .requests()
    .slice(mark)
    .filter((q) => q.method === "POST")
    .map((q) => ({ path: q.path, replayed: q.replayed, mutating: q.mutating, keyed: !!q.idempotency_key, firstKey: q.idempotency_key === bought[0].idempotency_key }));
  expect(posts).toEqual([
    { path: `${API}/domains/protected-brand.com/privacy`, replayed: true, mutating: false, keyed: true, firstKey: true },
    { path: `${API}/domains/protected-brand.com/privacy`, replayed: false, mutating: true, keyed: true, firstKey: false },
  ]);
  expect(charges("protected-brand.com", "privacy")).toHaveLength(1);
  expect(env.sandbox.operator.ledger()).toHaveLength(ledgerBefore + 1);
  expect((await env.client.getPrivacy("protected-brand.com")).enabled).toBe(true);
  expect(p.outputs).toMatchObject({ enabled: true, status: "awaiting_verification" });
  expect(env.host.logs().join("\n")).toMatch(/protected-brand\.com: WHOIS Privacy purchase: the service answered with an earlier purchase of this resource, but it is off now/);
  expect(await p.refresh()).toBe(true);
  mark = env.mark();
  expect(await p.up({ domain: "protected-brand.com" })).toBe("same");
  expect(env.mutatingSince(mark)).toEqual([]);
});

test("protection: refresh keeps it on with no write; a new domain buys it once under its own key and leaves the old one on", async () => {
  const p = new Managed(env, "Protection", "moving-protection");
  const urn = urnOf("Protection", "moving-protection");
  let mark = env.mark();
  expect(await p.up({ domain: "demo-reseller.com" })).toBe("create");
  expect(env.mutatingSince(mark)).toEqual([{ method: "POST", path: `${API}/domains/demo-reseller.com/protection` }]);
  const first = charges("demo-reseller.com", "protection");
  expect(first).toHaveLength(1);
  expect(first[0].idempotency_key).toBe(keyOf(urn, "protection", "demo-reseller.com"));

  mark = env.mark();
  const before = p.outputs;
  expect(await p.refresh()).toBe(true);
  expect(p.outputs).toEqual(before);
  expect(p.outputs).toMatchObject({ enabled: true, status: "on", adopted: false });
  expect((await p.preview({ domain: "demo-reseller.com" })).step).toBe("same");
  expect(env.mutatingSince(mark)).toEqual([]);

  // Replace: the new one is bought once; the old one cannot be removed through the API, so it stays on and the log says where to remove it.
  mark = env.mark();
  const ledgerBefore = env.sandbox.operator.ledger().length;
  expect(await p.up({ domain: "demo-shop.net" })).toBe("replace");
  expect(env.mutatingSince(mark)).toEqual([{ method: "POST", path: `${API}/domains/demo-shop.net/protection` }]);
  const second = charges("demo-shop.net", "protection");
  expect(second).toHaveLength(1);
  expect(second[0].idempotency_key).toBe(keyOf(urn, "protection", "demo-shop.net"));
  expect(second[0].idempotency_key).not.toBe(first[0].idempotency_key);
  expect(env.sandbox.operator.ledger()).toHaveLength(ledgerBefore + 1);
  expect(charges("demo-reseller.com", "protection")).toHaveLength(1);
  expect(p.state!.id).toBe("demo-shop.net");
  expect((await env.client.getProtection("demo-reseller.com")).enabled).toBe(true);
  expect(env.host.logs().join("\n")).toMatch(/demo-reseller\.com: Domain Protection stays on: the API cannot remove it. Remove it in the reseller portal/);

  mark = env.mark();
  expect(await p.up({ domain: "demo-shop.net" })).toBe("same");
  expect(await p.refresh()).toBe(true);
  expect(p.outputs).toMatchObject({ domain: "demo-shop.net", enabled: true });
  expect(env.mutatingSince(mark)).toEqual([]);
  expect(env.sandbox.operator.ledger()).toHaveLength(ledgerBefore + 1);
});

test("privacy: no answer to the purchase, its re-sends under the same key included, though it was applied: read back, kept unconfirmed, one charge; the next up records what it charged", async () => {
  const own = await startEnv();
  try {
    // Every answer comes after the client gave up; the first request is applied all the same.
    await own.host.configure({ ...own.config, "reseller:timeoutSeconds": "1" });
    own.sandbox.operator.injectFault({ kind: "delay", ms: 2500, count: 4, match: { method: "POST", path: "/domains/demo-shop.net/privacy" } });
    const p = new Managed(own, "PrivacyAddon", "lost-privacy");
    await expect(p.up({ domain: "demo-shop.net" })).rejects.toThrow(/demo-shop\.net: the WHOIS Privacy purchase may have been charged: no answer came back \(.*\)\. The service shows it on, so it was bought, once/);
    expect(p.outputs).toMatchObject({ domain: "demo-shop.net", status: "awaiting_verification", adopted: false, charged: null, unconfirmedOrder: { operation: "privacy" } });
    const privacyPosts = () => own.sandbox.operator.requests().filter((r) => r.method === "POST" && r.path.endsWith("/privacy"));
    // The sandbox logs a delayed request when it answers, after the client has gone.
    while (privacyPosts().length < 4) await new Promise((r) => setTimeout(r, 100));
    const posts = privacyPosts();
    // Only the client's own attempts (one and its 3 retries), all under one key; none from the handler after them.
    expect(posts).toHaveLength(4);
    expect(new Set(posts.map((r) => r.idempotency_key)).size).toBe(1);
    expect(posts.every((r) => r.fault === "delay")).toBe(true);
    const charges = () => own.sandbox.operator.ledger().filter((e) => e.domain === "demo-shop.net" && e.action === "privacy");
    expect(charges()).toHaveLength(1);

    // The next up asks once more under the same key: the replay says what it charged.
    expect(await p.up({ domain: "demo-shop.net" })).toBe("update");
    expect(privacyPosts().slice(4).map((r) => [r.idempotency_key, r.replayed])).toEqual([[posts[0].idempotency_key, true]]);
    expect(charges()).toHaveLength(1);
    expect(p.outputs).toMatchObject({ charged: charges()[0].amount, currency: charges()[0].currency, invoice: charges()[0].invoice });
    expect(p.outputs.unconfirmedOrder).toBeUndefined();
  } finally {
    await own.close();
  }
});
