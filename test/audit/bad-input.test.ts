/**
 * The bad-input catalogue (bad-input-catalogue.ts) against real parts: every invalid resource input
 * goes to Check in the SDK's provider host over gRPC (one host for the file, as `pulumi preview`
 * checks a new resource: no old inputs; a preview of a new dynamic resource is its Check), every
 * invalid function argument through the function in this process, both configured for a sandbox on
 * an ephemeral port. Each must be refused with a message naming the field, the value (masked for
 * secrets) and the rule, and the sandbox's request log must show that none of them reached the API.
 * A valid getBalance afterwards is the control: the log does record calls. One preview through
 * dev/engine/ (programs/bad-input-program.ts in its own process, its provider calls to the file's host)
 * shows that a refusal travels from a program to what the engine prints, its secret masked there too.
 */
import * as pulumi from "@pulumi/pulumi";
import { compiledProgram } from "../../dev/engine/program-file";
import { Engine, EngineError } from "../../dev/engine/engine";
import { isProviderHostError } from "../../dev/engine/host";
import { keptOpen } from "../support/kept-open";
import type { SandboxHandle } from "../../sandbox/index";
import type { Kind } from "../../resources/kinds";
import { providerFor, startEnv, urnOf, type Env } from "../resources/lifecycle/harness";
import {
  FUNCTION_CASES,
  RESOURCE_CASES,
  VALID,
  type FunctionCase,
  type FunctionName,
} from "./bad-input-catalogue";

// The one engine preview starts the program's own process and a provider host.
jest.setTimeout(300_000);

let env: Env;
let sandbox: SandboxHandle;
let config: Record<string, string>;
beforeAll(async () => {
  env = await startEnv();
  sandbox = env.sandbox;
  config = {
    "reseller:apiKey": sandbox.credentials.key,
    "reseller:apiSecret": sandbox.credentials.secret,
    "reseller:baseUrl": sandbox.url,
    "reseller:requestsPerMinute": "100000",
  };
});
afterAll(async () => env?.close());

/**
 * Every request the sandbox answered under the API prefix, but reads. Check reads the service once
 * its offline validation passed (resources/kit/preflight.ts: the account, quotes, the template list; DnsZoneRecords its zone's records), so
 * the valid resources of a program are read about; a bad input fails before any request.
 */
const READ = /^(GET |POST \/api\/v1\/(pricing|domains\/check|domains\/availability)$)/;
let since = 0;
const apiRequests = () =>
  sandbox.operator
    .requests()
    .slice(since)
    .filter((r) => r.path.startsWith("/api/v1") && !READ.test(`${r.method} ${r.path}`));

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What is wrong with a rejection message for an entry, or undefined when it names field, value and rule. */
function problem(message: string, c: { field: string; shown: string | null; rule: string; secrets?: string[] }): string | undefined {
  const expected =
    c.shown === null
      ? new RegExp(`(^|\\s)${escape(`${c.field}: ${c.rule}`)}`)
      : new RegExp(`(^|\\s)${escape(`${c.field}: ${c.shown}`)}.{0,160}?${escape(c.rule)}`);
  if (!expected.test(message)) return `expected ${expected} in: ${message}`;
  const leaked = [...(c.secrets ?? []), sandbox.credentials.secret].filter((s) => message.includes(s));
  if (leaked.length) return `secret shown in plain text (${leaked.length} value(s)) in: ${message}`;
  return undefined;
}

/** What the engine printed and the provider hosts wrote, audited for secrets. */
const printed: string[] = [];

/**
 * Check of one resource, as the engine calls it for a new resource of a program: the program's
 * inputs plus `resourceUrn` and `__provider`, no old inputs. The refusal as the engine reports it:
 * the provider's error, or its check failures ("property: reason", joined by "; ").
 */
async function check(r: { kind: Kind; title: string; args: Record<string, unknown> }): Promise<string | undefined> {
  const urn = urnOf(r.kind, r.title);
  try {
    const res = await env.host.check(urn, {}, { ...r.args, resourceUrn: urn, __provider: await providerFor(r.kind) });
    return res.failures.length ? res.failures.map((f) => `${f.property}: ${f.reason}`).join("; ") : undefined;
  } catch (e) {
    if (!isProviderHostError(e)) throw e;
    return e.message;
  }
}

test("control: the valid inputs the catalogue starts from pass check", async () => {
  const kinds = Object.keys(VALID) as Kind[];
  // Every kind the catalogue covers (the next test checks its kinds are these).
  expect(kinds.length).toBeGreaterThan(0);
  for (const kind of kinds) expect(await check({ kind, title: `valid-${kind}`, args: VALID[kind] })).toBeUndefined();
});

test("every bad resource input is refused at check, naming field, value and rule", async () => {
  expect(RESOURCE_CASES.length).toBeGreaterThanOrEqual(60);
  expect(new Set(RESOURCE_CASES.map((c) => c.title)).size).toBe(RESOURCE_CASES.length);
  const problems: string[] = [];
  // An entry's valid resources are checked just before it, as its program declares them.
  for (const c of RESOURCE_CASES) {
    for (const b of c.before ?? []) expect(await check(b)).toBeUndefined();
    const message = await check(c);
    if (message === undefined) problems.push(`${c.kind} ${c.title}: not refused at check`);
    else {
      const p = problem(message, c);
      if (p) problems.push(`${c.kind} ${c.title}: ${p}`);
    }
  }
  expect(problems).toEqual([]);
  // Every resource kind is covered, and every record type the catalogue names.
  expect(new Set(RESOURCE_CASES.map((c) => c.kind))).toEqual(new Set(Object.keys(VALID)));
  const types = new Set(RESOURCE_CASES.filter((c) => c.kind === "DnsRecord").map((c) => c.args.type));
  for (const t of ["A", "AAAA", "CNAME", "MX", "TXT", "SRV", "CAA", "PTR", "TLSA", "SSHFP", "DS", "HTTPS", "SVCB"]) expect(types).toContain(t);
  expect(apiRequests()).toEqual([]);
  // The host's logs carry no secret in plain text either.
  const secrets = [...new Set(RESOURCE_CASES.flatMap((c) => c.secrets ?? []))];
  expect(secrets.length).toBeGreaterThan(5);
  const hostLog = env.host.logs().join("\n");
  expect(secrets.filter((x) => hostLog.includes(x))).toEqual([]);
});

test("through dev/engine/: a program's bad input is refused at preview, and the engine prints the refusal with the secret masked", async () => {
  const c = RESOURCE_CASES.find((x) => x.kind === "Domain" && x.field === "contacts.registrant.email" && x.secrets?.length);
  expect(c).toBeDefined();
  // The program runs in its own process; its provider calls go to the file's host (configured again,
  // with the same config), which the run leaves open for the tests after it.
  const fileHost = keptOpen(env.host);
  const logged = env.host.logs().length;
  const e = new Engine({ config, secretConfigKeys: ["reseller:apiSecret"], parallel: 1, log: (line) => printed.push(line), startHost: async () => fileHost });
  const errors = await e.preview({ file: compiledProgram("test/audit/programs/bad-input-program.ts"), args: { resources: [c!] } }).then(
    () => [],
    (err: unknown) => {
      if (!(err instanceof EngineError)) throw err;
      return err.result.errors;
    },
  );
  printed.push(...env.host.logs().slice(logged));
  const line = errors.find((x) => x.startsWith(`urn:pulumi:dev::reseller::pulumi-nodejs:dynamic/reseller:${c!.kind}::${c!.title}: `));
  expect(line).toBeDefined();
  expect(problem(line!, c!)).toBeUndefined();
  expect(printed.join("\n")).toContain("contacts.registrant.email: (secret) is not an e-mail address");
  expect(c!.secrets!.filter((x) => printed.join("\n").includes(x))).toEqual([]);
  expect(printed.join("\n")).not.toContain(sandbox.credentials.secret);
  expect(apiRequests()).toEqual([]);
});

async function call(c: FunctionCase): Promise<unknown> {
  const reseller = (require("../../resources") as typeof import("../../resources"));
  const fns: Record<FunctionName, (a: never) => Promise<unknown>> = {
    getAvailability: reseller.getAvailability as never,
    checkDomain: reseller.checkDomain as never,
    getPricing: reseller.getPricing as never,
    getTlds: reseller.getTlds as never,
    getBalance: reseller.getBalance as never,
    getTier: reseller.getTier as never,
  };
  pulumi.runtime.setAllConfig({ ...config, ...c.config }, ["reseller:apiSecret"]);
  return fns[c.fn](c.args as never);
}

test("every bad function argument (or setting) is refused before any request, naming field, value and rule", async () => {
  const problems: string[] = [];
  for (const c of FUNCTION_CASES) {
    let message: string | undefined;
    try {
      await call(c);
    } catch (e) {
      message = e instanceof Error ? e.message : String(e);
    }
    if (message === undefined) problems.push(`${c.fn} ${c.title}: accepted`);
    else {
      const p = problem(message, c);
      if (p) problems.push(`${c.fn} ${c.title}: ${p}`);
    }
  }
  expect(problems).toEqual([]);
  expect(new Set(FUNCTION_CASES.map((c) => c.fn))).toEqual(new Set(["getAvailability", "checkDomain", "getPricing", "getTlds", "getBalance", "getTier"]));
  expect(apiRequests()).toEqual([]);
});

test("the catalogue: at least 60 entries, and no request of any reached the API; the log does record a valid call", async () => {
  expect(RESOURCE_CASES.length + FUNCTION_CASES.length).toBeGreaterThanOrEqual(60);
  expect(apiRequests()).toEqual([]);
  // Control: one valid call shows up in the same log, so the empty log above is not vacuous.
  pulumi.runtime.setAllConfig(config, ["reseller:apiSecret"]);
  const reseller = (require("../../resources") as typeof import("../../resources"));
  since = sandbox.operator.requests().length;
  expect(await reseller.getBalance()).toMatchObject({ currency: "USD" });
  expect(sandbox.operator.requests().slice(since).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(["GET /api/v1/account/balance 200"]);
});
