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
// a test run's accelerator, like the compile cache. lazy-sdk-parts.test.ts proves both halves (not
// loaded when unused; the real module when used).
//
// Test files load the SDK too, in jest's own module registry, once per file: there the same
// stand-ins come from jest.config.js's moduleNameMapper (deferred/), since jest's registry does not
// go through Node's loader.
"use strict";
const Module = require("node:module");
const path = require("node:path");
const { onFirstUse } = require("./on-first-use");
const parts = require("./deferred/parts");

const SDK_DIR = `${path.sep}node_modules${path.sep}@pulumi${path.sep}pulumi${path.sep}`;
const deferred = parts.map((p) => new RegExp(p.request));
const isDeferred = (request) => deferred.some((r) => r.test(request));

const load = Module._load;
Module._load = function lazySdkParts(request, parent, isMain) {
  if (!isMain && parent && typeof parent.filename === "string" && parent.filename.includes(SDK_DIR) && isDeferred(request)) {
    const file = Module._resolveFilename(request, parent, isMain);
    if (!Module._cache[file]) return onFirstUse(() => load.call(this, request, parent, isMain));
  }
  return load.apply(this, arguments);
};
