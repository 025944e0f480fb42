/**
 * The API secret never on a command line, where shell history, `ps` and CI logs keep it: every
 * document and example of the repository (git's files, ignored ones aside), and what
 * `reseller-pulumi import` prints and writes as next steps (run against the sandbox), set
 * `reseller:apiSecret` with no value after the key (`pulumi config set --secret` then asks for it
 * without echo, or reads it from a pipe: pulumi/pulumi pkg/cmd/pulumi/config/config.go) and never
 * assign RESELLER_API_SECRET a value in a command (`read -rs` asks for it).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../cli/main";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { banner } from "../../sandbox/cli";

const ROOT = path.resolve(__dirname, "../..");

/** Each place in `text` that puts the secret on a command line: `config set` of an apiSecret key with a value after it, or RESELLER_API_SECRET= with one. */
export function secretsOnCommandLines(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split("\n")) {
    // The command ends at a comment, a pipe, a closing backtick or a line continuation.
    for (const m of line.matchAll(/config set\b[^|#`\n]*?\b[\w-]+:apiSecret\b([^|#`\n\\]*)/g)) if (m[1].trim() !== "") found.push(line.trim());
    if (/\bRESELLER_API_SECRET=(?!\s|$|")/.test(line) || /\bRESELLER_API_SECRET="[^"$]/.test(line)) found.push(line.trim());
  }
  return found;
}

test("the rule itself: a value after the key, or assigned to the variable, is found; a prompt, a pipe and a read are not", () => {
  expect(
    secretsOnCommandLines(
      [
        "pulumi config set --secret reseller:apiSecret <API_SECRET>",
        "`pulumi config set --secret reseller-eu:apiSecret s3cret` (and more)",
        "export RESELLER_API_SECRET=abc",
        "pulumi config set --secret reseller:apiSecret   # asks for it",
        "printf '%s' \"$RESELLER_API_SECRET\" | pulumi config set --secret reseller:apiSecret",
        "read -rs RESELLER_API_SECRET && export RESELLER_API_SECRET",
      ].join("\n"),
    ),
  ).toEqual(["pulumi config set --secret reseller:apiSecret <API_SECRET>", "`pulumi config set --secret reseller-eu:apiSecret s3cret` (and more)", "export RESELLER_API_SECRET=abc"]);
});

test("no document or example of the repository puts the API secret on a command line", () => {
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter((f) => f && fs.existsSync(path.join(ROOT, f)))
    // Documents, examples, and the doc comments of the package's sources (what TypeDoc publishes).
    .filter((f) => /\.(md|ya?ml)$/.test(f) || f.startsWith("examples/") || (f.startsWith("resources/") && f.endsWith(".ts")));
  expect(files.length).toBeGreaterThan(20);
  const found = files.flatMap((f) => secretsOnCommandLines(fs.readFileSync(path.join(ROOT, f), "utf8")).map((l) => `${f}: ${l}`));
  expect(found).toEqual([]);
});

describe("what reseller-pulumi import prints and writes as next steps", () => {
  let sandbox: SandboxHandle;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, requestsPerMinute: 6000 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "hostile-secret-steps-"));
  });
  afterAll(async () => {
    await sandbox?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test.each([
    ["--zone", ["--zone", "demo-reseller.com"]],
    ["--import-file", ["--zone", "demo-reseller.com", "--import-file"]],
    ["--domain with --contacts config", ["--domain", "demo-reseller.com", "--contacts", "config"]],
  ])("%s: the steps set the secret with no value on the line", async (_name, args) => {
    const out: string[] = [];
    const err: string[] = [];
    const outDir = `out-${args.join("").replace(/\W/g, "")}`;
    const code = await main(["import", ...args, "--out", outDir, "--requests-per-minute", "6000"], {
      env: { RESELLER_BASE_URL: sandbox.url, RESELLER_API_KEY: sandbox.credentials.key, RESELLER_API_SECRET: sandbox.credentials.secret },
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      cwd: dir,
    });
    expect({ code, err }).toEqual({ code: 0, err: [] });
    const printed = out.join("\n");
    const readme = fs.readFileSync(path.join(dir, outDir, "README.md"), "utf8");
    // The step is there (a test that finds nothing to check proves nothing), without a value.
    expect([printed, readme].map((t) => t.includes("pulumi config set --secret reseller:apiSecret"))).toEqual([true, true]);
    expect([...secretsOnCommandLines(printed), ...secretsOnCommandLines(readme)]).toEqual([]);
    expect(printed).not.toContain(sandbox.credentials.secret);
  });
});

test("what `reseller-pulumi sandbox` prints: its own secret as a value to copy, never on its `config set` line", async () => {
  const sb = await startSandbox({ port: 0, credentials: [{ key: "banner-key", secret: "banner-throwaway-secret" }] });
  try {
    const printed = banner(sb, {});
    // The step is there, with no value after the key; the secret is shown once, on its own line.
    expect(printed).toContain("pulumi config set --secret reseller:apiSecret");
    expect(secretsOnCommandLines(printed)).toEqual([]);
    expect(printed.split("\n").filter((l) => l.includes("banner-throwaway-secret"))).toEqual(["reseller:apiSecret: banner-throwaway-secret"]);
  } finally {
    await sb.close();
  }
});
