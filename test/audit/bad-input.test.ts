/**
 * The bad-input catalogue (bad-input-catalogue.ts) against real parts: every invalid resource input
 * goes through engine/ preview (programs/bad-input-program.ts in its own process, Check in the SDK's
 * provider host over gRPC), every invalid function argument through the function in this process, both configured
 * for a sandbox on an ephemeral port. Each must be refused with a message naming the field, the
 * value (masked for secrets) and the rule, and the sandbox's request log must show that none of
 * them reached the API. A valid getBalance afterwards is the control: the log does record calls.
 *
 * Speed: the engine starts a program process and a provider host per run, so the catalogue is
 * previewed in batches. A batch runs its registrations in parallel, all checked by one host; every
 * failing check is reported. A registration that arrives after the run has failed is not answered, so whatever a
 * batch did not report is previewed again in the next one (each round reports at least one).
 */
import * as pulumi from "@pulumi/pulumi";
import { compiledProgram } from "../../bench/program-file";
import { Engine, EngineError } from "../../engine/engine";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import type { Kind } from "../../resources/kinds";
import {
  FUNCTION_CASES,
  RESOURCE_CASES,
  VALID,
  type FunctionCase,
  type FunctionName,
  type ResourceCase,
} from "./bad-input-catalogue";

// Each preview starts the program's own process and a provider host; the catalogue takes several.
jest.setTimeout(300_000);

let sandbox: SandboxHandle;
let config: Record<string, string>;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
  config = {
    "reseller:apiKey": sandbox.credentials.key,
    "reseller:apiSecret": sandbox.credentials.secret,
    "reseller:baseUrl": sandbox.url,
    "reseller:requestsPerMinute": "100000",
  };
});
afterAll(async () => sandbox?.close());

/**
 * Every request the sandbox answered under the API prefix, but reads. Check reads the service once
 * its offline validation passed (resources/host/preflight.ts: the account, quotes, the template list; DnsZoneRecords its zone's records), so
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

const urnOf = (kind: Kind, title: string) => `urn:pulumi:dev::reseller::pulumi-nodejs:dynamic/reseller:${kind}::${title}`;

/** What the engines printed and their provider hosts wrote, audited for secrets at the end. */
const printed: string[] = [];

function engine(parallel: number): Engine {
  return new Engine({ config, secretConfigKeys: ["reseller:apiSecret"], parallel, log: (line) => printed.push(line) });
}

/** Previews a program of these resources; returns the error lines (empty when the preview passed). */
async function preview(resources: { kind: Kind; title: string; args: Record<string, unknown> }[], parallel: number): Promise<string[]> {
  const e = engine(parallel);
  try {
    await e.preview({ file: compiledProgram("test/audit/programs/bad-input-program.ts"), args: { resources } });
    return [];
  } catch (err) {
    if (!(err instanceof EngineError)) throw err;
    return err.result.errors;
  } finally {
    printed.push(...e.hostLogs());
  }
}

test("control: the valid inputs the catalogue starts from pass preview", async () => {
  const kinds = Object.keys(VALID) as Kind[];
  const errors = await preview(
    kinds.map((kind) => ({ kind, title: `valid-${kind}`, args: VALID[kind] })),
    1,
  );
  expect(errors).toEqual([]);
});

test("every bad resource input is refused at preview, naming field, value and rule", async () => {
  expect(RESOURCE_CASES.length).toBeGreaterThanOrEqual(60);
  expect(new Set(RESOURCE_CASES.map((c) => c.title)).size).toBe(RESOURCE_CASES.length);
  const messages = new Map<ResourceCase, string>();

  // Entries that need valid resources before them run alone, in order.
  for (const c of RESOURCE_CASES.filter((x) => x.before)) {
    const errors = await preview([...c.before!, c], 1);
    const line = errors.find((e) => e.startsWith(`${urnOf(c.kind, c.title)}: `));
    if (line) messages.set(c, line);
  }
  let pending = RESOURCE_CASES.filter((x) => !x.before);
  while (pending.length > 0) {
    const errors = await preview(pending, pending.length);
    const reported = pending.filter((c) => {
      const line = errors.find((e) => e.startsWith(`${urnOf(c.kind, c.title)}: `));
      if (line) messages.set(c, line);
      return line !== undefined;
    });
    // A round that reports nothing would loop forever: then some entry passed preview.
    if (reported.length === 0) break;
    pending = pending.filter((c) => !reported.includes(c));
  }

  const problems = RESOURCE_CASES.flatMap((c) => {
    const message = messages.get(c);
    if (message === undefined) return [`${c.kind} ${c.title}: not refused at preview`];
    const p = problem(message, c);
    return p ? [`${c.kind} ${c.title}: ${p}`] : [];
  });
  expect(problems).toEqual([]);
  // Every resource kind is covered, and every record type the catalogue names.
  expect(new Set(RESOURCE_CASES.map((c) => c.kind))).toEqual(new Set(Object.keys(VALID)));
  const types = new Set(RESOURCE_CASES.filter((c) => c.kind === "DnsRecord").map((c) => c.args.type));
  for (const t of ["A", "AAAA", "CNAME", "MX", "TXT", "SRV", "CAA", "PTR", "TLSA", "SSHFP", "DS", "HTTPS", "SVCB"]) expect(types).toContain(t);
  expect(apiRequests()).toEqual([]);
  // The engine's output and the host's logs carry the same refusals: no secret in plain text there either.
  expect(printed.join("\n")).toContain("contacts.registrant.email: (secret) is not an e-mail address");
  const secrets = [...new Set(RESOURCE_CASES.flatMap((c) => c.secrets ?? []))];
  expect(secrets.length).toBeGreaterThan(5);
  expect(secrets.filter((x) => printed.join("\n").includes(x))).toEqual([]);
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
