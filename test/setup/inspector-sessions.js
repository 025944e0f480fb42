// jest setupFilesAfterEnv: closes, at the end of each test file, the inspector sessions its code
// opened in the worker's process.
//
// @pulumi/pulumi's closure serializer (runtime/closure/v8Hooks.js), which serializes a dynamic
// provider when a resource is constructed, opens an `inspector.Session` on the process, enables the
// debugger on it and keeps it for the life of the module. In a Pulumi program that is one session.
// In a jest worker every test file loads its own copy of the SDK, so each file that constructs a
// resource opened one more session and none was ever closed. Each open session holds the objects it
// inspected (the providers' functions, and through them the file's whole module registry: its
// context stayed alive after the file ended), and, its debugger enabled, keeps a record of every
// script compiled after it, outside the JavaScript heap. A worker grew by about 100 MB a file that
// way, to 8-10 GB resident over a full run. Closing the file's sessions when it ends releases both.
//
// `node:inspector` is the worker's own module in every test file (jest does not sandbox core
// modules), so the wrap below is installed once per worker and the set of open sessions is shared.
const inspector = require("node:inspector");

const OPEN = Symbol.for("reseller-pulumi.test.open-inspector-sessions");
const proto = inspector.Session.prototype;
if (!proto[OPEN]) {
  const open = new Set();
  Object.defineProperty(proto, OPEN, { value: open });
  const connect = proto.connect;
  const disconnect = proto.disconnect;
  proto.connect = function connectTracked(...args) {
    const r = connect.apply(this, args);
    open.add(this);
    return r;
  };
  proto.disconnect = function disconnectTracked(...args) {
    open.delete(this);
    return disconnect.apply(this, args);
  };
}

afterAll(() => {
  for (const session of [...proto[OPEN]]) session.disconnect();
});
