/**
 * No wait on what cannot come (resources/dns-zone/zones-in-run.ts): a record whose zone this command was
 * to create fails at once, with the zone's message, once the zone's check has failed; it never waits
 * out the zone's create (its delegation wait plus two minutes) for a create that will not run. The
 * CLI then sends no record of such a zone at all when the record names it (by output or literal:
 * resources/program/declaration-order.ts); this is the host's own guarantee, for a record that
 * reaches its create anyway. Through the SDK's provider host over gRPC against the sandbox.
 */
import { Managed, startEnv, type Env } from "./harness";

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => env?.close());

test("a record of a zone whose check failed in this command fails at once, with the zone's message, at its check and at its create", async () => {
  // no-dns-addon.org is in the account without the DNS add-on: the zone's check fails after declaring the zone.
  const zone = new Managed(env, "DnsZone", "addonless-zone");
  await expect(zone.check({ domain: "no-dns-addon.org", waitForDelegation: true })).rejects.toThrow(/no-dns-addon\.org: lacks the DNS Management add-on/);
  const zoneFailed = /A www\.no-dns-addon\.org: not created: zone no-dns-addon\.org failed in this run \(DnsZone "addonless-zone"\): no-dns-addon\.org: lacks the DNS Management add-on/;
  const record = new Managed(env, "DnsRecord", "addonless-www");
  const args = { zone: "no-dns-addon.org", type: "A", name: "www", content: "192.0.2.30", ttl: 3600 };
  await expect(record.check(args)).rejects.toThrow(zoneFailed);
  // A create the engine sends anyway (its check passed on a host that does not predict: reseller:preflight false) meets the same, without waiting.
  const mark = env.mark();
  const inputs = { ...args, resourceUrn: record.urn, __provider: (await record.inputs({})).__provider };
  await expect(env.host.create(record.urn, inputs)).rejects.toThrow(zoneFailed);
  expect(env.mutatingSince(mark)).toEqual([]);
  expect(env.host.logs().join("\n")).not.toMatch(/waiting for zone no-dns-addon\.org/);
});
