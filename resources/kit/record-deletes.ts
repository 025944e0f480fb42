/** Record deletes in flight, per zone: a zone delete waits for this command's own. */
import type { Clock } from "../../api/clock";

export class RecordDeletes {
  private readonly zones = new Map<string, { inFlight: number; last: number }>();

  constructor(private readonly clock: Clock) {}

  /** Runs a record delete of `zone`, counted so a parallel zone delete knows this command is still emptying it. */
  async track<T>(zone: string, run: () => Promise<T>): Promise<T> {
    let a = this.zones.get(zone);
    if (!a) this.zones.set(zone, (a = { inFlight: 0, last: this.clock.now() }));
    a.inFlight += 1;
    a.last = this.clock.now();
    try {
      return await run();
    } finally {
      a.inFlight -= 1;
      a.last = this.clock.now();
    }
  }

  /** Record deletes of `zone` in flight now, and when one last started or ended (ms; 0 = never). */
  activity(zone: string): { inFlight: number; last: number } {
    return { ...(this.zones.get(zone) ?? { inFlight: 0, last: 0 }) };
  }
}
