const deferredParts = require("./test/setup/deferred/parts");

/** @type {import('jest').Config} */
module.exports = {
  preset: "ts-jest",
  // Node's, naming what a file leaves keeping its worker alive (see there).
  testEnvironment: "<rootDir>/test/setup/environment.js",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // A bound for a test that hangs, not a speed goal: on a loaded 2-core machine (the test matrix runs
  // three copies of the suite one after another beside other work) single tests took over 60 s.
  testTimeout: 240000,
  // Four workers on the 2-core CI machine: much of a suite's time is spent waiting (on the CLI's
  // processes starting, a provider's deadline, a rate-limit window). With two the warm run used 1.3
  // cores of 2 on average, with three 1.73.
  maxWorkers: 4,
  // A worker whose heap is above 1 GB after a file is replaced by a fresh one before the next: a full
  // run saw one worker's heap reach 1.66 GB after test/package/pulumi-options.test.ts and stay above
  // 1.2 GB for the rest of its files (its process 1.93 GB resident). A restart costs about a second.
  workerIdleMemoryLimit: "1GB",
  // What every process of the run inherits: the SDK's unused parts loaded lazily and a compile cache
  // (see there); the cache is removed when the run ends, and builds npm test started are waited for.
  globalSetup: "<rootDir>/test/setup/global-setup.js",
  globalTeardown: "<rootDir>/test/setup/global-teardown.js",
  // Each test file's end closes the inspector sessions the SDK's closure serializer opened in the
  // worker (see there): without it every file's module registry stayed alive, 8-10 GB a worker.
  setupFilesAfterEnv: ["<rootDir>/test/setup/inspector-sessions.js"],
  // Without timings (a fresh checkout), the suites that run the CLI or npm first (see there).
  testSequencer: "<rootDir>/test/setup/sequencer.js",
  // In test files, the SDK's arborist and TypeScript load on first use (test/setup/lazy-sdk-parts.js).
  moduleNameMapper: Object.fromEntries(deferredParts.map((p) => [p.request, `<rootDir>/test/setup/deferred/${p.standIn}`])),
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: { warnOnly: false }, isolatedModules: true }] },
};
