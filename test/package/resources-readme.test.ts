/**
 * resources/README.md's table of resources names every property each resource class has (its
 * inputs and outputs): read from the classes as a program builds them (setMocks), so a renamed or
 * added output cannot leave the table behind.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";

const table = fs.readFileSync(path.join(__dirname, "..", "..", "resources", "README.md"), "utf8");
const rowOf = (kind: string): string => table.split("\n").find((l) => l.startsWith(`| \`${kind}\` |`)) ?? "";

beforeAll(async () => {
  pulumi.runtime.setAllConfig({ "reseller:apiKey": "key-1", "reseller:apiSecret": "s", "reseller:baseUrl": "http://127.0.0.1:1" }, ["reseller:apiSecret"]);
  await pulumi.runtime.setMocks({ newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: () => ({}) }, "proj", "dev", false);
});

test("every property of every resource class is in its row of resources/README.md", async () => {
  const r = require("../../resources") as typeof import("../../resources");
  const contact = { name: "P", email: "p@example.net", phone: "+441234567890", addressLine1: "1", city: "c", country: "GB" };
  const made: Record<string, pulumi.CustomResource> = {
    Domain: new r.Domain("d", { domain: "example.com", contacts: { registrant: contact } }),
    DnsZone: new r.DnsZone("z", { domain: "example.com" }),
    DnsRecord: new r.DnsRecord("rec", { zone: "example.com", type: "A", name: "@", content: "192.0.2.1" }),
    ChildHost: new r.ChildHost("h", { domain: "example.com", hostname: "ns1", ipv4: ["192.0.2.53"] }),
    PrivacyAddon: new r.PrivacyAddon("p", { domain: "example.com" }),
    Protection: new r.Protection("pr", { domain: "example.com" }),
    EppCode: new r.EppCode("e", { domain: "example.com", trigger: 1 }),
    ZoneTemplate: new r.ZoneTemplate("t", { zone: "example.com", templateId: "mail", variables: { mx_host: "mx.example.com" } }),
    DnsZoneRecords: new r.DnsZoneRecords("zr", { zone: "example.com", records: [{ type: "A", name: "www", content: "192.0.2.1" }] }),
  };
  // Let the SDK finish registering them (it serializes each provider) before the test ends.
  await Promise.all(Object.values(made).map((m) => new Promise<void>((resolve) => m.urn.apply(() => resolve()))));
  await new Promise((res) => setTimeout(res, 200));
  const missing: string[] = [];
  for (const [kind, res] of Object.entries(made)) {
    const row = rowOf(kind);
    expect(row).not.toBe("");
    // Every resource has these (the README says so beside the table); recordsJson is how
    // DnsZoneRecords' records travel to the host, not a property a program sets.
    const props = Object.keys(res).filter((k) => !k.startsWith("__") && !["urn", "id", "resourceUrn", "adopt", "secretInputs", "recordsJson"].includes(k));
    expect(props.length).toBeGreaterThan(0);
    for (const p of props) if (!new RegExp(`\\b${p}\\b`).test(row)) missing.push(`${kind}.${p}`);
  }
  expect(missing).toEqual([]);
});
