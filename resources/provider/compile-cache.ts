/**
 * Imported first by the plugin (plugin.ts): Node's on-disk compile cache (`module.enableCompileCache`,
 * Node ≥ 22.1), so a start after the first reads the compiled code of gRPC, the protocol's messages,
 * zod, undici and this package instead of compiling it again, about a third of a start's CPU
 * (dev/bench/README.md, plugin-start). Node's own settings win: `NODE_COMPILE_CACHE` names the
 * folder, `NODE_DISABLE_COMPILE_CACHE=1` turns it off; otherwise Node's default folder under the
 * system's temporary folder.
 */
import * as nodeModule from "node:module";

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
