/**
 * ChildHost, PrivacyAddon, Protection and EppCode through the SDK's provider host over gRPC against
 * the sandbox.
 */
import { Managed, startEnv, type Env } from "./harness";

let env: Env;
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
});
