/**
 * Polling a domain until it reaches a wanted state (the service sends no events; spec, Events).
 * Waiting stages are states, not errors: at the deadline the current state is returned.
 */
import { VALUES } from "./contract";
import type { DomainInfo } from "./views";

export interface PollOptions {
  /** Stages that end the wait, or a predicate on the domain information. */
  until: string[] | ((info: DomainInfo) => boolean);
  /** Total time allowed, ms from the first poll. */
  deadlineMs: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  factor?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  onPoll?: (event: { info: DomainInfo; polls: number; elapsedMs: number }) => void;
}

export interface PollResult {
  info: DomainInfo;
  /** Whether `until` was met. */
  reached: boolean;
  polls: number;
}

/**
 * Delay before poll number `n + 1` (n >= 1): initial * factor^(n-1), capped. With the defaults
 * (1 s, x2, 2 min cap) polls fall at 0, 1, 3, 7, 15, 31, 63, 127, 247, 367, 487, 607 s: a
 * registration approved after 10 minutes costs 12 polls.
 */
export function pollDelay(n: number, initialDelayMs: number, factor: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, initialDelayMs * factor ** Math.max(0, n - 1));
}

export async function pollDomain(client: { getDomain(domain: string): Promise<DomainInfo> }, domain: string, opts: PollOptions): Promise<PollResult> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const initial = opts.initialDelayMs ?? 1000;
  const max = opts.maxDelayMs ?? 120_000;
  const factor = opts.factor ?? 2;
  const until = opts.until;
  const reached = typeof until === "function" ? until : (info: DomainInfo) => until.includes(info.stage);
  // With a list of stages, a stage that is neither wanted nor waiting (failed, cancelled...) will not change by waiting.
  const settledElsewhere = (info: DomainInfo): boolean =>
    typeof until !== "function" && !(VALUES.waitingStages as readonly string[]).includes(info.stage);

  const start = now();
  for (let polls = 1; ; polls++) {
    const info = await client.getDomain(domain);
    opts.onPoll?.({ info, polls, elapsedMs: now() - start });
    if (reached(info)) return { info, reached: true, polls };
    const remaining = start + opts.deadlineMs - now();
    if (remaining <= 0 || settledElsewhere(info)) return { info, reached: false, polls };
    await sleep(Math.min(pollDelay(polls, initial, factor, max), remaining));
  }
}
