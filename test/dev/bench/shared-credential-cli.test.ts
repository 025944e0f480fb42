/**
 * Several CLI processes on one credential never draw a 429 at the service's limit, through the real
 * Pulumi CLI: a monorepo's CI runs `pulumi up` of three projects at once, one of them on two stacks
 * (four CLIs, four programs, four provider hosts), all on one credential against a sandbox at the
 * service's real limit (60 requests in any minute) with its real default in the client. Together
 * they send about 150 requests, the limit more than twice over, so for two minutes and more each
 * provider host holds back for the others through the credential's shared request log.
 *
 * The sandbox's request log must show no 429 and never more than 60 in a minute, every up must
 * succeed, and every record must be live in the zone and in its stack's state. The bench's section
 * `shared-credential-cli` runs the same (dev/bench/shared-credential.ts) and reports the time against
 * the floor.
 */
import { requirePulumiCli } from "../../../dev/pulumi-cli";
import { startSandbox, type SandboxHandle } from "../../../sandbox/index";
import { jobPrefix, liveRecordsOf, MONOREPO_JOBS, requestFigures, runSharedCredentialCli, type SharedCliRun } from "../../../dev/bench/shared-credential";

jest.setTimeout(1_200_000);

const LIMIT = 60;
const RECORDS = 36;

let sandbox: SandboxHandle;
let run: SharedCliRun;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: LIMIT, processingDelaySeconds: 0 });
  run = await runSharedCredentialCli(sandbox, { cli: requirePulumiCli(), jobs: MONOREPO_JOBS, records: RECORDS });
});
afterAll(async () => {
  await run?.dispose();
  await sandbox?.close();
});

test("three projects (one on two stacks) upped at once on one credential: every up succeeds, no 429, never more than 60 in a minute", () => {
  for (const { job, up } of run.jobs) {
    const said = `${jobPrefix(job)}:\n${up.stdout}\n${up.stderr}`;
    expect([said, up.code]).toEqual([said, 0]);
    // No lock failed, no log was set aside, no call gave up on 429s.
    expect(`${up.stdout}\n${up.stderr}`).not.toMatch(/rate-limit log|RateLimitLogLockError|429/);
  }
  const f = requestFigures(sandbox.operator.requests(), LIMIT);
  // The limit several times over: only pacing shared between the processes keeps them under it.
  expect(f.requests).toBeGreaterThanOrEqual(2 * LIMIT + RECORDS);
  expect(f.refused429).toBe(0);
  expect(f.busiestMinute).toBeLessThanOrEqual(LIMIT);
});

test("every record is created once: live in the zone and in its own stack's state", async () => {
  const creates = sandbox.operator.requests().filter((e) => e.method === "POST" && e.status < 300 && e.path.endsWith("/records"));
  expect(creates).toHaveLength(MONOREPO_JOBS.length * RECORDS);
  for (const { job, stack } of run.jobs) {
    expect([jobPrefix(job), liveRecordsOf(sandbox, job)]).toEqual([jobPrefix(job), RECORDS]);
    const state = await stack.exportState();
    const records = (state.deployment.resources ?? []).filter((r) => r.type.endsWith("DnsRecord"));
    expect([jobPrefix(job), records.length]).toEqual([jobPrefix(job), RECORDS]);
  }
});
