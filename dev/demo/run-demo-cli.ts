// The demo's script through the real Pulumi CLI: a project folder whose program is the main example,
// a stack in a local backend, the sandbox's settings set with `pulumi config set` (the secret
// encrypted by passphrase), then preview, up, up --expect-no-changes, refresh and destroy, each
// printed as the CLI prints it, and the same summary line as the stand-in's script (run-demo.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import { CliStack, checkoutRoot, makeProject, type PulumiCli } from "../pulumi-cli";
import type { DemoResult } from "./run-demo";

const YES = ["--yes", "--non-interactive"];

/** The count the CLI's summary gives for `verb` ("created", "deleted", "unchanged"...), 0 when absent. */
export function summaryCount(output: string, verb: string): number {
  const m = new RegExp(`^\\s*[-+~]?\\s*(\\d+) ${verb}\\b`, "m").exec(output);
  return m ? Number(m[1]) : 0;
}

export async function runDemoWithCli(
  cli: PulumiCli,
  program: string,
  sandbox: { url: string; credentials: { key: string; secret: string } },
  log: (line: string) => void = (l) => console.log(l),
): Promise<DemoResult> {
  const projectDir = makeProject("reseller-pulumi-main-example", { "index.js": `module.exports = require(${JSON.stringify(program)});\n` });
  const stack = await CliStack.init({ cli, projectDir });
  try {
    await stack.configSet("reseller:baseUrl", sandbox.url);
    await stack.configSet("reseller:apiKey", sandbox.credentials.key);
    await stack.configSet("reseller:apiSecret", sandbox.credentials.secret, { secret: true });
    const step = async (title: string, args: string[]): Promise<string> => {
      log("");
      log(`=== ${title} ===`);
      const r = await stack.run(args);
      for (const line of `${r.stdout}${r.stderr}`.trimEnd().split("\n")) log(line);
      if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${r.code ?? r.signal}`);
      return r.stdout;
    };
    await step("pulumi preview", ["preview", "--non-interactive"]);
    const up = await step("pulumi up", ["up", ...YES]);
    let changedOnSecondRun = 0;
    try {
      await step("pulumi up (again: expect no changes)", ["up", "--expect-no-changes", ...YES]);
    } catch {
      changedOnSecondRun = 1;
    }
    const refresh = await step("pulumi refresh", ["refresh", ...YES]);
    const destroy = await step("pulumi destroy", ["destroy", ...YES]);
    const result: DemoResult = {
      created: summaryCount(up, "created"),
      changedOnSecondRun,
      refreshed: { create: 0, update: summaryCount(refresh, "updated"), replace: 0, delete: summaryCount(refresh, "deleted"), same: summaryCount(refresh, "unchanged"), read: 0, discard: 0, import: 0, adopt: 0 },
      deleted: summaryCount(destroy, "deleted"),
      summaryLine: "",
    };
    result.summaryLine = `demo: created ${result.created}, changed on second run ${result.changedOnSecondRun}, deleted ${result.deleted}`;
    log("");
    log(result.summaryLine);
    return result;
  } finally {
    await stack.dispose();
    fs.rmSync(projectDir, { recursive: true, force: true });
  }
}

/** The compiled main example, as the demo runs it. */
export const mainExample = (): string => path.join(checkoutRoot, "dist", "examples", "main", "index.js");
