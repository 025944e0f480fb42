/**
 * A value secret on input is secret wherever it lands in state, through the real Pulumi CLI against
 * the sandbox: a DnsZoneRecords with one secret TXT content (its checked `fields`, the keys of its
 * `records` and `ids`), a DnsRecord with secret content (it shows in the DnsZoneRecords' `elsewhere`
 * or `unmanaged` after a refresh, as the CLI's order of reads has it), a record made outside the stack (in `unmanaged`, secret whatever it holds: the
 * resource cannot tell), a DnsRecord with a secret name (its `fqdn`), and a Domain whose contact has
 * one secret field. After up and after refresh, `pulumi stack export` holds none of those values in
 * plain text; `--show-secrets` holds each (the control), where the resource was expected to put it.
 * On the pinned CLI. On the oldest the README claims, readme-flow.test.ts's up of the README's
 * program checks the same engine rules once: its secret inputs, and the Domain's contacts (an output
 * the constructors mark secret with `additionalSecretOutputs`, as the zone's `unmanaged` and
 * `elsewhere` are), are not in its `stack export`.
 */
import * as fs from "node:fs";
import { CliStack, makeProject, PINNED_CLI, requirePulumiCli, type CliRun, type StackExport } from "../../dev/pulumi-cli";
import { ResellerClient } from "../../api/client";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";

jest.setTimeout(900_000);

const ZONE = "demo-reseller.com";
const OWN_TXT = "zq-own-txt-5e1b9c7d with spaces";
const OTHER_TXT = "zq-other-txt-8a2f4e6c";
const OUTSIDE_TXT = "zq-outside-txt-3d7b1a9f";
const SECRET_NAME = "zq-name-4c8e2a6b";
const EMAIL = "zq-email-9f3d5b1e@private-mail.test";
const REGISTRANT = { name: "Quinn Public", email: "placeholder@example.org", phone: "+447911123456", addressLine1: "2 Open Row", city: "Leeds", postalCode: "LS1 1AA", country: "GB" };

const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const reseller = require("reseller-pulumi");
const cfg = new pulumi.Config();
const zone = ${JSON.stringify(ZONE)};
new reseller.DnsZoneRecords("zr", { zone, records: [
  { type: "TXT", name: "own", content: cfg.requireSecret("ownTxt") },
  { type: "MX", name: "@", content: "mx9.example.net", priority: 15 },
] });
new reseller.DnsRecord("other", { zone, type: "TXT", name: "other", content: cfg.requireSecret("otherTxt") });
new reseller.DnsRecord("named", { zone, type: "A", name: cfg.requireSecret("secretName"), content: "192.0.2.79" });
new reseller.Domain("shop", {
  domain: "cli-derived-secrets.com",
  contacts: { registrant: { ...cfg.requireObject("registrant"), email: cfg.requireSecret("email") } },
  nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"],
});
`;

const printed = (r: CliRun) => `${r.stdout}\n${r.stderr}`;
const NEEDLES = [OWN_TXT, OTHER_TXT, OUTSIDE_TXT, SECRET_NAME, EMAIL];
const resource = (s: StackExport, name: string) => s.deployment.resources!.find((r) => r.urn.endsWith(`::${name}`))!;

describe(`the Pulumi CLI ${PINNED_CLI}`, () => {
  let sandbox: SandboxHandle;
  let stack: CliStack;
  let projectDir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0 });
    projectDir = makeProject("cli-derived-secrets", { "index.js": PROGRAM });
    stack = await CliStack.init({ cli: requirePulumiCli(), projectDir });
    const plain = { "reseller:baseUrl": sandbox.url, "reseller:apiKey": sandbox.credentials.key, registrant: JSON.stringify(REGISTRANT) };
    const secret = { "reseller:apiSecret": sandbox.credentials.secret, ownTxt: OWN_TXT, otherTxt: OTHER_TXT, secretName: SECRET_NAME, email: EMAIL };
    await stack.must([
      "config",
      "set-all",
      ...Object.entries(plain).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
      ...Object.entries(secret).flatMap(([k, v]) => ["--secret", `${k}=${v}`]),
    ]);
  });
  afterAll(async () => {
    await stack?.dispose();
    if (projectDir) fs.rmSync(projectDir, { recursive: true, force: true });
    await sandbox?.close();
  });

  /** Which needles the export holds in plain text (case-insensitively: names are lower-cased), and, with --show-secrets, where each is. */
  async function audit(): Promise<{ plain: string[]; shown: Record<string, string[]> }> {
    const hidden = JSON.stringify(await stack.exportState()).toLowerCase();
    const opened = await stack.exportState({ showSecrets: true });
    const shown: Record<string, string[]> = {};
    for (const r of opened.deployment.resources ?? []) {
      for (const [side, bag] of [["inputs", r.inputs ?? {}], ["outputs", r.outputs ?? {}]] as const)
        for (const [k, v] of Object.entries(bag)) for (const n of NEEDLES) if (JSON.stringify(v).toLowerCase().includes(n.toLowerCase())) (shown[n] ??= []).push(`${r.urn.split("::").pop()}.${side}.${k}`);
    }
    return { plain: NEEDLES.filter((n) => hidden.includes(n.toLowerCase())), shown };
  }

  test("after up and after refresh, no secret value is in plain text in `pulumi stack export`, wherever the resources put it", async () => {
    const up = await stack.run(["up", "--yes", "--non-interactive"]);
    expect({ code: up.code, out: up.code === 0 ? "" : printed(up).slice(-4000) }).toEqual({ code: 0, out: "" });
    const afterUp = await audit();
    expect(afterUp.plain).toEqual([]);
    // The control: where each value is, once shown.
    expect(afterUp.shown[OWN_TXT]).toEqual(expect.arrayContaining(["zr.inputs.records", "zr.outputs.records", "zr.outputs.ids"]));
    expect(afterUp.shown[SECRET_NAME]).toEqual(expect.arrayContaining(["named.inputs.name", "named.outputs.fqdn"]));
    expect(afterUp.shown[EMAIL]).toEqual(expect.arrayContaining(["shop.inputs.contacts", "shop.outputs.contacts"]));

    // A record made outside the stack, then a refresh: the zone's other records land in unmanaged and elsewhere.
    const client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, rateLimitLogDir: null });
    await client.createRecord(ZONE, { type: "TXT", name: "outside", content: OUTSIDE_TXT, ttl: 300 });
    await client.close();
    const refresh = await stack.run(["refresh", "--yes", "--non-interactive"]);
    expect({ code: refresh.code, out: refresh.code === 0 ? "" : printed(refresh).slice(-4000) }).toEqual({ code: 0, out: "" });
    const afterRefresh = await audit();
    expect(afterRefresh.plain).toEqual([]);
    expect(afterRefresh.shown[OTHER_TXT]).toEqual(expect.arrayContaining(["other.inputs.content"]));
    // elsewhere when the refresh read the DnsRecord before the zone's records, unmanaged otherwise (the CLI reads in no fixed order): secret either way.
    expect(afterRefresh.shown[OTHER_TXT].filter((w) => w.startsWith("zr."))).toEqual([expect.stringMatching(/^zr\.outputs\.(elsewhere|unmanaged)$/)]);
    expect(afterRefresh.shown[OUTSIDE_TXT]).toEqual(["zr.outputs.unmanaged"]);
    const zr = resource(await stack.exportState(), "zr").outputs ?? {};
    for (const list of [zr.elsewhere, zr.unmanaged]) expect(list).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" });
  });
});
