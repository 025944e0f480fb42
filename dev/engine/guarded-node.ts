// The node arguments of every process the engine starts: child-guard.js preloaded (see there).
import * as fs from "node:fs";
import * as path from "node:path";

/** child-guard.js beside this module when compiled; from dist/ when this module runs as TypeScript (ts-jest). */
export function childGuardPath(): string {
  const beside = path.join(__dirname, "child-guard.js");
  if (fs.existsSync(beside)) return beside;
  const built = path.join(__dirname, "..", "..", "dist", "dev", "engine", "child-guard.js");
  if (fs.existsSync(built)) return built;
  throw new Error(`dev/engine/child-guard.js not found beside ${__dirname} nor in dist/ (compile it first: npm run build)`);
}

/**
 * `node --require=child-guard.js ...`: the process dies with the engine and a failing program ends at
 * once. One argument, not two: the SDK's runner takes a bare `--require` in execArgv for a custom
 * loader and then turns its automatic ESM mode for TypeScript off (cmd/run/run.js, hasLoaders).
 */
export function guardedNodeArgs(args: readonly string[]): string[] {
  return [`--require=${childGuardPath()}`, ...args];
}
