/**
 * `Domain.get`, `DnsZone.get` and `DnsRecord.get` in a program run by engine/ (the read step is the
 * engine's: ReadResource, kept as an external resource): up reads them through the provider host,
 * the stack holds them as external, and destroy deletes none of them. `isInstance` tells the kinds
 * apart. Against the sandbox's seeded domain and zone.
 */
import { compiledProgram } from "../../../bench/program-file";
import { Engine, type Program } from "../../../engine/engine";
import { startSandbox, type SandboxHandle } from "../../../sandbox/index";

jest.setTimeout(180_000);

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
});
afterAll(async () => sandbox?.close());

const program: Program = { file: compiledProgram("test/resources/lifecycle/programs/get-program.ts"), args: {} };

test("get reads an existing domain, zone and record into the stack as external resources; destroy leaves them", async () => {
  const engine = new Engine({
    config: { "reseller:apiKey": sandbox.credentials.key, "reseller:apiSecret": sandbox.credentials.secret, "reseller:baseUrl": sandbox.url, "reseller:requestsPerMinute": "100000" },
    secretConfigKeys: ["reseller:apiSecret"],
    passphrase: "test-passphrase",
    log: () => undefined,
  });
  const up = await engine.up(program);
  expect(up.errors).toEqual([]);
  expect(up.steps.map((s) => [s.name, s.op])).toEqual(expect.arrayContaining([["existing", "read"], ["existing-zone", "read"], ["existing-www", "read"]]));
  expect(up.outputs).toMatchObject({ stage: "active", nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"], kinds: [true, false, true, false] });
  expect(up.outputs.www).toMatch(/^demo-reseller\.com\.?$/);
  const held = engine.resources().filter((r) => r.name.startsWith("existing"));
  expect(held.map((r) => [r.name, r.id, r.external])).toEqual([
    ["existing", "demo-reseller.com", true],
    ["existing-zone", "demo-reseller.com", true],
    ["existing-www", "rec_5", true],
  ]);

  await engine.destroy();
  expect(sandbox.operator.requests().filter((r) => r.mutating)).toEqual([]);
  expect(sandbox.operator.state().zones["demo-reseller.com"]).toBeDefined();
});
