/**
 * Host names that are not what they look like, through the SDK's provider host over gRPC: a
 * Cyrillic look-alike ("е" U+0435 in "еxample.com", which becomes xn--xample-2of.com), a zero-width
 * space (dropped by IDNA: "exa\u200Bmple.com" becomes example.com), fullwidth letters, in a domain,
 * a zone, nameservers, a record's name and its target. By default check warns, naming the name as
 * typed and its ASCII form; with the contract's names.strict it refuses. Names typed in one script
 * ("bücher.de", "пример.рф") pass without a word. Check alone (reseller:preflight false): no request.
 */
import { startProviderHost } from "../../dev/engine/host";
import { Managed, ROOT, contact, startEnv, type Env } from "../resources/lifecycle/harness";
import { until } from "../support/until";

const NO_ENV = { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined };
const LOOKALIKE = "\u0435xample.com"; // Cyrillic "е", then Latin
const ZWSP = "exa\u200Bmple.com";

let env: Env;
let warned: Env;
let strict: Env;
beforeAll(async () => {
  env = await startEnv();
  warned = await hostWith({});
  strict = await hostWith({ "reseller:contract": JSON.stringify({ names: { strict: true } }) });
});
afterAll(async () => {
  await warned?.close();
  await strict?.close();
  await env?.close();
});

/** A provider host on the sandbox, checking offline, with `config` over the good settings. */
async function hostWith(config: Record<string, string>): Promise<Env> {
  const host = await startProviderHost({ cwd: ROOT, env: NO_ENV });
  await host.configure({ ...env.config, "reseller:preflight": "false", ...config });
  return { ...env, host, close: () => host.close() };
}

/** The host's log once it holds `marker`: a line the host prints may reach its stdout after the answer to the call that logged it. */
async function logsUpTo(host: Env, marker: string): Promise<string> {
  const text = () => host.host.logs().join("\n");
  await until(`the host to log ${marker}`, () => text().includes(marker));
  return text();
}

test("a look-alike, an invisible character and fullwidth letters are warned about at check, naming the name as typed and its ASCII form", async () => {
  expect((await new Managed(warned, "DnsZone", "lookalike-zone").check({ domain: LOOKALIKE })).failures).toEqual([]);
  expect((await new Managed(warned, "DnsZone", "zwsp-zone").check({ domain: ZWSP })).failures).toEqual([]);
  const record = { zone: "demo-reseller.com", type: "CNAME", name: "ｗｗｗ", content: "shop.p\u0430ypal.com.", ttl: 300 };
  expect((await new Managed(warned, "DnsRecord", "lookalike-target").check(record)).failures).toEqual([]);
  const domain = { domain: "b\u00FCcher.de", years: 1, contacts: { registrant: contact }, nameservers: ["ns1.\u0435xample.net", "ns2.example.net"] };
  expect((await new Managed(warned, "Domain", "lookalike-ns").check(domain)).failures).toEqual([]);
  const log = await logsUpTo(warned, "lookalike-ns");

  expect(log).toContain(`DnsZone "lookalike-zone": domain: "${LOOKALIKE}" is not what it looks like`);
  expect(log).toMatch(/mixes Cyrillic and Latin letters \(Cyrillic "е" U\+0435\).*ASCII form, which the service is sent, is xn--xample-2of\.com/);
  expect(log).toContain('DnsZone "zwsp-zone": domain: "exa\\u{200b}mple.com" is not what it looks like: it holds the invisible character U+200B');
  expect(log).toMatch(/zwsp-zone.*is example\.com\b/);
  expect(log).toMatch(/DnsRecord "lookalike-target": name: "ｗｗｗ" is not what it looks like: it is mapped by IDNA to "www"/);
  expect(log).toMatch(/DnsRecord "lookalike-target": content: "shop\.pаypal\.com" .*is shop\.xn--pypal-4ve\.com/);
  expect(log).toMatch(/Domain "lookalike-ns": nameservers\[0\]: "ns1\.еxample\.net" .*is ns1\.xn--xample-2of\.net/);
  // The Domain's own name, in one script, is not flagged.
  expect(log).not.toMatch(/Domain "lookalike-ns": domain:/);
});

test("names typed in one script pass without a warning, as do case and a trailing dot", async () => {
  for (const [name, domain] of [["umlaut", "b\u00FCcher.de"], ["cyrillic", "\u043F\u0440\u0438\u043C\u0435\u0440.\u0440\u0444"], ["greek-caps", "\u0391\u0398\u0397\u039D\u0391\u03A3.gr"], ["case-dot", "B\u00DCCHER.DE."], ["japanese", "\u6771\u4EAC\u30C6\u30B9\u30C8abc.jp"]])
    expect([name, (await new Managed(strict, "DnsZone", `one-script-${name}`).check({ domain })).failures]).toEqual([name, []]);
  for (const name of ["umlaut", "cyrillic"]) await new Managed(warned, "DnsZone", `one-script-${name}`).check({ domain: name === "umlaut" ? "b\u00FCcher.de" : "\u043F\u0440\u0438\u043C\u0435\u0440.\u0440\u0444" });
  // A flagged name after them: once its line is in, theirs would be too.
  await new Managed(warned, "DnsZone", "one-script-marker").check({ domain: LOOKALIKE });
  const log = await logsUpTo(warned, "one-script-marker");
  expect(log).toContain('DnsZone "one-script-marker"');
  expect(log).not.toMatch(/one-script-(umlaut|cyrillic)/);
});

test("with the contract's names.strict, each is refused by check, naming the input, both forms and the setting", async () => {
  const zone = await new Managed(strict, "DnsZone", "strict-zone").check({ domain: LOOKALIKE });
  expect(zone.failures).toHaveLength(1);
  expect(zone.failures[0].property).toBe("domain");
  expect(zone.failures[0].reason).toMatch(/^domain: "еxample\.com" is not what it looks like: .*xn--xample-2of\.com\. Refused: the contract's names\.strict is on/);
  const zwsp = await new Managed(strict, "DnsZone", "strict-zwsp").check({ domain: ZWSP });
  expect(zwsp.failures.map((f) => f.reason)).toEqual([expect.stringMatching(/"exa\\u\{200b\}mple\.com" .*U\+200B.*is example\.com\. Refused/)]);
  const records = await new Managed(strict, "DnsZoneRecords", "strict-records").check({
    zone: "demo-reseller.com",
    records: [{ type: "A", name: "www", content: "192.0.2.1" }, { type: "MX", name: "@", content: "10 mail.\u0435xample.com.", ttl: 300 }],
  });
  expect(records.failures.map((f) => f.property)).toEqual(["records[1].content"]);
});
