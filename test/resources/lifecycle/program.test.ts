/**
 * A real Pulumi program using the public classes, run by engine/ (setMocks + the SDK's provider host
 * over gRPC) against the sandbox: preview, up, a second up with no mutating call, refresh with no
 * change, secrets sealed in state, destroy.
 */
import { Engine } from "../../../engine/engine";
import { startSandbox, type SandboxHandle } from "../../../sandbox/index";
import { contact } from "./harness";

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
});
afterAll(async () => sandbox?.close());

async function program() {
  const reseller = (require("../../../resources") as typeof import("../../../resources"));
  const domain = new reseller.Domain("site", {
    domain: "program-test.com",
    contacts: { registrant: contact },
    nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"],
    locked: true,
    maxPrice: "15.00",
  });
  const zone = new reseller.DnsZone("zone", { domain: domain.domain, waitForDelegation: true, waitTimeoutSeconds: 30 });
  new reseller.DnsRecord("www", { zone: zone.domain, type: "CNAME", name: "www", content: "@", ttl: 600 });
  new reseller.DnsRecord("mx", { zone: zone.domain, type: "MX", name: "@", content: "10 mail.program-test.com." });
  const code = new reseller.EppCode("code", { domain: domain.domain, trigger: "one" });
  return { stage: domain.stage, nameservers: zone.nameservers, code: code.authCode };
}

test("preview, up, no-op up, refresh and destroy of a whole program; secrets sealed in state", async () => {
  const lines: string[] = [];
  const { SECRET_OUTPUTS } = (require("../../../resources") as typeof import("../../../resources"));
  const engine = new Engine({
    config: {
      "reseller:apiKey": sandbox.credentials.key,
      "reseller:apiSecret": sandbox.credentials.secret,
      "reseller:baseUrl": sandbox.url,
      "reseller:requestsPerMinute": "100000",
    },
    secretConfigKeys: ["reseller:apiSecret"],
    secretOutputs: (type) => SECRET_OUTPUTS[type] ?? [],
    passphrase: "test-passphrase",
    log: (line) => lines.push(line),
  });

  const plan = await engine.preview(program);
  expect(plan.summary).toMatchObject({ create: 5 });
  expect(sandbox.operator.requests().filter((r) => r.mutating)).toEqual([]);

  const up = await engine.up(program);
  expect(up.summary).toMatchObject({ create: 5, update: 0, delete: 0 });
  expect(up.outputs).toMatchObject({ stage: "active", nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"], code: "[secret]" });
  expect(sandbox.operator.ledger().filter((e) => e.domain === "program-test.com")).toHaveLength(1);

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
  const destroyed = await engine.destroy();
  expect(destroyed.summary).toMatchObject({ delete: 5 });
  // The domain stays registered; the zone and its records are gone.
  const info = sandbox.operator.state().domains["program-test.com"];
  expect(info.stage).toBe("active");
  expect(sandbox.operator.state().zones["program-test.com"]).toBeUndefined();
});
