/** What a bench section is (dev/bench/bench.ts runs them): the one shape every section file gives. */

export type Metrics = Record<string, number | string>;

export interface Measurement {
  /** Short name for `--only`. */
  id: string;
  name: string;
  /**
   * The names of the metrics it reports, each one owned by this section alone: a name, or a prefix
   * ending in `*` for names that follow its sizes (`linear*`: every name starting with `linear`).
   * A run may leave a declared name out (a part skipped); it reports no name it did not declare.
   */
  metrics: readonly string[];
  /** `progress` prints a line so a long section shows it is alive. */
  run(progress: (line: string) => void): Promise<Metrics>;
}
