/**
 * End to end over real HTTP: `reseller-pulumi import` against the sandbox writes a program that
 * type-checks, and `up` of that program through dev/engine/ (in its own process, the SDK's dynamic
 * provider host over gRPC) adopts everything without one mutating API call or charge; a second `up` changes
 * only what was edited.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { main, type CliIo } from "../../cli/main";
import { Engine } from "../../dev/engine/engine";
import { packageRoot, startProviderHost, type ProviderHost } from "../../dev/engine/host";
import { ResellerClient } from "../../api/client";
import { DEFAULT_CONTRACT } from "../../api/contract";
import { startSandbox } from "../../sandbox/index";
import { generatedProgram } from "../../dev/engine/program-file";
import { RECORD_TABLE_FROM } from "../../cli/codegen";
import { keptOpen } from "../support/kept-open";
import { PACKAGE_BIN, runPackageBin } from "../support/package-bin";

const root = packageRoot();
/** The sandbox below allows it; the default client-side limit (60 a minute) would only slow the test down. */
const fast = ["--requests-per-minute", "6000"];
type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/**
 * Parsed (and, once checked, bound) declaration files of the package, @pulumi/pulumi and @types/node,
 * kept across this file's type-checks: they do not change during the run, and each check would
 * otherwise parse them again (a new root file list keeps TypeScript from reusing an old program's).
 * The generated projects' own files are always read afresh.
 */
const parsed = new Map<string, ts.SourceFile>();

/**
 * Type-checks generated projects with their own tsconfig, resolving the package as a user's install does:
 * to its declared types (package.json "types", the built dist/resources/index.d.ts of this checkout).
 * Several projects of one tsconfig are checked in one program (each index.ts is a module of its own,
 * so none sees another's declarations): one checker resolves the package's types once for all of them.
 */
function typeCheck(...dirs: string[]): string[] {
  const config = fs.readFileSync(path.join(dirs[0], "tsconfig.json"), "utf8");
  for (const dir of dirs) expect([dir, fs.readFileSync(path.join(dir, "tsconfig.json"), "utf8")]).toEqual([dir, config]);
  const tsconfig = JSON.parse(config) as { compilerOptions: object };
  const { options, errors } = ts.convertCompilerOptionsFromJson(tsconfig.compilerOptions, dirs[0]);
  expect(errors).toEqual([]);
  const files = dirs.map((dir) => path.join(dir, "index.ts"));
  const types = path.join(root, (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { types: string }).types);
  expect(fs.existsSync(types) ? types : `${types} missing: run npm run build`).toBe(types);
  const compilerOptions: ts.CompilerOptions = {
    ...options,
    noEmit: true,
    baseUrl: root,
    paths: { "reseller-pulumi": [path.relative(root, types)], "@pulumi/pulumi": ["node_modules/@pulumi/pulumi"] },
    typeRoots: [path.join(root, "node_modules", "@types")],
    types: ["node"],
  };
  const host = ts.createCompilerHost(compilerOptions);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    if (!path.resolve(fileName).startsWith(root + path.sep)) return read(fileName, languageVersion, ...rest);
    const version = typeof languageVersion === "object" ? `${languageVersion.languageVersion}/${String(languageVersion.impliedNodeFormat)}` : String(languageVersion);
    const key = `${version} ${fileName}`;
    let file = parsed.get(key);
    if (!file) {
      file = read(fileName, languageVersion, ...rest);
      if (file) parsed.set(key, file);
    }
    return file;
  };
  const program = ts.createProgram(files, compilerOptions, host);
  // Only the generated files' own diagnostics (and the options' and global ones): the package is
  // checked by its own build, so its declarations are not checked again here.
  return [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...files.flatMap((file) => {
      const source = program.getSourceFile(file);
      expect(source?.fileName).toBeDefined();
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    }),
  ].map((d) => `${d.file ? `${path.relative(dirs[0], d.file.fileName)}: ` : ""}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

describe("import against the sandbox, then up through the engine", () => {
  let sandbox: Sandbox;
  let dir: string;
  let out: string[];
  let err: string[];

  const io = (): CliIo => ({
    env: {
      RESELLER_BASE_URL: sandbox.url,
      RESELLER_API_KEY: sandbox.credentials.key,
      RESELLER_API_SECRET: sandbox.credentials.secret,
    },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    cwd: dir,
  });
  /** Provider hosts of the test's engines, closed after it. */
  let hosts: Promise<ProviderHost>[] = [];
  /**
   * One engine per stack, its state in memory (no test here claims a state file; the engine's file
   * writes are proven by test/dev/engine/). Its commands share one provider host (test/support/kept-open.ts):
   * they configure it the same, and what they prove does not depend on a fresh host per command.
   */
  const engine = (stack = "dev", extra: { config?: Record<string, string>; secretConfigKeys?: string[] } = {}): Engine => {
    let host: Promise<ProviderHost> | undefined;
    const sharedHost = (): Promise<ProviderHost> => {
      if (!host) {
        host = startProviderHost();
        hosts.push(host);
      }
      return host;
    };
    return new Engine({
      startHost: async () => keptOpen(await sharedHost()),
      stack,
      project: "imported",
      config: {
        ...extra.config,
        "reseller:baseUrl": sandbox.url,
        "reseller:apiKey": sandbox.credentials.key,
        "reseller:apiSecret": sandbox.credentials.secret,
        // The sandbox below allows it; the default (60 a minute) would only make the test slow.
        "reseller:requestsPerMinute": "6000",
      },
      secretConfigKeys: ["reseller:apiSecret", ...(extra.secretConfigKeys ?? [])],
      log: () => undefined,
    });
  };
  // Counted from the start of each test, so whatever the sandbox seeded itself does not count.
  let requestsAtStart = 0;
  let ledgerAtStart = 0;
  const mutatingCalls = () => sandbox.operator.requests().slice(requestsAtStart).filter((r) => r.mutating);
  const charges = () => sandbox.operator.ledger().length - ledgerAtStart;

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0, requestsPerMinute: 6000 });
    requestsAtStart = sandbox.operator.requests().length;
    ledgerAtStart = sandbox.operator.ledger().length;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-e2e-"));
    out = [];
    err = [];
  });
  afterEach(async () => {
    await Promise.all(hosts.map(async (h) => (await h).close()));
    hosts = [];
    await sandbox.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The seeded active hosted zone and a domain that has it. */
  async function seeded(): Promise<{ zone: string; types: string[] }> {
    // The first client of a credential sets the process-wide rate bucket for it (api/rate-limiter).
    const client = new ResellerClient({
      baseUrl: sandbox.url,
      apiKey: sandbox.credentials.key,
      apiSecret: sandbox.credentials.secret,
      requestsPerMinute: 6000,
    });
    const zones = await client.listZones();
    const active = zones.find((z) => z.status === "active" && z.records_count > 0);
    expect(active).toBeDefined();
    const types = [...new Set((await client.listRecords(active!.domain, {})).map((r) => r.type.toUpperCase()))].sort();
    return { zone: active!.domain, types };
  }

  test("--zone: records of every supported type (and a pass-through type) are declared, the program type-checks, up adopts with no mutation, a second up with one edit is that one write and every other resource the same", async () => {
    const { zone } = await seeded();
    // The seed lacks a few supported types and any pass-through type: added here (the seed itself
    // is pinned by examples/imported-zone), then the counters restart so only the import counts.
    const client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret });
    for (const r of [
      { type: "PTR", name: "1", content: `host.${zone}` },
      // A DS only at a delegation point (RFC 4035 §2.4): "sub" is delegated first.
      { type: "NS", name: "sub", content: "ns.sub-host.net" },
      { type: "DS", name: "sub", content: `12345 8 2 ${"ab".repeat(32)}` },
      { type: "SVCB", name: "_svc", content: `1 svc.${zone} port=8443` },
      { type: "NAPTR", name: "n", content: '100 10 "u" "E2U+sip" "!^.*$!sip:info@example.com!" .' },
    ])
      await client.createRecord(zone, { ...r, ttl: 3600 });
    const types = [...new Set((await client.listRecords(zone, {})).map((r) => r.type.toUpperCase()))].sort();
    expect(types.filter((t) => t !== "NS")).toEqual(
      ["A", "AAAA", "CAA", "CNAME", "DS", "HTTPS", "MX", "NAPTR", "PTR", "SRV", "SSHFP", "SVCB", "TLSA", "TXT"],
    );
    requestsAtStart = sandbox.operator.requests().length;
    const before = requestsAtStart;

    expect(await main(["import", "--zone", zone, "--out", "zone", ...fast], io())).toBe(0);
    expect(err).toEqual([]);
    const project = path.join(dir, "zone");
    const source = fs.readFileSync(path.join(project, "index.ts"), "utf8");
    for (const t of types.filter((t) => t !== "SOA" && t !== "NS")) expect(source).toContain(`type: "${t}"`);
    expect(source).not.toContain(sandbox.credentials.secret);
    expect(out.join("\n")).not.toContain(sandbox.credentials.secret);
    // The import itself only reads.
    expect(sandbox.operator.requests().slice(before).every((r) => r.method === "GET")).toBe(true);
    expect(typeCheck(project)).toEqual([]);

    const declared = (source.match(/new reseller\.\w+\(/g) ?? []).length;
    const e = engine();
    const plan = await e.preview(generatedProgram(project));
    // A freshly imported program previews with zero creates: every resource adopts (dev/engine/display.ts).
    expect(plan.summary).toMatchObject({ create: 0, adopt: declared, update: 0, replace: 0, delete: 0 });
    // Each says so itself, as under the CLI (which counts them as creates): "adopts", never "creates".
    const said = e.hostLogs().join("\n");
    for (const kind of ["DnsZone", "DnsRecord"]) expect(said).toMatch(new RegExp(`${kind} "[^"]+": adopts `));
    expect(said).not.toMatch(/: creates /);
    const first = await e.up(generatedProgram(project));
    expect(first.errors).toEqual([]);
    expect(first.summary).toMatchObject({ create: declared, update: 0, replace: 0, delete: 0 });
    // The adoptions did reach the service (reads of the zone), and none of them wrote.
    const log = sandbox.operator.requests().slice(requestsAtStart);
    expect(log.some((r) => r.method === "GET" && r.path.includes(`/dns/zones/${zone}`) && !r.mutating)).toBe(true);
    expect(mutatingCalls()).toEqual([]);
    expect(charges()).toBe(0);

    // Importing again gives the same program, byte for byte.
    expect(await main(["import", "--zone", zone, "--out", "zone-again", ...fast], io())).toBe(0);
    expect(fs.readFileSync(path.join(dir, "zone-again", "index.ts"), "utf8")).toBe(source);

    // Control: the program is now ordinary code. The second up, with one edit, is one update and
    // nothing else: every other adopted resource is the same (so an unedited second up is a no-op),
    // and the request log sees that one write only.
    const a = /content: "(192\.0\.2\.\d+)"/.exec(source);
    expect(a).not.toBeNull();
    fs.writeFileSync(path.join(project, "index.ts"), source.replace(a![0], 'content: "198.51.100.7"'));
    const edited = await e.up(generatedProgram(project));
    expect(edited.summary).toMatchObject({ create: 0, update: 1, replace: 0, delete: 0, same: declared - 1 });
    expect(mutatingCalls().map((r) => r.method)).toEqual(["PUT"]);
    expect(charges()).toBe(0);
  }, 360_000);

  test("a zone of more records than a page and than RECORD_TABLE_FROM: the program declares them from a table, and up adopts every record from one read of the zone, not a list per record; a record removed after the import is created", async () => {
    const { zone } = await seeded();
    const client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 6000 });
    // Just enough records for both: a size beyond that proves nothing more and costs a registration each.
    const bulk = Math.max(RECORD_TABLE_FROM, DEFAULT_CONTRACT.paging.perPage) + 20 - (await client.listRecords(zone)).length;
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = next++; i < bulk; i = next++) await client.createRecord(zone, { type: "TXT", name: `bulk-${i}`, content: `v=${i}`, ttl: 3600 });
      }),
    );
    const records = await client.listRecords(zone);
    const pages = Math.ceil(records.length / DEFAULT_CONTRACT.paging.perPage);
    expect(pages).toBeGreaterThan(1);
    expect(records.length).toBeGreaterThan(RECORD_TABLE_FROM);

    expect(await main(["import", "--zone", zone, "--out", "big", ...fast], io())).toBe(0);
    const project = path.join(dir, "big");
    const source = fs.readFileSync(path.join(project, "index.ts"), "utf8");
    // So many records come as a table declared by a loop that yields (cli/codegen.ts, RECORD_TABLE_FROM).
    expect(source).toContain("RecordTable");
    expect(typeCheck(project)).toEqual([]);
    const declared = 1 + (source.match(/^ {2}"[^"]+": \{ type: /gm) ?? []).length;
    expect(declared).toBeGreaterThan(RECORD_TABLE_FROM);
    // Out of band, after the import: one record removed.
    const removed = records.find((r) => r.name === `bulk-${Math.floor(bulk / 2)}`)!;
    await client.deleteRecord(zone, removed.id);
    await client.close();
    requestsAtStart = sandbox.operator.requests().length;

    const e = engine();
    const up = await e.up(generatedProgram(project));
    expect(up.errors).toEqual([]);
    expect(up.summary).toMatchObject({ create: declared, update: 0, replace: 0, delete: 0 });
    const log = sandbox.operator.requests().slice(requestsAtStart);
    const recordLists = log.filter((r) => r.method === "GET" && r.path.split("?")[0].endsWith(`/dns/zones/${zone}/records`));
    // The zone's own read returns its records and seeds the list every adoption reads (a list per
    // adoption would be hundreds of adoptions, two pages each).
    expect(recordLists.length).toBeLessThanOrEqual(pages);
    // Besides, check's predictions (resources/kit/preflight.ts) read the balance once, and the zone list and
    // the zone once before the one write and once after it: a fixed number, not one per record.
    const gets = log.filter((r) => r.method === "GET").map((r) => r.path.split("?")[0]);
    const count = (p: string) => gets.filter((g) => g === p).length;
    expect(count("/api/v1/account/balance")).toBe(1);
    expect(count("/api/v1/dns/zones")).toBeLessThanOrEqual(2);
    expect(count(`/api/v1/dns/zones/${zone}`)).toBeLessThanOrEqual(3);
    expect(gets.length).toBeLessThanOrEqual(1 + pages + 5);
    // The removed record is not taken from a stale list: it is created, the only write.
    expect(mutatingCalls().map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([`POST /api/v1/dns/zones/${zone}/records`]);
    const recreated = e.resources().find((r) => r.outputs.content === `v=${removed.name.slice("bulk-".length)}` && r.type.endsWith(":DnsRecord"));
    expect(recreated?.outputs).toMatchObject({ adopted: false, name: removed.name });
    expect(charges()).toBe(0);
  }, 360_000);

  test("the package's bin (dist/cli/main.js) runs as a process: 0 with next steps; a wrong secret exits 1 without echoing it", async () => {
    const bin = PACKAGE_BIN;
    // The provider host needs dist/ as well (the shim requires reseller-pulumi/dist/...): `npm test` builds first.
    expect(fs.existsSync(bin) ? fs.readFileSync(bin, "utf8").split("\n")[0] : "dist/cli/main.js missing: run npm run build").toBe("#!/usr/bin/env node");
    const { zone } = await seeded();
    const run = (secret: string) =>
      runPackageBin(["import", "--zone", zone, "--out", "bin-out"], dir, { RESELLER_BASE_URL: sandbox.url, RESELLER_API_KEY: sandbox.credentials.key, RESELLER_API_SECRET: secret });
    const ok = await run(sandbox.credentials.secret);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("cd bin-out\nnpm install\n");
    expect(fs.existsSync(path.join(dir, "bin-out", "index.ts"))).toBe(true);

    const wrong = "wrong-secret-0123456789";
    const bad = await run(wrong);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^reseller-pulumi: .+/);
    expect(bad.stderr + bad.stdout).not.toContain(wrong);
    expect(bad.stderr + bad.stdout).not.toContain(sandbox.credentials.secret);
  });

  test("a zone or domain the account does not have: exit 1, a message naming it, nothing written", async () => {
    expect(await main(["import", "--zone", "not-hosted.example", ...fast], io())).toBe(1);
    expect(err).toEqual([expect.stringContaining("no DNS zone not-hosted.example is hosted in this account")]);
    expect(await main(["import", "--domain", "not-ours.example", ...fast], io())).toBe(1);
    expect(err[1]).toContain("there is no domain not-ours.example in this account");
    expect(fs.existsSync(path.join(dir, "imported"))).toBe(false);
  });

  test("the CI example installs the program's dependencies from the registry, previews pull requests, runs up on main, and its drift check reproduces examples/imported-zone", async () => {
    const { zone } = await seeded();
    const workflow = fs.readFileSync(path.join(root, "examples", "ci", "pulumi.yml"), "utf8");
    // As a user's repository would: the program's lock file, nothing built from this repository.
    expect(workflow).toMatch(/^\s+run: npm (ci|install)\b/m);
    expect(workflow).not.toMatch(/file:|npm run build|npm pack/);
    const program = JSON.parse(fs.readFileSync(path.join(root, "examples", "imported-zone", "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
    expect(program.dependencies["reseller-pulumi"]).toBe(`^${version}`);
    // Each Pulumi step and when it runs: preview (commented on the pull request) only for pull requests, up only on main.
    const steps = workflow.split(/\n      - /).slice(1);
    const step = (command: string): string => steps.find((s) => new RegExp(`\\n\\s+command: ${command}\\n`).test(s)) ?? "";
    expect(step("preview")).toContain("if: github.event_name == 'pull_request'");
    expect(step("preview")).toMatch(/comment-on-pr: true/);
    expect(step("up")).toContain("if: github.event_name == 'push' && github.ref == 'refs/heads/main'");
    expect(workflow).toMatch(/on:\n  pull_request:\n  push:\n    branches: \[main\]\n/);
    // Credentials come from the CI secret store, nothing else.
    expect(workflow).toContain("RESELLER_API_KEY: ${{ secrets.RESELLER_API_KEY }}");
    expect(workflow).toContain("RESELLER_API_SECRET: ${{ secrets.RESELLER_API_SECRET }}");
    expect(workflow.match(/RESELLER_API_SECRET:.*$/gm)).toEqual(["RESELLER_API_SECRET: ${{ secrets.RESELLER_API_SECRET }}"]);
    expect(workflow).toMatch(/working-directory: examples\/imported-zone\n/);
    const line = /npx reseller-pulumi (import .+)$/m.exec(workflow)?.[1];
    expect(line).toBeDefined();
    const env: Record<string, string> = { ZONE: zone, RUNNER_TEMP: "ci-tmp" };
    const argv = line!.split(/\s+/).map((w) => w.replace(/^"(.*)"$/, "$1").replace(/\$(\w+)/g, (_m, v: string) => env[v] ?? `$${v}`));
    expect(await main([...argv, ...fast], io())).toBe(0);
    expect(err).toEqual([]);
    const reimported = fs.readFileSync(path.join(dir, "ci-tmp", "reimport", "index.ts"), "utf8");
    expect(reimported).toBe(fs.readFileSync(path.join(root, "examples", "imported-zone", "index.ts"), "utf8"));
  });

  test("examples/imported-zone is what the command writes for the seeded zone", async () => {
    const { zone } = await seeded();
    const args = ["import", "--zone", zone, "--out", "example", "--name", "imported-zone", ...fast];
    expect(await main(args, io())).toBe(0);
    for (const file of ["index.ts", "Pulumi.yaml", "package.json", "tsconfig.json"]) {
      const committed = fs.readFileSync(path.join(root, "examples", "imported-zone", file), "utf8");
      expect([file, fs.readFileSync(path.join(dir, "example", file), "utf8")]).toEqual([file, committed]);
    }
  });

  test("--contacts config, --domain and --all: domain, child hosts, add-ons, zone and records adopted with no mutation and no charge; with the registry's contacts in secret config, up adopts with no change and no contact detail in plain text", async () => {
    const { zone } = await seeded();
    expect(await main(["import", "--domain", zone, "--contacts", "config", "--out", "contacts", ...fast], io())).toBe(0);
    const project = path.join(dir, "contacts");
    expect(await main(["import", "--domain", zone, "--out", "domain", ...fast], io())).toBe(0);
    const domainSource = fs.readFileSync(path.join(dir, "domain", "index.ts"), "utf8");
    expect(domainSource).toContain(`new reseller.Domain(`);
    expect(domainSource).toContain(`new reseller.DnsZone(`);

    // Contacts from secret config: the program still type-checks against the package.
    expect(await main(["import", "--all", "--contacts", "config", "--out", "all-contacts", ...fast], io())).toBe(0);

    expect(await main(["import", "--all", "--out", "all", ...fast], io())).toBe(0);
    const allSource = fs.readFileSync(path.join(dir, "all", "index.ts"), "utf8");
    // The --all program declares every resource of the --domain one, word for word (and the account's
    // other domains besides): the up of --all below adopts the --domain program's resources as they are
    // declared there, and its second up finds them the same, so --domain needs no engine run of its own.
    const declarations = (source: string): string[] => source.match(/^(?:const \w+ = )?new reseller\.\w+\([\s\S]*?^\}(?:, \{[^\n]*\})?\);$/gm) ?? [];
    expect(declarations(domainSource)).toHaveLength((domainSource.match(/new reseller\.\w+\(/g) ?? []).length);
    expect(declarations(domainSource).filter((d) => !declarations(allSource).includes(d))).toEqual([]);
    // The four programs type-check (--domain with contacts from config, --domain, --all with contacts
    // from config, --all), each as its own module.
    expect(typeCheck(...["contacts", "domain", "all-contacts", "all"].map((p) => path.join(dir, p)))).toEqual([]);

    // --contacts config: with the registry's contacts in secret config, up adopts with no change, and
    // no contact detail is in any program, README or output.
    const client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret });
    const live = await client.getContacts(zone);
    expect(live.registrant?.email).toBeTruthy();
    const email = live.registrant!.email;
    for (const text of [fs.readFileSync(path.join(project, "index.ts"), "utf8"), fs.readFileSync(path.join(project, "README.md"), "utf8"), ...out])
      expect(text).not.toContain(email);

    // The four roles only: the view also carries fields (e.g. pending changes) that are not contacts.
    const roles = Object.fromEntries((["registrant", "admin", "tech", "billing"] as const).filter((r) => live[r]).map((r) => [r, live[r]]));
    // What the generated README tells the user to do: the contacts as the registry holds them, as a secret object.
    const e = engine("contacts", { config: { "imported:contacts": JSON.stringify(roles) }, secretConfigKeys: ["imported:contacts"] });
    const declared = (fs.readFileSync(path.join(project, "index.ts"), "utf8").match(/new reseller\.\w+\(/g) ?? []).length;
    const adopted = await e.up(generatedProgram(project));
    expect(adopted.errors).toEqual([]);
    expect(adopted.summary).toMatchObject({ create: declared, update: 0, replace: 0, delete: 0 });
    const again = await e.up(generatedProgram(project));
    expect(again.summary).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0, same: declared });
    expect(e.serializedState()).not.toContain(email);

    // --all (and so every resource of --domain, see above): adopted, then a second up changes nothing.
    const whole = engine("all");
    const all = await whole.up(generatedProgram(path.join(dir, "all")));
    expect(all.errors).toEqual([]);
    expect(all.summary).toMatchObject({ create: (allSource.match(/new reseller\.\w+\(/g) ?? []).length, update: 0, replace: 0 });
    expect((await whole.up(generatedProgram(path.join(dir, "all")))).summary).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });

    expect(mutatingCalls()).toEqual([]);
    expect(charges()).toBe(0);
  }, 600_000);
});
