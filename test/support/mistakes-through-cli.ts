/**
 * The mistake catalogue (test/audit/preview-catalogue.ts) through the real Pulumi CLI: each mistake
 * is a program of its own (its resources with their literal arguments, as a user would write them),
 * previewed against a sandbox reset to its seed. For each:
 * - the message the catalogue promises is in what the CLI prints at preview, as an error where the
 *   catalogue says "fails" (and preview exits non-zero) or as a warning where it says "warns"
 *   (preview exits 0);
 * - a refusal is printed twice at preview, on its resource's row and in its Diagnostics entry, and
 *   not again under the Stack;
 * - preview writes nothing, and no secret is printed.
 * One preview per case: the CLI ends a run at its first failed Check, so cases cannot share one.
 * Cases with the same stack config share a stack (preview leaves no state), so a case costs one heavy
 * command, not stack init, config set-all, preview, up and stack rm.
 *
 * `up` runs through the CLI only where its provider calls are not preview's (`upToo`), and then must
 * exit non-zero with preview's message, wait for nothing and print no secret:
 * - a case that warns at preview: up's error comes from Create, which preview never calls;
 * - on the native plugin, a case of more than one resource: up creates between the checks (no
 *   harness drives the plugin below the CLI).
 * Elsewhere up adds no fact: a case of one resource refused at check makes, at up, the one call preview
 *   made, a Check with the same inputs and config on a fresh provider process (the CLI starts one per
 *   command), and Check cannot tell a preview from an up (neither Configure nor Check says which:
 *   resources/kit/preflight.ts), on a sandbox preview left unchanged. The dynamic resources' cases of
 *   more than one resource are upped through the SDK's provider host, the one the CLI starts, in every
 *   order the CLI can produce, eager and serial (test/audit/preview-order.test.ts: up fails with
 *   preview's message, waits for nothing, the same writes in every order), and through the stand-in
 *   engine (test/audit/preview-predicts-up.test.ts, which also counts the requests each refusal costs).
 * No `--parallel 1` run: every order of a case's resources, `--parallel 1`'s included, is run through
 * the provider host in test/audit/preview-order.test.ts.
 *
 * The catalogue is run in two halves, one test file each (test/pulumi-cli/mistakes-first-half.test.ts
 * and -second-half), so the suite's two workers share it.
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
  /** The stack of each stack config (its settings as JSON), made at its first case. */
  const stacks = new Map<string, string>();
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

  /** Where up runs through the CLI too (see the header): its provider calls are not preview's. */
  const upToo = (m: Mistake): boolean => m.preview === "warns" || (opts.native === true && m.resources.length > 1);

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

  /**
   * The stack a case runs on: one per stack config, shared by the cases previewed only (a preview
   * leaves no state); a case upped too gets one of its own. Made with its config, the API secret set
   * with --secret as a user would.
   */
  async function stackOf(m: Mistake, i: number): Promise<string> {
    const config = mistakeConfig(sandbox, m);
    const key = upToo(m) ? `up ${i}` : JSON.stringify(config);
    const known = stacks.get(key);
    if (known) return known;
    const name = `m${stacks.size + 1}`;
    await stack.must(["stack", "init", name]);
    const entries = Object.entries(config);
    const plaintext = entries.filter(([k]) => k !== "reseller:apiSecret");
    const secret = entries.filter(([k]) => k === "reseller:apiSecret");
    await stack.must(["config", "set-all", "--stack", name, ...plaintext.flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]), ...secret.flatMap(([k, v]) => ["--secret", `${k}=${v}`])]);
    stacks.set(key, name);
    return name;
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
   * The mistake's program previewed on its stack, then, where `upToo`, upped (`--skip-preview`): what
   * each printed and exited with, what the preview sent that is not a read, and whether the up waited
   * for anything.
   */
  async function previewThenUp(m: Mistake, i: number) {
    sandbox.operator.reset();
    if (m.balance) sandbox.operator.settings({ balance: m.balance });
    const name = await stackOf(m, i);
    fs.writeFileSync(path.join(projectDir, "index.js"), programOf(m));
    const mark = sandbox.operator.requests().length;
    const preview = await stack.run(["preview", "--stack", name, "--non-interactive"], { env: NO_ENV });
    const wrote = sandbox.operator
      .requests()
      .slice(mark)
      .filter((r) => r.mutating || !isReadRequest(r));
    const up = upToo(m) ? await stack.run(["up", "--stack", name, "--yes", "--non-interactive", "--skip-preview"], { env: NO_ENV }) : undefined;
    return { preview, up, wrote, waited: up !== undefined && /: waiting for /.test(`${up.stdout}\n${up.stderr}`) };
  }

  const titleOf = (m: Mistake): string => `${m.title}: ${m.preview === "fails" ? "refused" : "warned"} at preview through the CLI${upToo(m) ? ", and up fails with its message" : ""}`;

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
    const { preview, up, wrote, waited } = await previewThenUp(m, i);
    const atPreview = matching(diagnostics(preview, m.preview === "fails" ? "error" : "warning"));
    // Each error once: on its resource's row and in its Diagnostics entry, never again under the Stack
    // (where the SDK's host once echoed what check threw: resources/host/sdk-echo.ts). A warning that
    // says the same of another resource (a zone's, before its record's refusal) is not this error.
    const printedTimes = `${preview.stdout}\n${preview.stderr}`.split("\n").filter((l) => m.message.test(l) && !/\bwarning: /.test(l)).length;
    const atUp = up && matching(diagnostics(up, "error"));
    expect({
      previewCode: preview.code === 0 ? 0 : "non-zero",
      previewMessage: atPreview !== undefined,
      ...(m.preview === "fails" ? { printedTimes } : {}),
      wrote: wrote.map((r) => `${r.method} ${r.path}`),
      ...(up ? { upCode: up.code === 0 ? 0 : "non-zero", upMessage: atUp !== undefined, waited } : {}),
      ...(atPreview && (!up || atUp) ? {} : { previewSaid: diagnostics(preview, "error").concat(diagnostics(preview, "warning")), upSaid: up && diagnostics(up, "error") }),
    }).toEqual({
      previewCode: m.preview === "fails" ? "non-zero" : 0,
      previewMessage: true,
      ...(m.preview === "fails" ? { printedTimes: 2 } : {}),
      wrote: [],
      // No resource waits for one whose check or create failed in this run.
      ...(up ? { upCode: "non-zero", upMessage: true, waited: false } : {}),
    });
    if (up && m.preview === "fails") expect(atPreview).toBe(atUp);
    const printed = [preview.stdout, preview.stderr, up?.stdout ?? "", up?.stderr ?? ""].join("\n");
    expect(printed).not.toContain(sandbox.credentials.secret);
    expect(printed).not.toContain("a-wrong-secret");
  });
}
