/**
 * The engine's Cancel, heard in the SDK's provider host. On the first Ctrl-C or SIGINT (a CI job's
 * cancel) the Pulumi CLI starts no new step, sends its providers the `Cancel` RPC and waits for the
 * steps under way. The SDK's dynamic provider host (`@pulumi/pulumi/cmd/dynamic-provider`) answers
 * that RPC and does nothing else, and gives a dynamic provider no way to hear it. So this module
 * watches the host's gRPC server for the call: the engine's own signal, the only one a provider host
 * gets (the CLI starts its plugins in process groups of their own, so the terminal's or the CI
 * runner's SIGINT never reaches them; the host gets SIGINT only when the engine closes it).
 *
 * It hooks the gRPC server of the process's main module only when that module is the SDK's provider
 * host, by the server's per-call handler lookup. Where that lookup is not there (another @grpc/grpc-js),
 * nothing is hooked and a cancelled command behaves as before the hook: the steps under way run to
 * their end (test/pulumi-cli/interrupted.test.ts proves the hook against the pinned SDK).
 */

/** The engine's call (pulumirpc ResourceProvider.Cancel, proto/pulumi/provider.proto). */
export const CANCEL_METHOD = "/pulumirpc.ResourceProvider/Cancel";

/** Where the listeners of a hooked server prototype are kept: one hook per process, whatever copies of this package load. */
const LISTENERS = Symbol.for("reseller-pulumi.engine-cancel.listeners");

type HandlerLookup = (this: unknown, path: string, ...rest: unknown[]) => unknown;
interface ServerPrototype {
  _retrieveHandler?: HandlerLookup;
  [LISTENERS]?: Set<() => void>;
}

/** Whether `main` is the SDK's dynamic provider host. */
export const isDynamicProviderHost = (main: Pick<NodeModule, "filename"> | undefined): boolean => !!main && /[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(main.filename);

/**
 * Calls `listener` when the engine sends Cancel to this provider host. Returns whether it is
 * listening: false outside the SDK's provider host or when its gRPC server cannot be hooked.
 */
export function onEngineCancel(listener: () => void, main: NodeModule | undefined = require.main): boolean {
  if (!main || !isDynamicProviderHost(main)) return false;
  let proto: ServerPrototype | undefined;
  try {
    proto = (main.require("@grpc/grpc-js") as { Server?: { prototype?: ServerPrototype } }).Server?.prototype;
  } catch {
    return false;
  }
  if (!proto || typeof proto._retrieveHandler !== "function") return false;
  let listeners = proto[LISTENERS];
  if (!listeners) {
    const lookup = proto._retrieveHandler;
    const heard = (listeners = new Set());
    proto[LISTENERS] = listeners;
    proto._retrieveHandler = function (this: unknown, path: string, ...rest: unknown[]): unknown {
      if (path === CANCEL_METHOD) for (const l of heard) l();
      return lookup.call(this, path, ...rest);
    };
  }
  listeners.add(listener);
  return true;
}
