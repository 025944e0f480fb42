/**
 * Bench sections: several processes on one credential at once against one sandbox at 60 requests a
 * minute (CI jobs on one runner), sharing the credential's request log (api/rate-limiter.ts).
 * - `shared-credential`: three engines (the stand-in), each starting its own provider host.
 * - `shared-credential-cli`: the real Pulumi CLI, a monorepo's CI: `pulumi up` of three projects
 *   at once, one of them on two stacks (four CLIs, four programs, four provider hosts).
 * Each reports the 429s drawn, the busiest minute, and the time against the floor: the service
 * admits 60 in any minute, so N requests need at least ⌊(N−1)/60⌋ minutes from the first to the
 * last. Checks that every run converged with every record in the zone.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { RunResult } from "../engine/engine";
import { CliStack, builtCli, makeProject, type CliRun, type PulumiCli } from "../pulumi-cli";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import type { RequestLogEntry } from "../../sandbox/server";
import type { Measurement, Metrics } from "./section";
import { atMs, maxInWindow, round, sandboxEngine } from "./measure";
import { ZONE } from "./records";
import { prefixedRecords } from "./programs/prefixed-records";

const MIN = 60_000;

/** Job `job`'s program: its own records, named `job<job>-NNNN`, in the shared zone. */
export const jobProgram = (job: number, records: number) => prefixedRecords(`job${job}`, records);

export function sharedCredential(opts: { engines: number; records: number; limitPerMinute: number } = { engines: 3, records: 40, limitPerMinute: 60 }): Measurement {
  return {
    id: "shared-credential",
    name: `${opts.engines} engines at once on one credential, ${opts.records} records each, ${opts.limitPerMinute}/min`,
    metrics: ["sharedRequests", "shared429", "sharedBusiestMinute", "sharedSpanSeconds", "sharedPhysicalMinimumSeconds", "sharedSecondsLost"],
    async run(progress) {
      const sb = await startSandbox({ port: 0, requestsPerMinute: opts.limitPerMinute, processingDelaySeconds: 0 });
      try {
        const engines = Array.from({ length: opts.engines }, () => sandboxEngine(sb, opts.limitPerMinute));
        const ticker = setInterval(() => progress(`${sb.operator.requests().filter((e) => e.status < 300).length} requests answered`), 15_000);
        let results: RunResult[];
        try {
          results = await Promise.all(engines.map((e, i) => e.up(jobProgram(i, opts.records))));
        } finally {
          clearInterval(ticker);
        }
        const failed = results.filter((r) => r.summary.create !== opts.records || r.errors.length > 0).length;
        const live = (sb.operator.state().zones[ZONE]?.records ?? []).filter((r) => /^job\d+-/.test(r.name)).length;
        if (failed || live !== opts.engines * opts.records) throw new Error(`shared credential: ${failed} engine(s) did not converge; ${live} records in the zone`);
        const f = requestFigures(sb.operator.requests(), opts.limitPerMinute);
        return {
          sharedRequests: f.requests,
          shared429: f.refused429,
          sharedBusiestMinute: f.busiestMinute,
          sharedSpanSeconds: f.spanSeconds,
          sharedPhysicalMinimumSeconds: f.floorSeconds,
          sharedSecondsLost: f.secondsLost,
        };
      } finally {
        await sb.close();
      }
    },
  };
}

/** What the sandbox's request log says of a run: its requests, 429s, busiest minute, and its first-to-last span against the floor. */
export function requestFigures(log: RequestLogEntry[], limitPerMinute: number) {
  const times = log.map(atMs).sort((a, b) => a - b);
  const spanMs = times.length ? times[times.length - 1] - times[0] : 0;
  const floorMs = Math.floor(Math.max(0, times.length - 1) / limitPerMinute) * MIN;
  return {
    requests: log.length,
    refused429: log.filter((e) => e.status === 429).length,
    busiestMinute: maxInWindow(log.filter((e) => e.status !== 429).map(atMs), MIN),
    spanSeconds: round(spanMs / 1000, 1),
    floorSeconds: floorMs / 1000,
    secondsLost: round((spanMs - floorMs) / 1000, 1),
  };
}

/** One CI job of the monorepo: a project's stack. */
export interface CliJob {
  project: string;
  stack: string;
}

/** A monorepo's CI: three projects applied at once, `web` on two stacks. */
export const MONOREPO_JOBS: readonly CliJob[] = [
  { project: "web", stack: "staging" },
  { project: "web", stack: "production" },
  { project: "mail", stack: "ci" },
  { project: "api", stack: "ci" },
];

/** The program of every project: config `records` DnsRecords named `<config prefix>-NNNN` in the bench zone, as a user writes them. */
const CLI_PROGRAM = `const reseller = require("reseller-pulumi");
const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();
const prefix = config.require("prefix");
const n = Number(config.require("records"));
for (let i = 0; i < n; i++) {
  const name = prefix + "-" + String(i).padStart(4, "0");
  new reseller.DnsRecord(name, { zone: "${ZONE}", type: "A", name, content: "198.51.100." + ((i % 250) + 1), ttl: 300 });
}
`;

/** The record names' prefix of a job: its project and stack. */
export const jobPrefix = (job: CliJob): string => `${job.project}-${job.stack}`;

export interface SharedCliRun {
  /** Each job's stack and its `pulumi up`, in the order of the jobs. */
  jobs: { job: CliJob; stack: CliStack; up: CliRun }[];
  /** From starting the first `pulumi up` to the end of the last. */
  wallMs: number;
  /** Removes the stacks, projects and the log folder. */
  dispose(): Promise<void>;
}

/**
 * Sets up each job's stack (its project folder shared by its stacks), all on the sandbox's one
 * credential at the service's default limit (no reseller:requestsPerMinute) with one rate-limit
 * folder (reseller:rateLimitDir, as the user's cache folder is on one runner), then runs every
 * `pulumi up --yes --non-interactive --skip-preview` at once. `config`: more plain stack settings for
 * every job (a test's scaled limit: reseller:requestsPerMinute and reseller:contract's window).
 */
export async function runSharedCredentialCli(
  sandbox: SandboxHandle,
  opts: { cli: PulumiCli; jobs: readonly CliJob[]; records: number; config?: Record<string, string> },
): Promise<SharedCliRun> {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "shared-credential-logs-"));
  const projects = new Map<string, string>();
  const stacks: CliStack[] = [];
  const dispose = async () => {
    for (const s of stacks) await s.dispose();
    for (const dir of projects.values()) fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(logDir, { recursive: true, force: true });
  };
  const noShellCredential = { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined };
  try {
    for (const job of opts.jobs) {
      if (!projects.has(job.project)) projects.set(job.project, makeProject(job.project, { "index.js": CLI_PROGRAM }));
      const stack = await CliStack.init({ cli: opts.cli, projectDir: projects.get(job.project)!, stack: job.stack, env: noShellCredential });
      stacks.push(stack);
      const plain: Record<string, string> = {
        "reseller:baseUrl": sandbox.url,
        "reseller:apiKey": sandbox.credentials.key,
        "reseller:rateLimitDir": logDir,
        prefix: jobPrefix(job),
        records: String(opts.records),
        ...opts.config,
      };
      await stack.must([
        "config",
        "set-all",
        ...Object.entries(plain).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
        "--secret",
        `reseller:apiSecret=${sandbox.credentials.secret}`,
      ]);
    }
    const t0 = performance.now();
    const ups = await Promise.all(stacks.map((s) => s.run(["up", "--yes", "--non-interactive", "--skip-preview"])));
    const wallMs = performance.now() - t0;
    return { jobs: opts.jobs.map((job, i) => ({ job, stack: stacks[i], up: ups[i] })), wallMs, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}

/** Live records of `job` in the sandbox's zone. */
export const liveRecordsOf = (sandbox: SandboxHandle, job: CliJob): number =>
  (sandbox.operator.state().zones[ZONE]?.records ?? []).filter((r) => r.name.startsWith(`${jobPrefix(job)}-`)).length;

/**
 * The bench section through the real CLI: the monorepo's four `pulumi up`s at once, `records` each
 * (BENCH_SHARED_CLI_RECORDS, default 36: about 150 requests, two and a half minutes at the floor).
 */
export function sharedCredentialCli(records = Number(process.env.BENCH_SHARED_CLI_RECORDS ?? 36), limitPerMinute = 60): Measurement {
  return {
    id: "shared-credential-cli",
    name: `real CLI: ${MONOREPO_JOBS.length} pulumi ups at once (3 projects, one on 2 stacks) on one credential, ${records} records each, ${limitPerMinute}/min`,
    metrics: ["sharedCli*"],
    async run(progress) {
      const cli = builtCli();
      if (!cli) return { sharedCliSkipped: "the Pulumi CLI is not built (npm run pulumi-cli)" };
      const sb = await startSandbox({ port: 0, requestsPerMinute: limitPerMinute, processingDelaySeconds: 0 });
      const ticker = setInterval(() => progress(`${sb.operator.requests().filter((e) => e.status < 300).length} requests answered`), 15_000);
      let run: SharedCliRun | undefined;
      try {
        run = await runSharedCredentialCli(sb, { cli, jobs: MONOREPO_JOBS, records });
        const failed = run.jobs.filter((j) => j.up.code !== 0 || liveRecordsOf(sb, j.job) !== records);
        if (failed.length)
          throw new Error(`shared credential (CLI): ${failed.map((j) => `${jobPrefix(j.job)} exited ${j.up.code} with ${liveRecordsOf(sb, j.job)} records`).join("; ")}\n${failed[0].up.stdout}\n${failed[0].up.stderr}`);
        const f = requestFigures(sb.operator.requests(), limitPerMinute);
        const metrics: Metrics = {
          sharedCliUps: run.jobs.length,
          sharedCliRequests: f.requests,
          sharedCli429: f.refused429,
          sharedCliBusiestMinute: f.busiestMinute,
          sharedCliSpanSeconds: f.spanSeconds,
          sharedCliFloorSeconds: f.floorSeconds,
          sharedCliSecondsLost: f.secondsLost,
          sharedCliWallSeconds: round(run.wallMs / 1000, 1),
          sharedCliRequestsOverLimitMinutes: round(f.requests / limitPerMinute, 2),
        };
        return metrics;
      } finally {
        clearInterval(ticker);
        await run?.dispose();
        await sb.close();
      }
    },
  };
}
