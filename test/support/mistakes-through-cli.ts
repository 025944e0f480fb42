/**
 * The mistake catalogue (test/audit/preview-catalogue.ts) through the real Pulumi CLI: each mistake
 * is a program of its own (its resources with their literal arguments, as a user would write them)
 * on a stack of its own, previewed then upped against a sandbox reset to its seed. For each:
 * - the message the catalogue promises is in what the CLI prints at preview, as an error where the
 *   catalogue says "fails" (and preview exits non-zero) or as a warning where it says "warns"
 *   (preview exits 0);
 * - up exits non-zero with the same message;
 * - a refusal is printed twice at preview, on its resource's row and in its Diagnostics entry, and
 *   not again under the Stack;
 * - preview writes nothing, no secret is printed, and up waits for nothing;
 * - with `--parallel 1` the same messages, and up changes the same things (a Domain bought or not),
 *   where the program has more than one resource: with one, the engine takes the same steps in the
 *   same order at any parallelism (the Stack, the provider, the resource, each waiting for the one
 *   before), so a second run would repeat the first. Every order the CLI can give the resources of a
 *   case is run through the provider host in test/audit/preview-order.test.ts.
 * The catalogue is run in two halves, one test file each (test/pulumi-cli/mistakes-first-half.test.ts and -second-half), so
 * the suite's two workers share it: through the CLI each case costs seconds of three processes.
 * The stand-in's version of this proof is test/audit/preview-predicts-up.test.ts, which also counts
 * the requests each refusal costs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CliStack, makeProject, requirePulumiCli, type CliRun } from "../../dev/pulumi-cli";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { isReadRequest } from "../../sandbox/rules";
import { mistakeConfig, type Mistake } from "../audit/preview-catalogue";
import { nativeProject } from "./native-project";

/**
 * Runs `cases` (the catalogue's from index `first` on) through the CLI: one sandbox and one backend
 * for them. `native`: on the native provider plugin (its type tokens, reseller:index:<Kind>), not the
 * dynamic resources.
 */
export function mistakesThroughCli(cases: readonly Mistake[], first: number, opts: { native?: boolean } = {}): void {
  let sandbox: SandboxHandle;
  let stack: CliStack;
  let projectDir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
    projectDir = opts.native ? nativeProject("mistakes", { "index.js": "" }) : makeProject("mistakes", { "index.js": "" });
    stack = await CliStack.init({ cli: requirePulumiCli(), projectDir, stack: "m0" });
  });
  afterAll(async () => {
    await stack?.dispose();
    if (projectDir) fs.rmSync(projectDir, { recursive: true, force: true });
    await sandbox?.close();
  });

  /** The program a user would write for the mistake: its resources, in order, with literal arguments. */
  function programOf(m: Mistake): string {
    if (opts.native) {
      // As docs/native-provider.md tells a user: a resource naming the domain of a Domain or DnsZone
      // declared before it waits for it (`dependsOn`), which the dynamic resources add themselves.
      const owners: { name: string; v: string }[] = [];
      const declared = m.resources.map((r, i) => {
        const args = r.args as Record<string, unknown>;
        const named = [args.zone, args.domain].filter((x): x is string => typeof x === "string");
        const after = owners.filter((o) => named.includes(o.name)).map((o) => o.v);
        if (r.kind === "Domain" || r.kind === "DnsZone") owners.push({ name: String(args.domain), v: `r${i}` });
        const options = after.length ? `, { dependsOn: [${after.join(", ")}] }` : "";
        return `const r${i} = new pulumi.CustomResource("reseller:index:${r.kind}", ${JSON.stringify(r.title)}, ${JSON.stringify(r.args)}${options});`;
      });
      return `const pulumi = require("@pulumi/pulumi");\n${declared.join("\n")}\n`;
    }
    const lines = m.resources.map((r) => `new reseller.${r.kind}(${JSON.stringify(r.title)}, ${JSON.stringify(r.args)});`);
    return `const reseller = require("reseller-pulumi");\n${lines.join("\n")}\n`;
  }

  /** The mistake's stack config, the API secret apart (set with --secret, as a user would). */
  function configOf(m: Mistake): { plaintext: [string, string][]; secret: [string, string][] } {
    const entries = Object.entries(mistakeConfig(sandbox, m));
    return { plaintext: entries.filter(([k]) => k !== "reseller:apiSecret"), secret: entries.filter(([k]) => k === "reseller:apiSecret") };
  }

  /** The diagnostics the CLI printed, one per line, without their indentation, as `error: ...` or `warning: ...`. */
  function diagnostics(run: CliRun, severity: "error" | "warning"): string[] {
    return `${run.stdout}\n${run.stderr}`
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l.startsWith(`${severity}: `))
      .map((l) => l.slice(severity.length + 2));
  }

  const NO_ENV = { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined };

  /**
   * One stack of the mistake, previewed then upped (`--skip-preview`), with the CLI's default
   * parallelism or `--parallel 1`: what each printed and exited with, what the preview sent that is
   * not a read, what the up changed, and whether the up waited for anything.
   */
  async function previewThenUp(m: Mistake, name: string, parallel: string[]) {
    sandbox.operator.reset();
    if (m.balance) sandbox.operator.settings({ balance: m.balance });
    await stack.must(["stack", "init", name]);
    fs.writeFileSync(path.join(projectDir, "index.js"), programOf(m));
    const { plaintext, secret } = configOf(m);
    await stack.must(["config", "set-all", "--stack", name, ...plaintext.flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]), ...secret.flatMap(([k, v]) => ["--secret", `${k}=${v}`])]);

    const mark = sandbox.operator.requests().length;
    const preview = await stack.run(["preview", "--stack", name, "--non-interactive", ...parallel], { env: NO_ENV });
    const wrote = sandbox.operator
      .requests()
      .slice(mark)
      .filter((r) => r.mutating || !isReadRequest(r));
    const upMark = sandbox.operator.requests().length;
    const up = await stack.run(["up", "--stack", name, "--yes", "--non-interactive", "--skip-preview", ...parallel], { env: NO_ENV });
    const changed = sandbox.operator
      .requests()
      .slice(upMark)
      .filter((r) => r.mutating)
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    await stack.must(["stack", "rm", name, "--yes", "--force"]);
    return { preview, up, wrote, changed, waited: /: waiting for /.test(`${up.stdout}\n${up.stderr}`) };
  }

  /** The runs of a case: the CLI's default parallelism, and `--parallel 1` where there is an order to change. */
  const parallelisms = (m: Mistake): string[][] => (m.resources.length > 1 ? [[], ["--parallel", "1"]] : [[]]);
  const titleOf = (m: Mistake): string => `${m.title}: caught at preview with up's message, through the CLI${m.resources.length > 1 ? ", the same with --parallel 1" : ""}`;

  test.each(cases.map((m, k) => [titleOf(m), m, first + k] as const))("%s", async (_title, m, i) => {
    // The promised phrase as printed, without the request's id (it differs per run). What comes before
    // it names the resource and the value flagged.
    const matching = (lines: string[]): string | undefined => {
      for (const l of lines) {
        const x = m.message.exec(l);
        if (x) return x[0].replace(/ \(request id [^)]+\)/, "");
      }
      return undefined;
    };
    const outcomes: unknown[] = [];
    for (const parallel of parallelisms(m)) {
      const { preview, up, wrote, changed, waited } = await previewThenUp(m, `m${i + 1}${parallel.length ? "p1" : ""}`, parallel);
      const atPreview = matching(diagnostics(preview, m.preview === "fails" ? "error" : "warning"));
      // Each error once: on its resource's row and in its Diagnostics entry, never again under the Stack
      // (where the SDK's host once echoed what check threw: resources/host/sdk-echo.ts). A warning that
      // says the same of another resource (a zone's, before its record's refusal) is not this error.
      const printedTimes = `${preview.stdout}\n${preview.stderr}`.split("\n").filter((l) => m.message.test(l) && !/\bwarning: /.test(l)).length;
      const atUp = matching(diagnostics(up, "error"));
      expect({
        previewCode: preview.code === 0 ? 0 : "non-zero",
        previewMessage: atPreview !== undefined,
        ...(m.preview === "fails" ? { printedTimes } : {}),
        upCode: up.code === 0 ? 0 : "non-zero",
        upMessage: atUp !== undefined,
        wrote: wrote.map((r) => `${r.method} ${r.path}`),
        // No resource waits for one whose check or create failed in this run.
        waited,
        ...(atPreview && atUp ? {} : { previewSaid: diagnostics(preview, "error").concat(diagnostics(preview, "warning")), upSaid: diagnostics(up, "error") }),
      }).toEqual({ previewCode: m.preview === "fails" ? "non-zero" : 0, previewMessage: true, ...(m.preview === "fails" ? { printedTimes: 2 } : {}), upCode: "non-zero", upMessage: true, wrote: [], waited: false });
      if (m.preview === "fails") expect(atPreview).toBe(atUp);
      const printed = [preview.stdout, preview.stderr, up.stdout, up.stderr].join("\n");
      expect(printed).not.toContain(sandbox.credentials.secret);
      expect(printed).not.toContain("a-wrong-secret");
      // What both runs must share: the message at preview and at up, and what up changed (a Domain bought or not).
      outcomes.push({ atPreview, atUp, changed });
    }
    if (outcomes.length > 1) expect(outcomes[1]).toEqual(outcomes[0]);
  });
}
