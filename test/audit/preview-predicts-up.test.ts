/**
 * `pulumi preview` predicts `pulumi up`: every mistake of the catalogue (preview-catalogue.ts) is
 * previewed, then applied, against a sandbox reset to its seed for each. What fails up fails preview
 * with the same message, or warns with it at preview where the catalogue says so (and says why check
 * warns). Every mistake of the catalogue fails up. A mistake of the settings fails up once, after the
 * requests the catalogue states, and a second check on that host passes (the proof of
 * test/resources/lifecycle/preflight.test.ts's settings cases, made here on the catalogue's runs).
 *
 * The catalogue's programs only declare resources with literal arguments, so each command of it is
 * dev/engine/'s Deployment (its step rules, in this process) given the registrations such a program
 * sends (the lifecycle harness's deployDeclared), with every provider call to a provider host of its
 * own over gRPC (a new host per command, as the CLI starts one): no program process. The flows that need a program (read-only functions,
 * resources wired by outputs, unknowns at preview) run through the whole engine below.
 */
import { compiledProgram } from "../../dev/engine/program-file";
import { Engine, EngineError, type RunResult } from "../../dev/engine/engine";
import { startProviderHost, type ProviderHost } from "../../dev/engine/host";
import type { ResourceState } from "../../dev/engine/state";
import type { HostCalls } from "../../dev/engine/deployment";
import { createUrn } from "../../dev/engine/urn";
import { typeToken } from "../../resources/kinds";
import { deployDeclared, providerFor, ROOT } from "../resources/lifecycle/harness";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { isReadRequest } from "../../sandbox/rules";
import { MISTAKES, mistakeConfig, type Mistake } from "./preview-catalogue";

jest.setTimeout(2_400_000);

const NO_ENV = { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined };

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
});
afterAll(async () => sandbox?.close());

const configOf = (m: Pick<Mistake, "config">): Record<string, string> => mistakeConfig(sandbox, m);

interface Outcome {
  errors: string[];
  logs: string;
  result?: RunResult;
}

async function run(engine: Engine, op: "preview" | "up", program: Parameters<Engine["up"]>[0]): Promise<Outcome> {
  const before = engine.hostLogs().length;
  try {
    const result = await engine[op](program);
    return { errors: [], logs: engine.hostLogs().slice(before).join("\n"), result };
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    return { errors: e.result.errors, logs: engine.hostLogs().slice(before).join("\n"), result: e.result };
  }
}

/** The whole error (without the resource's URN, and the request's id, which differs per run) that matches `re`, when one does. */
const errorMatching = (errors: string[], re: RegExp): string | undefined =>
  errors
    .find((e) => re.test(e))
    ?.replace(/^urn:pulumi:\S+: /, "")
    .replace(/ \(request id [^)]+\)/, "");

/**
 * Previews (unless `withPreview` is false), then ups, a program declaring the resources of `mistakes`
 * (one config and balance) on a sandbox reset to its seed, each command on a provider host of its
 * own. A registration that arrives after a run failed is not answered, so the mistakes a run did not
 * report run again in the next (each round reports at least one). `created`: the URNs up called
 * Create for; `wrote`: what the preview (or, without one, the up) sent that changed anything or was
 * other than a read (a GET, or one of the spec's read-only POSTs); `sentAtUp`: every request the up
 * sent. `afterUp` is given each up's host once its run has ended, before the host closes.
 */
async function previewThenUp(
  mistakes: Mistake[],
  withPreview: boolean,
  afterUp?: (host: ProviderHost) => Promise<void>,
): Promise<{ preview?: Outcome; up: Outcome; wrote: string[]; created: string[]; sentAtUp: number }> {
  sandbox.operator.reset();
  const m0 = mistakes[0];
  if (m0.balance) sandbox.operator.settings({ balance: m0.balance });
  let state: ResourceState[] = [];
  const created: string[] = [];
  const rounds = async (op: "preview" | "up"): Promise<Outcome> => {
    const all: Outcome = { errors: [], logs: "" };
    let pending = mistakes;
    while (pending.length) {
      const host = await startProviderHost({ cwd: ROOT, env: NO_ENV });
      const calls: HostCalls = {
        check: host.check.bind(host),
        diff: host.diff.bind(host),
        create: (urn, ...rest) => (created.push(urn), host.create(urn, ...rest)),
        read: host.read.bind(host),
        update: host.update.bind(host),
        delete: host.delete.bind(host),
      };
      let o: Awaited<ReturnType<typeof deployDeclared>>;
      try {
        await host.configure(configOf(m0));
        const declared = pending.flatMap((m) => m.resources).map((r) => ({ kind: r.kind, name: r.title, args: r.args }));
        o = await deployDeclared(calls, { preview: op === "preview", olds: state, parallel: 32, project: "reseller", stack: "dev" }, declared);
        if (op === "up") await afterUp?.(host);
      } finally {
        await host.close();
      }
      state = o.state;
      all.errors.push(...o.errors);
      all.logs += `${host.logs().join("\n")}\n`;
      const left = pending.filter((m) => errorMatching(all.errors, m.message) === undefined);
      if (left.length === pending.length || mistakes.length === 1) break;
      pending = left;
    }
    return all;
  };
  const writes = (since: number) => sandbox.operator.requests().slice(since).filter((r) => r.mutating || !isReadRequest(r)).map((r) => `${r.method} ${r.path}`);
  let mark = sandbox.operator.requests().length;
  const preview = withPreview ? await rounds("preview") : undefined;
  const wrote = writes(mark);
  mark = sandbox.operator.requests().length;
  const up = await rounds("up");
  const sentAtUp = sandbox.operator.requests().length - mark;
  return { preview, up, wrote: withPreview ? wrote : writes(mark), created, sentAtUp };
}

test("the catalogue: at least 15 mistakes, each caught at preview with up's message", async () => {
  expect(MISTAKES.length).toBeGreaterThanOrEqual(15);
  const problems: string[] = [];
  const secrets: string[] = [];
  // A config or balance of its own: a run each. The others that must create things at up (each
  // warns at preview) share one, and those refused at check another.
  const own = (m: Mistake) => m.alone && (m.config !== undefined || m.balance !== undefined);
  const groups = [...MISTAKES.filter(own).map((m) => [m]), MISTAKES.filter((m) => m.alone && !own(m)), MISTAKES.filter((m) => !m.alone)];
  // A mistake of the settings (its own config) is refused at a fresh host's first Check, so it is
  // only upped: its up must call no Create and write nothing, so the refusal is a Check's, the one
  // call a preview of a new resource makes (Create is never called at preview), and Check cannot tell
  // a preview from an up (neither Configure nor Check says which: resources/kit/preflight.ts), on a
  // fresh host either way. The other groups are previewed too: some of their mistakes are refused
  // at up's Create (a zone that cannot become active, TTL conflicts), or up buys or creates first.
  // A refused setting fails the run once, with that message alone, after the requests the catalogue
  // states (the settings are checked once per host process, before any other read), and a second
  // resource's check on the same host then passes: the run fails with the first.
  const refusedAtCheck = (g: Mistake[]) => g.every((m) => m.config !== undefined && m.preview === "fails");
  expect(groups.filter((g) => !refusedAtCheck(g)).length).toBeGreaterThan(0);
  const secondCheck = async (host: ProviderHost) => {
    const urn = createUrn("second", typeToken("DnsRecord"), "", "reseller", "dev");
    const args = { zone: "demo-reseller.com", type: "TXT", name: "second", content: "x", ttl: 300 };
    return (await host.check(urn, {}, { ...args, resourceUrn: urn, __provider: await providerFor("DnsRecord") })).failures;
  };
  for (const group of groups) {
    const withPreview = !refusedAtCheck(group);
    let second: unknown[] | undefined;
    const { preview, up, wrote, created, sentAtUp } = await previewThenUp(group, withPreview, withPreview ? undefined : async (host) => void (second = await secondCheck(host)));
    if (!withPreview) {
      const m = group[0];
      const setting = `${m.title} (${JSON.stringify(up.errors)})`;
      const matched = errorMatching(up.errors, m.message) ?? "";
      if (up.errors.length !== 1) problems.push(`${setting}: up did not fail once`);
      // Refused without a request: the message is the whole error's start (nothing before it).
      if (m.requests === 0 && m.message.exec(matched)?.index !== 0) problems.push(`${setting}: the error does not start with the message`);
      if (sentAtUp !== m.requests) problems.push(`${setting}: up sent ${sentAtUp} request(s), not ${m.requests}`);
      if (JSON.stringify(second) !== "[]") problems.push(`${setting}: a second check on the host did not pass: ${JSON.stringify(second)}`);
    }
    secrets.push(preview?.logs ?? "", up.logs, ...(preview?.errors ?? []), ...up.errors);
    const titles = group.map((m) => m.title).join(", ");
    if (wrote.length) problems.push(`${titles}: ${withPreview ? "preview" : "up"} wrote ${wrote.join(", ")}`);
    if (!withPreview && created.length) problems.push(`${titles}: up called Create for ${created.join(", ")}, so not every refusal was check's`);
    for (const m of group) {
      const atUp = errorMatching(up.errors, m.message);
      if (atUp === undefined) problems.push(`${m.title}: up did not fail with ${m.message}; errors: ${JSON.stringify(up.errors)}`);
      if (!preview) continue;
      const atPreview = m.preview === "fails" ? errorMatching(preview.errors, m.message) : m.message.exec(preview.logs)?.[0];
      if (atPreview === undefined) problems.push(`${m.title}: preview did not ${m.preview === "fails" ? "fail" : "warn"} with ${m.message}; errors: ${JSON.stringify(preview.errors)}`);
      if (m.preview === "warns" && preview.errors.length) problems.push(`${m.title}: preview failed instead of warning: ${JSON.stringify(preview.errors)}`);
      if (atUp === undefined) continue;
      if (m.preview === "fails" && atUp !== atPreview) problems.push(`${m.title}: preview and up differ:\n  preview: ${atPreview}\n  up:      ${atUp}`);
      else if (m.preview === "warns" && !preview.logs.includes(atUp.replace(/^.*?: (?=\S+ \S+: an identical)/, ""))) problems.push(`${m.title}: up's message is not preview's warning: ${atUp}`);
    }
  }
  expect(problems).toEqual([]);
  // No secret in plain text in what the runs printed or failed with.
  expect(secrets.join("\n")).not.toContain(sandbox.credentials.secret);
  expect(secrets.join("\n")).not.toContain("a-wrong-secret");
});

test("a read-only function with a wrong secret fails preview with one line: no stack, no dumped object", async () => {
  sandbox.operator.reset();
  const engine = new Engine({ config: configOf({ config: { "reseller:apiSecret": "a-wrong-secret" } }), secretConfigKeys: ["reseller:apiSecret"], host: { env: NO_ENV }, log: () => undefined });
  const preview = await run(engine, "preview", compiledProgram("test/audit/programs/balance-program.ts"));
  const text = preview.errors.join("\n");
  expect(text).toMatch(/reseller: GET \/api\/v1\/account\/balance failed with 401 unauthorized.*reseller:apiKey \/ reseller:apiSecret/);
  expect(text.match(/401 unauthorized/g)).toHaveLength(1);
  expect(text).not.toMatch(/\n\s+at /);
  expect(text).not.toMatch(/ResellerApiError|body:|requestId:/);
  expect(text).not.toContain("a-wrong-secret");
});

test("the natural first program previews its cost and works on its first up, records with a literal zone name included", async () => {
  sandbox.operator.reset();
  const { CONTACT } = require("./bad-input-catalogue") as typeof import("./bad-input-catalogue");
  const engine = new Engine({ config: configOf({}), secretConfigKeys: ["reseller:apiSecret"], host: { env: NO_ENV }, log: () => undefined });
  const program = { file: compiledProgram("test/audit/programs/first-program.ts"), args: { domain: "first-shop.com", nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"], contact: CONTACT } };
  const mark = sandbox.operator.requests().length;
  const preview = await run(engine, "preview", program);
  expect(preview.errors).toEqual([]);
  expect(preview.result!.summary).toMatchObject({ create: 7 });
  // Preview writes nothing and reads each object once: every GET path once, and besides GETs only the
  // spec's read-only POSTs, the name's availability and its quote, once each.
  const sent = sandbox.operator.requests().slice(mark).map((r) => `${r.method} ${r.path}`);
  expect(sent.filter((r) => !r.startsWith("GET ")).sort()).toEqual(["POST /api/v1/domains/check", "POST /api/v1/pricing"]);
  expect(sent.filter((r, i) => sent.indexOf(r) !== i)).toEqual([]);
  expect(preview.logs).toMatch(/Domain "shop": registers first-shop\.com for 1 year\(s\): 12\.00 USD; this stack's purchases so far 12\.00 USD of the balance 1000\.00 USD/);
  const up = await run(engine, "up", program);
  expect(up.errors).toEqual([]);
  expect(up.result!.summary).toMatchObject({ create: 7 });
  // The records naming the zone as a literal were registered once the Domain was bought (the
  // constructors' implicit dependsOn), so none of them was refused as "not a domain of this account".
  expect(up.logs).not.toMatch(/is not a domain of this reseller account/);
  const zone = engine.resources().find((r) => r.name === "shop-zone");
  expect(zone?.outputs).toMatchObject({ status: "active", delegated: true });
  expect(engine.resources().filter((r) => r.type.endsWith(":DnsRecord")).map((r) => r.outputs.fqdn).sort()).toEqual(["blog.first-shop.com", "first-shop.com", "first-shop.com", "www.first-shop.com", "first-shop.com"].sort());
});

test("the first program for a domain delegated elsewhere: flagged at preview on the zone and its records, with the fix; up fails once with that message", async () => {
  const { CONTACT } = require("./bad-input-catalogue") as typeof import("./bad-input-catalogue");
  // demo-shop.net is in the account, delegated to the registrar's nameservers, which the program keeps.
  const args = { domain: "demo-shop.net", nameservers: ["ns1.sandbox-registrar.test", "ns2.sandbox-registrar.test"], contact: CONTACT };
  // The program's own Domain keeps them there: it is named the cause, and no wait is advised.
  const full = "demo-shop.net: the zone can never become active: this program's Domain sets the nameservers of demo-shop.net to ns1.sandbox-registrar.test, ns2.sandbox-registrar.test, not to the service's";
  const fix = "Set the Domain's nameservers to the service's: ns1.dns.sandbox.test, ns2.dns.sandbox.test";
  const short = "demo-shop.net: the zone cannot become active (not delegated to the service; the fix is in the first error about demo-shop.net)";
  const whole = (e: string) => e.includes(full) && e.includes(fix);
  const failedRecords = (errors: string[]) => errors.map((e) => /::(\w+): demo-shop\.net: /.exec(e)?.[1]).filter((r) => r !== undefined).sort();

  for (const literalRecords of [true, false]) {
    sandbox.operator.reset();
    const engine = new Engine({ config: configOf({}), secretConfigKeys: ["reseller:apiSecret"], host: { env: NO_ENV }, log: () => undefined });
    const program = { file: compiledProgram("test/audit/programs/first-program.ts"), args: { ...args, literalRecords } };
    const mark = sandbox.operator.requests().length;
    const preview = await run(engine, "preview", program);
    expect(sandbox.operator.requests().slice(mark).filter((r) => r.mutating)).toEqual([]);
    // Every error is about the zone's delegation, with the whole message and the fix once per kind of
    // flag; the records that fail are the ones check reached before the preview stopped.
    expect(preview.errors.every((e) => whole(e) || e.includes(short))).toBe(true);
    expect(preview.errors.filter(whole)).toHaveLength(1);
    expect([...preview.errors, preview.logs].join("\n")).not.toContain("waitForDelegation");
    if (literalRecords) {
      // Records naming the zone as a literal are checked first (the zone waits for its Domain): the preview stops at them.
      expect(failedRecords(preview.errors)).toEqual(expect.arrayContaining(["apex", "blog", "mx"]));
    } else {
      // Records naming it through zone.domain come after the zone: the zone warns with the fix, then they fail.
      expect(preview.logs).toContain(`DnsZone "shop-zone": ${full}`);
      expect(failedRecords(preview.errors)).toEqual(["spf", "www"]);
    }
    const up = await run(engine, "up", program);
    // Up fails once with the whole message (the other records' failures point at it); no record is created.
    expect(up.errors.filter(whole)).toHaveLength(1);
    expect(up.errors.every((e) => whole(e) || e.includes(short))).toBe(true);
    expect(failedRecords(up.errors).length).toBeGreaterThan(0);
    expect(engine.resources().filter((r) => r.type.endsWith(":DnsRecord"))).toEqual([]);
  }
});
