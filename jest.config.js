/** @type {import('jest').Config} */
module.exports = {
  preset: "ts-jest",
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  testTimeout: 60000,
  // Suites start servers and provider hosts; two workers match the 2-core CI machine.
  maxWorkers: 2,
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: { warnOnly: false }, isolatedModules: true }] },
};
