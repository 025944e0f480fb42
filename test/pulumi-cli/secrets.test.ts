/**
 * Secrets stay secret through the real Pulumi CLI. A stack registers a domain with contacts,
 * transfers one in with an auth code and requests an EPP code, with the API secret in config
 * (`pulumi config set --secret`). The API secret, the auth code, the EPP code and every contact
 * value appear in plain text in none of: `pulumi stack export` (without --show-secrets), what the CLI
 * prints at the default verbosity and with `-v=9 --logtostderr`, the files under PULUMI_HOME, and
 * each resource's serialized `__provider`. Each haystack has a positive control. Then a credential
 * rotated with `pulumi config set` is the one `refresh --run-program` uses, and, once an up has saved
 * it, the one the next refresh and destroy use.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CliStack, makeProject, requirePulumiCli, type CliRun } from "../../dev/pulumi-cli";
import { credentialFingerprint, startSandbox, type SandboxHandle } from "../../sandbox/index";

jest.setTimeout(900_000);

const OLD = { key: "cli-key-old", secret: "old-secret-7f3a9c1e5b2d4f6a8c0e" };
const NEW = { key: "cli-key-new", secret: "new-secret-2b4d6f8a0c1e3a5c7e9b" };
const AUTH_CODE = "ABC-123-XYZ"; // the sandbox's transfer code for names held elsewhere (sandbox README)
const CONTACT = {
  name: "Quilla Zq7marker Marchbanks",
  organization: "Orrery Og4marker Ltd",
  email: "em9marker@dm3marker.test",
  phone: "+447911123456",
  addressLine1: "17 St5marker Row",
  city: "Ulm Ct2marker",
  postalCode: "Pc8marker",
  country: "GB",
};

const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const reseller = require("reseller-pulumi");
const cfg = new pulumi.Config();
const registrant = cfg.requireSecretObject("registrant");
const reg = new reseller.Domain("reg", { domain: "cli-secret-audit.com", contacts: { registrant }, nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"], maxPrice: "15.00" });
const xfer = new reseller.Domain("xfer", { domain: "transfer-me.net", authCode: cfg.requireSecret("authCode"), contacts: { registrant } });
const code = new reseller.EppCode("code", { domain: reg.domain, trigger: "one" });
exports.regStage = reg.stage;
exports.xferStage = xfer.stage;
exports.eppCode = code.authCode;
`;

let sandbox: SandboxHandle;
let stack: CliStack;
let projectDir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0, credentials: [OLD, NEW] });
  projectDir = makeProject("cli-secrets", { "index.js": PROGRAM });
  stack = await CliStack.init({ cli: requirePulumiCli(), projectDir });
  await stack.configSet("reseller:baseUrl", sandbox.url);
  await stack.configSet("reseller:apiKey", OLD.key);
  await stack.configSet("reseller:apiSecret", OLD.secret, { secret: true });
  await stack.configSet("authCode", AUTH_CODE, { secret: true });
  await stack.configSet("registrant", JSON.stringify(CONTACT), { secret: true });
});
afterAll(async () => {
  await stack?.dispose();
  if (projectDir) fs.rmSync(projectDir, { recursive: true, force: true });
  await sandbox?.close();
});

const filesUnder = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));

const printed = (r: CliRun) => `${r.stdout}\n${r.stderr}`;

test("no secret in plain text in the export, the CLI's output (default and -v=9), PULUMI_HOME's files or a __provider; a rotated credential is used", async () => {
  const up = await stack.run(["up", "--yes", "--non-interactive"]);
  expect({ code: up.code, out: up.code === 0 ? "" : printed(up) }).toEqual({ code: 0, out: "" });
  const verbose = await stack.run(["refresh", "--yes", "--non-interactive", "-v=9", "--logtostderr"]);
  expect({ code: verbose.code, out: verbose.code === 0 ? "" : printed(verbose).slice(-4000) }).toEqual({ code: 0, out: "" });

  const opened = await stack.exportState({ showSecrets: true });
  // `stack export --show-secrets` shows a secret as { <signature>, plaintext: <its JSON> }.
  const shown = opened.deployment.resources!.find((r) => r.urn.endsWith("::code"))!.outputs!.authCode as { plaintext: string };
  const eppCode = JSON.parse(shown.plaintext) as string;
  expect(eppCode).toMatch(/\S{6,}/);
  const needles = [OLD.secret, NEW.secret, AUTH_CODE, eppCode, ...Object.values(CONTACT).filter((v) => v !== "GB")];

  const exported = await stack.exportState();
  const providers = exported.deployment.resources!.filter((r) => r.custom && r.inputs?.__provider).map((r) => String(r.inputs!.__provider));
  const homeFiles = filesUnder(stack.home).filter((f) => !f.startsWith(stack.backend));
  const haystacks: Record<string, string> = {
    "stack export": JSON.stringify(exported),
    "backend files": filesUnder(stack.backend)
      .map((f) => fs.readFileSync(f, "utf8"))
      .join("\n"),
    "up's output": printed(up),
    "refresh -v=9 --logtostderr": printed(verbose),
    "PULUMI_HOME's other files": homeFiles.map((f) => fs.readFileSync(f, "latin1")).join("\n"),
    __provider: providers.join("\n"),
  };
  // Positive controls: each haystack holds what it should, so an empty capture cannot pass.
  expect(haystacks["stack export"]).toContain("cli-secret-audit.com");
  expect(haystacks["backend files"]).toContain("cli-secret-audit.com");
  expect(haystacks["up's output"]).toMatch(/created/);
  expect(haystacks["refresh -v=9 --logtostderr"]).toMatch(/RegisterResource|Read|api/i);
  expect(providers.length).toBe(3);
  expect(haystacks.__provider).toContain("reseller-pulumi/dist/resources/runtime");
  const found = Object.entries(haystacks).flatMap(([where, text]) => needles.filter((n) => text.includes(n)).map((n) => `${where}: ${n.slice(0, 6)}…`));
  expect(found).toEqual([]);

  // Rotation, as the README's "Changing credentials or the base URL" says: refresh and destroy
  // configure the provider from the config the last up saved, unless run with --run-program. A wrong
  // secret set with `pulumi config set --secret` is what `refresh --run-program` sends (401); the new
  // credential, saved by an up that writes nothing, is what refresh and destroy then use.
  await stack.configSet("reseller:apiSecret", "not-the-secret-at-all", { secret: true });
  const refused = await stack.run(["refresh", "--run-program", "--yes", "--non-interactive"]);
  expect(refused.code).not.toBe(0);
  expect(printed(refused)).toMatch(/401 unauthorized/);
  expect(printed(refused)).not.toContain("not-the-secret-at-all");
  await stack.configSet("reseller:apiKey", NEW.key);
  await stack.configSet("reseller:apiSecret", NEW.secret, { secret: true });
  const beforeUp = sandbox.operator.requests().length;
  const saved = await stack.run(["up", "--yes", "--non-interactive"]);
  expect({ code: saved.code, out: saved.code === 0 ? "" : printed(saved) }).toEqual({ code: 0, out: "" });
  expect(sandbox.operator.requests().slice(beforeUp).filter((r) => r.mutating)).toEqual([]);
  const mark = sandbox.operator.requests().length;
  const refresh = await stack.run(["refresh", "--yes", "--non-interactive"]);
  expect({ code: refresh.code, out: refresh.code === 0 ? "" : printed(refresh) }).toEqual({ code: 0, out: "" });
  const destroy = await stack.run(["destroy", "--yes", "--non-interactive"]);
  expect({ code: destroy.code, out: destroy.code === 0 ? "" : printed(destroy) }).toEqual({ code: 0, out: "" });
  const used = new Set(sandbox.operator.requests().slice(mark).map((r) => r.credential));
  expect([...used]).toEqual([credentialFingerprint(NEW.key)]);
});
