/**
 * The SDKs under sdk/ (nodejs, go, python) are what Pulumi's code generators make of schema.json
 * (dev/codegen, `npm run sdk`): regenerating changes no committed file, and the check names each
 * file that differs (changed, missing or extra); regenerating removes a stale file and leaves what
 * git ignores (the Node.js SDK's build: node_modules/, bin/) alone. Every doc of a field and the
 * summary of every resource and function in each SDK is the schema's. The Python SDK compiles
 * (`python3 -m compileall`). The Go SDK's go.mod and go.sum are generated too (tidied), and it builds
 * inside sdk/go with no module resolved afresh.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PULUMI_TEMPLATE_TSCONFIG } from "../../../cli/codegen";
import { GO_BUILD_ENV, builtCli, goBuildFlags } from "../../../dev/pulumi-cli";
import { buildSdk } from "../../support/native-project";

const root = path.resolve(__dirname, "..", "..", "..");
const sdk = path.join(root, "sdk");
jest.setTimeout(600_000);

/**
 * Go's modules from its cache only: npm test's first step (dev/pulumi-cli/for-tests.js) fetched them;
 * every build as the CLI's (goBuildFlags, GO_BUILD_ENV), so Pulumi's packages come from its build.
 */
const offline = { ...process.env, ...GO_BUILD_ENV, GOPROXY: "off" };

// On a fresh machine npm test builds the CLI beside the tests: its Pulumi packages in Go's cache first,
// or this suite compiles them a second time beside that build.
beforeAll(() => builtCli());

/** `go -C dev/codegen run . <args>`: the Pulumi packages it needs are the CLI's, compiled by its build. */
function codegen(...args: string[]) {
  const r = spawnSync("go", ["-C", path.join(root, "dev", "codegen"), "run", ...goBuildFlags(), ".", ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env: { ...offline, GOFLAGS: "-mod=readonly" } });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A copy of sdk/ without the Node.js SDK's build (node_modules/, bin/: git-ignored, left by `npm run sdk -- --build`). */
function copyOfSdk(prefix: string): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const build = new Set(["node_modules", "bin"].map((d) => path.join(sdk, "nodejs", d)));
  fs.cpSync(sdk, copy, { recursive: true, filter: (src) => !build.has(src) });
  return copy;
}

test("regenerating the SDKs from schema.json changes no committed file (npm run sdk -- --check)", () => {
  const r = spawnSync(process.execPath, [path.join(root, "dev", "codegen", "sdk.js"), "--check"], { cwd: root, encoding: "utf8", env: offline });
  expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(r.stdout.trim()).toMatch(/^codegen: \d+ files in 3 SDKs are what schema\.json generates$/);
});

test("the check names a changed, a missing and an extra file, and fails", () => {
  const copy = copyOfSdk("sdk-copy-");
  try {
    fs.appendFileSync(path.join(copy, "go", "reseller", "dnsZone.go"), "// edited by hand\n");
    fs.rmSync(path.join(copy, "python", "pulumi_reseller", "domain.py"));
    fs.writeFileSync(path.join(copy, "nodejs", "handWritten.ts"), "export const x = 1;\n");
    // go.sum is generated too (go mod tidy of the generated module): a checksum edited by hand is a difference.
    const sum = path.join(copy, "go", "go.sum");
    fs.writeFileSync(sum, fs.readFileSync(sum, "utf8").replace(/^(github\.com\/pulumi\/pulumi\/sdk\/v3 \S+ h1:)\S+$/m, "$1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="));
    expect(fs.readFileSync(sum, "utf8")).not.toBe(fs.readFileSync(path.join(sdk, "go", "go.sum"), "utf8"));
    const r = codegen("-check", "-out", copy);
    expect(r.code).toBe(1);
    const base = path.basename(copy);
    // One line per file, indented (`go run` adds its own "exit status 1").
    expect(r.stderr.split("\n").filter((l) => l.startsWith("  ")).map((l) => l.trim())).toEqual([
      `changed: ${base}/go/go.sum`,
      `changed: ${base}/go/reseller/dnsZone.go`,
      `extra: ${base}/nodejs/handWritten.ts`,
      `missing: ${base}/python/pulumi_reseller/domain.py`,
    ]);
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
});

test("regenerating in a work tree removes a stale file, keeps what git ignores (the Node.js SDK's node_modules/ and bin/), and leaves the check clean", () => {
  const copy = copyOfSdk("sdk-tree-");
  try {
    const git = (...args: string[]) => spawnSync("git", ["-C", copy, ...args], { encoding: "utf8" });
    git("init", "-q");
    const kept = [path.join(copy, "nodejs", "node_modules", "@pulumi", "pulumi", "index.js"), path.join(copy, "nodejs", "bin", "index.js")];
    for (const f of kept) {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, "// built\n");
    }
    fs.writeFileSync(path.join(copy, "go", "reseller", "stale.go"), "package reseller\n");
    fs.appendFileSync(path.join(copy, "python", "pulumi_reseller", "domain.py"), "# edited by hand\n");
    expect(codegen("-check", "-out", copy).code).toBe(1);
    const regenerated = codegen("-out", copy);
    expect({ code: regenerated.code, stderr: regenerated.stderr }).toEqual({ code: 0, stderr: "" });
    expect(fs.existsSync(path.join(copy, "go", "reseller", "stale.go"))).toBe(false);
    expect(fs.readFileSync(path.join(copy, "python", "pulumi_reseller", "domain.py"), "utf8")).toBe(fs.readFileSync(path.join(sdk, "python", "pulumi_reseller", "domain.py"), "utf8"));
    for (const f of kept) expect(fs.readFileSync(f, "utf8")).toBe("// built\n");
    expect(codegen("-check", "-out", copy).code).toBe(0);
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
});

interface Documented { description?: string }
interface Schema {
  config: { variables: Record<string, Documented> };
  resources: Record<string, Documented & { inputProperties?: Record<string, Documented>; properties?: Record<string, Documented> }>;
  functions: Record<string, Documented & { inputs?: { properties?: Record<string, Documented> }; outputs?: { properties?: Record<string, Documented> } }>;
  types: Record<string, Documented & { properties?: Record<string, Documented> }>;
}

/** Text with each line's comment markers (`//`, ` * `, `#`, docstring quotes, `:param ... name:`) and layout taken out. */
function prose(text: string): string {
  return text
    .split("\n")
    .map((line) => line.trim().replace(/^(\/\/\/?|\/\*\*|\*\/|\*|#|"""|:param \S+(?: \S+)? \w+:)\s?/, ""))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The files under `dir` ending in `ext`, but for a build's node_modules/ and bin/. */
function filesUnder(dir: string, ext: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(ext) && !/^(node_modules|bin)[\\/]/.test(f))
    .map((f) => path.join(dir, f));
}

test("each SDK's docs are the schema's: every field's doc and every resource's and function's summary", () => {
  const schema = JSON.parse(fs.readFileSync(path.join(root, "schema.json"), "utf8")) as Schema;
  const docs: [string, string][] = [];
  const fields = (where: string, props?: Record<string, Documented>) => {
    for (const [name, p] of Object.entries(props ?? {})) if (p.description) docs.push([`${where}.${name}`, p.description]);
  };
  // The summary: the description up to its examples (the generators keep a language's own examples only).
  const summary = (where: string, d?: string) => d && docs.push([where, d.split(/\n## |\n*\{\{% examples %\}\}/)[0]]);
  fields("config", schema.config.variables);
  for (const [token, r] of Object.entries(schema.resources)) {
    summary(token, r.description);
    fields(token, r.inputProperties);
    fields(token, r.properties);
  }
  for (const [token, f] of Object.entries(schema.functions)) {
    summary(token, f.description);
    fields(token, f.inputs?.properties);
    fields(token, f.outputs?.properties);
  }
  for (const [token, t] of Object.entries(schema.types)) fields(token, t.properties);
  expect(docs.length).toBeGreaterThan(100);

  for (const [language, ext] of [["go", ".go"], ["nodejs", ".ts"], ["python", ".py"]] as const) {
    const text = prose(filesUnder(path.join(sdk, language), ext).map((f) => fs.readFileSync(f, "utf8")).join("\n"));
    const absent = docs.filter(([, d]) => !text.includes(prose(d))).map(([where]) => where);
    expect({ language, absent }).toEqual({ language, absent: [] });
  }
});

test("each SDK shows the examples of its own language only: TypeScript ones on @reseller-pulumi/native, and no empty Example Usage in Go or Python", () => {
  const schema = JSON.parse(fs.readFileSync(path.join(root, "schema.json"), "utf8")) as Schema;
  const withExamples = Object.entries(schema.resources).filter(([, r]) => r.description?.includes("```typescript")).map(([token]) => token.split(":").pop()!);
  expect(withExamples.length).toBeGreaterThan(0);
  const heading = (language: string, ext: string) => filesUnder(path.join(sdk, language), ext).filter((f) => fs.readFileSync(f, "utf8").includes("Example Usage")).map((f) => path.basename(f, ext));
  expect(heading("go", ".go")).toEqual([]);
  expect(heading("python", ".py")).toEqual([]);
  const ts = heading("nodejs", ".ts");
  expect(ts.map((f) => f.toLowerCase()).sort()).toEqual(withExamples.map((k) => k.toLowerCase()).sort());
  for (const f of ts) expect(fs.readFileSync(path.join(sdk, "nodejs", `${f}.ts`), "utf8")).not.toContain('from "reseller-pulumi"');
});

test("every TypeScript example in schema.json type-checks against the generated Node.js SDK (npm run sdk -- --build) with Pulumi's template tsconfig", () => {
  buildSdk();
  const schema = JSON.parse(fs.readFileSync(path.join(root, "schema.json"), "utf8")) as Schema;
  const examples = [...Object.entries(schema.resources), ...Object.entries(schema.functions)].flatMap(([token, r]) =>
    [...(r.description ?? "").matchAll(/```typescript\n([\s\S]*?)```/g)].map((m, i) => [`${token.split(":").pop()}${i}.ts`, m[1]] as const),
  );
  expect(examples.length).toBeGreaterThan(0);
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "sdk-examples-"));
  try {
    // node_modules as an install of the SDK lays it out: the SDK and its dependencies.
    const modules = path.join(project, "node_modules");
    fs.mkdirSync(path.join(modules, "@reseller-pulumi"), { recursive: true });
    for (const e of fs.readdirSync(path.join(sdk, "nodejs", "node_modules"))) fs.symlinkSync(path.join(sdk, "nodejs", "node_modules", e), path.join(modules, e), "dir");
    fs.symlinkSync(path.join(sdk, "nodejs", "bin"), path.join(modules, "@reseller-pulumi", "native"), "dir");
    for (const [file, text] of examples) fs.writeFileSync(path.join(project, file), text);
    fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify({ ...PULUMI_TEMPLATE_TSCONFIG, compilerOptions: { ...PULUMI_TEMPLATE_TSCONFIG.compilerOptions, noEmit: true }, files: examples.map(([file]) => file) }));
    const r = spawnSync(process.execPath, [path.join(modules, "typescript", "bin", "tsc"), "-p", project, "--pretty", "false"], { cwd: project, encoding: "utf8" });
    expect({ code: r.status, errors: r.stdout.trim() }).toEqual({ code: 0, errors: "" });
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
});

test("the Go SDK builds inside sdk/go from its own go.mod and go.sum, resolving no module (-mod=readonly, GOPROXY=off)", () => {
  // go.mod and go.sum are generated (go mod tidy of the generated module), so a Go user resolves nothing afresh.
  const r = spawnSync("go", ["build", ...goBuildFlags(), "./..."], { cwd: path.join(sdk, "go"), encoding: "utf8", env: { ...offline, GOFLAGS: "-mod=readonly", GOWORK: "off" } });
  expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
});

test("the Python SDK compiles with python3 -m compileall", () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "pycache-"));
  try {
    // The bytecode goes to a folder of its own, not into sdk/python.
    const r = spawnSync("python3", ["-m", "compileall", "-q", path.join(sdk, "python")], { encoding: "utf8", env: { ...process.env, PYTHONPYCACHEPREFIX: cache } });
    expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout: "", stderr: "" });
    const compiled = filesUnder(cache, ".pyc");
    expect(compiled.length).toBe(filesUnder(path.join(sdk, "python"), ".py").length);
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
});
