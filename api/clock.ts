/**
 * Time as a parameter: the waits, the client and the sandbox read the time and sleep through a
 * Clock, so tests and the bench move time instead of waiting for it.
 */

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise<void>((wake) => setTimeout(wake, Math.max(0, ms))),
};

export interface ManualClockOptions {
  /** Time at construction, ms. */
  start?: number;
  /**
   * Moves time by itself: once the current turn of I/O is over, straight to the earliest sleeper's
   * wake-up. For runs where everything that sleeps is on this clock (client, sandbox, waits), so
   * minutes of waiting take the time the requests themselves take.
   */
  autoAdvance?: boolean;
}

/** Virtual time: a sleep resolves only when advance() or runUntilIdle() (or autoAdvance) moves time past it. */
export class ManualClock implements Clock {
  private t: number;
  private timers: { at: number; wake: () => void }[] = [];
  private scheduled = false;
  private readonly auto: boolean;

  constructor(opts: ManualClockOptions = {}) {
    this.t = opts.start ?? 0;
    this.auto = opts.autoAdvance ?? false;
  }

  readonly now = (): number => this.t;

  readonly sleep = (ms: number): Promise<void> =>
    new Promise((wake) => {
      this.timers.push({ at: this.t + Math.max(0, ms), wake });
      if (this.auto) this.schedule();
    });

  /** Sleepers not yet woken. */
  get sleepers(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms` and wakes every sleeper due by then. */
  advance(ms: number): void {
    this.t += Math.max(0, ms);
    this.wakeDue();
  }

  /**
   * Lets the code on this clock run until nothing sleeps on it any more, moving time to each
   * wake-up in turn. For code whose awaits are all on this clock or already resolved (no real I/O);
   * with real I/O use autoAdvance.
   */
  async runUntilIdle(): Promise<void> {
    for (;;) {
      await new Promise<void>((r) => setImmediate(r));
      if (!this.timers.length) return;
      this.t = Math.max(this.t, this.earliest());
      this.wakeDue();
    }
  }

  private earliest(): number {
    return Math.min(...this.timers.map((x) => x.at));
  }

  private wakeDue(): void {
    const due = this.timers.filter((x) => x.at <= this.t).sort((a, b) => a.at - b.at);
    this.timers = this.timers.filter((x) => x.at > this.t);
    for (const x of due) x.wake();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // After the current turn of I/O, so sleepers registered in the same turn are all seen.
    setImmediate(() => {
      this.scheduled = false;
      if (!this.timers.length) return;
      this.t = Math.max(this.t, this.earliest());
      this.wakeDue();
      if (this.timers.length) this.schedule();
    });
  }
}
