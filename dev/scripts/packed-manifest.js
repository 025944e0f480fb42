#!/usr/bin/env node
// The package.json that ships has no `scripts`: none of them runs from the tarball (they need the
// repository's sources), and npm 11 asks users to approve a `prepare` in a tarball or git install.
// npm cannot drop a field when packing (publishConfig carries registry settings only), so:
//
//   prepack       `strip`    keeps package.json aside and writes it without `scripts`
//   postpack      `restore`  puts it back; under `npm publish`, which reads package.json again
//                            after packing and sends that to the registry, it writes it with only
//                            the `postpublish` below (npm runs the scripts of what it re-read)
//   postpublish   `restore`  puts it back after a publish (also after `npm publish --dry-run`)
//
// A publish that fails half-way leaves the copy: `node dev/scripts/packed-manifest.js restore`.
// `prepare` stays in the repository's package.json: a git install builds through it.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const manifest = path.join(root, "package.json");
const kept = path.join(root, ".package.json.unpacked");

/** Writes package.json as kept aside, with `scripts` replaced (or dropped when undefined). */
function writeWith(scripts) {
  const pkg = JSON.parse(fs.readFileSync(kept, "utf8"));
  if (scripts) pkg.scripts = scripts;
  else delete pkg.scripts;
  fs.writeFileSync(manifest, JSON.stringify(pkg, null, 2) + "\n");
}

function strip() {
  if (fs.existsSync(kept)) throw new Error(`${path.basename(kept)} exists: a pack or publish did not finish; run \`node dev/scripts/packed-manifest.js restore\` first`);
  fs.copyFileSync(manifest, kept);
  writeWith(undefined);
}

/** What `npm publish` re-reads after packing: no install-time script, and the step that restores. */
function forRegistry() {
  const { postpublish } = JSON.parse(fs.readFileSync(kept, "utf8")).scripts;
  writeWith({ postpublish });
}

function restore() {
  if (!fs.existsSync(kept)) return;
  fs.renameSync(kept, manifest);
}

const command = process.argv[2];
if (command === "strip") strip();
else if (command === "restore" && process.env.npm_lifecycle_event === "postpack" && process.env.npm_command === "publish") forRegistry();
else if (command === "restore") restore();
else {
  console.error("usage: packed-manifest.js strip|restore");
  process.exit(2);
}
