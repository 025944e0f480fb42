// The SDK's start-up parts a test run defers to first use (see ../lazy-sdk-parts.js), one entry each:
// the request as the SDK's modules write it, and this folder's stand-in for jest's module registry.
// lazy-sdk-parts.js (the run's processes) and jest.config.js's moduleNameMapper (test files) both
// read this list.
module.exports = [
  { request: "^@npmcli/arborist$", standIn: "arborist.js" },
  { request: "(^|/)typescript-shim$", standIn: "typescript-shim.js" },
];
