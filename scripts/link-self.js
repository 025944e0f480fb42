// Makes `require("reseller-pulumi/...")` resolve inside this repository, as it does in a user's
// project where the package sits in node_modules. The serialized provider shims and the examples
// require the package by name (see shared PULUMI-DYNAMIC notes: never an absolute path).
const fs = require("node:fs");
const path = require("node:path");
const root = path.resolve(__dirname, "..");
const link = path.join(root, "node_modules", "reseller-pulumi");
try {
  if (fs.realpathSync(link) === root) process.exit(0);
  fs.rmSync(link, { recursive: true, force: true });
} catch {
  /* absent */
}
fs.mkdirSync(path.dirname(link), { recursive: true });
fs.symlinkSync("..", link, "dir");
