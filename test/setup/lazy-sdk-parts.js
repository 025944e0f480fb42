// Preloaded into every process of a test run (global-setup.js puts it in NODE_OPTIONS): jest's
// workers and the provider hosts, programs and CLIs the tests start. @pulumi/pulumi loads two large
// parts at start-up that most of these processes never touch:
//
// - `@npmcli/arborist` (with pacote, sigstore and the npm registry client), required at the top of
//   runtime/closure/codePaths.js for computeCodePaths, which packages code for function serialization
//   of cloud callbacks; a dynamic provider's serialization never calls it.
// - TypeScript, through `typescript-shim` at the top of runtime/closure/parseFunction.js; a program
//   needs it to serialize a provider, a provider host never does.
//
// Loading them costs about 0.2 s and 0.15 s of CPU with the compile cache warm, in each of the ~280
// processes of a run. Here, when a module of the SDK requires one of them for the first time, it gets
// a stand-in that loads the real module on first use: a process that uses it gets the same module,
// one that does not never loads it. Nothing else changes: no other module, no other requirer, and
// once a part is loaded every later require gets the real module. The product never sets this: it is
// a test run's accelerator, like the compile cache. compile-cache.test.ts proves both halves (not
// loaded when unused; the real module when used).
"use strict";
const Module = require("node:module");
const path = require("node:path");

const SDK_DIR = `${path.sep}node_modules${path.sep}@pulumi${path.sep}pulumi${path.sep}`;
const isDeferred = (request) => request === "@npmcli/arborist" || /(^|\/)typescript-shim$/.test(request);

const load = Module._load;
Module._load = function lazySdkParts(request, parent, isMain) {
  if (!isMain && parent && typeof parent.filename === "string" && parent.filename.includes(SDK_DIR) && isDeferred(request)) {
    const file = Module._resolveFilename(request, parent, isMain);
    if (!Module._cache[file]) return onFirstUse(() => load.call(this, request, parent, isMain));
  }
  return load.apply(this, arguments);
};

/**
 * A module object that loads the real one on first use. It answers `__esModule` before that without
 * loading, so TypeScript's `__importStar(require(...))` keeps the stand-in instead of copying the
 * module's keys at once; every other property is the real module's.
 */
function onFirstUse(loadReal) {
  let real;
  const target = () => (real ??= loadReal());
  return new Proxy(Object.create(null), {
    get: (_, key) => (key === "__esModule" && real === undefined ? true : Reflect.get(target(), key)),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(target(), key);
      return d && { ...d, configurable: true };
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
  });
}
