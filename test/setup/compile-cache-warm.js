// Run by compile-cache-setup.js in a process of its own, with NODE_COMPILE_CACHE set: loads what every
// provider host and program of the run loads, and exits, so Node writes their compiled code to the
// cache once, before any test. Provider hosts end by SIGTERM and write nothing; without this, each
// of them compiled the modules only hosts load (the package's runtime, zod, undici, the SDK's
// provider server) again, about 0.2 s of CPU a host. A module that cannot be loaded (dist/ not
// built yet) is skipped: the cache is an optimization, never a condition.
const path = require("node:path");

const root = path.resolve(__dirname, "../..");
const modules = [
  // Every process of the SDK: its index loads automation, grpc, protobuf and the closure serializer.
  "@pulumi/pulumi",
  // A program: the runner's tracing and source maps, and TypeScript, which the closure serializer
  // loads on first use when the program serializes its providers (lazy-sdk-parts.js).
  "@pulumi/pulumi/cmd/run/tracing",
  "@pulumi/pulumi/typescript-shim",
  "source-map-support",
  // A provider host: the SDK's dynamic-provider server's modules, and this package's runtime.
  "@pulumi/pulumi/cmd/dynamic-provider/config",
  "@pulumi/pulumi/proto/provider_grpc_pb",
  "require-from-string",
  path.join(root, "dist/resources/index.js"),
  path.join(root, "dist/resources/runtime.js"),
];
for (const m of modules) {
  try {
    require(require.resolve(m, { paths: [root] }));
  } catch {
    // not built, or not in this SDK version: that module compiles in its first process instead.
  }
}
