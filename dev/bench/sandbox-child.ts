/**
 * A sandbox in its own process for the bench, so its CPU can be read apart from the client's:
 * `node dist/dev/bench/sandbox-child.js '<SandboxOptions as JSON>'` prints one line `url <URL>` and
 * serves until killed.
 */
import { startSandbox, type SandboxOptions } from "../../sandbox/index";

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
export function processCpuSeconds(pid: number): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const text = (require("node:fs") as typeof import("node:fs")).readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start at state; utime and stime are the 14th and 15th fields.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100; // USER_HZ is 100 on Linux
}

if (require.main === module) {
  const opts = JSON.parse(process.argv[2] ?? "{}") as SandboxOptions;
  void startSandbox({ port: 0, ...opts }).then((sb) => process.stdout.write(`url ${sb.url}\n`));
}
