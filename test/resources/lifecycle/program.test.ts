/**
 * A real Pulumi program using the public classes (programs/whole-program.ts), run by dev/engine/ in its
 * own process (the SDK's provider host over gRPC) against the sandbox: preview, up, a second up with no mutating call, refresh with no
 * change, secrets sealed in state, destroy. The same program reads the seeded domain, zone and record
 * with `Domain.get`, `DnsZone.get` and `DnsRecord.get` (the read step is the engine's: ReadResource,
 * kept as an external resource): up reads them through the provider host, the stack holds them as
 * external, and destroy deletes none of them. `isInstance` tells the kinds apart.
 */
import { compiledProgram } from "../../../dev/engine/program-file";
import { Engine, type Program } from "../../../dev/engine/engine";
import { startProviderHost, type ProviderHost } from "../../../dev/engine/host";
import { startSandbox, type SandboxHandle } from "../../../sandbox/index";
import { keptOpen } from "../../support/kept-open";
import { contact } from "./harness";

// Six engine runs, each starting the program's process. They share one provider host (kept open,
// configured by each run with the same settings): what this file proves is the program's and the
// engine's (read steps, external resources, secrets, no-op runs), none of it a fresh host's; a host
// of its own per command is pinned by test/dev/engine/engine.test.ts and demo.test.ts. The preflight's
// per-process memory (purchases keyed by URN, reads dropped after each write) gives the same
// answers on a host that saw the earlier runs.
jest.setTimeout(240_000);

let sandbox: SandboxHandle;
let host: ProviderHost;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
  host = await startProviderHost();
});
afterAll(async () => {
  await host?.close();
  await sandbox?.close();
});

const program: Program = {
  file: compiledProgram("test/resources/lifecycle/programs/whole-program.ts"),
  args: { domain: "program-test.com", registrant: contact },
};

test("preview, up, no-op up, refresh and destroy of a whole program; secrets sealed in state; get reads existing objects as external resources, which destroy leaves", async () => {
  const lines: string[] = [];
  const engine = new Engine({
    config: {
      "reseller:apiKey": sandbox.credentials.key,
      "reseller:apiSecret": sandbox.credentials.secret,
      "reseller:baseUrl": sandbox.url,
      "reseller:requestsPerMinute": "100000",
    },
    secretConfigKeys: ["reseller:apiSecret"],
    passphrase: "test-passphrase",
    log: (line) => lines.push(line),
    startHost: async () => keptOpen(host),
  });

  const plan = await engine.preview(program);
  expect(plan.summary).toMatchObject({ create: 5 });
  expect(sandbox.operator.requests().filter((r) => r.mutating)).toEqual([]);

  const up = await engine.up(program);
  expect(up.errors).toEqual([]);
  expect(up.summary).toMatchObject({ create: 5, update: 0, delete: 0 });
  expect(up.outputs).toMatchObject({ stage: "active", nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"], code: "[secret]" });
  expect(sandbox.operator.ledger().filter((e) => e.domain === "program-test.com")).toHaveLength(1);
  // The gets: read steps, external resources in the stack.
  expect(up.steps.map((s) => [s.name, s.op])).toEqual(expect.arrayContaining([["existing", "read"], ["existing-zone", "read"], ["existing-www", "read"]]));
  expect(up.outputs.existing).toMatchObject({ stage: "active", nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"], kinds: [true, false, true, false] });
  expect((up.outputs.existing as { www: string }).www).toMatch(/^demo-reseller\.com\.?$/);
  expect(engine.resources().filter((r) => r.name.startsWith("existing")).map((r) => [r.name, r.id, r.external])).toEqual([
    ["existing", "demo-reseller.com", true],
    ["existing-zone", "demo-reseller.com", true],
    ["existing-www", "rec_5", true],
  ]);

  const mark = sandbox.operator.requests().length;
  const again = await engine.up(program);
  expect(again.summary).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0, same: 5 });
  // up followed by refresh shows no change at all.
  const refreshed = await engine.refresh();
  expect(refreshed.summary).toMatchObject({ update: 0, delete: 0 });
  expect(refreshed.steps.filter((s) => s.op !== "same")).toEqual([]);
  expect((await engine.preview(program)).summary).toMatchObject({ same: 5 });
  expect(sandbox.operator.requests().slice(mark).filter((r) => r.mutating)).toEqual([]);

  // Secrets: contacts (input) and the EPP code (declared output) never appear in plain text.
  const byName = Object.fromEntries(engine.resources().map((r) => [r.name, r]));
  expect(byName.site.secretKeys).toEqual(expect.arrayContaining(["contacts"]));
  expect(byName.code.secretKeys).toEqual(expect.arrayContaining(["authCode"]));
  const code = byName.code.outputs.authCode as string;
  const text = engine.serializedState();
  for (const s of [contact.email, contact.name, code, sandbox.credentials.secret]) expect(text).not.toContain(s);
  for (const s of [contact.email, code, sandbox.credentials.secret]) expect(engine.hostLogs().join("\n")).not.toContain(s);

  expect(lines.join("\n")).not.toContain(contact.email);
  const beforeDestroy = sandbox.operator.requests().length;
  const destroyed = await engine.destroy();
  // Five deleted, and the three external resources leave the stack (a discard step, as the CLI names
  // it, that calls nothing): nothing is written to the seeded domain, zone or record.
  expect(destroyed.summary).toMatchObject({ delete: 5, discard: 3 });
  expect(sandbox.operator.requests().slice(beforeDestroy).filter((r) => r.mutating && r.path.includes("demo-reseller.com"))).toEqual([]);
  expect(sandbox.operator.state().zones["demo-reseller.com"]?.records.some((r) => r.id === "rec_5")).toBe(true);
  expect(sandbox.operator.state().domains["demo-reseller.com"].stage).toBe("active");
  // The domain stays registered; the zone and its records are gone.
  const info = sandbox.operator.state().domains["program-test.com"];
  expect(info.stage).toBe("active");
  expect(sandbox.operator.state().zones["program-test.com"]).toBeUndefined();
});
