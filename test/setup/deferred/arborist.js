// jest's module registry's `@npmcli/arborist` (jest.config.js moduleNameMapper): see lazy-sdk-parts.js.
const { onFirstUse } = require("../on-first-use");
const real = require.resolve("@npmcli/arborist/lib/index.js");
module.exports = onFirstUse(() => require(real));
