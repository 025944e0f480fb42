/**
 * The README's programs and their `pulumi config set` lines, and its other shell blocks, as written,
 * for the tests that run them through the real CLI (test/pulumi-cli/readme-flow.test.ts,
 * test/pulumi-cli/interrupted.test.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";

export interface ReadmeProgram {
  /** The program's text (`index.ts`). */
  program: string;
  /** Each `pulumi config set ...` line of the section's first shell block that sets the API key, without its trailing comment. */
  configLines: string[];
}

/** The text of the README's section under `heading` (a `## ` heading's text, or `### ` with level 3): up to the next heading of its level or above. */
function readmeSection(root: string, heading: string, level: 2 | 3 = 2, file = "README.md"): string {
  const readme = fs.readFileSync(path.join(root, file), "utf8");
  const marks = "#".repeat(level);
  const start = readme.indexOf(`\n${marks} ${heading}\n`);
  if (start < 0) throw new Error(`${file}: no section "${marks} ${heading}"`);
  const next = [...readme.slice(start + 1).matchAll(level === 2 ? /\n## /g : /\n#{2,3} /g)][0];
  const end = next?.index === undefined ? -1 : start + 1 + next.index;
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The lines of the first ```sh block of the README's section under `heading`, as written (their comments too), blank lines left out. */
export function readmeShellLines(root: string, heading: string): string[] {
  const block = /```sh\n([\s\S]*?)```/.exec(readmeSection(root, heading))?.[1];
  if (!block) throw new Error(`README.md: no \`\`\`sh block under "## ${heading}"`);
  return block.split("\n").filter((line) => line.trim() !== "");
}

/** The section of the README under `heading` (a `## ` heading's text, or `### ` with level 3): its first ```ts block and its config lines. */
export function readmeProgram(root: string, heading: string, level: 2 | 3 = 2, file = "README.md"): ReadmeProgram {
  const marks = "#".repeat(level);
  const section = readmeSection(root, heading, level, file);
  const program = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!program) throw new Error(`${file}: no \`\`\`ts block under "${marks} ${heading}"`);
  const block = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes("pulumi config set reseller:apiKey")) ?? "";
  const configLines = [...block.matchAll(/^pulumi config set .*$/gm)].map((m) => m[0].replace(/\s+#.*$/, "").trim());
  if (configLines.length === 0) throw new Error(`${file}: no \`pulumi config set\` lines under "${marks} ${heading}"`);
  return { program, configLines };
}

/** The README's placeholders, filled in for a sandbox and the domain to use. */
export function fillPlaceholders(line: string, sandbox: { url: string; credentials: { key: string; secret: string } }, domain: string): string {
  return line
    .replace("<the reseller:baseUrl it printed>", sandbox.url)
    .replace("https://<your service's host>", sandbox.url)
    .replace("<your domain>", domain)
    .replace("<API_KEY>", sandbox.credentials.key)
    .replace("<API_SECRET>", sandbox.credentials.secret);
}

/**
 * What a README config line reads on standard input: the API secret, for the line that sets it with
 * no value on the command line (`pulumi config set --secret reseller:apiSecret` reads a pipe, as the
 * README says); nothing for the others.
 */
export function configInput(line: string, sandbox: { credentials: { secret: string } }): string {
  return /config set --secret reseller:apiSecret\s*$/.test(line) ? sandbox.credentials.secret : "";
}
