/**
 * A value secret on input is secret wherever it lands in state, not only under its own property
 * name (which is all the engine re-marks for a provider that takes no secrets): a DnsZoneRecords'
 * secret TXT content in its checked `fields`, the keys of `records` and `ids`; a DnsRecord's secret
 * content in a DnsZoneRecords' `unmanaged` and `elsewhere` after a refresh; a DnsRecord's secret name
 * in its `fqdn`; a Domain's contact with one secret field, whole. Through the SDK's provider host
 * (gRPC) and dev/engine's step rules against the sandbox: every top-level property of inputs and
 * outputs whose value holds a secret string is among those the state keeps secret (sealed when
 * written), after up and after refresh. Each case has a control: the secret strings are in state.
 */
import { randomBytes } from "node:crypto";
import type { ResourceState } from "../../dev/engine/state";
import { contact, Managed, startEnv, type Env } from "../resources/lifecycle/harness";

jest.setTimeout(120_000);

/** A property the program marked secret, as the SDK sends it (dev/engine's monitor unwraps it). */
const secret = (value: unknown) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });
const marker = (): string => `zq${randomBytes(6).toString("hex")}`;

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env?.close();
});

/** Top-level properties of the state's inputs and outputs whose value holds one of `needles`, and are not kept secret. */
function plainHolding(s: ResourceState, needles: string[]): string[] {
  const holds = (v: unknown) => needles.some((n) => JSON.stringify(v ?? null).toLowerCase().includes(n.toLowerCase()));
  const found: string[] = [];
  for (const [side, bag] of [["inputs", s.inputs], ["outputs", s.outputs]] as const)
    for (const [k, v] of Object.entries(bag)) if (holds(v) && !s.secretKeys.includes(k)) found.push(`${side}.${k}`);
  return found;
}
/** Control: where the needles are at all. */
function holding(s: ResourceState, needles: string[]): string[] {
  const holds = (v: unknown) => needles.some((n) => JSON.stringify(v ?? null).toLowerCase().includes(n.toLowerCase()));
  return [...Object.entries(s.inputs).filter(([, v]) => holds(v)).map(([k]) => `inputs.${k}`), ...Object.entries(s.outputs).filter(([, v]) => holds(v)).map(([k]) => `outputs.${k}`)];
}

test("DnsZoneRecords' secret TXT content (one of its records): fields, records and ids keys secret; a DnsRecord's secret content in its unmanaged and elsewhere after refresh", async () => {
  const zone = "demo-reseller.com";
  const own = `${marker()} with spaces`;
  const other = marker();
  // A DnsRecord of the stack with secret content, and one made outside the stack (unmanaged).
  const rec = new Managed(env, "DnsRecord", "other-txt");
  expect(await rec.up({ zone, type: "TXT", name: "other", content: secret(other), secretInputs: ["content"] })).toBe("create");
  const outside = marker();
  await env.client.createRecord(zone, { type: "TXT", name: "outside", content: outside, ttl: 300 });

  const zr = new Managed(env, "DnsZoneRecords", "zr");
  const records = [
    { type: "TXT", name: "own", content: secret(own) },
    { type: "A", name: "plain", content: "192.0.2.77" },
  ];
  expect(await zr.up({ zone, records: secret(records), secretInputs: ["records"] })).toBe("create");
  expect(holding(zr.state!, [own])).toEqual(expect.arrayContaining(["inputs.records", "outputs.records", "outputs.ids"]));
  expect(plainHolding(zr.state!, [own])).toEqual([]);
  expect(zr.state!.secretKeys).toEqual(expect.arrayContaining(["records", "ids", "unmanaged", "elsewhere"]));

  // The DnsRecord, known to the stack, shows in elsewhere; the record made outside in unmanaged: both secret after a refresh.
  expect(await zr.refresh()).toBe(true);
  expect(holding(zr.state!, [other, outside])).toEqual(expect.arrayContaining(["outputs.elsewhere", "outputs.unmanaged"]));
  expect(plainHolding(zr.state!, [own, other, outside])).toEqual([]);
  expect(await rec.refresh()).toBe(true);
  expect(plainHolding(rec.state!, [other])).toEqual([]);
});

test("a DnsZoneRecords whose records hold a content needing `fields` (a checked input of its own): that input is kept secret", async () => {
  const zone = "demo-reseller.com";
  const own = `v=spf1 include:${marker()}.example ~all`;
  const zr = new Managed(env, "DnsZoneRecords", "zr-fields");
  // MX: priority travels in `fields` where the key does not hold it as is.
  const records = [{ type: "TXT", name: "spf", content: secret(own), ttl: 600 }, { type: "MX", name: "@", content: "mx9.example.net", priority: 15 }];
  expect(await zr.up({ zone, records: secret(records), secretInputs: ["records"] })).toBe("create");
  expect(plainHolding(zr.state!, [own])).toEqual([]);
  expect(holding(zr.state!, [own])).toEqual(expect.arrayContaining(["inputs.fields", "inputs.records", "outputs.ids"]));
});

test("a DnsRecord whose name is secret: its fqdn too, after up and refresh", async () => {
  const name = marker();
  const rec = new Managed(env, "DnsRecord", "secret-name");
  expect(await rec.up({ zone: "demo-reseller.com", type: "A", name: secret(name), content: "192.0.2.78", secretInputs: ["name"] })).toBe("create");
  expect(holding(rec.state!, [name])).toEqual(expect.arrayContaining(["inputs.name", "outputs.name", "outputs.fqdn"]));
  expect(plainHolding(rec.state!, [name])).toEqual([]);
  expect(await rec.refresh()).toBe(true);
  expect(plainHolding(rec.state!, [name])).toEqual([]);
});

test("a Domain whose contact has one secret field: its contacts are secret whole in inputs and outputs, after up and refresh", async () => {
  const email = `${marker()}@private-mail.test`;
  const d = new Managed(env, "Domain", "partly-secret-contact");
  const contacts = { registrant: { ...contact, email: secret(email) } };
  expect(await d.up({ domain: "derived-secret-contact.com", contacts, secretInputs: ["contacts"] })).toBe("create");
  expect(holding(d.state!, [email])).toEqual(expect.arrayContaining(["inputs.contacts", "outputs.contacts"]));
  expect(plainHolding(d.state!, [email, contact.name, contact.phone])).toEqual([]);
  expect(await d.refresh()).toBe(true);
  expect(plainHolding(d.state!, [email, contact.name, contact.phone])).toEqual([]);
});
