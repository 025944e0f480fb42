/**
 * Links in markdown as a reader of the package meets them: the files npm ships (`npm pack
 * --dry-run`, the "files" field applied by npm itself), the links in their prose, and which of
 * those point at nothing the package holds. Used by the README test (the working tree) and the pack
 * test (the unpacked tarball).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** The repository address the package once named, which does not exist. */
export const NONEXISTENT_REPOSITORY = /github\.com\/reseller-pulumi\b/i;

/** The paths npm would pack from `dir`, as npm lists them, without running any script. */
export function packedFiles(dir: string): string[] {
  const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: dir, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`npm pack --dry-run exited ${r.status}: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { files: { path: string }[] }[])[0].files.map((f) => f.path);
}

/** Text outside fenced code blocks and inline code, where a link can be. */
export function prose(markdown: string): string {
  return markdown.replace(/^[ \t]*(```|~~~)[\s\S]*?^[ \t]*\1/gm, "").replace(/`[^`\n]*`/g, "");
}

/** Link targets: inline `[text](target)` and reference definitions `[label]: target`. */
export function markdownLinks(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const defined = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]);
  return [...inline, ...defined];
}

/** The anchors GitHub and npm give a file's headings (lower case, punctuation dropped, spaces to hyphens). */
export function headingAnchors(markdown: string): Set<string> {
  const headings = [...prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map((m) => m[1]);
  return new Set(headings.map((h) => h.toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, "").replace(/ /g, "-")));
}

/**
 * Every link of every shipped markdown file under `root` that does not resolve: a relative link must
 * name a shipped file (and, into markdown, one of its headings); an anchor, a heading of its file.
 * Absolute URLs pass here, except those to the repository that does not exist.
 */
export function brokenLinks(root: string, shipped: string[]): string[] {
  const files = new Set(shipped);
  const broken: string[] = [];
  const anchorsOf = (file: string): Set<string> => headingAnchors(fs.readFileSync(path.join(root, file), "utf8"));
  for (const file of shipped.filter((f) => f.endsWith(".md"))) {
    for (const link of markdownLinks(fs.readFileSync(path.join(root, file), "utf8"))) {
      if (NONEXISTENT_REPOSITORY.test(link)) broken.push(`${file}: ${link} (a repository that does not exist)`);
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
      const [target, anchor] = link.split("#", 2);
      const resolved = target === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
      if (!files.has(resolved)) broken.push(`${file}: ${link} (${resolved} is not shipped)`);
      else if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor)) broken.push(`${file}: ${link} (no heading #${anchor} in ${resolved})`);
    }
  }
  return broken;
}
