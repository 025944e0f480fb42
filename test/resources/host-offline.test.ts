/**
 * check and diff through the SDK's own dynamic-provider host over gRPC (dev/engine/host.ts), with the
 * real serialized shims: the path `pulumi preview` takes. No API call is involved: check and diff
 * are offline here (reseller:preflight false; resources/kit/preflight.ts makes the reads a preview needs). Needs `npm run build` (the host requires reseller-pulumi/dist/resources/runtime).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { startProviderHost, UNKNOWN, type ProviderHost } from "../../dev/engine/host";
import type { Kind } from "../../resources/kinds";
import { shim } from "../../resources/program/shim";

const SECRET = "host-test-secret-value";
const root = path.resolve(__dirname, "../..");
let host: ProviderHost;
const providers: Partial<Record<Kind, string>> = {};

async function provider(kind: Kind): Promise<string> {
  if (!providers[kind]) {
    const p = shim(kind);
    providers[kind] = (await pulumi.runtime.serializeFunction(() => p)).text;
  }
  return providers[kind]!;
}

const urn = (kind: string, name: string) => `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/reseller:${kind}::${name}`;

beforeAll(async () => {
  if (!fs.existsSync(path.join(root, "dist/resources/runtime.js"))) throw new Error("run `npm run build` first: the host loads dist/resources/runtime.js");
  host = await startProviderHost({ cwd: root });
  // No service behind the base URL: check's reads (resources/kit/preflight.ts) are turned off, as for an offline preview.
  await host.configure({ "reseller:apiKey": "k", "reseller:apiSecret": SECRET, "reseller:baseUrl": "http://127.0.0.1:9", "reseller:preflight": "false" });
});
afterAll(async () => host?.close());

async function check(kind: Kind, name: string, inputs: Record<string, unknown>) {
  const news = { ...inputs, resourceUrn: urn(kind, name), __provider: await provider(kind) };
  return host.check(urn(kind, name), {}, news);
}

test("record check: failures name field, value and rule; inputs come back canonical", async () => {
  const bad = await check("DnsRecord", "bad", { zone: "example.com", type: "A", name: "www", content: "192.0.2.1", ttl: 30 });
  expect(bad.failures).toEqual([{ property: "ttl", reason: "ttl: 30 is below the minimum of 60 seconds" }]);
  const good = await check("DnsRecord", "mx", { zone: "Example.COM.", type: "mx", name: "example.com.", content: "10 Mail.example.com." });
  expect(good.failures).toEqual([]);
  expect(good.inputs).toMatchObject({ zone: "example.com", type: "MX", name: "@", content: "mail.example.com", priority: 10, ttl: 3600 });
});

test("unknowns during preview pass check", async () => {
  const r = await check("DnsRecord", "pending", { zone: UNKNOWN, type: "A", name: "@", content: UNKNOWN, ttl: 300 });
  expect(r.failures).toEqual([]);
  const d = await check("Domain", "d", { domain: UNKNOWN, contacts: UNKNOWN, nameservers: UNKNOWN });
  expect(d.failures).toEqual([]);
});

test("the shared-TTL registry spans resources in one host process", async () => {
  const base = { zone: "ttl.example", type: "TXT", name: "@" };
  expect((await check("DnsRecord", "txt-a", { ...base, content: "a", ttl: 300 })).failures).toEqual([]);
  const clash = await check("DnsRecord", "txt-b", { ...base, content: "b", ttl: 900 });
  expect(clash.failures).toHaveLength(1);
  expect(clash.failures[0].reason).toMatch(/ttl: 300 and 900 differ between the TXT records named @ in ttl\.example: "txt-a" has ttl 300, "txt-b" has ttl 900; .* give them the same ttl/);
});

test("domain check never shows a secret", async () => {
  const r = await check("Domain", "secretive", {
    domain: "example.com",
    authCode: 42,
    contacts: { registrant: { name: "n", email: "leak-me", phone: "leak-phone", addressLine1: "a", city: "c", country: "leak-country" } },
  });
  expect(r.failures.map((f) => f.property).sort()).toEqual(["authCode", "contacts.registrant.country", "contacts.registrant.email", "contacts.registrant.phone"]);
  expect(JSON.stringify(r.failures)).not.toMatch(/leak|42/);
  expect(host.logs().join("\n")).not.toContain(SECRET);
});

test("diff through the host: update in place, replace on identity, no change after canonical check", async () => {
  const p = await provider("DnsRecord");
  const olds = { zone: "example.com", type: "A", name: "www", content: "192.0.2.1", ttl: 300, priority: null, extra: null, recordId: "7", fqdn: "www.example.com", __provider: p };
  const same = await check("DnsRecord", "www", { zone: "EXAMPLE.com", type: "a", name: "www.example.com.", content: "192.0.2.1", ttl: 300 });
  expect((await host.diff("7", urn("DnsRecord", "www"), olds, same.inputs)).changes).toBe(false);
  const content = await host.diff("7", urn("DnsRecord", "www"), olds, { ...same.inputs, content: "192.0.2.2" });
  expect(content).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
  const renamed = await host.diff("7", urn("DnsRecord", "www"), olds, { ...same.inputs, name: "web" });
  expect(renamed).toMatchObject({ changes: true, replaces: ["name"], deleteBeforeReplace: false });
  const pending = await host.diff("7", urn("DnsRecord", "www"), olds, { ...same.inputs, content: UNKNOWN });
  expect(pending.changes).toBe(true);
});
