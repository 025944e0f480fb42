/**
 * What one operation of a bench section cost, read from each process it ran (dev/bench/cpu-preload.ts)
 * and from the sandbox: shared by the sections that drive the engine or the real CLI.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { compiledProgram } from "../engine/program-file";
import type { SandboxHandle } from "../../sandbox/index";
import type { CpuRecord } from "./cpu-preload";

type Role = CpuRecord["role"];

/** What one operation cost: CPU ms of each process that ran, its wall time, its API requests, and when the first came. */
export interface OpCost {
  cpuMs: Partial<Record<Role, number>>;
  wallSeconds: number;
  requests: number;
  firstRequestSeconds?: number;
}

/** The CPU files the preload wrote since the last call, summed per role; the directory is emptied. */
function takeCpu(dir: string): Partial<Record<Role, number>> {
  const out: Partial<Record<Role, number>> = {};
  for (const f of fs.readdirSync(dir)) {
    const r = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as CpuRecord;
    out[r.role] = (out[r.role] ?? 0) + (r.user + r.system) / 1000;
    fs.rmSync(path.join(dir, f));
  }
  return out;
}

/** NODE_OPTIONS that preload the CPU recorder, after any this shell already sets. */
export function preloadOptions(): string {
  const preload = compiledProgram("dev/bench/cpu-preload.ts");
  return [process.env.NODE_OPTIONS, `--require ${JSON.stringify(preload)}`].filter(Boolean).join(" ");
}

/** What `call` cost: the CPU files written meanwhile, its wall time, its first request in the sandbox's log. */
export async function measureOp(sandbox: SandboxHandle, cpuDir: string, call: () => Promise<void>): Promise<OpCost> {
  takeCpu(cpuDir);
  sandbox.operator.clearRequests();
  const startedAt = Date.now();
  await call();
  const wallSeconds = (Date.now() - startedAt) / 1000;
  // Counted by the sandbox beyond its log, which keeps the latest 10,000: an up of 10,000 records sends more.
  const seen = sandbox.operator.requestsReceived();
  return { cpuMs: takeCpu(cpuDir), wallSeconds, requests: seen.count, firstRequestSeconds: seen.firstAt === undefined ? undefined : (Date.parse(seen.firstAt) - startedAt) / 1000 };
}
