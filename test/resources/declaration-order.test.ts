/**
 * The implicit order (resources/program/declaration-order.ts), read from the RegisterResourceRequests
 * the SDK sends to a (mock) monitor, the requests `pulumi up` sends: their dependencies.
 *
 * The DnsRecords of one RRset (zone, name, type) go one after another, in declaration order.
 * Purchases go one after another: Domains, then add-ons, each in declaration order, so the stack's
 * total against the balance refuses the same one in every order.
 *
 * The order sees only what the program declared
 * before it first yields: a zone or record naming a domain as a literal waits for the program's
 * Domain of that name when the Domain was declared in the same synchronous stretch (before or after
 * it), and not when the Domain comes after an `await`. Read here from the RegisterResourceRequest the
 * SDK sends to a (mock) monitor, the request `pulumi up` sends: its dependencies. Where the wait is
 * missing, the zone's check can come before the Domain's, and a zone of a domain the account does not
 * hold yet is refused; the message then says how to order it (the output, or dependsOn).
 */
import * as pulumi from "@pulumi/pulumi";
import { domainNotHeld } from "../../resources/kit/preview-messages";

interface RegisterRequest {
  getName(): string;
  getDependenciesList(): string[];
}

const dependencies = new Map<string, string[]>();

beforeAll(async () => {
  await pulumi.runtime.setMocks({ newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: () => ({}) }, "proj", "dev", false);
  const monitor = pulumi.runtime.getMonitor() as unknown as { registerResource(req: RegisterRequest, cb: unknown): unknown };
  const original = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req, cb) => {
    dependencies.set(req.getName(), req.getDependenciesList());
    return original(req, cb);
  };
});

const { Domain, DnsRecord, DnsZone, PrivacyAddon, Protection } = require("../../resources") as typeof import("../../resources");
const contacts = { registrant: { name: "A", email: "a@example.test", phone: "+1 555 0100", addressLine1: "1 Street", city: "Town", postalCode: "1000", country: "us" } };

const registeredDeps = async (r: pulumi.Resource): Promise<string[]> => {
  const urn = await new Promise<string>((resolve) => r.urn.apply((u) => resolve(u)));
  for (let i = 0; i < 50 && !dependencies.has(urn.split("::").pop()!); i++) await new Promise((r) => setImmediate(r));
  return dependencies.get(urn.split("::").pop()!) ?? [];
};

// First: the module keeps every declaration of the program (this file), and a later Domain would wait for these.
test("purchases wait one for another: Domains in declaration order, then add-ons; an adopted one is not a purchase", async () => {
  const urnOf = (r: pulumi.Resource) => new Promise<string>((resolve) => r.urn.apply((u) => resolve(u)));
  // An add-on declared first still comes after the Domains (it waits for its own Domain besides).
  const privacy = new PrivacyAddon("chain-privacy", { domain: "chain-b.com" });
  const first = new Domain("chain-a", { domain: "chain-a.com", contacts });
  const adopted = new Domain("chain-adopted", { domain: "chain-held.com", adopt: true });
  const second = new Domain("chain-b", { domain: "chain-b.com", contacts });
  const protection = new Protection("chain-protection", { domain: "chain-a.com" });
  expect(await registeredDeps(first)).toEqual([]);
  expect(await registeredDeps(adopted)).toEqual([]);
  expect(await registeredDeps(second)).toEqual([await urnOf(first)]);
  expect((await registeredDeps(privacy)).sort()).toEqual([await urnOf(second)].sort());
  expect((await registeredDeps(protection)).sort()).toEqual([await urnOf(first), await urnOf(privacy)].sort());
});

test("a zone declared before its Domain in one synchronous stretch waits for it; declared before an await that precedes the Domain, it does not", async () => {
  // One stretch: the zone first, the Domain after it; the zone waits for the Domain all the same.
  const zoneA = new DnsZone("stretch-zone", { domain: "after-await-a.com" });
  const domainA = new Domain("stretch-domain", { domain: "after-await-a.com", contacts });
  // The zone, then an await, then the Domain: the zone's registration is sent before the Domain exists.
  const zoneB = new DnsZone("awaited-zone", { domain: "after-await-b.com" });
  await new Promise((r) => setImmediate(r));
  const domainB = new Domain("awaited-domain", { domain: "after-await-b.com", contacts });
  const urnOf = (r: pulumi.Resource) => new Promise<string>((resolve) => r.urn.apply((u) => resolve(u)));
  expect(await registeredDeps(zoneA)).toEqual([await urnOf(domainA)]);
  expect(await registeredDeps(zoneB)).toEqual([]);
  // Declared after the await, a zone still sees a Domain declared before it (every declaration so far counts).
  const zoneC = new DnsZone("late-zone", { domain: "after-await-b.com" });
  expect(await registeredDeps(zoneC)).toEqual([await urnOf(domainB)]);
});

test("the refusal a zone then meets says how to order it", () => {
  expect(domainNotHeld("after-await-b.com")).toMatch(/declares after an `await`.*domain\.domain.*dependsOn/);
});

test("the DnsRecords of one RRset wait one for another in declaration order, however the name is spelt; other names and types do not", async () => {
  const urnOf = (r: pulumi.Resource) => new Promise<string>((resolve) => r.urn.apply((u) => resolve(u)));
  const a = new DnsRecord("peer-a", { zone: "peer.example", type: "TXT", name: "set", content: "a" });
  const other = new DnsRecord("peer-other", { zone: "peer.example", type: "A", name: "set", content: "192.0.2.1" });
  const b = new DnsRecord("peer-b", { zone: "Peer.Example", type: "txt", name: "SET.peer.example.", content: "b" });
  const c = new DnsRecord("peer-c", { zone: "peer.example", type: "TXT", name: "set", content: "c" });
  const apex = new DnsRecord("peer-apex", { zone: "peer.example", type: "TXT", content: "apex" });
  const apexToo = new DnsRecord("peer-apex-too", { zone: "peer.example", type: "TXT", name: "@", content: "apex too" });
  expect(await registeredDeps(a)).toEqual([]);
  expect(await registeredDeps(other)).toEqual([]);
  expect(await registeredDeps(b)).toEqual([await urnOf(a)]);
  expect(await registeredDeps(c)).toEqual([await urnOf(b)]);
  expect(await registeredDeps(apex)).toEqual([]);
  expect(await registeredDeps(apexToo)).toEqual([await urnOf(apex)]);
});
