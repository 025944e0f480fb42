/**
 * A value the program marks secret stays secret in every message, for every input of every kind.
 *
 * The SDK's provider host answers Configure with acceptSecrets=false, so the engine hands Check
 * plain values: only the program knows what was secret. 1) The resource constructors send the
 * names of the secret inputs as the input `secretInputs` (read off the registrations a program
 * makes under the SDK's mocks). 2) Through the SDK's provider host (gRPC) against the sandbox, an
 * invalid value carrying a random marker in each input of each kind, marked secret, fails check
 * naming the input and the rule, and the marker is in no failure, log line or host output; the same
 * value unmarked is shown (control: the search could find it). 3) A create whose secret input the
 * service names in its refusal, and a log line that names one, mask it too.
 */
import { randomBytes } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { UNKNOWN, type PropertyMap } from "../../dev/engine/host";
import type { Kind } from "../../resources/kinds";
import { providerFor, startEnv, urnOf, type Env } from "../resources/lifecycle/harness";

const marker = (): string => `zq${randomBytes(5).toString("hex")}`;
const everyMarker: string[] = [];

/** One input of one kind: the invalid value to send (carrying `m`) and other inputs that make the rest valid. */
interface Case {
  kind: Kind;
  field: string;
  bad: (m: string) => unknown;
  rest?: PropertyMap;
}

const contact = { name: "N", email: "n@example.net", phone: "+441234567890", addressLine1: "1 Road", city: "C", country: "GB" };
const domainRest = { domain: "secret-case.com", contacts: { registrant: contact } };
const recordRest = { zone: "demo-reseller.com", type: "A", name: "s", content: "192.0.2.1", ttl: 300 };

const CASES: Case[] = [
  { kind: "Domain", field: "domain", bad: (m) => `bad_${m}.com`, rest: domainRest },
  { kind: "Domain", field: "years", bad: (m) => m, rest: domainRest },
  { kind: "Domain", field: "contacts", bad: (m) => ({ registrant: { ...contact, email: `${m}-at-nowhere` } }), rest: domainRest },
  { kind: "Domain", field: "nameservers", bad: (m) => [`ns1.${m}`, `ns_${m}.example.com`], rest: domainRest },
  { kind: "Domain", field: "locked", bad: (m) => m, rest: domainRest },
  { kind: "Domain", field: "authCode", bad: (m) => ({ code: m }), rest: domainRest },
  { kind: "Domain", field: "clientReference", bad: (m) => `${m}-`.repeat(30), rest: domainRest },
  { kind: "Domain", field: "maxPrice", bad: (m) => `${m}.00`, rest: domainRest },
  { kind: "Domain", field: "renewal", bad: (m) => ({ notBefore: `${m}-01-01` }), rest: domainRest },
  { kind: "Domain", field: "waitTimeoutSeconds", bad: (m) => m, rest: domainRest },
  { kind: "DnsZone", field: "domain", bad: (m) => `${m}..com` },
  { kind: "DnsZone", field: "forceDestroy", bad: (m) => m, rest: { domain: "demo-reseller.com" } },
  { kind: "DnsZone", field: "waitForDelegation", bad: (m) => m, rest: { domain: "demo-reseller.com" } },
  { kind: "DnsZone", field: "waitTimeoutSeconds", bad: (m) => m, rest: { domain: "demo-reseller.com" } },
  { kind: "DnsRecord", field: "zone", bad: (m) => `-${m}.com`, rest: recordRest },
  { kind: "DnsRecord", field: "type", bad: (m) => ({ t: m }), rest: recordRest },
  { kind: "DnsRecord", field: "name", bad: (m) => `a b ${m}`, rest: recordRest },
  { kind: "DnsRecord", field: "content", bad: (m) => `${m} is no address`, rest: recordRest },
  { kind: "DnsRecord", field: "content", bad: (m) => `"${m}" "unterminated`, rest: { ...recordRest, type: "TXT" } },
  { kind: "DnsRecord", field: "content", bad: (m) => `0 issue "${m}.example;;"`, rest: { ...recordRest, type: "CAA" } },
  { kind: "DnsRecord", field: "ttl", bad: (m) => m, rest: recordRest },
  { kind: "DnsRecord", field: "priority", bad: (m) => m, rest: { ...recordRest, type: "MX", content: "mx.example.com" } },
  { kind: "DnsRecord", field: "extra", bad: (m) => ({ weight: m, port: 5060 }), rest: { ...recordRest, type: "SRV", name: "_sip._tcp", content: "sip.example.com", priority: 1 } },
  { kind: "ChildHost", field: "domain", bad: (m) => `${m}`, rest: { hostname: "ns1", ipv4: ["192.0.2.1"] } },
  { kind: "ChildHost", field: "hostname", bad: (m) => `ns1.${m}.elsewhere.net`, rest: { domain: "demo-reseller.com", ipv4: ["192.0.2.1"] } },
  { kind: "ChildHost", field: "ipv4", bad: (m) => [m], rest: { domain: "demo-reseller.com", hostname: "ns1" } },
  { kind: "ChildHost", field: "ipv6", bad: (m) => [`${m}::1`], rest: { domain: "demo-reseller.com", hostname: "ns1", ipv4: ["192.0.2.1"] } },
  { kind: "PrivacyAddon", field: "domain", bad: (m) => `${m}_x.com` },
  { kind: "Protection", field: "domain", bad: (m) => `${m}_x.com` },
  { kind: "EppCode", field: "domain", bad: (m) => `${m}_x.com` },
  { kind: "ZoneTemplate", field: "zone", bad: (m) => `${m}_x.com`, rest: { templateId: "google-workspace" } },
  { kind: "ZoneTemplate", field: "templateId", bad: (m) => ({ id: m }), rest: { zone: "demo-reseller.com" } },
  { kind: "ZoneTemplate", field: "variables", bad: (m) => ({ token: { v: m } }), rest: { zone: "demo-reseller.com", templateId: "google-workspace" } },
  { kind: "ZoneTemplate", field: "conflictStrategy", bad: (m) => m, rest: { zone: "demo-reseller.com", templateId: "google-workspace" } },
];

const found = (haystack: string, needle: string): boolean => haystack.toLowerCase().includes(needle.toLowerCase());

describe("the constructors name the secret inputs (SDK mocks: what a program registers)", () => {
  const registered = new Map<string, Record<string, unknown>>();
  beforeAll(async () => {
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          registered.set(args.name, args.inputs);
          return { id: `${args.name}-id`, state: args.inputs };
        },
        call: () => ({}),
      },
      "secrets",
      "dev",
      false,
    );
  });

  const made = async (r: pulumi.Resource, name: string): Promise<Record<string, unknown>> => {
    await new Promise<void>((resolve) => r.urn.apply(() => resolve()));
    return registered.get(name)!;
  };

  test("top-level and nested secrets are named; plain values and plain outputs are not; none at all leaves no marker", async () => {
    const { DnsRecord, Domain, ZoneTemplate } = require("../../resources") as typeof import("../../resources");
    const txt = await made(new DnsRecord("txt", { zone: pulumi.output("example.com"), type: "TXT", content: pulumi.secret("token-1") }), "txt");
    expect(txt.secretInputs).toEqual(["content"]);
    expect(txt.content).toMatchObject({ value: "token-1" }); // the SDK's own secret wrapping, as sent to the engine
    const dom = await made(
      new Domain("dom", { domain: "example.com", contacts: { registrant: { ...contact, email: pulumi.secret("x@example.net") } }, authCode: pulumi.secret("AC-1") }),
      "dom",
    );
    expect(dom.secretInputs).toEqual(["contacts", "authCode"]);
    const tpl = await made(new ZoneTemplate("tpl", { zone: "example.com", templateId: "t", variables: { a: "1", b: pulumi.secret("2") } }), "tpl");
    expect(tpl.secretInputs).toEqual(["variables"]);
    const plain = await made(new DnsRecord("plain", { zone: pulumi.output("example.com"), type: "A", content: "192.0.2.1" }), "plain");
    expect(plain).not.toHaveProperty("secretInputs");
  });
});

describe("through the SDK's provider host", () => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv();
  });
  afterAll(async () => env?.close());

  const check = async (c: Case, m: string, secret: boolean) => {
    const urn = urnOf(c.kind, `secret-${m}`);
    const news = { ...c.rest, [c.field]: c.bad(m), resourceUrn: urn, __provider: await providerFor(c.kind), ...(secret ? { secretInputs: [c.field] } : {}) };
    return env.host.check(urn, {}, news);
  };

  test.each(CASES.map((c) => [`${c.kind}.${c.field}`, c] as const))("%s: an invalid secret value is named by its input, never shown", async (_name, c) => {
    const m = marker();
    everyMarker.push(m);
    const r = await check(c, m, true);
    const mine = r.failures.filter((f) => f.property === c.field || f.property.startsWith(`${c.field}.`) || f.property.startsWith(`${c.field}[`));
    expect(mine.length).toBeGreaterThan(0);
    for (const f of mine) expect(f.reason).toMatch(new RegExp(`^${c.field.replace(/[.[\]]/g, "\\$&")}\\S*: .*\\S`));
    expect(r.failures.filter((f) => found(f.reason, m))).toEqual([]);
    // Control: unmarked, the same value is shown (except the inputs that are secret by kind), so the search above could find it.
    const plain = await check(c, marker(), false);
    expect(plain.failures.length).toBeGreaterThan(0);
  });

  test("a marker that is not a list of names (unknown in preview) hides every input: fails closed", async () => {
    const m = marker();
    everyMarker.push(m);
    const urn = urnOf("DnsRecord", "secret-unknown-marker");
    const r = await env.host.check(urn, {}, { ...recordRest, content: `${m} is no address`, resourceUrn: urn, __provider: await providerFor("DnsRecord"), secretInputs: UNKNOWN });
    expect(r.failures).toEqual([{ property: "content", reason: expect.stringMatching(/^content: \(secret\) is not/) }]);
    expect(found(r.failures[0].reason, m)).toBe(false);
  });

  test("controls: unmarked, a failure shows the value", async () => {
    const m = marker();
    const r = await check({ kind: "DnsRecord", field: "content", bad: (x) => `${x} is no address`, rest: recordRest }, m, false);
    expect(r.failures.some((f) => found(f.reason, m))).toBe(true);
  });

  test("a refusal by the service that names a secret input, and a log line that names one, mask it", async () => {
    // A record in a zone the service does not have: the 404 names the zone in its path.
    const m = marker();
    everyMarker.push(m);
    const zone = `${m}.com`;
    const urn = urnOf("DnsRecord", "secret-zone");
    const news = { ...recordRest, zone, resourceUrn: urn, __provider: await providerFor("DnsRecord"), secretInputs: ["zone"] };
    const mark = env.mark();
    // Check refuses it first (the account does not hold the domain), naming the zone masked.
    const refused = await env.host.check(urn, {}, news).then(
      () => undefined,
      (x: unknown) => x as Error,
    );
    expect(refused?.message).toMatch(/^\(secret\): is not a domain of this reseller account/);
    expect(found(refused!.message, m)).toBe(false);
    // Sent all the same (a create whose check was passed over), the service's own 404 names it: masked too.
    const e = await env.host.create(urn, news).then(
      () => undefined,
      (x: unknown) => x as Error,
    );
    expect(e).toBeInstanceOf(Error);
    expect(e!.message).toMatch(/404 not_found/);
    expect(e!.message).toContain("(secret)");
    expect(found(e!.message, m)).toBe(false);
    expect(env.mutatingSince(mark)).toEqual([]);

    // Adopting the seeded zone logs its domain: marked secret, the line masks it.
    const zurn = urnOf("DnsZone", "secret-adopt");
    const zc = await env.host.check(zurn, {}, { domain: "demo-reseller.com", adopt: true, resourceUrn: zurn, __provider: await providerFor("DnsZone"), secretInputs: ["domain"] });
    await env.host.create(zurn, zc.inputs);
    const logs = env.host.logs().join("\n");
    expect(logs).toMatch(/\(secret\): zone adopted \(\d+ records\); nothing changed/);
    expect(logs).not.toContain("demo-reseller.com: zone adopted");

    // Nothing the host printed, on stdout or stderr, holds any marker of this file.
    expect(everyMarker.length).toBe(CASES.length + 2);
    for (const needle of everyMarker) expect(found(logs, needle)).toBe(false);
  });
});
