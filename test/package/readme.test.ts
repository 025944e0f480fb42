/**
 * README.md as the npm page and `node_modules` show it: its first screens are a user's (what it is,
 * install, a program that only manages DNS for a domain the account holds, then the one that buys
 * a domain), the maintainer's tables of assumptions live in docs/reference.md, which ships, the
 * checkout's two commands are there, and every link of every shipped markdown file resolves to a
 * file the package ships: no link points at the repository address that does not exist.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { NONEXISTENT_REPOSITORY, brokenLinks, markdownLinks, packedFiles, prose } from "../support/markdown-links";

const root = path.resolve(__dirname, "..", "..");
const read = (file: string): string => fs.readFileSync(path.join(root, file), "utf8");
const readme = read("README.md");
/** The README's TypeScript programs, in order. */
const programs = [...readme.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1]);

let shipped: string[];
beforeAll(() => {
  shipped = packedFiles(root);
});

test("the first screens are a user's: what it is, install, a DNS-only program for a domain already held, then the one that buys", () => {
  const lineOf = (text: string): number => readme.slice(0, readme.indexOf(text)).split("\n").length;
  for (const text of ["npm install reseller-pulumi", "new reseller.DnsZone(", "new reseller.Domain(", "pulumi config set reseller:apiKey", "pulumi preview", "pulumi up"]) {
    expect(readme).toContain(text);
    expect(lineOf(text)).toBeLessThan(120);
  }
  expect(readme.split("\n").slice(1, 6).join(" ")).toMatch(/Pulumi resources for the reseller domain service/);
  expect(lineOf("npm install reseller-pulumi")).toBeLessThan(lineOf("new reseller.DnsZone("));
  // The first program manages DNS only and buys nothing; the second is the one that buys.
  expect(programs[0]).toMatch(/new reseller\.DnsZone\(/);
  expect(programs[0]).toMatch(/new reseller\.DnsRecord\(/);
  expect(programs[0]).not.toMatch(/new reseller\.(Domain|PrivacyAddon|Protection)\(/);
  expect(programs[1]).toMatch(/new reseller\.Domain\(/);
});

test("the maintainer's tables of assumptions are in docs/reference.md, which ships, not in the README", () => {
  for (const heading of ["## Where the service's description is silent", "| open point | our assumption |", "## Rate limits"]) {
    expect(readme).not.toContain(heading);
    expect(read("docs/reference.md")).toContain(heading);
  }
  expect(shipped).toContain("docs/reference.md");
  expect(readme.split("\n").length).toBeLessThan(560);
});

test("the CLI guide, the sandbox notes and the examples ship", () => {
  for (const file of ["cli/README.md", "sandbox/README.md", "sandbox/choices.md", "resources/README.md", "examples/main/README.md", "examples/main/index.ts", "examples/imported-zone/index.ts", "examples/ci/README.md", "examples/ci/pulumi.yml"])
    expect(shipped).toContain(file);
});

test("the README says the service has no auto-renew and what to do instead", () => {
  expect(readme).toMatch(/^## Renewal: the service has no auto-renew$/m);
  expect(readme).toContain("pulumi up --refresh");
  expect(readme).toContain("reseller-pulumi expiring --days");
});

test("the checkout's two commands: one runs the demo, the other the tests", () => {
  const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  expect(blocks.some((b) => /^npm ci && npm run demo\b/m.test(b) && /^npm test\b/m.test(b))).toBe(true);
  expect(JSON.parse(read("package.json")).scripts).toMatchObject({ demo: expect.any(String), test: expect.any(String) });
});

test("every relative link of every shipped markdown file resolves to a shipped file (and heading)", () => {
  const markdown = shipped.filter((f) => f.endsWith(".md"));
  expect(markdown).toEqual(expect.arrayContaining(["README.md", "docs/reference.md", "cli/README.md", "examples/ci/README.md"]));
  expect(markdownLinks(readme).filter((l) => !/^https?:/.test(l)).length).toBeGreaterThan(10);
  expect(brokenLinks(root, shipped)).toEqual([]);
});

test("the link check finds what is broken: a file not shipped, a missing heading, the repository that does not exist", () => {
  const dir = fs.mkdtempSync(path.join(require("node:os").tmpdir(), "reseller-links-"));
  try {
    fs.mkdirSync(path.join(dir, "docs"));
    fs.writeFileSync(path.join(dir, "README.md"), "# Top\n\n## A section\n\n[ok](docs/guide.md#usage) [self](#a-section) [up](#top)\n[gone](api/contract.ts) [bad anchor](docs/guide.md#nowhere)\n[old](https://github.com/reseller-pulumi/reseller-pulumi/blob/main/x.md)\n\n```md\n[in code](not/checked.md)\n```\n");
    fs.writeFileSync(path.join(dir, "docs", "guide.md"), "## Usage\n\n[back](../README.md#a-section)\n");
    expect(brokenLinks(dir, ["README.md", "docs/guide.md"])).toEqual([
      "README.md: api/contract.ts (api/contract.ts is not shipped)",
      "README.md: docs/guide.md#nowhere (no heading #nowhere in docs/guide.md)",
      "README.md: https://github.com/reseller-pulumi/reseller-pulumi/blob/main/x.md (a repository that does not exist)",
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("nothing shipped points at the repository address that does not exist, package.json included", () => {
  const text = shipped.filter((f) => !f.startsWith("dist/")).filter((f) => NONEXISTENT_REPOSITORY.test(read(f)));
  expect(text).toEqual([]);
  // The compiled files carry their sources' doc comments: those sources name it nowhere either.
  const sources = (dir: string): string[] =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && e.name.endsWith(".ts")).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
  expect(["api", "dns", "resources", "sandbox", "cli"].flatMap(sources).filter((f) => NONEXISTENT_REPOSITORY.test(read(f)))).toEqual([]);
  const pkg = JSON.parse(read("package.json")) as Record<string, unknown>;
  expect(["homepage", "bugs", "repository"].filter((k) => NONEXISTENT_REPOSITORY.test(JSON.stringify(pkg[k] ?? "")))).toEqual([]);
});

test("no dated figures or commit hashes", () => {
  const text = prose(readme);
  expect(text.match(/\b20\d\d-\d\d-\d\d\b/g) ?? []).toEqual([]);
  expect(text.match(/\bcommits? [0-9a-f]{7,40}\b/g) ?? []).toEqual([]);
});
