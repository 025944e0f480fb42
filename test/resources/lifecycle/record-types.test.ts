/**
 * Record types are checked (dns/types.ts) through the SDK's provider host over gRPC
 * against the sandbox: a name that is neither IANA's, nor RFC 3597's TYPEnnn, nor one the contract's
 * recordTypes lists is refused at preview with the nearest known type, for DnsRecord and
 * DnsZoneRecords alike, before any request that changes something; the open list still takes an
 * unassigned TYPEnnn and a contract name, which the sandbox (an open-ended service) then holds.
 */
import { startProviderHost } from "../../../dev/engine/host";
import { Managed, ROOT, startEnv, type Env } from "./harness";

const ZONE = "demo-reseller.com";
let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => env?.close());

const live = async () => env.client.listRecords(ZONE);

test("a typo of a type is refused at preview naming the field, the value and the nearest type; nothing is written", async () => {
  const mark = env.mark();
  const r = new Managed(env, "DnsRecord", "typo");
  const checked = await r.check({ zone: ZONE, type: "CNAM", name: "shop", content: "shops.example.net", ttl: 300 });
  expect(checked.failures).toEqual([
    { property: "type", reason: expect.stringMatching(/^type: "CNAM" is not a record type; did you mean CNAME\? \(record types are IANA's DNS types, the RFC 3597 form TYPEnnn, and the names the contract's recordTypes lists/) },
  ]);
  await expect(r.preview({ zone: ZONE, type: "CNAM", name: "shop", content: "shops.example.net", ttl: 300 })).rejects.toThrow(/did you mean CNAME\?/);
  // The fix, in lower case (the type's own name, upper-cased by check).
  await expect(r.up({ zone: ZONE, type: "cname", name: "shop", content: "shops.example.net", ttl: 300 })).resolves.toBe("create");
  expect(r.outputs).toMatchObject({ type: "CNAME" });
  // A swap of two letters is one edit: SVR is SRV; lower case is the type's own name.
  expect((await new Managed(env, "DnsRecord", "swap").check({ zone: ZONE, type: "svr", name: "x", content: "y" })).failures[0].reason).toMatch(/^type: "svr" is not a record type; did you mean SRV\?/);
  // A query type never sits in a zone; a generic name of a known type asks for its mnemonic.
  expect((await new Managed(env, "DnsRecord", "axfr").check({ zone: ZONE, type: "AXFR", name: "x", content: "y" })).failures[0].reason).toBe('type: "AXFR" is a query or meta type (RFC 6895 §3.1), which no zone holds');
  expect((await new Managed(env, "DnsRecord", "generic").check({ zone: ZONE, type: "TYPE257", name: "x", content: '0 issue "ca.example"' })).failures[0].reason).toBe(
    'type: "TYPE257" is the RFC 3597 generic name of CAA; give the type\'s mnemonic, CAA',
  );
  // Nothing near: the examples instead of a guess.
  expect((await new Managed(env, "DnsRecord", "far").check({ zone: ZONE, type: "BANANA", name: "x", content: "y" })).failures[0].reason).toMatch(/^type: "BANANA" is not a record type \(record types are .*; e.g. A, AAAA, CNAME, MX, TXT\)$/);
  const writes = env.mutatingSince(mark);
  expect(writes).toHaveLength(1);
  expect((await live()).some((x) => x.type === "CNAM")).toBe(false);
});

test("the list stays open: an unassigned RFC 3597 TYPEnnn and an IANA type this package does not read are created with their content as written", async () => {
  const generic = new Managed(env, "DnsRecord", "private-type");
  expect(await generic.up({ zone: ZONE, type: "type65280", name: "priv", content: "\\# 4 0a000001", ttl: 300 })).toBe("create");
  expect(generic.outputs).toMatchObject({ type: "TYPE65280", content: "\\# 4 0a000001" });
  const cert = new Managed(env, "DnsRecord", "cert");
  expect(await cert.up({ zone: ZONE, type: "CERT", name: "cert", content: "PGP 0 0 AQID", ttl: 300 })).toBe("create");
  const types = (await live()).map((x) => x.type);
  expect(types).toEqual(expect.arrayContaining(["TYPE65280", "CERT"]));
});

test("a name the contract's recordTypes lists (reseller:contract) is taken; the same name without it is refused", async () => {
  const host = await startProviderHost({ cwd: ROOT, env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined } });
  try {
    await host.configure({ ...env.config, "reseller:contract": JSON.stringify({ recordTypes: ["ALIAS"] }) });
    const withEntry: Env = { ...env, host };
    const alias = new Managed(withEntry, "DnsRecord", "alias");
    expect(await alias.up({ zone: ZONE, type: "alias", name: "edge", content: "cdn.example.net", ttl: 300 })).toBe("create");
    expect(alias.outputs).toMatchObject({ type: "ALIAS", content: "cdn.example.net" });
    // The nearest known type now includes the contract's names.
    expect((await new Managed(withEntry, "DnsRecord", "alias-typo").check({ zone: ZONE, type: "ALIS", name: "edge2", content: "cdn.example.net" })).failures[0].reason).toMatch(/did you mean ALIAS\?/);
  } finally {
    await host.close();
  }
  expect((await new Managed(env, "DnsRecord", "alias-no-entry").check({ zone: ZONE, type: "ALIAS", name: "edge3", content: "cdn.example.net" })).failures[0].reason).toMatch(/^type: "ALIAS" is not a record type/);
  await expect(
    (async () => {
      const bad = await startProviderHost({ cwd: ROOT, env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined } });
      try {
        await bad.configure({ ...env.config, "reseller:contract": JSON.stringify({ recordTypes: ["TYPE1"] }) });
        await new Managed({ ...env, host: bad }, "DnsRecord", "bad-contract").check({ zone: ZONE, type: "A", name: "x", content: "192.0.2.1" });
      } finally {
        await bad.close();
      }
    })(),
  ).rejects.toThrow(/"recordTypes" must list type names/);
});

test("DnsZoneRecords: a typo among its records is refused naming the record, before anything is written", async () => {
  const mark = env.mark();
  const z = new Managed(env, "DnsZoneRecords", "typo-zone");
  const checked = await z.check({
    zone: ZONE,
    records: [
      { type: "A", name: "ok", content: "192.0.2.9" },
      { type: "TXTT", name: "note", content: "hello" },
    ],
  });
  expect(checked.failures).toEqual([{ property: "records[1].type", reason: expect.stringMatching(/^records\[1\]\.type: "TXTT" is not a record type; did you mean TXT\? .*\(record TXTT note\)$/) }]);
  expect(env.mutatingSince(mark)).toEqual([]);
});
