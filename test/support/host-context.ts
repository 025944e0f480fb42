/**
 * A provider host's context for tests that call handlers directly: the real Host (resources/host/host.ts)
 * with its log lines kept in memory and, when given, a clock of the test's own.
 */
import type { Clock } from "../../api/clock";
import type { HostContext } from "../../resources/kit/context";
import { Host } from "../../resources/host/host";

export interface TestHost {
  host: Host;
  ctx: HostContext;
  /** Log lines as the host would hand them to Pulumi's log, redacted. */
  lines: string[];
}

export function testHost(options: { clock?: Clock; env?: NodeJS.ProcessEnv } = {}): TestHost {
  const lines: string[] = [];
  const host = new Host({ clock: options.clock, env: options.env ?? {}, sink: { info: (l) => void lines.push(l), warn: (l) => void lines.push(l) } });
  return { host, ctx: host.context(), lines };
}
