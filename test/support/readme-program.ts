/**
 * The README's first program and its `pulumi config set` lines, as written, for the tests that run
 * them through the real CLI (test/pulumi-cli/readme-flow.test.ts) and the demo.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export interface ReadmeProgram {
  /** The program's text (`index.ts`). */
  program: string;
  /** Each `pulumi config set ...` line of the first shell block that sets the API key, without its trailing comment. */
  configLines: string[];
}

/** The first ```ts block under "## A program" and the `pulumi config set` lines of the README's first shell block that sets the API key. */
export function readmeProgram(root: string): ReadmeProgram {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## A program"));
  const program = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!program) throw new Error('README.md: no ```ts block under "## A program"');
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes("pulumi config set reseller:apiKey")) ?? "";
  const configLines = [...block.matchAll(/^pulumi config set .*$/gm)].map((m) => m[0].replace(/\s+#.*$/, "").trim());
  if (configLines.length === 0) throw new Error("README.md: no `pulumi config set` lines");
  return { program, configLines };
}

/** The README's placeholders, filled in for a sandbox. */
export function fillPlaceholders(line: string, sandbox: { url: string; credentials: { key: string; secret: string } }): string {
  return line
    .replace("<the reseller:baseUrl it printed>", sandbox.url)
    .replace("<API_KEY>", sandbox.credentials.key)
    .replace("<API_SECRET>", sandbox.credentials.secret);
}
