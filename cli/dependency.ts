/**
 * The `reseller-pulumi` entry of a generated package.json: written as given, so it must be a spec
 * that `npm install` in the generated directory installs. Default: this package's own version.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";

/** The default spec: the running package's own version, as npm writes it (`^0.3.0`). */
export function ownVersionSpec(): string {
  // By package name, so it resolves the same from the sources, from dist/ and from a user's node_modules.
  const { version } = require("reseller-pulumi/package.json") as { version: string };
  return `^${version}`;
}

/** A registry version or range (`0.2.0`, `^0.2`, `>=0.2 <1`, `latest`): npm's range and tag characters. */
const REGISTRY_RANGE = /^[\w.^~<>=|*+\- ]+$/;
/** Specs npm takes from elsewhere than the registry. */
const REMOTE = /^(git\+(https|ssh|file):\/\/|git:\/\/|github:|gitlab:|bitbucket:|https:\/\/)\S+$/;

/**
 * The spec to write for `--dependency` (undefined: the own version), refused with the flag, the
 * value and the rule when npm could not install it from `outDir`; a `file:` path is relative to
 * `outDir`, as npm reads it there.
 */
export function dependencySpec(given: string | undefined, outDir: string): string {
  if (given === undefined) return ownVersionSpec();
  const spec = given.trim();
  if (spec.startsWith("file:")) {
    const target = spec.slice("file:".length);
    if (!target || !existsSync(resolve(outDir, target)))
      throw new Error(`--dependency: "${given}" names nothing that exists: a file: path is read from the generated directory (--out), as npm reads it there, and must be a checkout of reseller-pulumi or its packed .tgz`);
    return spec;
  }
  if (REMOTE.test(spec) || (REGISTRY_RANGE.test(spec) && /[\d*x]|^[a-z][\w.-]*$/i.test(spec))) return spec;
  throw new Error(`--dependency: "${given}" is not a spec npm installs: give a version or range (0.2.0, ^0.2.0), file:PATH (relative to --out), a git URL (git+https://..., github:owner/repo#ref) or a tarball URL`);
}
