/**
 * The bench's real-CLI side (dev/bench/cli-side.ts) at a tiny size: the stand-in's program, two
 * DnsRecords, through `pulumi up`, a no-op up, a preview of a third, refresh and destroy against a real sandbox.
 * Each operation finds the CPU of the program's process and of the provider host (which the CLI
 * stops with SIGINT: the preload must still write its figure), the CPU of all the CLI's processes
 * covers both, and the CLI's closing counts are read. Needs `npm run build` and the built CLI
 * (`npm run pulumi-cli`). No figure is judged but counts.
 */
import { requirePulumiCli } from "../../../dev/pulumi-cli";
import { checkpointEnv, cliBenchSettings, cliSummary, CliSide } from "../../../dev/bench/cli-side";
import { prefixedRecords } from "../../../dev/bench/programs/prefixed-records";
import { startSandbox } from "../../../sandbox/index";

jest.setTimeout(600_000);

test("cliSummary reads the CLI's closing counts", () => {
  const up = "Updating (dev):\n ...\nResources:\n    + 3 created\n    1 unchanged\n\nDuration: 2s\n";
  expect(cliSummary(up)).toEqual({ created: 3, unchanged: 1 });
  const preview = "Previewing update (dev):\n\nResources:\n    ~ 1 to update\n    +-2 to replace\n    4 unchanged\n\n";
  expect(cliSummary(preview)).toEqual({ "to update": 1, "to replace": 2, unchanged: 4 });
  expect(cliSummary("no summary here")).toEqual({});
});

test("BENCH_CLI_SKIP_CHECKPOINTS=1 gives the CLI PULUMI_SKIP_CHECKPOINTS=true; BENCH_CLI_PROFILE_DIR must be absolute", () => {
  expect(cliBenchSettings({})).toEqual({ skipCheckpoints: false, profileDir: undefined });
  expect(checkpointEnv(cliBenchSettings({}))).toEqual({});
  expect(checkpointEnv(cliBenchSettings({ BENCH_CLI_SKIP_CHECKPOINTS: "1" }))).toEqual({ PULUMI_SKIP_CHECKPOINTS: "true" });
  expect(() => cliBenchSettings({ BENCH_CLI_SKIP_CHECKPOINTS: "yes" })).toThrow(/BENCH_CLI_SKIP_CHECKPOINTS: "yes" is not 1/);
  expect(() => cliBenchSettings({ BENCH_CLI_PROFILE_DIR: "profiles" })).toThrow(/BENCH_CLI_PROFILE_DIR: "profiles" is not an absolute path/);
});

test("two DnsRecords through the real CLI: every operation's CPU, requests and counts", async () => {
  requirePulumiCli();
  const sandbox = await startSandbox({ port: 0, requestsPerMinute: 1_000_000, processingDelaySeconds: 0 });
  const side = await CliSide.open(sandbox, { program: prefixedRecords("cli-side", 2), limitPerMinute: 1_000_000, parallel: 4 });
  if (!side) throw new Error("the CLI is built but CliSide found none");
  try {
    // The CLI counts the stack with the records.
    const up = await side.run("up", { created: 3 });
    const noop = await side.run("up", { unchanged: 3 });
    // A third record in the program: the preview plans its create and sends no write.
    const preview = await side.run("preview", { "to create": 1, unchanged: 3 }, prefixedRecords("cli-side", 3).args);
    const refresh = await side.run("refresh", { unchanged: 3 });
    const state = await side.state(":DnsRecord");
    const destroy = await side.run("destroy", { deleted: 3 });
    for (const op of [up, noop, refresh, destroy]) {
      expect(op.cpuMs.host).toBeGreaterThan(0);
      expect(op.allMs).toBeGreaterThan(op.cpuMs.host ?? 0);
    }
    for (const op of [up, noop]) {
      expect(op.cpuMs.program).toBeGreaterThan(0);
      expect(op.allMs).toBeGreaterThan((op.cpuMs.program ?? 0) + (op.cpuMs.host ?? 0));
    }
    // Refresh and destroy run no program.
    expect(refresh.cpuMs.program).toBeUndefined();
    expect(up.requests).toBeGreaterThanOrEqual(2);
    expect(up.firstRequestSeconds).toBeGreaterThan(0);
    expect(noop.requests).toBe(0);
    expect(state.resources).toHaveLength(2);
    // Each record's source position is the program's line that declared it, not this package's constructor.
    for (const r of state.resources as { sourcePosition?: string; stackTrace?: { sourcePosition?: string }[] }[]) {
      expect(r.sourcePosition).toMatch(/bench\/programs\/prefixed-records-program\.ts#\d+,\d+$/);
      expect(JSON.stringify(r.stackTrace)).not.toMatch(/resources\/(program\/register|dns-record\/resource)\.ts/);
    }
    expect(destroy.requests).toBeGreaterThanOrEqual(2);
    expect(preview.summary).toEqual({ "to create": 1, unchanged: 3 });
    expect(preview.cpuMs.program).toBeGreaterThan(0);
  } finally {
    await side.close();
    await sandbox.close();
  }
});
