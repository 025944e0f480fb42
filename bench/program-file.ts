/**
 * Where the compiled form of a program module of this repository is. The engine runs programs in
 * their own Node process from a file, as the CLI does, so a program is a module that
 * `npm run build` compiles into dist/, whether the caller runs from dist/ or under ts-jest.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { packageRoot } from "../engine/host";

/** `source` is relative to the repository root, e.g. "bench/programs/records-program.ts". */
export function compiledProgram(source: string): string {
  const file = path.join(packageRoot(), "dist", source.replace(/\.ts$/, ".js"));
  if (!fs.existsSync(file)) throw new Error(`the program ${source} is not built (no dist/${source.replace(/\.ts$/, ".js")}): run \`npm run build\` first`);
  return file;
}
