// A module object that loads the real module on first use (lazy-sdk-parts.js, deferred/).
"use strict";

/**
 * It answers `__esModule` before the first use without loading, so TypeScript's
 * `__importStar(require(...))` keeps the stand-in instead of copying the module's keys at once; every
 * other property is the real module's.
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
module.exports = { onFirstUse };
