/**
 * The serialized `__provider` of every resource is small and holds no secret: captured from a real
 * program run under setMocks (the SDK serializes providers exactly as under `pulumi up`).
 */
import * as pulumi from "@pulumi/pulumi";
import { until } from "../support/until";

const SECRET = "s3cr3t-api-secret-value";
const CONTACT_EMAIL = "private-person@example.net";
const AUTH = "auth-code-XYZ-123";

const captured: { type: string; name: string; inputs: Record<string, unknown> }[] = [];

beforeAll(async () => {
  pulumi.runtime.setAllConfig({ "reseller:apiKey": "key-1", "reseller:apiSecret": SECRET, "reseller:baseUrl": "http://127.0.0.1:1" }, ["reseller:apiSecret"]);
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        captured.push({ type: args.type, name: args.name, inputs: args.inputs });
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "proj",
    "dev",
    false,
  );
});

test("every resource's __provider is at most 1.2 KB, one text for every kind, and contains no secret, path or credential", async () => {
  const r = (require("../../resources") as typeof import("../../resources"));
  const contact = { name: "P", email: CONTACT_EMAIL, phone: "+441234567890", addressLine1: "1", city: "c", country: "GB" };
  new r.Domain("d", { domain: "example.com", contacts: { registrant: contact }, authCode: AUTH });
  new r.DnsZone("z", { domain: "example.com" });
  new r.DnsRecord("rec", { zone: "example.com", type: "A", name: "@", content: "192.0.2.1" });
  new r.ChildHost("h", { domain: "example.com", hostname: "ns1", ipv4: ["192.0.2.53"] });
  new r.PrivacyAddon("p", { domain: "example.com" });
  new r.Protection("pr", { domain: "example.com" });
  new r.EppCode("e", { domain: "example.com", trigger: 1 });
  new r.ZoneTemplate("t", { zone: "example.com", templateId: "mail", variables: { mx_host: "mx.example.com" } });
  const kinds = ["Domain", "DnsZone", "DnsRecord", "ChildHost", "PrivacyAddon", "Protection", "EppCode", "ZoneTemplate"];
  // The SDK registers them one after another: wait for each registration, not for a time.
  await until("the SDK to register every resource", () => captured.length >= kinds.length);

  expect(captured.map((c) => c.type).sort()).toEqual(kinds.map((k) => `pulumi-nodejs:dynamic/reseller:${k}`).sort());
  const coverage = "__coverage__" in globalThis;
  for (const c of captured) {
    const text = c.inputs.__provider as string;
    expect(typeof text).toBe("string");
    if (!coverage) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1200);
    for (const secret of [SECRET, CONTACT_EMAIL, AUTH, "key-1", process.cwd(), __dirname]) expect(text).not.toContain(secret);
    expect(text).toContain('require("reseller-pulumi/dist/resources/runtime")');
    // Each resource carries its URN as an input (idempotency keys and the TTL registry use it).
    expect(c.inputs.resourceUrn).toBe(`urn:pulumi:dev::proj::pulumi-nodejs:dynamic/reseller:${c.type.split(":").pop()}::${c.name}`);
  }
  // One text for every kind: the kind comes from the URN, so the host deserializes it once.
  expect(new Set(captured.map((c) => c.inputs.__provider)).size).toBe(1);
});

test("SECRET_OUTPUTS names the outputs no secret input covers", async () => {
  const { SECRET_OUTPUTS } = (require("../../resources") as typeof import("../../resources"));
  expect(SECRET_OUTPUTS["pulumi-nodejs:dynamic/reseller:EppCode"]).toEqual(["authCode"]);
  expect(SECRET_OUTPUTS["pulumi-nodejs:dynamic/reseller:Domain"]).toEqual(expect.arrayContaining(["contacts", "authCode"]));
});
