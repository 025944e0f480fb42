/**
 * Where the compiled form of a program is. The engine runs programs in their own Node process from
 * a file, as the CLI does, so a program is a module of this repository that `npm run build`
 * compiles into dist/ (whether the caller runs from dist/ or under ts-jest), or a project that
 * `reseller-pulumi import` wrote, compiled here.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Program } from "./engine";
import { packageRoot } from "./host";

/** `source` is relative to the repository root, e.g. "dev/bench/programs/records-program.ts". */
export function compiledProgram(source: string): string {
  const file = path.join(packageRoot(), "dist", source.replace(/\.ts$/, ".js"));
  if (!fs.existsSync(file)) throw new Error(`the program ${source} is not built (no dist/${source.replace(/\.ts$/, ".js")}): run \`npm run build\` first`);
  return file;
}

/**
 * A project `reseller-pulumi import` wrote, as a program module the engine runs in its own process
 * as `pulumi up` runs it: index.ts compiled beside it, and its node_modules the checkout's (what
 * `npm install` gives a user), so `reseller-pulumi` is this package and `@pulumi/pulumi` the one
 * copy the package and the engine's program runner use.
 */
export function generatedProgram(project: string): Program {
  const source = fs.readFileSync(path.join(project, "index.ts"), "utf8");
  // Loaded here, not at the top: a caller that only needs compiledProgram (the chaos and bench
  // runs, their tests) does not load the compiler (about 0.6 s of CPU).
  const ts = require("typescript") as typeof import("typescript");
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  fs.writeFileSync(path.join(project, "index.js"), js);
  const modules = path.join(project, "node_modules");
  if (!fs.existsSync(modules)) fs.symlinkSync(path.join(packageRoot(), "node_modules"), modules, "dir");
  return { file: path.join(project, "index.js") };
}
