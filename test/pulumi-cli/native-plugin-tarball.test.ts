/**
 * The native provider plugin from the Pulumi CLI's plugin cache, as docs/native-provider.md shows:
 * `reseller-pulumi plugin-tarball` (cli/plugin-tarball.ts) writes the plugin from the installed
 * package, the `pulumi plugin install resource reseller <version> --file` line it prints puts it into
 * the stack's own PULUMI_HOME, and the README's native register program, on the generated SDK, with
 * a Pulumi.yaml naming no plugin path, runs through the real CLI against the sandbox: preview charges
 * nothing, up charges once and gives the program's outputs, up and refresh are unchanged (the SDK's
 * inputs diff clean, each kind's Read gives back what its Create made), the state holds no contact
 * detail and no provider code, destroy keeps the domain (retainOnDelete). This is the one run of that
 * program on the Node.js SDK (native-provider.test.ts runs the plugin from the checkout). Plugins on PATH are ignored (PULUMI_IGNORE_AMBIENT_PLUGINS), so
 * the plugin can only come from the cache, and it runs from there: no folder above it holds a
 * node_modules, so whatever it loads is in the tarball.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CliStack, checkoutRoot, requirePulumiCli, type CliRun } from "../../dev/pulumi-cli";
import { buildSdk, nativeProject } from "../support/native-project";
import { configInput, fillPlaceholders, readmeProgram } from "../support/readme-program";
import { ResellerClient } from "../../api/client";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";

jest.setTimeout(900_000);

const YES = ["--yes", "--non-interactive"];
const SECRET = "tarball-secret-3b7e1d9a5c";
const installed = path.join(checkoutRoot, "node_modules", "reseller-pulumi"); // the package as npm installs it here (file:.)

let sandbox: SandboxHandle;
let client: ResellerClient;
let out: string;
let stack: CliStack | undefined;
let project: string | undefined;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0, requestsPerMinute: 6000, credentials: [{ key: "tarball-key", secret: SECRET }] });
  client = new ResellerClient({ baseUrl: sandbox.url, apiKey: "tarball-key", apiSecret: SECRET, requestsPerMinute: 6000 });
  out = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-tarball-"));
});
afterAll(async () => {
  await stack?.dispose();
  for (const d of [out, project]) if (d) fs.rmSync(d, { recursive: true, force: true });
  await sandbox?.close();
});

/** The plugin's version: the generated SDK's, which the tarball's name and the install line carry. */
const version = (JSON.parse(fs.readFileSync(path.join(checkoutRoot, "sdk", "nodejs", "package.json"), "utf8")) as { version: string }).version;
const ok = (r: CliRun) => ({ code: r.code, stderr: r.stderr });

test("plugin-tarball, then `pulumi plugin install --file`: a program whose Pulumi.yaml names no plugin runs on the cached plugin: preview charges nothing, up once", async () => {
  // docs/native-provider.md's two lines: the tarball's command, run as written (without npx) in a folder, prints the install line the docs show.
  const docs = /```sh\nnpx (reseller-pulumi plugin-tarball[^\n]*)\n(pulumi plugin install [^\n]*)\n```/.exec(fs.readFileSync(path.join(checkoutRoot, "docs", "native-provider.md"), "utf8"));
  expect(docs).not.toBeNull();
  const [, tarballLine, installLine] = docs!;
  const made = execFileSync(process.execPath, [path.join(installed, "dist", "cli", "main.js"), ...tarballLine.split(" ").slice(1)], { cwd: out, encoding: "utf8" }).trim().split("\n");
  const tarball = path.join(fs.realpathSync(out), "plugin-dist", `pulumi-resource-reseller-v${version}.tar.gz`);
  expect(made).toEqual([tarball, `install it: ${installLine}`]);
  const install = installLine.replace(/^pulumi /, "").split(" ");
  install[install.length - 1] = tarball;

  buildSdk();
  const { program, configLines } = readmeProgram(checkoutRoot, "Native: register a domain and host its DNS", 3, "docs/native-provider.md");
  project = nativeProject("native-cached", { "index.ts": program }, { sdk: true, pluginCache: true });
  expect(fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8")).not.toContain("plugins:");
  stack = await CliStack.init({ cli: requirePulumiCli(), projectDir: project, env: { PULUMI_IGNORE_AMBIENT_PLUGINS: "true", NODE_PATH: undefined } });

  const installing = await stack.run(install);
  expect({ code: installing.code, stderr: installing.stderr.trim() }).toEqual({ code: 0, stderr: `[resource plugin reseller-${version}] installing` });
  const plugins = JSON.parse((await stack.must(["plugin", "ls", "--json"])).stdout) as { name: string; kind: string; version: string }[];
  expect(plugins.filter((p) => p.name === "reseller").map(({ kind, version }) => ({ kind, version }))).toEqual([{ kind: "resource", version }]);
  const cached = path.join(stack.home, "plugins", `resource-reseller-v${version}`);
  expect(fs.statSync(path.join(cached, "pulumi-resource-reseller")).mode & 0o111).not.toBe(0);
  // The plugin runs where no folder above it holds a node_modules: what it loads came in the tarball.
  const above: string[] = [];
  for (let d = path.dirname(cached); d !== path.dirname(d); d = path.dirname(d)) above.push(d);
  expect(above.filter((d) => fs.existsSync(path.join(d, "node_modules")))).toEqual([]);
  expect(fs.existsSync(path.join(cached, "node_modules", "@pulumi", "pulumi", "package.json"))).toBe(true);
  // Paths longer than ustar's 100 bytes came through (pax headers, as Go's tar reader takes them).
  expect(fs.readdirSync(cached, { recursive: true, encoding: "utf8" }).some((f) => Buffer.byteLength(f) > 100)).toBe(true);

  const withSandbox = { url: sandbox.url, credentials: { key: "tarball-key", secret: SECRET } };
  for (const line of configLines) {
    const r = spawnSync("sh", ["-c", fillPlaceholders(line, withSandbox, "packed-shop.com")], { input: configInput(line, withSandbox), cwd: project, env: stack.env(), encoding: "utf8" });
    expect({ line, code: r.status, stderr: r.stderr }).toEqual({ line, code: 0, stderr: "" });
  }
  await stack.configSet("reseller:requestsPerMinute", "6000");

  const charges = sandbox.operator.ledger().length;
  const preview = await stack.run(["preview", "--non-interactive"]);
  expect(ok(preview)).toEqual({ code: 0, stderr: "" });
  expect(preview.stdout).toMatch(/\+ 4 to create/);
  expect(sandbox.operator.ledger()).toHaveLength(charges);
  expect(ok(await stack.run(["up", ...YES]))).toEqual({ code: 0, stderr: "" });
  expect(sandbox.operator.ledger().slice(charges).map((e) => `${e.action} ${e.domain}`)).toEqual(["register packed-shop.com"]);
});

test("on the cached plugin, the register program's outputs; up and refresh unchanged; no contact detail or provider code in state; destroy keeps the domain", async () => {
  expect(stack).toBeDefined(); // the first test installed the plugin and ran up
  const charges = sandbox.operator.ledger().length;
  const outputs = await stack!.outputs();
  expect(outputs).toMatchObject({ stage: "active", wwwFqdn: "www.packed-shop.com", nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"] });
  expect(outputs.renewPrice).toMatch(/^\d+\.\d{2}$/);
  expect(outputs.balance).toMatch(/^\d+\.\d{2}$/);
  expect(ok(await stack!.run(["up", "--expect-no-changes", ...YES]))).toEqual({ code: 0, stderr: "" });
  expect(ok(await stack!.run(["refresh", "--expect-no-changes", ...YES]))).toEqual({ code: 0, stderr: "" });
  const state = await stack!.exportState();
  expect((state.deployment.resources ?? []).find((r) => r.type === "pulumi:providers:reseller")?.inputs).toMatchObject({ version });
  const text = JSON.stringify(state);
  expect(text).toContain("reseller:index:Domain");
  expect(text).not.toContain("pat@packed-shop.example");
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain("__provider");
  expect(ok(await stack!.run(["destroy", ...YES]))).toEqual({ code: 0, stderr: "" });
  expect((await client.listDomains()).map((d) => d.domain)).toContain("packed-shop.com");
  expect((await client.listZones()).map((z) => z.domain)).not.toContain("packed-shop.com");
  expect(sandbox.operator.ledger()).toHaveLength(charges);
});
