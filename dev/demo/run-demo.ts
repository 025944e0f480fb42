// The demo's script: plan, apply, apply again (must change nothing), refresh, destroy, all through
// the engine (the SDK's provider host), and one summary line a reader or a test can check.
import { Engine, type EngineOptions, type Program, type RunResult } from "../engine/engine";

export interface DemoResult {
  created: number;
  /** Steps the second `up` of the same program took: anything but 0 is a bug (a perpetual diff). */
  changedOnSecondRun: number;
  refreshed: RunResult["summary"];
  deleted: number;
  /** The last line the demo prints. */
  summaryLine: string;
}

function changes(r: RunResult): number {
  return r.summary.create + r.summary.update + r.summary.replace + r.summary.delete;
}

export async function runDemo(program: Program, engineOptions: EngineOptions): Promise<DemoResult> {
  const log = engineOptions.log ?? ((l: string) => console.log(l));
  const engine = new Engine({ ...engineOptions, log });
  const banner = (text: string): void => {
    log("");
    log(`=== ${text} ===`);
  };

  banner("pulumi preview");
  await engine.preview(program);
  banner("pulumi up");
  const first = await engine.up(program);
  banner("pulumi up (again: expect no changes)");
  const second = await engine.up(program);
  banner("pulumi refresh");
  const refreshed = await engine.refresh();
  banner("pulumi destroy");
  const destroyed = await engine.destroy();

  const result: DemoResult = {
    created: first.summary.create,
    changedOnSecondRun: changes(second),
    refreshed: refreshed.summary,
    deleted: destroyed.summary.delete,
    summaryLine: "",
  };
  result.summaryLine = `demo: created ${result.created}, changed on second run ${result.changedOnSecondRun}, deleted ${result.deleted}`;
  log("");
  log(result.summaryLine);
  return result;
}
