/**
 * README.md as the npm page shows it: its first screen is a user's (install, a program, the
 * config, preview and up), every link works from the npm page (an absolute URL, an anchor of the
 * README, or a file the tarball ships), and it holds no dated figure or commit hash (those live in
 * bench/README.md); contributor material is in CONTRIBUTING.md.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "..", "..");
const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
const prose = readme.replace(/```[\s\S]*?```/g, "");

test("the first screen is a user's: install, a program, the config, preview and up; no contributor command", () => {
  const first = readme.split("\n").slice(0, 70).join("\n");
  for (const step of ["npm install reseller-pulumi", "new reseller.Domain(", "new reseller.DnsZone(", "new reseller.DnsRecord(", "pulumi config set reseller:apiKey", "pulumi config set --secret reseller:apiSecret", "pulumi preview", "pulumi up"])
    expect(first).toContain(step);
  expect(readme).not.toMatch(/npm run (demo|bench|chaos|test:matrix)|npm ci && npm test/);
  expect(fs.readFileSync(path.join(root, "CONTRIBUTING.md"), "utf8")).toMatch(/npm run demo[\s\S]*npm test[\s\S]*npm run bench/);
});

test("every link works from the npm page: absolute, an anchor of the README, or a shipped file", () => {
  const shipped = new Set(["README.md", "LICENSE", "CHANGELOG.md"]);
  const anchors = new Set(
    [...readme.matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1].trim().toLowerCase().replace(/[^\w\- ]/g, "").replace(/ /g, "-")),
  );
  const links = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  expect(links.length).toBeGreaterThan(5);
  const broken = links.filter((l) => !/^https:\/\//.test(l) && !(l.startsWith("#") && anchors.has(l.slice(1))) && !shipped.has(l));
  expect(broken).toEqual([]);
  // Links into the repository point at files that exist.
  const { repository } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { repository: { url: string } };
  const repo = repository.url.replace(/^git\+/, "").replace(/\.git$/, "");
  const missing = links
    .filter((l) => l.startsWith(`${repo}/blob/main/`) || l.startsWith(`${repo}/tree/main/`))
    .map((l) => l.replace(/^.*?\/(blob|tree)\/main\//, "").replace(/#.*$/, ""))
    .filter((f) => !fs.existsSync(path.join(root, f)));
  expect(missing).toEqual([]);
});

test("no dated figures or commit hashes", () => {
  expect(prose.match(/\b20\d\d-\d\d-\d\d\b/g) ?? []).toEqual([]);
  expect(prose.match(/\bcommits? [0-9a-f]{7,40}\b/g) ?? []).toEqual([]);
});
