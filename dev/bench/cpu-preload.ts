/**
 * Preloaded (`NODE_OPTIONS=--require`) into the processes the engine starts, so the bench can read
 * each one's own CPU: when BENCH_CPU_DIR is set, the process writes `process.cpuUsage()` there at
 * exit as `<role>-<pid>.json`, role "host" for a provider's process (the SDK's dynamic provider
 * host, or the native plugin, resources/provider/plugin.js) and "program" for the program's runner. The host is stopped with SIGTERM (dev/engine/) or SIGINT (the Pulumi CLI, to its
 * plugins' process group), which end a process without its "exit" event, so the file is written
 * then and the signal raised again: the process still dies of it.
 * When BENCH_CPU_PROFILE_DIR is set too, the process profiles itself through an inspector session
 * and writes `<role>-<pid>.cpuprofile` there at the same moment (`--cpu-prof` writes only on a
 * clean exit, which the CLI's SIGINT is not).
 * Tiny and dependency-free: it runs before anything else in those processes.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export const CPU_DIR_ENV = "BENCH_CPU_DIR";
export const CPU_PROFILE_DIR_ENV = "BENCH_CPU_PROFILE_DIR";

export interface CpuRecord {
  role: "host" | "program";
  pid: number;
  /** Microseconds, as process.cpuUsage() gives them. */
  user: number;
  system: number;
}

/** Starts the V8 profiler in this process; the returned function stops it and writes the profile to `file`. */
function startProfile(file: string): () => void {
  // Required only when profiling: the preload stays as cheap as it was otherwise.
  const inspector = require("node:inspector") as typeof import("node:inspector");
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.start");
  // A session of this thread answers at once: the callback runs before `post` returns.
  return () =>
    session.post("Profiler.stop", (err, result) => {
      if (!err) fs.writeFileSync(file, JSON.stringify(result.profile));
    });
}

const dir = process.env[CPU_DIR_ENV];
// Not `node -e` or `node --version` (argv[1] unset), which the CLI's language host and plugin script run.
if (dir && process.argv[1]) {
  const role: CpuRecord["role"] = /dynamic-provider|provider[\\/]plugin\.js$/.test(process.argv[1] ?? "") ? "host" : "program";
  const profileDir = process.env[CPU_PROFILE_DIR_ENV];
  const stopProfile = profileDir ? startProfile(path.join(profileDir, `${role}-${process.pid}.cpuprofile`)) : undefined;
  let written = false;
  const write = (): void => {
    if (written) return;
    written = true;
    const { user, system } = process.cpuUsage();
    const record: CpuRecord = { role, pid: process.pid, user, system };
    fs.writeFileSync(path.join(dir, `${role}-${process.pid}.json`), JSON.stringify(record));
    stopProfile?.();
  };
  process.on("exit", write);
  // dev/engine/ stops the host with SIGTERM, the Pulumi CLI its plugins' process group with SIGINT.
  for (const signal of ["SIGTERM", "SIGINT"] as const)
    process.once(signal, () => {
      write();
      process.kill(process.pid, signal);
    });
}
