/**
 * Secrets stay secret through the real Pulumi CLI. A stack registers a domain with contacts,
 * transfers one in with an auth code and requests an EPP code, with the API secret in config
 * (`pulumi config set --secret`). The API secret, the auth code, the EPP code and every contact
 * value appear in plain text in none of: what that `up` prints at `-v=9 --logtostderr --logflow`,
 * the log files the same `up` of a second stack writes at `-v=9 --logflow` (into its PULUMI_HOME),
 * the CLI's automatic logs under PULUMI_HOME, `pulumi stack export` (without --show-secrets), the
 * backend's files and each resource's serialized `__provider`. Each haystack has a control: a known
 * non-secret value from the same place, so an empty or wrong capture fails. Then a credential rotated
 * with `pulumi config set` and saved by an up is the one the next refresh and destroy use; the new
 * secret is searched for in everything printed or written after the rotation. That a refresh run
 * before such an up configures the provider from the saved config, and `refresh --run-program` from
 * today's, is the CLI's rule, proven through it with the engine's fixture provider
 * (conformance.test.ts, "refresh configures the provider from the config saved at the last up").
 *
 * One place is set apart, a known leak: at -v=9 the Pulumi Node SDK logs each answer to the program's
 * RegisterResource (`RegisterResource RPC finished: ... resp: ...`, @pulumi/pulumi runtime/resource.js)
 * with the answer's values in plain text. The CLI masks the plaintext of each secret config value
 * it knows (the API secret, the auth code, each field of contacts set field by field with `--path`),
 * but not the fields of a secret object set as one JSON text, nor a secret output (the EPP code). The
 * second stack sets its contacts field by field, and a test finds none of them in its lines; the
 * last test searches all those lines, and is marked failing while the EPP code (and contacts set as
 * one JSON text) are there: the package cannot hide them (docs/reference.md, "Debug logs").
 */
import { gunzipSync } from "node:zlib";
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
const YES = ["--yes", "--non-interactive"];
/** The CLI's most verbose logging, its plugins' too, written to standard error. */
const VERBOSE = ["-v=9", "--logtostderr", "--logflow"];
/** A non-secret input of the registered Domain: the controls of the haystacks where the engine logs inputs. */
const NAMESERVER = "ns1.dns.sandbox.test";
/** The Pulumi Node SDK's debug line of each RegisterResource answer: the known leak, searched apart. */
const SDK_ANSWER = "RegisterResource RPC finished";

const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const reseller = require("reseller-pulumi");
const cfg = new pulumi.Config();
const registrant = cfg.requireSecretObject("registrant");
const reg = new reseller.Domain("reg", { domain: cfg.require("registers"), contacts: { registrant }, nameservers: ["${NAMESERVER}", "ns2.dns.sandbox.test"], maxPrice: "15.00" });
const xfer = new reseller.Domain("xfer", { domain: cfg.require("transfers"), authCode: cfg.requireSecret("authCode"), contacts: { registrant } });
const code = new reseller.EppCode("code", { domain: reg.domain, trigger: "one" });
exports.regStage = reg.stage;
exports.xferStage = xfer.stage;
exports.eppCode = code.authCode;
`;

let sandbox: SandboxHandle;
let projectDir: string;
const stacks: CliStack[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0, credentials: [OLD, NEW] });
  projectDir = makeProject("cli-secrets", { "index.js": PROGRAM });
});
afterAll(async () => {
  for (const s of stacks) await s.dispose();
  if (projectDir) fs.rmSync(projectDir, { recursive: true, force: true });
  await sandbox?.close();
});

/**
 * A stack (a PULUMI_HOME of its own) that registers `registers` and transfers `transfers` (a name the
 * sandbox holds elsewhere). The registrant is one secret JSON text, or with `byField` set field by
 * field (`pulumi config set --secret --path registrant.<field>`): each field a secret value of its own.
 */
async function stackFor(name: string, registers: string, transfers: string, byField = false): Promise<CliStack> {
  const stack = await CliStack.init({ cli: requirePulumiCli(), projectDir, stack: name });
  stacks.push(stack);
  await stack.configSet("registers", registers);
  await stack.configSet("transfers", transfers);
  await stack.configSet("reseller:baseUrl", sandbox.url);
  await stack.configSet("reseller:apiKey", OLD.key);
  await stack.configSet("reseller:apiSecret", OLD.secret, { secret: true });
  await stack.configSet("authCode", AUTH_CODE, { secret: true });
  if (!byField) await stack.configSet("registrant", JSON.stringify(CONTACT), { secret: true });
  else for (const [field, value] of Object.entries(CONTACT)) await stack.must(["config", "set", "--secret", "--path", `registrant.${field}`], { stdin: value });
  return stack;
}

const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true, recursive: true })
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name))
        .sort()
    : [];

const printed = (r: CliRun) => `${r.stdout}\n${r.stderr}`;
const ok = (r: CliRun) => ({ code: r.code, out: r.code === 0 ? "" : printed(r).slice(-4000) });

/** The SDK's RegisterResource answer lines of a verbose log, set apart for the known-leak test, and the log without them. */
const sdkAnswerLines: Record<string, string> = {};
function apart(where: string, log: string): string {
  const lines = log.split("\n");
  sdkAnswerLines[where] = lines.filter((l) => l.includes(SDK_ANSWER)).join("\n");
  return lines.filter((l) => !l.includes(SDK_ANSWER)).join("\n");
}
/**
 * Whether the engine's verbose log of its plan for the Domain "reg" holds a non-secret input (a
 * nameserver) in plain text and its contacts masked: the control of a verbose haystack.
 */
const planLogged = (log: string): boolean => log.split("\n").some((l) => l.includes("Planner decided to") && l.includes("Domain::reg") && l.includes(NAMESERVER) && l.includes("contacts:{[secret]}"));

/**
 * The CLI's automatic logs (PULUMI_HOME/logs): a command run without a stack writes gzip, which is
 * plain text once unpacked; one with a stack encrypts its log with the stack's secrets provider
 * (magic "PLOG"), so none of its text is in the file. Each log: its text to search, and its control.
 */
function automaticLogs(stack: CliStack): { file: string; encrypted: boolean; text: string }[] {
  return filesUnder(path.join(stack.home, "logs")).map((file) => {
    const bytes = fs.readFileSync(file);
    const encrypted = bytes.subarray(0, 4).toString("latin1") === "PLOG";
    return { file: path.basename(file), encrypted, text: encrypted ? bytes.toString("latin1") : gunzipSync(bytes).toString("utf8") };
  });
}

/** Where each needle is found, as "haystack: first characters of the needle…". */
const findings = (haystacks: Record<string, string>, needles: string[]): string[] =>
  Object.entries(haystacks).flatMap(([where, text]) => needles.filter((n) => text.includes(n)).map((n) => `${where}: ${n.slice(0, 6)}…`));

/** Every secret this file knows before the EPP code exists; contact values all but the country code (a common word). */
const SECRETS = [OLD.secret, NEW.secret, AUTH_CODE, ...Object.values(CONTACT).filter((v) => v !== "GB")];

/** The EPP codes of the stacks so far, for the known-leak test. */
const eppCodes: string[] = [];
/** The EPP code the stack holds, read as its owner reads it (`stack export --show-secrets`). */
async function eppCodeOf(stack: CliStack): Promise<string> {
  const opened = await stack.exportState({ showSecrets: true });
  // `stack export --show-secrets` shows a secret as { <signature>, plaintext: <its JSON> }.
  const shown = opened.deployment.resources!.find((r) => r.urn.endsWith("::code"))!.outputs!.authCode as { plaintext: string };
  const code = JSON.parse(shown.plaintext) as string;
  expect(code).toMatch(/\S{6,}/);
  eppCodes.push(code);
  return code;
}

/** The state's haystacks and their controls: `stack export`, the backend's files, each `__provider`. */
async function stateHaystacks(stack: CliStack, domain: string, controls: Record<string, boolean>): Promise<Record<string, string>> {
  const exported = await stack.exportState();
  const providers = (exported.deployment.resources ?? []).filter((r) => r.custom && r.inputs?.__provider).map((r) => String(r.inputs!.__provider));
  const haystacks: Record<string, string> = {
    "stack export": JSON.stringify(exported),
    "backend files": filesUnder(stack.backend)
      .map((f) => fs.readFileSync(f, "utf8"))
      .join("\n"),
    __provider: providers.join("\n"),
  };
  controls["stack export holds the domain"] = haystacks["stack export"].includes(domain);
  controls["the backend's files hold the domain"] = haystacks["backend files"].includes(domain);
  controls["each resource's __provider is there"] = providers.length === (exported.deployment.resources ?? []).filter((r) => r.custom && r.type.startsWith("pulumi-nodejs:dynamic")).length && haystacks.__provider.includes("reseller-pulumi/dist/resources/runtime");
  return haystacks;
}

/** The automatic logs' haystacks and controls: a gzip log's text names its command; an encrypted log holds no text at all, not even its command. */
function logHaystacks(stack: CliStack, controls: Record<string, boolean>): Record<string, string> {
  const logs = automaticLogs(stack);
  controls["automatic logs: both kinds written"] = logs.some((l) => l.encrypted) && logs.some((l) => !l.encrypted);
  const haystacks: Record<string, string> = {};
  for (const log of logs) {
    controls[`${log.file}: ${log.encrypted ? "encrypted, its command not in plain text" : "its command in plain text"}`] = log.encrypted === !log.text.includes('"Command":"pulumi ');
    haystacks[`automatic log ${log.file}`] = log.text;
  }
  return haystacks;
}

test("the up that sends contacts and an auth code, at -v=9 --logtostderr --logflow: no secret in plain text in what it prints, the state, the backend, the automatic logs or a __provider; a rotated credential is used, and found in nothing printed or written after", async () => {
  const domain = "cli-secret-audit.com";
  const stack = await stackFor("dev", domain, "transfer-me.net");
  const up = await stack.run(["up", ...YES, ...VERBOSE]);
  expect(ok(up)).toEqual({ code: 0, out: "" });
  // The up sent the contacts (the sandbox holds them) and the auth code (the only one it accepts).
  const held = sandbox.operator.state().domains;
  expect(JSON.stringify(held[domain])).toContain(CONTACT.email);
  expect(held["transfer-me.net"]).toBeDefined();
  const needles = [...SECRETS, await eppCodeOf(stack)];

  const verbose = apart("up's standard error", up.stderr);
  const controls: Record<string, boolean> = {
    "the up printed its resources and their domains": up.stdout.includes(domain) && up.stdout.includes("transfer-me.net"),
    "-v=9 logged the engine's plan for a Domain, a nameserver plain and the contacts masked": planLogged(verbose),
    "-v=9 logged the SDK's RegisterResource answers, with a Domain's inputs": sdkAnswerLines["up's standard error"].includes(NAMESERVER),
  };
  const haystacks: Record<string, string> = {
    "up's standard output": up.stdout,
    "up's standard error (-v=9 --logtostderr --logflow)": verbose,
    ...(await stateHaystacks(stack, domain, controls)),
    ...logHaystacks(stack, controls),
  };
  expect(Object.entries(controls).filter(([, held]) => !held).map(([what]) => what)).toEqual([]);
  expect(findings(haystacks, needles)).toEqual([]);

  // Rotation, as the README's "Changing credentials or the base URL" says: refresh and destroy
  // configure the provider from the config the last up saved. The new credential, saved by an up
  // that writes nothing, is what refresh and destroy then use. Each runs at -v=9, and everything
  // printed or written from here on is searched for every secret.
  const logsBefore = new Set(automaticLogs(stack).map((l) => l.file));
  await stack.configSet("reseller:apiKey", NEW.key);
  await stack.configSet("reseller:apiSecret", NEW.secret, { secret: true });
  const beforeUp = sandbox.operator.requests().length;
  const saved = await stack.run(["up", ...YES, ...VERBOSE]);
  expect(ok(saved)).toEqual({ code: 0, out: "" });
  expect(sandbox.operator.requests().slice(beforeUp).filter((r) => r.mutating)).toEqual([]);
  const mark = sandbox.operator.requests().length;
  const refresh = await stack.run(["refresh", ...YES, ...VERBOSE]);
  expect(ok(refresh)).toEqual({ code: 0, out: "" });
  const destroy = await stack.run(["destroy", ...YES, ...VERBOSE]);
  expect(ok(destroy)).toEqual({ code: 0, out: "" });
  const used = new Set(sandbox.operator.requests().slice(mark).map((r) => r.credential));
  expect([...used]).toEqual([credentialFingerprint(NEW.key)]);

  const later: Record<string, string> = {
    "the up that saved the new credential": apart("the up that saved the new credential", printed(saved)),
    "refresh with the new credential": apart("refresh with the new credential", printed(refresh)),
    "destroy with the new credential": apart("destroy with the new credential", printed(destroy)),
  };
  const laterControls: Record<string, boolean> = {
    "the up ran the program at -v=9": later["the up that saved the new credential"].includes("Registering resource: t=pulumi-nodejs:dynamic/reseller:Domain, name=reg"),
    "the refresh read the Domain at -v=9": refresh.stderr.includes(`.Read(${domain},urn:pulumi:dev::cli-secrets::pulumi-nodejs:dynamic/reseller:Domain::reg)`),
    "the destroy deleted the Domain at -v=9": destroy.stderr.includes(`step delete on urn:pulumi:dev::cli-secrets::pulumi-nodejs:dynamic/reseller:Domain::reg`),
  };
  const laterLogs = logHaystacks(stack, laterControls);
  const newLogs = Object.keys(laterLogs).filter((k) => !logsBefore.has(k.replace("automatic log ", "")));
  laterControls["the commands after the rotation wrote automatic logs"] = newLogs.length >= 3;
  expect(Object.entries(laterControls).filter(([, held]) => !held).map(([what]) => what)).toEqual([]);
  const afterState = await stateHaystacks(stack, domain, {});
  expect(findings({ ...later, ...laterLogs, ...afterState }, needles)).toEqual([]);
});

test("the same up at -v=9 --logflow, its log files written into PULUMI_HOME: no secret in plain text in them", async () => {
  const domain = "cli-secret-files.com";
  const stack = await stackFor("files", domain, "transfer-me.com", true);
  const logDir = path.join(stack.home, "verbose-logs");
  fs.mkdirSync(logDir);
  // Without --logtostderr the CLI writes its verbose log to a file in the temporary folder: here, PULUMI_HOME's.
  const up = await stack.run(["up", ...YES, "-v=9", "--logflow"], { env: { TMPDIR: logDir } });
  expect(ok(up)).toEqual({ code: 0, out: "" });
  expect(JSON.stringify(sandbox.operator.state().domains[domain])).toContain(CONTACT.email);
  const needles = [...SECRETS, await eppCodeOf(stack)];

  const files = filesUnder(logDir);
  const haystacks: Record<string, string> = Object.fromEntries(files.map((f) => [`log file ${path.basename(f)}`, apart(`log file ${path.basename(f)}`, fs.readFileSync(f, "utf8"))]));
  const controls: Record<string, boolean> = {
    "the CLI wrote a verbose log file": files.some((f) => path.basename(f).startsWith("pulumi.")),
    "the log files hold the engine's plan for a Domain, a nameserver plain and the contacts masked": planLogged(Object.values(haystacks).join("\n")),
    "the log files hold the SDK's RegisterResource answers, with a Domain's inputs": files.some((f) => sdkAnswerLines[`log file ${path.basename(f)}`].includes(NAMESERVER)),
    "nothing verbose on standard error": !up.stderr.includes("RegisterResource"),
  };
  expect(Object.entries(controls).filter(([, held]) => !held).map(([what]) => what)).toEqual([]);
  expect(findings(haystacks, needles)).toEqual([]);
});

// The last two tests run after the tests above, which collect the lines and check they hold a
// Domain's inputs (their controls); run alone they have no lines, find nothing, and fail.
// Contacts set field by field: each field is a secret config value, which the CLI masks wherever it
// prints it, those SDK lines included (pkg/engine/events.go: the plaintext of every secure config
// value, each leaf of a secret object). So the docs set the registrant that way.
test("contacts set field by field (config set --secret --path): at -v=9 the SDK's debug lines of the RegisterResource answers hold none of them", () => {
  const lines = Object.fromEntries(Object.entries(sdkAnswerLines).filter(([where]) => where.startsWith("log file ")));
  // The control: the lines of that up are there, with a Domain's inputs.
  expect(Object.values(lines).join("\n")).toContain(NAMESERVER);
  expect(findings(lines, SECRETS)).toEqual([]);
});

// The known leak (see the header): marked failing, it passes while a secret is in those lines, and
// fails, to be made a plain test, once none is. What is left: the EPP code (an output the provider
// makes, which no config holds, so the CLI cannot know it), and contacts given as one secret JSON text
// (the CLI masks that text whole, not its fields).
test.failing("KNOWN LEAK, failing until fixed: at -v=9 the Pulumi SDK's debug line of each RegisterResource answer holds no secret (the EPP code, and contacts set as one JSON text, are there in plain text)", () => {
  expect(findings(sdkAnswerLines, [...SECRETS, ...eppCodes])).toEqual([]);
});
