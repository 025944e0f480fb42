/** Interrupting the real Pulumi CLI at a request the sandbox holds in flight (test/pulumi-cli/interrupted.test.ts and its native twin). */
import { killTree, type CliRun, type CliStack, type StackExport } from "../../dev/pulumi-cli";
import type { SandboxHandle } from "../../sandbox/index";

export type How = "SIGINT" | "SIGINT twice" | "SIGKILL";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (polling, at most 300 s) until `ok`. */
export async function until(what: string, ok: () => boolean): Promise<void> {
  const start = Date.now();
  while (!ok()) {
    if (Date.now() - start > 300_000) throw new Error(`waited 300 s for ${what}`);
    await sleep(100);
  }
}

/**
 * `pulumi up` (or `command`), interrupted while the sandbox holds the first request matching `path`
 * (method POST, or `method`): SIGINT once; SIGINT, then again once the CLI said it is cancelling; or
 * SIGKILL of the CLI and every process below it. Returns what the CLI printed, once the held request
 * has been answered.
 */
export async function interrupted(sandbox: SandboxHandle, stack: CliStack, path: string, how: How, command: string[], method = "POST"): Promise<CliRun> {
  const held = (): boolean => sandbox.operator.faults().length === 0;
  sandbox.operator.injectFault({ kind: "delay", ms: 6000, count: 1, match: { method, path } });
  const answered = sandbox.operator.requests().length;
  const { child, done } = stack.start(command);
  let out = "";
  child.stdout!.on("data", (d: Buffer | string) => (out += String(d)));
  await until(`${method} ${path} to arrive`, held);
  if (how === "SIGKILL") {
    killTree(child);
  } else {
    child.kill("SIGINT");
    if (how === "SIGINT twice") {
      await until("the CLI to say it is cancelling", () => out.includes("^C received; cancelling"));
      child.kill("SIGINT");
    }
  }
  const run = await done;
  // The service applies a request it received, whoever is left to read the answer.
  await until(`the answer to ${method} ${path}`, () => sandbox.operator.requests().slice(answered).some((r) => r.method === method && r.path.includes(path)));
  return run;
}

/** What the sandbox's ledger charged for `domain`, as its actions in order. */
export const chargesOf = (sandbox: SandboxHandle, domain: string): string[] =>
  sandbox.operator
    .ledger()
    .filter((e) => e.domain === domain)
    .map((e) => e.action);

/** The state's pending operations, as "<type> <resource name>". */
export const pendingOf = (s: StackExport): string[] => (s.deployment.pending_operations ?? []).map((p) => `${p.type} ${p.resource.urn.split("::").pop()}`);
