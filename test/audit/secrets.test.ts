/**
 * Secret audit, end to end. A sandbox with a long random API secret and contact details that carry
 * random marker tokens; a whole lifecycle through the Engine and the SDK's provider host (register
 * with contacts, transfer with an auth code, contacts update, EppCode, PrivacyAddon, a zone and a
 * record, a read-only function, refresh, destroy) plus failing steps whose API errors involve those
 * inputs (two of the service's refusals of a contact field given by the provider host alone: the
 * engine's part is the same as for the first). Then every haystack is searched for every needle:
 * zero hits. Each haystack has a positive control, so an empty capture cannot pass.
 *
 * Haystacks: every `__provider` text sent to the host, the state file on disk (raw), the engine's
 * log lines, the host's stdout/stderr, every error (message, JSON, util.inspect with causes) and the
 * non-secret stack outputs. Needles: the API secret, the EPP codes, the transfer auth code, every
 * contact field value (and its marker token).
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { inspect } from "node:util";
import { compiledProgram } from "../../dev/engine/program-file";
import { Engine, EngineError, type Program } from "../../dev/engine/engine";
import * as hostModule from "../../dev/engine/host";
import { isProviderHostError, type ProviderHost, type PropertyMap } from "../../dev/engine/host";
import { keptOpen } from "../support/kept-open";
import { isSecretEnvelope, SecretsCipher } from "../../dev/engine/secrets";
import { createUrn } from "../../dev/engine/urn";
import { ResellerClient } from "../../api/client";
import { SERVICE_CONTACT_NAMES, toServiceContact } from "../../api/contact-names";
import { ResellerApiError } from "../../api/errors";
import { typeToken } from "../../resources/kinds";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import type secretsProgram from "./programs/secrets-program";

// The whole-lifecycle test is six engine runs (each a program process and a provider host) and a host:
// 45 s for the suite at load 3.5 on 2 cores, 144 s for the test at load 13, past 180 s at load 10 on
// SDK 3.139. The bound is for a loaded machine, not a speed goal.
jest.setTimeout(420_000);

const hex = (n: number): string => randomBytes(n).toString("hex");
const digits = (n: number): string => Array.from(randomBytes(n), (b) => String(b % 10)).join("");

/** A contact whose every field carries its own random marker (lower case: the e-mail domain is lower-cased). */
function makeContact(label: string) {
  const m = (field: string) => `${label}${field}${hex(5)}`;
  const tokens = { name: m("nm"), email: m("em"), domain: m("dm"), street: m("st"), line2: m("l2"), city: m("ct"), postal: m("pc"), org: m("og") };
  const contact = {
    name: `Quilla ${tokens.name} Marchbanks`,
    organization: `Orrery ${tokens.org} Ltd`,
    email: `${tokens.email}@${tokens.domain}.test`,
    phone: `+447${digits(9)}`,
    addressLine1: `17 ${tokens.street} Row`,
    addressLine2: `Flat ${tokens.line2}`,
    city: `Ulm ${tokens.city}`,
    state: "",
    postalCode: tokens.postal,
    country: "GB",
  };
  return { contact, tokens };
}

type Made = ReturnType<typeof makeContact>;

/** Every string a contact can leak as: full values, marker tokens, phone digits without "+". */
function contactNeedles(label: string, made: Made): Record<string, string> {
  const c = made.contact;
  const out: Record<string, string> = {
    [`${label}.name`]: c.name,
    [`${label}.organization`]: c.organization,
    [`${label}.email`]: c.email,
    [`${label}.phone`]: c.phone,
    [`${label}.phone digits`]: c.phone.slice(1),
    [`${label}.addressLine1`]: c.addressLine1,
    [`${label}.addressLine2`]: c.addressLine2,
    [`${label}.city`]: c.city,
  };
  for (const [k, v] of Object.entries(made.tokens)) out[`${label}.token.${k}`] = v;
  return out;
}

const AUTH_CODE = "ABC-123-XYZ"; // the sandbox's one transfer code for names held elsewhere (sandbox README)
const SECRET = `sk-audit-${hex(32)}`;
const KEY = "audit-key";
const PASSPHRASE = "audit-passphrase";
const REG = "secret-audit.com";
const XFER = "transfer-me.net";
const BAD = "secret-audit-bad.com";

const first = makeContact("aa");
const second = makeContact("bb");
/** Contacts the sandbox refuses (422) although the provider's offline check lets them through. */
const longEmail = makeContact("ce");
longEmail.contact.email = `${longEmail.tokens.email}${"x".repeat(60)}@${longEmail.tokens.domain}.test`; // local part > 64
const longName = makeContact("cn");
longName.contact.name = `${longName.tokens.name} ${"N".repeat(260)}`; // > 255 characters
const longStreet = makeContact("cs");
longStreet.contact.addressLine1 = `${longStreet.tokens.street} ${"S".repeat(260)}`;

let sandbox: SandboxHandle;
let dir: string;
/** Every request the engine's provider hosts got, by method, as sent. */
const hostCalls: { method: string; props: PropertyMap[] }[] = [];
const errors: unknown[] = [];
const logLines: string[] = [];

/** Records what the engine sends to the real host (pass-through; the host is the SDK's own). */
function recording(host: ProviderHost): ProviderHost {
  const rec = (method: string, ...props: PropertyMap[]) => hostCalls.push({ method, props });
  return {
    get pid() {
      return host.pid;
    },
    get port() {
      return host.port;
    },
    configure: (c) => host.configure(c),
    check: (urn, olds, news) => (rec("check", olds, news), host.check(urn, olds, news)),
    diff: (id, urn, olds, news) => (rec("diff", olds, news), host.diff(id, urn, olds, news)),
    create: (urn, inputs, o) => (rec("create", inputs), host.create(urn, inputs, o)),
    read: (id, urn, props, inputs) => (rec("read", props, inputs ?? {}), host.read(id, urn, props, inputs)),
    update: (id, urn, olds, news) => (rec("update", olds, news), host.update(id, urn, olds, news)),
    delete: (id, urn, props) => (rec("delete", props), host.delete(id, urn, props)),
    logs: () => host.logs(),
    kill: () => host.kill(),
    close: () => host.close(),
  };
}

interface Plan {
  xferContacts: Made;
  bad?: Made;
}

/** The audit's program module (programs/secrets-program.ts), its inputs as JSON arguments. */
function program(plan: Plan): Program {
  const args: secretsProgram.Args = {
    reg: REG,
    xfer: XFER,
    authCode: AUTH_CODE,
    registrant: first.contact,
    xferRegistrant: plan.xferContacts.contact,
    ...(plan.bad ? { bad: { domain: BAD, registrant: plan.bad.contact } } : {}),
  };
  return { file: compiledProgram("test/audit/programs/secrets-program.ts"), args };
}

let engine: Engine;
let keepNextHost = false;
let kept: ProviderHost | undefined;
const NO_ENV = { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined };
const CONFIG = () => ({ "reseller:apiKey": KEY, "reseller:apiSecret": SECRET, "reseller:baseUrl": sandbox.url, "reseller:requestsPerMinute": "100000" });
/** What the provider host of the refusals given at the host wrote. */
const alsoHostLogs: string[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "secret-audit-"));
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0, credentials: [{ key: KEY, secret: SECRET }] });
  const real = hostModule.startProviderHost;
  jest.spyOn(hostModule, "startProviderHost").mockImplementation(async (o) => recording(await real(o)));
  engine = new Engine({
    stateFile: path.join(dir, "state.json"),
    config: CONFIG(),
    secretConfigKeys: ["reseller:apiSecret"],
    passphrase: PASSPHRASE,
    // The one failing run has two failing steps that do not depend on each other; each runs to its
    // own error whichever fails first. The other runs fail nothing, so this changes nothing for them.
    continueOnError: true,
    host: { env: NO_ENV },
    log: (l) => logLines.push(l),
    // As the engine starts one (through the recording spy); the host of a run asked to be kept is
    // left open by it, for provider calls of the test's own after the run.
    startHost: async () => {
      const host = await hostModule.startProviderHost({ env: NO_ENV });
      if (!keepNextHost) return host;
      kept = host;
      return keptOpen(host);
    },
  });
});

afterAll(async () => {
  jest.restoreAllMocks();
  await sandbox?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The text forms of an error a user or a log could see: message, stack, JSON, inspect, and its causes. */
function errorTexts(e: unknown): string[] {
  const out: string[] = [];
  let cur: unknown = e;
  for (let depth = 0; cur !== undefined && cur !== null && depth < 10; depth++) {
    out.push(String(cur));
    if (cur instanceof Error) out.push(cur.message, cur.stack ?? "");
    try {
      out.push(JSON.stringify(cur) ?? "");
    } catch {
      /* circular: inspect below covers it */
    }
    out.push(inspect(cur, { depth: null, showHidden: true, getters: true }));
    cur = (cur as { cause?: unknown }).cause;
  }
  return out;
}

async function expectUpFails(plan: Plan): Promise<EngineError> {
  const e = await engine.up(program(plan)).then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(EngineError);
  errors.push(e);
  return e as EngineError;
}

/** Needles found in a haystack, by name. */
function hits(haystack: string, needles: Record<string, string>): string[] {
  const h = haystack.toLowerCase();
  return Object.entries(needles)
    .filter(([, v]) => h.includes(v.toLowerCase()))
    .map(([k]) => k);
}

test("a whole lifecycle leaks no secret, code or contact detail into providers, state, logs, errors or outputs", async () => {
  // 1. Register with contacts, transfer with the auth code, EPP code, privacy, zone, record, a function.
  const up = await engine.up(program({ xferContacts: first }));
  expect(up.summary).toMatchObject({ create: 6 });
  const outputsSeen: Record<string, unknown>[] = [up.outputs];

  // 2. Two failing steps. A contacts update that fails: the service answers 500 to every PUT
  //    of contacts (injected). And registrations the service refuses with 422 on a contact field the
  //    offline check accepts: the service's message names the field and echoes (part of) the value.
  const refusals: [Made, string, string][] = [
    [longEmail, "contacts.registrant.email", "field \"contacts.registrant.email\""],
    [longName, "contacts.registrant.name", "field \"contacts.registrant.name\""],
    // The service names its own field; the hint names the Domain's input.
    [longStreet, `contacts.registrant.${SERVICE_CONTACT_NAMES.addressLine1}`, "contacts.registrant.addressLine1"],
  ];
  //    The first through the engine (its log, state and result are haystacks below); the other two
  //    are the same resource's refusal on other fields, so the provider host alone gives them: the
  //    program's "bad" Domain checked and created as the engine would, on the host that served that
  //    run (configured with the same config), kept open for them.
  const [[viaEngine, engineField, engineInput], ...atHost] = refusals;
  //    Two runs, since purchases go one after another (resources/program/declaration-order.ts): the
  //    "bad" Domain waits for the one declared before it, so a failed update there would hold it back.
  const before = sandbox.operator.ledger().length;
  sandbox.operator.injectFault({ kind: "error", status: 500, count: 4, match: { method: "PUT", path: "/contacts" } });
  const failedUpdate = await expectUpFails({ xferContacts: second });
  sandbox.operator.clearFaults();
  expect(failedUpdate.message).toMatch(/500 internal_error/);
  expect(failedUpdate.message).toContain(`/domains/${XFER}/contacts`);
  keepNextHost = true;
  const e = await expectUpFails({ xferContacts: first, bad: viaEngine }).finally(() => (keepNextHost = false));
  expect(e.message).toMatch(/422 validation_error/);
  expect(e.message).toContain(engineField);
  expect(e.message).toContain(`Fix the input ${engineInput}`);
  expect(sandbox.operator.ledger()).toHaveLength(before);
  expect(sandbox.operator.state().domains[XFER].contacts.registrant.email).toBe(first.contact.email);
  const host = kept!;
  try {
    const urn = createUrn("bad", typeToken("Domain"), "", "reseller", "dev");
    // The provider text the program sent (one for every kind).
    const provider = hostCalls.flatMap((c) => c.props).find((p) => typeof p.__provider === "string")!.__provider;
    for (const [bad, field, input] of atHost) {
      const inputs = { domain: BAD, contacts: { registrant: bad.contact }, resourceUrn: urn, __provider: provider };
      const checked = await host.check(urn, {}, inputs);
      expect(checked.failures).toEqual([]);
      const refused = await host.create(urn, checked.inputs).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(isProviderHostError(refused)).toBe(true);
      errors.push(refused);
      const message = (refused as Error).message;
      expect(message).toMatch(/422 validation_error/);
      expect(message).toContain(field);
      expect(message).toContain(`Fix the input ${input}`);
      expect(sandbox.operator.ledger()).toHaveLength(before);
    }
  } finally {
    await host.close();
    alsoHostLogs.push(...host.logs());
  }

  // 3. The contacts update, applied.
  const updated = await engine.up(program({ xferContacts: second }));
  expect(updated.summary).toMatchObject({ update: 1 });
  outputsSeen.push(updated.outputs);
  expect(sandbox.operator.state().domains[XFER].contacts.registrant.email).toBe(second.contact.email);

  // 5. Refresh, a no-op up, destroy.
  const refreshed = await engine.refresh();
  expect(refreshed.steps.filter((s) => s.error)).toEqual([]);
  outputsSeen.push((await engine.up(program({ xferContacts: second }))).outputs);
  const stateText = fs.readFileSync(path.join(dir, "state.json"), "utf8");
  const inMemory = engine.resources();
  await engine.destroy();

  // --- Needles -------------------------------------------------------------------------------
  const live = sandbox.operator.state().domains[REG];
  const eppCode = inMemory.find((r) => r.name === "code")!.outputs.authCode as string;
  expect(eppCode).toBe(live.authCode); // the code the sandbox set is the one in state
  expect(eppCode.length).toBeGreaterThanOrEqual(12);
  const expiry = inMemory.find((r) => r.name === "reg")!.outputs.expiryDate as string;
  expect(expiry).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const needles: Record<string, string> = {
    "api secret": SECRET,
    "api secret (random part)": SECRET.slice("sk-audit-".length),
    "epp code": eppCode,
    "auth code": AUTH_CODE,
    ...contactNeedles("first", first),
    ...contactNeedles("second", second),
    ...contactNeedles("longEmail", longEmail),
    ...contactNeedles("longName", longName),
    ...contactNeedles("longStreet", longStreet),
  };
  // The needles really travelled: the sandbox holds them.
  const sbState = JSON.stringify(sandbox.operator.state());
  for (const k of ["first.email", "first.name", "first.addressLine1", "first.phone", "second.email", "second.addressLine2", "epp code"]) {
    expect(sbState).toContain(needles[k]);
  }

  // --- Haystack: every __provider text sent to the host ----------------------------------------
  const providers = new Set<string>();
  for (const call of hostCalls) for (const p of call.props) if (typeof p.__provider === "string") providers.add(p.__provider);
  const methods = new Set(hostCalls.map((c) => c.method));
  expect([...methods].sort()).toEqual(["check", "create", "delete", "diff", "read", "update"]);
  // One text for every kind (resources/program/shim.ts): the kind travels in each resource's URN.
  expect(providers.size).toBe(1);
  const kindsSeen = new Set(hostCalls.flatMap((c) => c.props.map((p) => String(p.resourceUrn ?? "").split("::")[2]?.split(":").pop())));
  for (const kind of ["Domain", "EppCode", "PrivacyAddon", "DnsZone", "DnsRecord"]) expect(kindsSeen).toContain(kind);
  for (const p of providers) {
    expect(p).toContain("reseller-pulumi/dist/resources/runtime");
    expect(hits(p, needles)).toEqual([]);
  }
  // Control: the calls did carry the plain contacts to the host (acceptSecrets=false), so the search
  // above looked at a provider that travelled next to them.
  expect(hostCalls.some((c) => c.props.some((p) => JSON.stringify(p).includes(first.contact.email)))).toBe(true);

  // --- Haystack: the state file on disk --------------------------------------------------------
  expect(stateText).toContain(REG);
  expect(stateText).toContain(XFER);
  expect(stateText).toContain('"stage": "active"');
  expect(stateText).toContain("audit-visible-record"); // a non-secret output in plain text
  expect(stateText).toContain(expiry);
  expect(hits(stateText, needles)).toEqual([]);
  const saved = JSON.parse(stateText) as { encryptionsalt: string; resources: { name: string; inputs: PropertyMap; outputs: PropertyMap }[] };
  const cipher = new SecretsCipher(PASSPHRASE, saved.encryptionsalt);
  const opened = (name: string, where: "inputs" | "outputs", key: string): unknown => {
    const v = saved.resources.find((r) => r.name === name)![where][key];
    expect(isSecretEnvelope(v)).toBe(true);
    return cipher.open(v as Parameters<SecretsCipher["open"]>[0]);
  };
  expect(JSON.stringify(opened("reg", "inputs", "contacts"))).toContain(first.contact.email);
  expect(JSON.stringify(opened("xfer", "outputs", "contacts"))).toContain(second.contact.addressLine1);
  expect(opened("xfer", "inputs", "authCode")).toBe(AUTH_CODE);
  expect(opened("code", "outputs", "authCode")).toBe(eppCode);
  const finalState = fs.readFileSync(path.join(dir, "state.json"), "utf8");
  expect(hits(finalState, needles)).toEqual([]);

  // --- Haystack: the engine's log lines --------------------------------------------------------
  const log = logLines.join("\n");
  expect(log).toContain("Outputs:");
  expect(log).toContain(REG);
  expect(log).toMatch(/error: .*422 validation_error/);
  expect(log).toMatch(/error: .*500 internal_error/);
  expect(hits(log, needles)).toEqual([]);

  // --- Haystack: the provider hosts' stdout and stderr ------------------------------------------
  const hostLog = [...engine.hostLogs(), ...alsoHostLogs].join("\n");
  expect(hostLog).toContain(`${REG}: WHOIS Privacy bought`);
  expect(hostLog).toContain(`${REG}: a new transfer (EPP) code was set`);
  expect(hits(hostLog, needles)).toEqual([]);

  // --- Haystack: every error (message, JSON, inspect, causes, the run's result) ----------------
  expect(errors).toHaveLength(4);
  expect(errors.filter((e) => e instanceof EngineError)).toHaveLength(2);
  for (const e of errors) {
    const texts = [...errorTexts(e), JSON.stringify((e as Partial<EngineError>).result) ?? ""];
    expect(texts.join("\n")).toMatch(/(422 validation_error|500 internal_error)/);
    expect(hits(texts.join("\n"), needles)).toEqual([]);
  }

  // --- Haystack: the resolved stack outputs that are not secret --------------------------------
  for (const out of outputsSeen) {
    expect(out).toMatchObject({ regName: REG, regStage: "active", xferStage: "active", quote: "12.00", eppCode: "[secret]", contacts: "[secret]" });
    expect(out.regExpiry).toBe(expiry);
    expect(hits(JSON.stringify(out), needles)).toEqual([]);
  }
});

describe("the client's own errors", () => {
  const clientNeedles = (extra: Record<string, string>): Record<string, string> => ({
    "api secret": SECRET,
    ...contactNeedles("longEmail", longEmail),
    ...contactNeedles("longName", longName),
    ...contactNeedles("longStreet", longStreet),
    ...extra,
  });
  const client = (o: { secret?: string; baseUrl?: string } = {}) =>
    new ResellerClient({ baseUrl: o.baseUrl ?? sandbox.url, apiKey: KEY, apiSecret: o.secret ?? SECRET, requestsPerMinute: 100_000, maxRetries: 0 });
  const caught = async (p: Promise<unknown>): Promise<unknown> => p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );

  test("422 on a contact field: message, body, details, JSON and inspect hold neither the contact nor the secret", async () => {
    const c = client();
    try {
      for (const [bad, field] of [
        [longEmail, "contacts.registrant.email"],
        [longName, "contacts.registrant.name"],
        [longStreet, `contacts.registrant.${SERVICE_CONTACT_NAMES.addressLine1}`], // the service names its own field
      ] as const) {
        const before = sandbox.operator.ledger().length;
        const e = await caught(
          c.register({ domain: `client-${hex(3)}.com`, years: 1, contacts: { registrant: toServiceContact(bad.contact) } }, { idempotencyKey: `audit-${hex(8)}` }),
        );
        expect(e).toBeInstanceOf(ResellerApiError);
        const err = e as ResellerApiError;
        expect([err.status, err.code, err.field]).toEqual([422, "validation_error", field]);
        expect(err.message).toContain(field);
        expect(sandbox.operator.ledger()).toHaveLength(before);
        expect(hits([...errorTexts(err), JSON.stringify(err.body), JSON.stringify(err.details)].join("\n"), clientNeedles({}))).toEqual([]);
      }
      expect(inspect(c, { depth: null, showHidden: true })).not.toContain(SECRET);
    } finally {
      await c.close();
    }
  });

  test("a wrong transfer code, a wrong secret and an unreachable service: no code, secret or contact in the error", async () => {
    const wrongCode = `WRONG-${hex(8)}`;
    const wrongSecret = `sk-wrong-${hex(24)}`;
    const body = { domain: "transfer-me.com", years: 1, contacts: { registrant: toServiceContact(longEmail.contact) }, auth_code: wrongCode };
    const needles = clientNeedles({ "wrong code": wrongCode, "wrong secret": wrongSecret });

    const c = client();
    const badCode = (await caught(c.transfer({ ...body, contacts: { registrant: toServiceContact(first.contact) } }, { idempotencyKey: `audit-${hex(8)}` }))) as ResellerApiError;
    await c.close();
    expect([badCode.status, badCode.field]).toEqual([422, "auth_code"]);
    expect(hits(errorTexts(badCode).join("\n"), { ...needles, ...contactNeedles("first", first) })).toEqual([]);

    const w = client({ secret: wrongSecret });
    const unauthorized = (await caught(w.transfer(body, { idempotencyKey: `audit-${hex(8)}` }))) as ResellerApiError;
    await w.close();
    expect([unauthorized.status, unauthorized.code]).toEqual([401, "unauthorized"]);
    expect(hits(errorTexts(unauthorized).join("\n"), needles)).toEqual([]);

    // A port nobody listens on: the request is never answered.
    const closed = await startSandbox({ port: 0 });
    const deadUrl = closed.url;
    await closed.close();
    const d = client({ baseUrl: deadUrl });
    const network = await caught(d.transfer(body, { idempotencyKey: `audit-${hex(8)}` }));
    await d.close();
    expect(String(network)).toMatch(/connection failed|ECONNREFUSED/);
    expect(hits(errorTexts(network).join("\n"), needles)).toEqual([]);
  });
});
