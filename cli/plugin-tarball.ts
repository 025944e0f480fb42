/**
 * `reseller-pulumi plugin-tarball`: the native provider plugin as a tarball for `pulumi plugin install
 * resource reseller <version> --file <tarball>`, made from this installed package. After the install
 * the CLI finds the plugin in its plugin cache, with no `plugins.providers` path in the project.
 *
 * The tarball is self-contained but for Node.js (22 or 24, on PATH):
 *   pulumi-resource-reseller           the executable the CLI starts (a sh script running node)
 *   node_modules/reseller-pulumi/      this package's package.json, schema.json and compiled code
 *   node_modules/...                   what it needs at run time: its dependencies and @pulumi/pulumi
 *                                      (its peer dependency, which brings gRPC), each from where Node
 *                                      resolves it here, laid out as npm would (hoisted, nested on a
 *                                      version clash)
 * Type declarations, source maps and Markdown are left out; nothing runs them.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { writeTarGz, type TarEntry } from "./tar";

/** The plugin's name, as the CLI looks it up. */
export const PLUGIN = "pulumi-resource-reseller";

const LAUNCHER = `#!/bin/sh
# The reseller provider plugin, installed by \`pulumi plugin install resource reseller <version> --file\`:
# this package under node_modules/, run by the Node.js on PATH (22 or 24).
here=$(dirname "$(readlink -f "$0" 2>/dev/null || echo "$0")")
exec node "$here/node_modules/reseller-pulumi/dist/resources/provider/plugin.js" "$@"
`;

interface Manifest {
  name: string;
  version: string;
  files?: string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;

/** The folder of package `name` as Node resolves it from `dir` (its node_modules, then each parent's), real path. */
function findPackage(dir: string, name: string): string | undefined {
  for (let d = dir; ; d = resolve(d, "..")) {
    const candidate = join(d, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (resolve(d, "..") === d) return undefined;
  }
}

/** What a package needs at run time: dependencies, optional ones, and peers not marked optional. Type-only @types/* are left out. */
function runtimeNeeds(m: Manifest): { name: string; optional: boolean }[] {
  const needs = new Map<string, boolean>();
  for (const name of Object.keys(m.dependencies ?? {})) needs.set(name, false);
  for (const name of Object.keys(m.peerDependencies ?? {})) if (!m.peerDependenciesMeta?.[name]?.optional) needs.set(name, m.name !== "reseller-pulumi");
  for (const name of Object.keys(m.optionalDependencies ?? {})) needs.set(name, true);
  return [...needs].filter(([name]) => !name.startsWith("@types/")).sort(([a], [b]) => a.localeCompare(b)).map(([name, optional]) => ({ name, optional }));
}

const SKIPPED = /(\.d\.[cm]?ts|\.map|\.md)$/i;

/** The regular files under `dir`, by their `/` path inside it, but for node_modules/ folders and what nothing runs. */
function filesOf(dir: string, keep: (path: string) => boolean = (p) => !SKIPPED.test(p)): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules") walk(full);
        continue;
      }
      const stat = e.isSymbolicLink() ? statSync(full, { throwIfNoEntry: false }) : undefined;
      if (!e.isFile() && !stat?.isFile()) continue;
      const path = relative(dir, full).split(sep).join("/");
      if (keep(path)) out.push(path);
    }
  };
  walk(dir);
  return out;
}

const entry = (path: string, source: string): TarEntry => ({ path, mode: statSync(source).mode & 0o111 ? 0o755 : 0o644, content: () => readFileSync(source) });

/** This package's own files the plugin runs from: package.json, schema.json and the compiled code of the folders it ships. */
function ownFiles(root: string, m: Manifest): TarEntry[] {
  const shipped = new Set((m.files ?? []).map((f) => /^dist\/([^/*]+)\//.exec(f)?.[1]).filter((f): f is string => f !== undefined));
  const entries = ["package.json", "schema.json"].map((f) => entry(`node_modules/reseller-pulumi/${f}`, join(root, f)));
  for (const path of filesOf(join(root, "dist"), (p) => p.endsWith(".js") && shipped.has(p.split("/")[0]))) {
    entries.push(entry(`node_modules/reseller-pulumi/dist/${path}`, join(root, "dist", path)));
  }
  return entries;
}

/** Each package the plugin needs, placed as npm would: at the top unless another version is there on its dependent's path. */
function dependencies(root: string, m: Manifest): TarEntry[] {
  const destOf = (chain: string[]) => chain.map((n) => `node_modules/${n}`).join("/");
  const placed = new Map<string, string>([[destOf(["reseller-pulumi"]), root]]);
  const queue: { source: string; chain: string[]; manifest: Manifest }[] = [{ source: root, chain: ["reseller-pulumi"], manifest: m }];
  const entries: TarEntry[] = [];
  for (let item = queue.shift(); item; item = queue.shift()) {
    for (const need of runtimeNeeds(item.manifest)) {
      const source = findPackage(item.source, need.name);
      if (!source) {
        if (need.optional) continue;
        throw new Error(`${need.name}, which ${item.manifest.name} needs at run time, is not installed where Node finds it from ${item.source}: install it (npm install ${need.name}) and run plugin-tarball again`);
      }
      // Where Node would find it from the dependent's place: its own node_modules, then each one above.
      let target: string[] | undefined;
      let there: string | undefined;
      for (let i = item.chain.length; i >= 0 && there === undefined; i--) {
        there = placed.get(destOf([...item.chain.slice(0, i), need.name]));
        if (there !== undefined && there !== source) target = [...item.chain, need.name];
      }
      if (there === source) continue;
      target ??= [need.name];
      placed.set(destOf(target), source);
      const manifest = manifestOf(source);
      queue.push({ source, chain: target, manifest });
      for (const path of filesOf(source)) entries.push(entry(`${destOf(target)}/${path}`, join(source, path)));
    }
  }
  return entries;
}

/**
 * Writes the plugin tarball of the package at `root` into `outDir` and returns its path and the
 * version to install it as (the package's, which is the schema's and the SDKs').
 */
export async function writePluginTarball(root: string, outDir: string): Promise<{ file: string; version: string }> {
  const m = manifestOf(root);
  if (!existsSync(join(root, "dist", "resources", "provider", "plugin.js"))) {
    throw new Error(`${join(root, "dist", "resources", "provider", "plugin.js")} is missing: in a checkout, run npm run provider-plugin first`);
  }
  const entries: TarEntry[] = [{ path: PLUGIN, mode: 0o755, content: () => Buffer.from(LAUNCHER) }, ...ownFiles(root, m), ...dependencies(root, m)];
  const file = join(outDir, `${PLUGIN}-v${m.version}.tar.gz`);
  await writeTarGz(file, entries);
  return { file, version: m.version };
}
