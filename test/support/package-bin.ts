/** The package's bin (dist/cli/main.js) run as a user runs it: a process of its own, with only the environment given. */
import { spawn } from "node:child_process";
import * as path from "node:path";

export const PACKAGE_BIN = path.join(__dirname, "..", "..", "dist", "cli", "main.js");

export interface BinRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `reseller-pulumi <args>` in `cwd` with PATH and `env` only, to its end. */
export function runPackageBin(args: string[], cwd: string, env: Record<string, string>): Promise<BinRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [PACKAGE_BIN, ...args], { cwd, env: { PATH: process.env.PATH, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
