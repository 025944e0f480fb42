/** The program `prefixed-records-program.ts` as `{ file, args }`: `records` A records named `<prefix>-NNNN` in the bench zone. */
import { compiledProgram } from "../../engine/program-file";

export const prefixedRecords = (prefix: string, records: number, zone = "demo-reseller.com", yieldEvery?: number) => ({
  file: compiledProgram("dev/bench/programs/prefixed-records-program.ts"),
  args: { prefix, records, zone, ...(yieldEvery ? { yieldEvery } : {}) },
});
