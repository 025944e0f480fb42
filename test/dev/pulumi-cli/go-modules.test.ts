/**
 * One version of each library across this checkout's Go modules: the pinned CLI's (dev/pulumi-cli),
 * the oldest CLI's, the YAML host's, the Go SDK's, the Go examples' and the SDK generator's. Go's
 * build cache keys a package by its module's version and its dependencies', so a library at another
 * version in one module compiles again, with all that imports it: on a fresh machine the oldest CLI
 * compiled 920 packages, the YAML host 383 and the Go SDK 269 beside the CLI's build, against 200,
 * 147 and 8 now. Pulumi's own modules (github.com/pulumi/...) are the exception: each build takes the
 * version it is about. Read from the go.mod files (every module a build uses is listed there, Go 1.17
 * and later), so this needs no Go.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "..", "..", "..");
const modules = ["dev/pulumi-cli", "dev/pulumi-cli/oldest", "dev/pulumi-cli/yaml-host", "sdk/go", "examples/go", "dev/codegen"];

/** The module path → version pairs a go.mod requires (single lines and blocks). */
function requirements(dir: string): Map<string, string> {
  const text = fs.readFileSync(path.join(root, dir, "go.mod"), "utf8");
  const found = new Map<string, string>();
  for (const m of text.matchAll(/^\s*(?:require\s+)?([\w.~/-]+\.[\w.~/-]+) (v\S+)/gm)) found.set(m[1], m[2]);
  return found;
}

test("every go.mod is read: each requires Pulumi's SDK", () => {
  for (const dir of modules) expect([dir, requirements(dir).has("github.com/pulumi/pulumi/sdk/v3")]).toEqual([dir, true]);
});

test("a library two of the modules require has one version in both (Pulumi's own modules aside)", () => {
  const versions = new Map<string, Map<string, string[]>>();
  for (const dir of modules) {
    for (const [mod, version] of requirements(dir)) {
      if (mod.startsWith("github.com/pulumi/")) continue;
      const byVersion = versions.get(mod) ?? new Map<string, string[]>();
      byVersion.set(version, [...(byVersion.get(version) ?? []), dir]);
      versions.set(mod, byVersion);
    }
  }
  const split = [...versions].filter(([, byVersion]) => byVersion.size > 1).map(([mod, byVersion]) => `${mod}: ${[...byVersion].map(([v, dirs]) => `${v} in ${dirs.join(", ")}`).join("; ")}`);
  expect(split).toEqual([]);
});
