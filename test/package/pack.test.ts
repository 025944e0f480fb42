/**
 * The package as a Pulumi user gets it, step for step what the README's install and quick start say:
 * packed from a copy of the sources without dist/ (as a fresh clone or a git install is), installed
 * into a new project outside the repository next to that project's own @pulumi/pulumi (from the npm
 * registry), type-checked with the tsconfig of Pulumi's TypeScript template under TypeScript 5.9 and
 * the current TypeScript (no skipLibCheck), then previewed, run with `up` and removed with `destroy`
 * by dev/engine/ (the stand-in for the CLI) with that project's own SDK: its `cmd/run` runs the program,
 * its dynamic provider host loads the installed package, against the sandbox started from the
 * installed package (`npx reseller-pulumi sandbox --port 0`). On the way, what npm ships and would
 * publish: no scripts in the packed manifest, no source-map comments, the guides and examples the
 * README links to (every link of every shipped markdown file resolving inside the unpacked
 * tarball), `npm publish --dry-run` clean.
 *
 * Installs with `--offline`, from npm's cache alone: npm test's first step (dev/pulumi-cli/for-tests.js)
 * puts what these installs need there (user-installs.json). Figures (sizes, seconds) are printed, never asserted.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import { Engine } from "../../dev/engine/engine";
import { hostScriptPath } from "../../dev/engine/host";
import { runnerPath } from "../../dev/engine/program";
import { PULUMI_TEMPLATE_TSCONFIG } from "../../cli/codegen";
import { signedGet } from "../sandbox/signed-get";
import { brokenLinks } from "../support/markdown-links";

const root = path.resolve(__dirname, "..", "..");


/** The README's quick-start program. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as reseller from "reseller-pulumi";

const cfg = new pulumi.Config();
const name = cfg.require("domain");

const domain = new reseller.Domain("shop", {
  domain: name,
  contacts: { registrant: cfg.requireSecretObject<reseller.ContactArgs>("registrant") },
  nameservers: cfg.requireObject<string[]>("nameservers"), // the service's DNS nameservers
  maxPrice: "25.00", // never buys above this quote
  renewal: { minDaysRemaining: 30, years: 1 }, // expiry-aware, never pays twice
});
const zone = new reseller.DnsZone("shop-zone", { domain: domain.domain, waitForDelegation: true });
const www = new reseller.DnsRecord("www", { zone: zone.domain, type: "CNAME", name: "www", content: \`\${name}.\` });

export const stage = domain.stage;
export const nameservers = zone.nameservers;
export const wwwFqdn = www.fqdn;
export const renewPrice = reseller.getPricingOutput({ action: "renew", domain: domain.domain }).amount;
export const balance = reseller.getBalanceOutput().balance;
`;

const REGISTRANT = {
  name: "Pat Packer",
  email: "pat@packed-shop.example",
  phone: "+441234567890",
  addressLine1: "1 Example Street",
  city: "London",
  postalCode: "EC1A 1AA",
  country: "GB",
};

/** A new project's dependencies, and the current TypeScript's spec: what for-tests.js puts in npm's cache. */
const USER_INSTALLS = JSON.parse(fs.readFileSync(path.join(__dirname, "user-installs.json"), "utf8")) as {
  project: { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  currentTypeScript: string;
};

/** The user's SDK: what `pulumi new typescript` asks for, or another version (`npm run test:matrix` tries the lowest, after installing it). */
const USER_SDK = process.env.RESELLER_PACK_SDK ?? USER_INSTALLS.project.dependencies["@pulumi/pulumi"];

/** The sandbox's DNS nameservers, which the README's step sets as `nameservers`. */
const SANDBOX_NAMESERVERS = ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"];

const npmEnv = { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = npmEnv): string {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} (in ${path.basename(cwd)}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The files git would give a fresh clone (tracked, plus new files not ignored), as they are now. */
function copySources(to: string): void {
  const files = run("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], root).split("\0").filter(Boolean);
  for (const f of files) {
    const from = path.join(root, f);
    if (!fs.existsSync(from)) continue; // deleted in the working tree
    fs.mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    fs.copyFileSync(from, path.join(to, f));
  }
}

const timings: Record<string, number> = {};
async function timed<T>(label: string, fn: () => T | Promise<T>): Promise<T> {
  const t = Date.now();
  try {
    return await fn();
  } finally {
    timings[label] = Math.round((Date.now() - t) / 100) / 10;
  }
}

let work: string;
let sandbox: ChildProcess | undefined;
/** Settles once the sandbox's process has ended and its pipes are closed. */
let sandboxClosed: Promise<void> | undefined;
/** What the engine printed, Pulumi-like, shown at the end. */
const engineLog: string[] = [];

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "reseller-pack-"));
});

afterAll(async () => {
  if (sandbox) await stopGroup(sandbox, sandboxClosed!);
  fs.rmSync(work, { recursive: true, force: true });
  console.log(`pack test figures (s): ${JSON.stringify(timings)}\n${engineLog.join("\n")}`);
});

/**
 * Stops a process started `detached` (its own group) and everything in its group: SIGTERM, then
 * SIGKILL if it has not ended within 10 s. Waits for its end and its pipes' close, so the file leaves
 * nothing open in the worker (a process and its two pipes outlived the file before).
 */
async function stopGroup(child: ChildProcess, closed: Promise<void>): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s);
    } catch {
      // the group is gone
    }
  };
  signal("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), 10_000)));
  if ((await Promise.race([closed, late])) === "late") {
    signal("SIGKILL");
    await closed;
  }
  clearTimeout(timer);
}

/** Starts `npx reseller-pulumi sandbox` in the project and reads what it says to configure. */
function startInstalledSandbox(cwd: string): Promise<{ baseUrl: string; apiKey: string; apiSecret: string }> {
  // Its own process group: npx runs the command as a child, and both must stop at the end.
  sandbox = spawn("npx", ["reseller-pulumi", "sandbox", "--port", "0", "--delay", "0"], { cwd, env: npmEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const child = sandbox;
  sandboxClosed = new Promise((resolve) => child.once("close", () => resolve()));
  let banner = "";
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the sandbox exited (${code}) before it was ready: ${stderr}`)));
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      banner += line + "\n";
      if (!line.startsWith("Ctrl-C")) return;
      const value = (name: string): string => new RegExp(`^reseller:${name}:\\s+(\\S+)$`, "m").exec(banner)![1];
      resolve({ baseUrl: value("baseUrl"), apiKey: value("apiKey"), apiSecret: value("apiSecret") });
    });
  });
}

/**
 * `npm publish --dry-run` in `src` (built, as `npm ci` leaves a clone): no warning but the one for a
 * machine logged in to no registry, and the manifest npm would send has no install-time script.
 * npm runs the scripts of the manifest it re-read after packing (what it sends): its postpublish
 * sees that manifest on disk, and keeps a copy before restoring the sources' own.
 * Its prepack runs as written, strip and all, but `build:package` only checks that dist/ is there and
 * says it ran: the same prepack built dist/ from nothing in the pack just before, and a second full
 * compilation of the same sources would prove nothing more. (npm runs prepack, postpack and
 * postpublish for a publish, and for a pack prepack and postpack; no `prepare`, as the manifest it
 * re-reads after prepack has no scripts: the sources are compiled once per pack or publish.)
 */
function publishDryRun(src: string): void {
  const pkgPath = path.join(src, "package.json");
  const original = fs.readFileSync(pkgPath, "utf8");
  const pkg = JSON.parse(original) as { scripts: Record<string, string> };
  const sent = path.join(work, "sent-manifest.json");
  const built = path.join(work, "publish-ran-build");
  pkg.scripts["build:package"] = `node -e "require('node:fs').accessSync('dist/resources/index.js'); require('node:fs').writeFileSync(process.argv[1], '')" ${JSON.stringify(built)}`;
  pkg.scripts.postpublish = `node -e "require('node:fs').copyFileSync('package.json', process.argv[1])" ${JSON.stringify(sent)} && ${pkg.scripts.postpublish}`;
  const instrumented = JSON.stringify(pkg, null, 2) + "\n";
  fs.writeFileSync(pkgPath, instrumented);
  try {
    const r = spawnSync("npm", ["publish", "--dry-run"], { cwd: src, env: npmEnv, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    expect(r.status).toBe(0);
    expect(fs.existsSync(built)).toBe(true); // the publish's prepack ran the build step
    const warnings = r.stderr.split("\n").filter((l) => /^npm (warn|error)/i.test(l) && !/requires you to be logged in .*\(dry-run\)/.test(l));
    expect(warnings).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(sent, "utf8")) as { scripts?: Record<string, string> };
    const installTime = ["preinstall", "install", "postinstall", "prepare", "preprepare", "postprepare", "prepublish"];
    expect(Object.keys(manifest.scripts ?? {}).filter((s) => installTime.includes(s))).toEqual([]);
    expect(fs.readFileSync(pkgPath, "utf8")).toBe(instrumented); // restored after the publish
    expect(fs.existsSync(path.join(src, ".package.json.unpacked"))).toBe(false);
  } finally {
    fs.writeFileSync(pkgPath, original);
  }
}

/** npm's cache for the `--offline` installs below, which npm test fills beside the first suites (dev/pulumi-cli/for-tests.js). */
function npmCacheFilled(): void {
  const { npmCacheCurrent } = require("../../dev/pulumi-cli/for-tests") as { npmCacheCurrent: () => boolean };
  const { npmTestBuilds } = require("../../dev/pulumi-cli/background") as typeof import("../../dev/pulumi-cli/background");
  const end = npmTestBuilds.running() ? npmTestBuilds.wait(npmCacheCurrent) : undefined;
  if (npmCacheCurrent()) return;
  throw new Error(end?.code ? npmTestBuilds.failureMessage(end.code) : "npm's cache for this test's offline installs is not filled: run npm test once (dev/pulumi-cli/for-tests.js fills it)");
}

test("packed, installed in a new project, type-checked with Pulumi's template under TypeScript 5.9 and current, previewed, up and destroyed through dev/engine/ with the project's own SDK against the installed sandbox", async () => {
  npmCacheFilled();
  // 1. Pack from the sources alone: `prepack` must build dist/ (a fresh clone has none; a git install builds through `prepare`).
  const src = path.join(work, "src");
  copySources(src);
  expect(fs.existsSync(path.join(src, "dist"))).toBe(false);
  // A module an earlier build left behind (its source since removed) must not ship: the build starts from an empty dist/.
  fs.mkdirSync(path.join(src, "dist", "resources"), { recursive: true });
  fs.writeFileSync(path.join(src, "dist", "resources", "removed-module.js"), "module.exports = {};\n");
  fs.symlinkSync(path.join(root, "node_modules"), path.join(src, "node_modules"), "dir"); // what `npm ci` would install
  const sourceManifest = fs.readFileSync(path.join(src, "package.json"), "utf8");
  const packed = await timed("pack", () => JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], src)) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[]);
  const { filename, files, size, unpackedSize } = packed[0];
  const shipped = files.map((f) => f.path);
  console.log(`tarball: ${files.length} files, ${Math.round(size / 1000)} kB packed, ${Math.round(unpackedSize / 1000)} kB unpacked`);
  for (const needed of ["dist/resources/index.js", "dist/resources/index.d.ts", "dist/resources/runtime.js", "dist/cli/main.js", "dist/sandbox/cli.js", "LICENSE", "CHANGELOG.md", "README.md", "package.json"])
    expect(shipped).toContain(needed);
  // The guides and examples ship as documents (the examples' sources included); no other source, test or tool does.
  for (const doc of ["docs/reference.md", "cli/README.md", "sandbox/README.md", "resources/README.md", "examples/main/index.ts", "examples/ci/pulumi.yml", "examples/imported-zone/README.md"])
    expect(shipped).toContain(doc);
  expect(shipped.filter((f) => /^(test|bench|engine|demo|scripts|\.ci)\/|^dist\/(test|bench|engine|demo|examples)\/|\.map$|\.ts$/.test(f) && !f.endsWith(".d.ts") && !f.startsWith("examples/"))).toEqual([]);
  expect(shipped).not.toContain("dist/resources/removed-module.js");
  // What a user's npm reads: no scripts at all (npm 11 asks to approve a `prepare` in a tarball
  // install), no comment pointing at a source map that is not shipped; the sources keep theirs.
  const unpacked = path.join(work, "unpacked");
  fs.mkdirSync(unpacked);
  run("tar", ["-xzf", path.join(work, filename), "-C", unpacked], work);
  const packedManifest = JSON.parse(fs.readFileSync(path.join(unpacked, "package", "package.json"), "utf8")) as Record<string, unknown>;
  expect(packedManifest.scripts).toBeUndefined();
  // No homepage, bugs or repository: the address the package once named does not exist (readme.test.ts).
  expect(packedManifest).toMatchObject({ keywords: expect.arrayContaining(["pulumi"]) });
  expect(brokenLinks(path.join(unpacked, "package"), shipped)).toEqual([]);
  expect(shipped.filter((f) => f.endsWith(".js") && fs.readFileSync(path.join(unpacked, "package", f), "utf8").includes("sourceMappingURL"))).toEqual([]);
  expect(fs.readFileSync(path.join(src, "package.json"), "utf8")).toBe(sourceManifest); // restored after packing

  // 2. A new project as `pulumi new typescript` makes it, then `npm install reseller-pulumi`.
  const app = path.join(work, "app");
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", main: "index.ts", devDependencies: USER_INSTALLS.project.devDependencies, dependencies: { ...USER_INSTALLS.project.dependencies, "@pulumi/pulumi": USER_SDK } }, null, 2));
  fs.writeFileSync(path.join(app, "tsconfig.json"), JSON.stringify(PULUMI_TEMPLATE_TSCONFIG, null, 4));
  fs.writeFileSync(path.join(app, "index.ts"), PROGRAM);
  await timed("install", () => run("npm", ["install", "--offline", path.join(work, filename)], app));
  const installed = fs.realpathSync(path.join(app, "node_modules", "reseller-pulumi"));
  expect(installed.startsWith(fs.realpathSync(app))).toBe(true); // a copy in the project, not a link to the repository
  // The path every serialized provider requires (older states too) resolves through `exports`.
  const resolveFromApp = (id: string): string => require.resolve(id, { paths: [app] });
  expect(resolveFromApp("reseller-pulumi/dist/resources/runtime")).toBe(path.join(installed, "dist", "resources", "runtime.js"));
  expect(resolveFromApp("reseller-pulumi/sandbox")).toBe(path.join(installed, "dist", "sandbox", "index.js"));
  // `import` from the installed CLI writes a package.json that installs as written: here a file:
  // spec of the tarball, relative to the generated directory, resolved by npm as a user's would.
  fs.writeFileSync(path.join(app, "zone.txt"), "$ORIGIN packed-shop.com.\n$TTL 3600\nwww IN A 192.0.2.10\n");
  const generated = path.join(app, "generated");
  const spec = `file:${path.relative(generated, path.join(work, filename))}`;
  run("npx", ["reseller-pulumi", "import", "--zone-file", "zone.txt", "--zone", "packed-shop.com", "--out", "generated", "--dependency", spec], app);
  expect((JSON.parse(fs.readFileSync(path.join(generated, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies["reseller-pulumi"]).toBe(spec);
  await timed("generated project's install (lock only)", () => run("npm", ["install", "--package-lock-only", "--offline"], generated));
  const lock = JSON.parse(fs.readFileSync(path.join(generated, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string }> };
  expect(lock.packages["node_modules/reseller-pulumi"]?.version).toBe(packedManifest.version);

  // 3. Type-check with the template's tsconfig (no skipLibCheck): TypeScript 5.9 (emits bin/), then the current TypeScript.
  const tsVersion = (dir: string): string => (JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "typescript", "package.json"), "utf8")) as { version: string }).version;
  await timed("tsc 5.9", () => run(process.execPath, [path.join(app, "node_modules", "typescript", "bin", "tsc"), "-p", "."], app));
  expect(tsVersion(app)).toMatch(/^5\.9\./);
  const current = path.join(work, "ts-current");
  fs.mkdirSync(current);
  fs.writeFileSync(path.join(current, "package.json"), JSON.stringify({ name: "ts-current", private: true }));
  await timed("install current typescript", () => run("npm", ["install", "--offline", USER_INSTALLS.currentTypeScript], current));
  await timed(`tsc ${tsVersion(current)}`, () => run(process.execPath, [path.join(current, "node_modules", "typescript", "bin", "tsc"), "-p", ".", "--noEmit"], app));

  // 4. The sandbox from the installed package; its printed baseUrl goes into the stack config as is.
  const creds = await timed("sandbox start", () => startInstalledSandbox(app));
  const config = {
    "reseller:baseUrl": creds.baseUrl,
    "reseller:apiKey": creds.apiKey,
    "reseller:apiSecret": creds.apiSecret,
    "app:domain": "packed-shop.com",
    "app:nameservers": JSON.stringify(SANDBOX_NAMESERVERS),
    "app:registrant": JSON.stringify(REGISTRANT),
  };
  const secretKeys = ["reseller:apiSecret", "app:registrant"];

  // 5. `pulumi preview`, `pulumi up`: the program and the provider host with the project's own SDK,
  // the host loading the installed package from the project.
  const sdk = fs.realpathSync(path.join(app, "node_modules", "@pulumi", "pulumi"));
  const sdkVersion = (JSON.parse(fs.readFileSync(path.join(sdk, "package.json"), "utf8")) as { version: string }).version;
  if (process.env.RESELLER_PACK_SDK) expect(sdkVersion).toBe(process.env.RESELLER_PACK_SDK);
  console.log(`the project's @pulumi/pulumi: ${sdkVersion}`);
  expect(fs.realpathSync(runnerPath(app)).startsWith(sdk + path.sep)).toBe(true);
  expect(fs.realpathSync(hostScriptPath(app)).startsWith(sdk + path.sep)).toBe(true);
  const engine = new Engine({ projectDir: app, project: "app", stack: "dev", config, secretConfigKeys: secretKeys, log: (l) => engineLog.push(l) });
  const program = path.join(app, "bin", "index.js");
  const preview = await timed("preview", () => engine.preview(program));
  expect(preview.summary).toMatchObject({ create: 3 });
  expect(engine.resources()).toEqual([]);
  const up = await timed("up", () => engine.up(program));
  const created = engine.resources();
  expect(created.map((c) => c.urn.split("::").slice(-2).join("::"))).toEqual([
    "pulumi-nodejs:dynamic/reseller:Domain::shop",
    "pulumi-nodejs:dynamic/reseller:DnsZone::shop-zone",
    "pulumi-nodejs:dynamic/reseller:DnsRecord::www",
  ]);
  expect(up.summary).toMatchObject({ create: 3 });
  const { outputs } = up;
  expect(outputs).toMatchObject({ stage: "active", wwwFqdn: "www.packed-shop.com" });
  expect(outputs.nameservers).toEqual(SANDBOX_NAMESERVERS);
  expect(outputs.renewPrice).toMatch(/^\d+\.\d{2}$/);
  expect(outputs.balance).toMatch(/^\d+\.\d{2}$/);
  for (const c of created) {
    expect(c.inputs.__provider).toContain('require("reseller-pulumi/dist/resources/runtime")');
    expect(c.inputs.__provider).not.toContain(creds.apiSecret);
    expect(c.inputs.__provider).not.toContain(work); // no path of this machine in what the state keeps
  }
  expect(engine.serializedState()).not.toContain(creds.apiSecret);
  expect(engine.serializedState()).not.toContain(work);

  // One register charge in the sandbox's ledger: bought once, through the installed package.
  const ledger = (await (await fetch(`${creds.baseUrl}/_sandbox/ledger`)).json()) as { data: { entries: { domain: string; action: string }[] } };
  expect(ledger.data.entries.filter((e) => e.domain === "packed-shop.com")).toEqual([expect.objectContaining({ action: "register" })]);

  // `pulumi destroy`: the record and the zone deleted, the Domain left registered (retainOnDelete), the state empty.
  await timed("destroy", () => engine.destroy());
  expect(engine.allResources()).toEqual([]);
  expect((await signedGet(creds.baseUrl, creds.apiKey, creds.apiSecret, "/dns/zones/packed-shop.com")).status).toBe(404);
  expect((await signedGet(creds.baseUrl, creds.apiKey, creds.apiSecret, "/domains/packed-shop.com")).body.data).toMatchObject({ stage: "active" });
  expect(engine.hostLogs().join("\n")).not.toContain(creds.apiSecret);
}, 600_000);

test("from the installed package, `npx reseller-pulumi plugin-tarball` writes the plugin with the project's @pulumi/pulumi and the package's dependencies, and the plugin starts from where it is unpacked, nothing above it", async () => {
  const app = path.join(work, "app");
  expect(fs.existsSync(path.join(app, "node_modules", "reseller-pulumi", "package.json"))).toBe(true); // the first test installed it
  const printed = run("npx", ["reseller-pulumi", "plugin-tarball", "--out", work], app).trim().split("\n");
  const { version, dependencies } = JSON.parse(fs.readFileSync(path.join(app, "node_modules", "reseller-pulumi", "package.json"), "utf8")) as { version: string; dependencies: Record<string, string> };
  expect(printed).toEqual([path.join(work, `pulumi-resource-reseller-v${version}.tar.gz`), `install it: pulumi plugin install resource reseller ${version} --file ${path.relative(app, printed[0])}`]);
  const plugin = path.join(work, "plugin");
  fs.mkdirSync(plugin);
  run("tar", ["-xzf", printed[0], "-C", plugin], work);
  const versionIn = (dir: string, name: string) => (JSON.parse(fs.readFileSync(path.join(dir, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
  expect(versionIn(plugin, "@pulumi/pulumi")).toBe(versionIn(app, "@pulumi/pulumi"));
  for (const name of Object.keys(dependencies)) expect(versionIn(plugin, name)).toBe(versionIn(app, name));
  // It serves at once (gRPC and the protocol load at start) and prints its port, as the engine expects.
  const child = spawn(path.join(plugin, "pulumi-resource-reseller"), ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "pipe"] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      let stderr = "";
      child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
      child.once("exit", (code) => reject(new Error(`the plugin exited (${code}): ${stderr}`)));
      readline.createInterface({ input: child.stdout! }).once("line", resolve);
    });
    expect(port).toMatch(/^\d+$/);
  } finally {
    child.kill();
  }
}, 600_000);

test("`npm publish --dry-run` in the clone the first test packed (built, as `npm ci` leaves one) is clean and sends a manifest with no install-time script", async () => {
  const src = path.join(work, "src");
  expect(fs.existsSync(path.join(src, "dist", "resources", "index.js"))).toBe(true); // the first test's pack built it
  await timed("publish --dry-run", () => publishDryRun(src));
}, 600_000);

test("CHANGELOG has a heading for the package's version", () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  expect(fs.readFileSync(path.join(root, "CHANGELOG.md"), "utf8")).toMatch(new RegExp(`^## ${version.replace(/\./g, "\\.")}( |$)`, "m"));
});

test("the README's install and quick start are the steps this test takes", () => {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  expect(readme).toContain("```ts\n" + PROGRAM + "```");
  for (const step of [
    "pulumi new typescript ",
    "npm install reseller-pulumi\n",
    "npx reseller-pulumi sandbox --port 0 --delay 0 ",
    "pulumi config set reseller:baseUrl <the reseller:baseUrl it printed>",
    "pulumi config set --secret reseller:apiSecret ",
    "pulumi config set domain packed-shop.com\n",
    `pulumi config set nameservers '${JSON.stringify(SANDBOX_NAMESERVERS)}' `,
    // The registrant a field at a time, each a secret of its own (masked in debug logs too): the same
    // object the engine's config above gives as one JSON text.
    ...Object.entries(REGISTRANT).map(([field, value]) => `pulumi config set --secret --path registrant.${field} ${/\s/.test(value) ? `'${value}'` : value}`),
    `registrant.country ${REGISTRANT.country}\npulumi preview\npulumi up\npulumi destroy `,
  ])
    expect(readme).toContain(step);
  // The template's project: @pulumi/pulumi ^3 (what `pulumi new typescript` pins) and its tsconfig.
  expect(PULUMI_TEMPLATE_TSCONFIG.compilerOptions).not.toHaveProperty("skipLibCheck");
});
