/**
 * Faults for the chaos campaign: what the sandbox operator arms each round (5xx answers, connections
 * dropped after the commit, delays longer than the client's timeout, 429 storms), how the faults
 * that actually fired are counted (from the sandbox's request log), and the provider host killed
 * mid-apply once a given number of changes went through.
 */
import type { ProviderHost } from "../engine/host";
import type { Fault, FaultMatch, LocalOperator, RequestLogEntry } from "../../sandbox/index";

export const FAULT_KINDS = ["http5xx", "dropAfterCommit", "timeout", "rateLimit429"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The sandbox's name of a fault (request log `fault`) -> ours. */
const KIND_OF: Record<string, FaultKind> = {
  error: "http5xx",
  "drop-after-commit": "dropAfterCommit",
  delay: "timeout",
  "rate-limit": "rateLimit429",
};

export const noFaults = (): Record<FaultKind, number> => ({ http5xx: 0, dropAfterCommit: 0, timeout: 0, rateLimit429: 0 });

/** Requests faults aim at: the money operations, record changes, and the reads that follow them. */
const TARGETS: FaultMatch[] = [
  { method: "POST", path: "/domains/register" },
  { method: "POST", path: "/domains/transfer" },
  { method: "POST", path: "/renew" },
  { method: "POST", path: "/privacy" },
  { method: "POST", path: "/protection" },
  { method: "POST", path: "/records" },
  { method: "PUT", path: "/records/" },
  { method: "DELETE", path: "/records/" },
  { method: "POST" },
  { method: "GET", path: "/domains/" },
];

const pick = <T>(random: () => number, xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];

/**
 * Faults for one round: about `perKind` of each kind, each aimed at a random target. A delay is
 * `timeoutMs` plus 1.5 s, so the client gives up first while the service still applies it (undici
 * checks its timeouts on a coarse timer: one of 1 s fires between 1 and 2 s).
 */
export function roundFaults(random: () => number, perKind: number, timeoutMs: number): Fault[] {
  const faults: Fault[] = [];
  const n = (): number => Math.max(1, Math.round(perKind * (0.5 + random())));
  // The last of each kind matches any POST, which every round sends, so each kind fires every round.
  const target = (i: number): FaultMatch => (i === 1 ? { method: "POST" } : pick(random, TARGETS));
  for (let i = n(); i > 0; i--) faults.push({ kind: "error", status: pick(random, [500, 502, 503, 504]), count: 1 + Math.floor(random() * 2), match: target(i) });
  for (let i = n(); i > 0; i--) faults.push({ kind: "drop-after-commit", count: 1, match: target(i) });
  for (let i = n(); i > 0; i--) faults.push({ kind: "delay", ms: timeoutMs + 1500, count: 1, match: target(i) });
  // A storm: every request of the credential refused for a while; Retry-After 0 or 1 s.
  for (let i = n(); i > 0; i--) faults.push({ kind: "rate-limit", count: 3 + Math.floor(random() * 6), retryAfterSeconds: random() < 0.3 ? 1 : 0 });
  return faults;
}

/** Faults that fired, by kind, in a request log. */
export function firedFaults(log: RequestLogEntry[]): Record<FaultKind, number> {
  const out = noFaults();
  for (const e of log) {
    const k = e.fault ? KIND_OF[e.fault] : undefined;
    if (k) out[k]++;
  }
  return out;
}

export function addFaults(into: Record<FaultKind, number>, more: Record<FaultKind, number>): void {
  for (const k of FAULT_KINDS) into[k] += more[k];
}

/**
 * Kills the provider host (SIGKILL, as a crash) once `threshold` changes (mutating requests) were
 * committed by the service during the current run. Attach `onHostStarted` to the Engine.
 */
export class HostKiller {
  kills = 0;
  private host: ProviderHost | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly op: LocalOperator) {}

  readonly onHostStarted = (host: ProviderHost): void => {
    this.host = host;
  };

  /** Watches the request log (cleared by the caller before the run) from now until `disarm`. */
  arm(threshold: number): void {
    this.disarm();
    this.timer = setInterval(() => {
      const committed = this.op.requests().filter((e) => e.mutating).length;
      if (committed < threshold || !this.host) return;
      const host = this.host;
      this.disarm();
      this.kills++;
      void host.kill();
    }, 3);
  }

  disarm(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
