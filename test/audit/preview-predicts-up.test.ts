/**
 * `pulumi preview` predicts `pulumi up`: every mistake of the catalogue (preview-catalogue.ts) is
 * previewed, then applied, through engine/ (the program in its own process, the SDK's provider host
 * over gRPC) against a sandbox reset to its seed for each. What fails up fails preview with the same
 * message, or warns at preview where the catalogue says so (and says why up cannot fail there).
 *
 * Expensive: two engine runs (program process and provider host each) per mistake, one after another.
 */
import { compiledProgram } from "../../bench/program-file";
import { Engine, EngineError, type RunResult } from "../../engine/engine";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { MISTAKES, type Mistake } from "./preview-catalogue";

jest.setTimeout(1_200_000);

const NO_ENV = { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined };
const PROGRAM = () => compiledProgram("test/audit/programs/bad-input-program.ts");

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
});
afterAll(async () => sandbox?.close());

function configOf(m: Pick<Mistake, "config">): Record<string, string> {
  const merged: Record<string, string | null> = {
    "reseller:apiKey": sandbox.credentials.key,
    "reseller:apiSecret": sandbox.credentials.secret,
    "reseller:baseUrl": sandbox.url,
    "reseller:requestsPerMinute": "100000",
    ...m.config,
  };
  return Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== null));
}

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

test("the catalogue: at least 15 mistakes, each caught at preview with up's message", async () => {
  expect(MISTAKES.length).toBeGreaterThanOrEqual(15);
  const problems: string[] = [];
  const secrets: string[] = [];
  for (const m of MISTAKES) {
    sandbox.operator.reset();
    if (m.balance) sandbox.operator.settings({ balance: m.balance });
    const engine = new Engine({ config: configOf(m), secretConfigKeys: ["reseller:apiSecret"], parallel: 4, host: { env: NO_ENV }, log: () => undefined });
    const program = { file: PROGRAM(), args: { resources: m.resources } };
    const written = sandbox.operator.requests().length;
    const preview = await run(engine, "preview", program);
    const previewWrote = sandbox.operator.requests().slice(written).filter((r) => r.mutating);
    if (previewWrote.length) problems.push(`${m.title}: preview wrote ${previewWrote.map((r) => `${r.method} ${r.path}`).join(", ")}`);
    const up = await run(engine, "up", program);
    secrets.push(preview.logs, up.logs, ...preview.errors, ...up.errors);

    const atPreview = m.preview === "fails" ? errorMatching(preview.errors, m.message) : m.message.exec(preview.logs)?.[0];
    if (atPreview === undefined) problems.push(`${m.title}: preview did not ${m.preview === "fails" ? "fail" : "warn"} with ${m.message}; errors: ${JSON.stringify(preview.errors)}`);
    if (m.preview === "warns" && preview.errors.length) problems.push(`${m.title}: preview failed instead of warning: ${JSON.stringify(preview.errors)}`);
    if (m.up) {
      if (up.errors.length) problems.push(`${m.title}: up was expected to go through (${m.up.succeeds}) but failed: ${JSON.stringify(up.errors)}`);
      continue;
    }
    const atUp = errorMatching(up.errors, m.message);
    if (atUp === undefined) problems.push(`${m.title}: up did not fail with ${m.message}; errors: ${JSON.stringify(up.errors)}`);
    else if (m.preview === "fails" && atUp !== atPreview) problems.push(`${m.title}: preview and up differ:\n  preview: ${atPreview}\n  up:      ${atUp}`);
    else if (m.preview === "warns" && !preview.logs.includes(atUp.replace(/^.*?: (?=\S+ \S+: an identical)/, ""))) problems.push(`${m.title}: up's message is not preview's warning: ${atUp}`);
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
