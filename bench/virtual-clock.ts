/**
 * A virtual clock for pacing runs: time moves only when every sleeper is waiting, straight to the
 * earliest wake-up, so minutes of rate-limited traffic run in the time the requests themselves take.
 * Injected as `now`/`sleep` into the client and as `now` into the sandbox, which then share one time.
 */
export class VirtualClock {
  private t: number;
  private timers: { at: number; wake: () => void }[] = [];
  private scheduled = false;

  constructor(start = Date.parse("2026-01-01T00:00:00Z")) {
    this.t = start;
  }

  readonly now = (): number => this.t;

  readonly sleep = (ms: number): Promise<void> =>
    new Promise((wake) => {
      this.timers.push({ at: this.t + Math.max(0, ms), wake });
      this.schedule();
    });

  /** Moves the clock forward by hand (e.g. past a window between two phases). */
  advance(ms: number): void {
    this.t += ms;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // After the current turn of I/O, so sleepers registered in the same turn are all seen.
    setImmediate(() => {
      this.scheduled = false;
      if (this.timers.length === 0) return;
      this.timers.sort((a, b) => a.at - b.at);
      this.t = Math.max(this.t, this.timers[0].at);
      const due = this.timers.filter((x) => x.at <= this.t);
      this.timers = this.timers.filter((x) => x.at > this.t);
      for (const x of due) x.wake();
      if (this.timers.length) this.schedule();
    });
  }
}
