// A provider host shared by several Engine runs of a test file: each run configures it (as every run
// does) and its close ends no run; the file closes the host itself. Starting one per command, as
// `pulumi up` does, is pinned by test/pulumi-cli/conformance.test.ts (the config-from-state test) and by
// demo.test.ts; rules that do not depend on a fresh process hold the same with one host, which saves a
// Node process per command. A host's first Configure stays (the SDK's dynamic provider is configured once per host),
// so the runs that share one share its settings.
import type { ProviderHost } from "../../dev/engine/host";

export function keptOpen(host: ProviderHost): ProviderHost {
  return {
    pid: host.pid,
    port: host.port,
    configure: (c) => host.configure(c),
    check: (...a) => host.check(...a),
    diff: (...a) => host.diff(...a),
    create: (...a) => host.create(...a),
    read: (...a) => host.read(...a),
    update: (...a) => host.update(...a),
    delete: (...a) => host.delete(...a),
    logs: () => host.logs(),
    kill: () => host.kill(),
    close: async () => undefined,
  };
}
