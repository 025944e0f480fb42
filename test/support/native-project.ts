/** Projects on the native provider plugin, for the tests that run it through the real CLI. */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { checkoutRoot, makeProject } from "../../dev/pulumi-cli";

/** The generated SDK, compiled against its dependencies linked from the checkout's node_modules (npm run sdk -- --build; no registry). */
export function buildSdk(): void {
  execFileSync(process.execPath, [path.join(checkoutRoot, "dev", "codegen", "sdk.js"), "--build"], { stdio: "pipe" });
}

/**
 * A project (makeProject) whose Pulumi.yaml finds this checkout's plugin through `plugins.providers`
 * (with `pluginCache`, names no plugin: the CLI finds it in its plugin cache). With `sdk`, its
 * node_modules are the SDK's dependencies (the @pulumi/pulumi it needs) and the SDK as
 * `@reseller-pulumi/native`, laid out as `npm install` of it would, `extra` (name -> folder) linked
 * too; without, the checkout's node_modules.
 */
export function nativeProject(name: string, files: Record<string, string>, opts: { sdk?: boolean; extra?: Record<string, string>; pluginCache?: boolean } = {}): string {
  const dir = makeProject(name, files);
  if (!opts.pluginCache) fs.appendFileSync(path.join(dir, "Pulumi.yaml"), `plugins:\n  providers:\n    - name: reseller\n      path: ${path.join(checkoutRoot, "plugin")}\n`);
  if (!opts.sdk) return dir;
  const modules = path.join(dir, "node_modules");
  fs.rmSync(modules);
  fs.mkdirSync(path.join(modules, "@reseller-pulumi"), { recursive: true });
  const links = new Map<string, string>(Object.entries(opts.extra ?? {}));
  const deps = path.join(checkoutRoot, "sdk", "nodejs", "node_modules");
  for (const e of fs.readdirSync(deps)) links.set(e, path.join(deps, e));
  for (const [e, target] of links) if (e !== ".bin" && e !== "@reseller-pulumi") fs.symlinkSync(target, path.join(modules, e), "dir");
  fs.symlinkSync(path.join(checkoutRoot, "sdk", "nodejs", "bin"), path.join(modules, "@reseller-pulumi", "native"), "dir");
  return dir;
}
