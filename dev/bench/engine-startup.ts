/**
 * Bench section: engine start-up. Time from `engine.up(program)` to the first API request the
 * sandbox logs, for a program declaring one of our resources (a Domain) and for a program declaring
 * one bare dynamic provider whose create makes one request to the same sandbox. Both run through the
 * same engine (program process, monitor, provider host), alternating so drift hits both; medians
 * are compared. The difference is what our resources add to the start (loading the implementation,
 * its checks); the bare figure is the engine's own floor.
 *
 * Both run dev/bench/engine-startup-program.ts in its own process, as under `pulumi up`.
 */
import * as path from "node:path";
import type { Measurement } from "./section";

export interface EngineStartupOptions {
  /** Runs of each kind. */
  runs: number;
}

export const ENGINE_STARTUP_DEFAULTS: EngineStartupOptions = { runs: 5 };

export function engineStartup(opts: EngineStartupOptions = ENGINE_STARTUP_DEFAULTS): Measurement {
  return {
    id: "engine-startup",
    name: `engine start-up: up to first API request (${opts.runs} runs each, alternating)`,
    metrics: ["engineStartupOursMs", "engineStartupBareMs", "engineStartupRatio"],
    async run(progress) {
      // Loaded here, not at the top: the program process loads this file too and must stay light.
      const { startSandbox } = require("../../sandbox/index") as typeof import("../../sandbox/index");
      const { median, round, sandboxEngine, atMs } = require("./measure") as typeof import("./measure");
      const { DEFAULT_CONTRACT } = require("../../api/contract") as typeof import("../../api/contract");
      const sandbox = await startSandbox({ port: 0, requestsPerMinute: 6000 });
      try {
        const once = async (kind: "ours" | "bare", i: number): Promise<number> => {
          sandbox.operator.clearRequests();
          const engine = sandboxEngine(sandbox, 6000);
          const started = Date.now();
          const program = { file: path.join(__dirname, "engine-startup-program.js"), args: { kind, url: `${sandbox.url}${DEFAULT_CONTRACT.apiPrefix}/bare-start`, domain: `startup-${kind}-${i}.com` } };
          await engine.up(program);
          const first = sandbox.operator.requests()[0];
          if (!first) throw new Error(`engine start-up: the ${kind} program made no request`);
          await engine.destroy(program).catch(() => undefined);
          return atMs(first) - started;
        };
        // One unmeasured run of each warms the file system cache for both equally.
        await once("ours", 0);
        await once("bare", 0);
        const ours: number[] = [];
        const bare: number[] = [];
        for (let i = 1; i <= opts.runs; i++) {
          ours.push(await once("ours", i));
          bare.push(await once("bare", i));
          progress(`run ${i}: ours ${Math.round(ours[i - 1])} ms, bare ${Math.round(bare[i - 1])} ms`);
        }
        return {
          engineStartupOursMs: Math.round(median(ours)),
          engineStartupBareMs: Math.round(median(bare)),
          engineStartupRatio: round(median(ours) / median(bare), 3),
        };
      } finally {
        await sandbox.close();
      }
    },
  };
}
