/** Interrupting the real Pulumi CLI at a request the sandbox holds in flight (test/pulumi-cli/interrupted*.test.ts and their native twin). */
import { killTree, type CliRun, type CliStack, type StackExport } from "../../dev/pulumi-cli";
import type { SandboxHandle } from "../../sandbox/index";
import { until } from "./until";

export type How = "SIGINT" | "SIGINT twice" | "SIGKILL";

/** A hang guard for what the CLI says or does, not a margin: 300 s. */
const CLI_GUARD = 300_000;

/** What the provider host says when it hears the engine's Cancel with a call under way (resources/host/host.ts). */
export const HEARD_CANCEL = "the Pulumi CLI cancelled the command: requests under way finish and their answers are recorded; no new request is sent";

/**
 * `pulumi up` (or `command`), interrupted while the sandbox holds the first request matching `path`
 * (method POST, or `method`) in flight, unprocessed (a hold fault). The test lets the request go
 * only once the CLI has said what it waits for, so no margin of time is involved: after SIGINT once,
 * the provider's word that it heard the engine's Cancel; after SIGINT, then SIGINT again once the
 * CLI said it is cancelling, the CLI's `terminating`; after SIGKILL of the CLI and every process below
 * it, their end. Returns what the CLI printed, once the held request has been answered.
 */
export async function interrupted(sandbox: SandboxHandle, stack: CliStack, path: string, how: How, command: string[], method = "POST"): Promise<CliRun> {
  sandbox.operator.injectFault({ kind: "hold", count: 1, match: { method, path } });
  const answered = sandbox.operator.requests().length;
  const { child, done } = stack.start(command);
  let out = "";
  child.stdout!.on("data", (d: Buffer | string) => (out += String(d)));
  try {
    await until(`${method} ${path} to arrive`, () => sandbox.operator.held().length > 0, CLI_GUARD);
    if (how === "SIGKILL") {
      killTree(child);
      await done;
    } else {
      child.kill("SIGINT");
      if (how === "SIGINT twice") {
        await until("the CLI to say it is cancelling", () => out.includes("^C received; cancelling"), CLI_GUARD);
        child.kill("SIGINT");
        await until("the CLI to say it is terminating", () => out.includes("^C received; terminating"), CLI_GUARD);
      } else {
        await until("the provider to say it heard the engine's Cancel", () => out.includes(HEARD_CANCEL), CLI_GUARD);
      }
    }
  } finally {
    sandbox.operator.release();
  }
  const run = await done;
  // The service applies a request it received, whoever is left to read the answer.
  await until(`the answer to ${method} ${path}`, () => sandbox.operator.requests().slice(answered).some((r) => r.method === method && r.path.includes(path)), CLI_GUARD);
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
