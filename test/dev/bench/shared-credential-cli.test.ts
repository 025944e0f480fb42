/**
 * Several CLI processes on one credential never draw a 429 at the service's limit, through the real
 * Pulumi CLI: a monorepo's CI runs `pulumi up` of three projects at once, one of them on two stacks
 * (four CLIs, four programs, four provider hosts), all on one credential and one rate-limit folder
 * against a sandbox that enforces the limit the clients pace themselves to. Together they send the
 * limit about five times over, so each provider host holds back for the others through the
 * credential's shared request log.
 *
 * Scaled as test/api/rate-limiter-processes.test.ts is: a 4-second window admitting 10 (150 a
 * minute), set on both sides as a user would, through `reseller:contract` and
 * `reseller:requestsPerMinute`, so the proof takes seconds of pacing, not the minutes that the
 * service's real minute would hold it. The client's real default (60 in any minute, with no setting)
 * is proven on a virtual clock in test/api/rate-limiter.test.ts. The bench's section
 * `shared-credential-cli` runs this at the real limit (dev/bench/shared-credential.ts) and reports
 * the time against the floor.
 *
 * The sandbox's request log must show no 429 and never more than 10 in a window, every up must
 * succeed, and every record must be live in the zone and in its stack's state.
 */
import { requirePulumiCli } from "../../../dev/pulumi-cli";
import { startSandbox, type SandboxHandle } from "../../../sandbox/index";
import { jobPrefix, liveRecordsOf, MONOREPO_JOBS, runSharedCredentialCli, type SharedCliRun } from "../../../dev/bench/shared-credential";
import { atMs, maxInWindow } from "../../support/request-log";

jest.setTimeout(1_200_000);

/** The scaled limit: 10 requests in any 4-second window. */
const WINDOW_SECONDS = 4;
const PER_MINUTE = 150;
const PER_WINDOW = (PER_MINUTE * WINDOW_SECONDS) / 60;
const contract = { rateLimit: { windowSeconds: WINDOW_SECONDS } };
const RECORDS = 10;

let sandbox: SandboxHandle;
let run: SharedCliRun;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: PER_MINUTE, contract, processingDelaySeconds: 0 });
  const config = { "reseller:requestsPerMinute": String(PER_MINUTE), "reseller:contract": JSON.stringify(contract) };
  run = await runSharedCredentialCli(sandbox, { cli: requirePulumiCli(), jobs: MONOREPO_JOBS, records: RECORDS, config });
});
afterAll(async () => {
  await run?.dispose();
  await sandbox?.close();
});

test("three projects (one on two stacks) upped at once on one credential: every up succeeds, no 429, never more than the limit in a window", () => {
  for (const { job, up } of run.jobs) {
    const said = `${jobPrefix(job)}:\n${up.stdout}\n${up.stderr}`;
    expect([said, up.code]).toEqual([said, 0]);
    // No lock failed, no log was set aside, no call gave up on 429s.
    expect(`${up.stdout}\n${up.stderr}`).not.toMatch(/rate-limit log|RateLimitLogLockError|429/);
  }
  const log = sandbox.operator.requests();
  // The limit several times over: only pacing shared between the processes keeps them under it.
  expect(log.length).toBeGreaterThanOrEqual(4 * PER_WINDOW);
  expect(log.filter((e) => e.status === 429)).toEqual([]);
  expect(maxInWindow(log.map(atMs), WINDOW_SECONDS * 1000)).toBeLessThanOrEqual(PER_WINDOW);
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
