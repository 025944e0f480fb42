/**
 * Bench section: the sandbox's own CPU per record create, at 1,000, 3,000 and (with BENCH_LARGE=1)
 * 10,000 records in one zone (the contract's maxRecordsPerZone raised for it). The sandbox runs in
 * a child process (dev/bench/sandbox-child.ts) and its CPU is read from /proc before and after the creates, so the client's work is not counted. Goal:
 * flat, i.e. the cost per record at 10,000 close to the cost at 1,000 (it used to clone the whole
 * state before each write, so each create cost as much as the records already there).
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import { ResellerClient } from "../../api/client";
import { DEFAULT_CREDENTIALS } from "../../sandbox/index";
import type { Measurement } from "./section";
import { benchLarge, round } from "./measure";
import { processCpuSeconds } from "./sandbox-child";

export interface SandboxScaleOptions {
  sizes: number[];
  /** Concurrent creates from the client. */
  parallel: number;
}

const ZONE = "demo-reseller.com";

async function startChild(maxRecords: number): Promise<{ child: ChildProcess; url: string }> {
  const opts = { requestsPerMinute: 10_000_000, processingDelaySeconds: 0, contract: { maxRecordsPerZone: maxRecords + 100 } };
  const child = spawn(process.execPath, [path.join(__dirname, "sandbox-child.js"), JSON.stringify(opts)], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = "";
    child.stdout!.on("data", (d: Buffer) => {
      buf += d.toString();
      const m = /url (\S+)\n/.exec(buf);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`sandbox child exited with ${code}`)));
  });
  return { child, url };
}

/** Creates `n` records; returns the sandbox's CPU seconds for them. */
export async function sandboxCpuForCreates(n: number, parallel: number): Promise<number> {
  const { child, url } = await startChild(n);
  try {
    const client = new ResellerClient({
      baseUrl: url,
      apiKey: DEFAULT_CREDENTIALS.key,
      apiSecret: DEFAULT_CREDENTIALS.secret,
      requestsPerMinute: 10_000_000,
      burst: parallel,
      rateLimitLogDir: null,
    });
    const before = processCpuSeconds(child.pid!);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < n) {
        const i = next++;
        await client.createRecord(ZONE, { type: "A", name: `scale-${i}`, content: `198.51.100.${i % 250}`, ttl: 300 });
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
    const cpu = processCpuSeconds(child.pid!) - before;
    await client.close();
    return cpu;
  } finally {
    child.kill("SIGKILL");
  }
}

export function sandboxScale(opts: SandboxScaleOptions = { sizes: benchLarge() ? [1000, 3000, 10_000] : [1000, 3000], parallel: 8 }): Measurement {
  return {
    id: "sandbox-scale",
    name: `sandbox CPU per record create (${opts.sizes.join(", ")} records in one zone)`,
    metrics: [...opts.sizes.map((n) => `sandboxCpuMsPerRecordAt${n}`), "sandboxCpuPerRecordRatio"],
    async run(progress) {
      const out: Record<string, number> = {};
      for (const n of opts.sizes) {
        const cpu = await sandboxCpuForCreates(n, opts.parallel);
        out[`sandboxCpuMsPerRecordAt${n}`] = round((cpu * 1000) / n, 3);
        progress(`${n} creates: sandbox CPU ${cpu.toFixed(2)} s`);
      }
      const first = opts.sizes[0];
      const last = opts.sizes[opts.sizes.length - 1];
      out.sandboxCpuPerRecordRatio = round(out[`sandboxCpuMsPerRecordAt${last}`] / out[`sandboxCpuMsPerRecordAt${first}`], 3);
      return out;
    },
  };
}
