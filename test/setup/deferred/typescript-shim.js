// jest's module registry's `@pulumi/pulumi/typescript-shim` (jest.config.js moduleNameMapper): see
// lazy-sdk-parts.js.
const { onFirstUse } = require("../on-first-use");
const real = require.resolve("@pulumi/pulumi/typescript-shim.js");
module.exports = onFirstUse(() => require(real));
