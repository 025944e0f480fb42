#!/usr/bin/env node
/**
 * `reseller-pulumi import`: reads a live account and writes a Pulumi program that adopts it.
 *   With --import-file it also writes the file of `pulumi import --file` (./import-file.ts), whose
 *   resources carry their inputs and outputs, so the real CLI takes them in as imports without a
 *   Read (which cannot work for a dynamic provider: pulumi/pulumi#3550, #16175).
 * `reseller-pulumi sandbox`: starts the local sandbox (sandbox/cli.ts).
 * `reseller-pulumi expiring`: domains expiring soon, and whether a stack renews each (./expiring.ts).
 * `reseller-pulumi plugin-tarball`: the native provider plugin for `pulumi plugin install --file` (./plugin-tarball.ts).
 */
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { ResellerClient } from "../api/client";
import { DEFAULT_CONTRACT, resolveContract } from "../api/contract";
import { checkConnectionSettings, isSettingError, type SettingName } from "../api/settings";
import { isGoneStage, isNotFound } from "../api/vocabulary";
import { recordTypeRule } from "../dns";
import { ZoneFileError, toRecords } from "../dns/zonefile";
import { declaredDomains, expiringDomains, formatExpiring, StateFileError, type DeclaredDomain, type ExpiryReader } from "./expiring";
import { canonicalHost } from "../resources/shared/normalize";
import { canonicalEstate } from "./canonical";
import { declarations, generateProject, lineOf, nextSteps, slug, type Migration } from "./codegen";
import { dependencySpec } from "./dependency";
import { readEstate, type EstateReader, type ImportScope } from "./estate";
import { IMPORT_FILE, importFile, readOnlyClient } from "./import-file";
import { writePluginTarball } from "./plugin-tarball";
import { terminalText } from "./terminal-text";
import type { ResellerApi } from "../resources/shared/api";

const USAGE = `Usage: reseller-pulumi import (--zone DOMAIN | --domain DOMAIN | --all) [options]
       reseller-pulumi import --zone-file FILE --zone DOMAIN [--out DIR] [--name NAME] [--include-dir DIR]
       reseller-pulumi expiring --days N [--state FILE]... [--json] [--base-url URL] [--key KEY]
       reseller-pulumi plugin-tarball [--out DIR]
       reseller-pulumi sandbox [--port N] [--host H] [--key K] [--secret S] [--data FILE] [--rate N] [--delay SECONDS]

\`plugin-tarball\` writes the native provider plugin, with what it needs to run but Node.js, as
pulumi-resource-reseller-v<version>.tar.gz in DIR (default .), and prints the command that installs
it into the Pulumi CLI's plugin cache.

\`sandbox\` starts the local sandbox of the API in the foreground (port 8787; --port 0 picks a free
one) and prints the reseller:baseUrl, reseller:apiKey and reseller:apiSecret to use with it.

Reads the live account (GET requests only) and writes a TypeScript Pulumi program whose
resources adopt what exists: the first \`pulumi up\` buys nothing and changes nothing.

With --zone-file, reads a BIND zone file instead (no API call) and writes a program that creates
the zone and its records, to move DNS hosting here from another provider. Records the service
manages itself (SOA, the apex NS) or cannot hold are listed with the reason, never dropped silently.

  --zone DOMAIN     the DNS zone of DOMAIN and its records
  --zone-file FILE  a BIND zone file for DOMAIN, read as BIND loads it ($ORIGIN, $TTL,
                    $INCLUDE relative to the file, $GENERATE, relative names, parentheses)
  --include-dir DIR the folder $INCLUDE may read from, and below (default: the zone file's
                    folder); an $INCLUDE outside it, links followed, is refused
  --domain DOMAIN   the domain, its child hosts, privacy, protection, zone and records
  --all             every domain and zone of the account
  --out DIR         where to write the program (default ./imported)
  --base-url URL    service scheme and host (or RESELLER_BASE_URL)
  --key KEY         API key (or RESELLER_API_KEY)
  --name NAME       Pulumi project name (default: derived from the scope)
  --requests-per-minute N
                    client-side rate limit (default: the service's 60 a minute; raise it only
                    when your credential allows more)
  --import-file     also write import.json, the file of \`pulumi import --file\`: the CLI then shows
                    every resource as an import (\`=\`), with each one's state as the program's first
                    \`up\` would store it, computed here by read-only requests; nothing is written or bought
  --stack NAME      with --import-file: the stack the resources go into (default dev); its name
                    and the project's (--name) are part of each resource's state
  --only NAMES      with --import-file: only these resources (comma-separated names as in index.ts),
                    to adopt one object made by hand into an existing stack (--name and --stack
                    naming that stack's project and stack)
  --protect BOOL    true (default): every adopted resource is declared with protect: true, so
                    \`pulumi destroy\` or a removed declaration fails for it instead of deleting
                    it; false: declared with protect: false (the generated README says which)
  --whole-zone      each zone's records as one DnsZoneRecords (a zone declared whole), not one
                    DnsRecord per record
  --record-types T,U
                    record type names the service holds beyond IANA's DNS types (the same list
                    as reseller:contract's recordTypes); a record of any other unknown type is
                    not carried over, and listed with the nearest known type
  --contacts MODE   omit (default): adopted domains keep their contacts, the program has none;
                    config: the program reads them from the secret stack config \`contacts\`
  --dependency SPEC the reseller-pulumi entry of the generated package.json, written as given:
                    default ^<this version> (from the npm registry); or file:PATH, relative
                    to --out (a checkout, or a .tgz from npm pack), or a git URL such as
                    github:OWNER/reseller-pulumi#TAG. Refused unless npm could install it.
  -h, --help        this text

\`expiring\` lists the account's domains that expire within N days (GET requests only) and, for
each, whether a stack renews it: a Domain of that name with a renewal policy that comes due before
it expires, in a stack state given with --state (the output of \`pulumi stack export\`; - reads
stdin; repeat it for each stack). The service has no auto-renew: a renewal happens only when
\`pulumi up\` runs. Exit status: 0 when every domain in the window is renewed, 1 when one is not,
2 when the check could not run (arguments, credentials, the service, a state file).

  --days N          the window, in whole days from today (0 to 3650)
  --state FILE      a stack's exported state (\`pulumi stack export --file FILE\`), or - for stdin
  --json            the list as JSON, one object per domain, instead of text

The API secret is read from RESELLER_API_SECRET only, so it never lands in shell history.`;

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** Client-side rate limit; the client's default is the service's stated 60 a minute. */
  requestsPerMinute?: number;
  /** How errors name the key and secret: as this command reads them. */
  credentialSettings: string;
}

export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
  cwd: string;
  /** Builds the API client; tests may pass another reader. Default: api/client's ResellerClient. */
  client?: (opts: ClientOptions) => EstateReader & ExpiryReader;
  /** The time, in ms since the epoch; default Date.now. */
  now?: () => number;
  /** Reads standard input whole (`--state -`); default process.stdin. */
  stdin?: () => Promise<string>;
}

/** Wrong or missing arguments: exit code 2 and the usage text. */
class UsageError extends Error {
  override readonly name = "UsageError";
}

/** `fn`'s error as a usage error (exit 2, with the usage text). */
function usage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** The real API client, loaded only when an import runs (so `--help` and usage errors stay instant). */
function defaultClient(o: ClientOptions): EstateReader & ExpiryReader {
  const { ResellerClient: Client } = require("../api/client") as { ResellerClient: typeof ResellerClient };
  return new Client(o);
}

function scopeFrom(values: { zone?: string; domain?: string; all?: boolean }): ImportScope {
  const chosen = [values.zone !== undefined, values.domain !== undefined, values.all === true].filter(Boolean).length;
  if (chosen !== 1) throw new UsageError("choose exactly one of --zone DOMAIN, --domain DOMAIN or --all");
  const name = values.zone ?? values.domain;
  if (name !== undefined && !canonicalHost(name).includes(".")) throw new UsageError(`"${name}" is not a domain name`);
  if (values.zone !== undefined) return { kind: "zone", domain: canonicalHost(values.zone) };
  if (values.domain !== undefined) return { kind: "domain", domain: canonicalHost(values.domain) };
  return { kind: "all" };
}

/** A 404 while importing one name means the name is wrong (or not this account's): say that first. */
function explain(e: unknown, scope: ImportScope): unknown {
  if (!isNotFound(e) || scope.kind === "all") return e;
  const what = scope.kind === "zone" ? `no DNS zone ${scope.domain} is hosted` : `there is no domain ${scope.domain}`;
  const hint = scope.kind === "zone" ? " (--domain imports a domain without a hosted zone)" : "";
  return new Error(`${what} in this account${hint}. Check the name; --all imports everything the account has.`);
}

/** `--record-types ALIAS,ANAME`: extra type names, checked as the contract's recordTypes entry is. */
function recordTypesFrom(text: string | undefined): string[] {
  if (text === undefined) return DEFAULT_CONTRACT.recordTypes;
  const names = text.split(",").map((t) => t.trim()).filter((t) => t !== "");
  try {
    resolveContract({ recordTypes: names });
  } catch (e) {
    throw new UsageError(`--record-types: ${(e as Error).message.replace(/^contract override: "recordTypes" /, "")}`);
  }
  return names;
}

/** Write a file whole or not at all (temp file + rename). */
function writeAtomic(path: string, content: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

/** The flags every command that calls the service takes (and --help). */
const CONNECTION_FLAGS = {
  "base-url": { type: "string" },
  key: { type: "string" },
  "requests-per-minute": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The connection from flags and the environment (the secret from the environment only), checked before any request. */
function clientOptions(values: { "base-url"?: string; key?: string; "requests-per-minute"?: string }, io: CliIo): ClientOptions {
  const baseUrl = values["base-url"] ?? io.env.RESELLER_BASE_URL;
  const apiKey = values.key ?? io.env.RESELLER_API_KEY;
  const apiSecret = io.env.RESELLER_API_SECRET;
  if (!baseUrl) throw new UsageError("no service URL: pass --base-url or set RESELLER_BASE_URL");
  if (!apiKey) throw new UsageError("no API key: pass --key or set RESELLER_API_KEY");
  if (!apiSecret) throw new UsageError("no API secret: set RESELLER_API_SECRET (it is never taken as a flag)");

  const rpmText = values["requests-per-minute"];
  const requestsPerMinute = rpmText === undefined ? undefined : Number(rpmText);
  if (requestsPerMinute !== undefined && !(Number.isFinite(requestsPerMinute) && requestsPerMinute > 0))
    throw new UsageError(`--requests-per-minute must be a positive number, not "${rpmText}"`);

  // The client's own shape rules (https, credentials a header can carry), named as this command takes them.
  const names: Record<SettingName, string> = {
    baseUrl: "--base-url (or RESELLER_BASE_URL)",
    apiKey: "--key (or RESELLER_API_KEY)",
    apiSecret: "RESELLER_API_SECRET",
    requestsPerMinute: "--requests-per-minute",
    timeoutMs: "timeout",
  };
  try {
    checkConnectionSettings({ baseUrl, apiKey, apiSecret, requestsPerMinute }, (k) => names[k]);
  } catch (e) {
    throw isSettingError(e) ? new UsageError(e.message) : e;
  }
  return { baseUrl, apiKey, apiSecret, credentialSettings: "RESELLER_API_KEY or --key, and RESELLER_API_SECRET", ...(requestsPerMinute ? { requestsPerMinute } : {}) };
}

async function runImport(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      zone: { type: "string" },
      "zone-file": { type: "string" },
      domain: { type: "string" },
      all: { type: "boolean" },
      out: { type: "string" },
      name: { type: "string" },
      contacts: { type: "string" },
      "whole-zone": { type: "boolean" },
      dependency: { type: "string" },
      "record-types": { type: "string" },
      "include-dir": { type: "string" },
      "import-file": { type: "boolean" },
      stack: { type: "string" },
      only: { type: "string" },
      protect: { type: "string" },
      ...CONNECTION_FLAGS,
    },
    strict: true,
  });
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const recordTypes = recordTypesFrom(values["record-types"]);
  if (values.protect !== undefined && values.protect !== "true" && values.protect !== "false") throw new UsageError(`--protect must be true or false, not "${values.protect}"`);
  const protect = values.protect !== "false";
  if (values["zone-file"] !== undefined && values.protect !== undefined) throw new UsageError("--protect is for what the account already runs; a zone file's records are created by the stack, so they are not protected");
  if (values["zone-file"] !== undefined) return migrateZoneFile(values["zone-file"], { ...values, recordTypes }, io);
  const scope = scopeFrom(values);
  const options = clientOptions(values, io);
  const contacts = values.contacts ?? "omit";
  if (contacts !== "omit" && contacts !== "config") throw new UsageError(`--contacts must be omit or config, not "${contacts}"`);
  const withImport = values["import-file"] === true;
  if (!withImport && (values.stack !== undefined || values.only !== undefined)) throw new UsageError("--stack and --only go with --import-file");
  if (withImport && contacts === "config")
    throw new UsageError("--import-file with --contacts config: the contacts come from the stack config, which this command does not read, so the import could not hold them; import without --contacts config, then add the contacts to the program");
  const stack = values.stack ?? "dev";
  if (!/^[A-Za-z0-9_.-]+$/.test(stack)) throw new UsageError(`--stack: "${stack}" is not a stack name (letters, digits, "_", "-" and ".")`);
  const outDir = resolve(io.cwd, values.out ?? "imported");
  const dependency = usage(() => dependencySpec(values.dependency, outDir));
  const makeClient = io.client ?? defaultClient;
  // With --import-file, the estate read and the adoptions share one read-only client: each question asked once.
  const client = withImport ? readOnlyClient(makeClient(options)) : makeClient(options);
  const read = canonicalEstate(await readEstate(client, scope).catch((e: unknown) => Promise.reject(explain(e, scope))));
  // A record of a type check would refuse (a typo that became a live record) is not written into the program: listed instead.
  const refused: string[] = [];
  const estate = {
    ...read,
    zones: read.zones.map((z) => ({
      ...z,
      records: z.records.filter((r) => {
        const rule = recordTypeRule(r.type, recordTypes);
        if (rule) refused.push(`  not carried over: ${r.name === "@" ? z.domain : `${r.name}.${z.domain}`} ${r.type} ${r.content}`.slice(0, 160) + ` -- type: ${JSON.stringify(r.type)} ${rule}; fix or delete it in the zone (the program leaves it alone)`);
        return !rule;
      }),
    })),
  };
  const gone = estate.domains.filter((d) => isGoneStage(d.stage));
  if (scope.kind === "domain" && gone.length)
    throw new Error(`${scope.domain} is in stage ${gone[0].stage}: it no longer belongs to this account, so there is nothing to adopt`);
  const name = values.name ?? (scope.kind === "all" ? "reseller-account" : `${scope.domain}-${scope.kind}`);
  let imports: { count: number; protect: boolean; only?: string[] } | undefined;
  let importText: string | undefined;
  if (withImport) {
    let decls = declarations(estate, { contacts, wholeZone: values["whole-zone"] });
    const only = values.only?.split(",").map((n) => n.trim()).filter(Boolean);
    if (only) {
      const known = new Set(decls.map((d) => d.name));
      const unknown = only.filter((n) => !known.has(n));
      if (unknown.length)
        throw new UsageError(`--only: ${unknown.map((n) => JSON.stringify(n)).join(", ")} ${unknown.length === 1 ? "is" : "are"} not among the ${decls.length} resource(s) read: ${[...known].slice(0, 20).join(", ")}${known.size > 20 ? ", ..." : ""}`);
      decls = decls.filter((d) => only.includes(d.name));
    }
    const { serializedShim } = require("../resources/program/shim") as typeof import("../resources/program/shim");
    const file = await importFile(decls, { project: slug(name), stack }, options, client as unknown as ResellerApi, await serializedShim());
    importText = JSON.stringify(file, null, 2) + "\n";
    imports = { count: file.resources.length, protect, ...(only ? { only } : {}) };
  }
  mkdirSync(outDir, { recursive: true });
  for (const file of generateProject(estate, { name, dependency, contacts, wholeZone: values["whole-zone"], protect, ...(imports ? { imports: { stack, ...imports } } : {}) })) writeAtomic(join(outDir, file.path), file.content);
  if (importText !== undefined) writeAtomic(join(outDir, IMPORT_FILE), importText);

  const held = estate.domains.filter((d) => !isGoneStage(d.stage)).length;
  const records = estate.zones.reduce((n, z) => n + z.records.length, 0);
  const shownDir = values.out ?? "imported";
  if (gone.length)
    io.out(`Skipped ${gone.length} domain(s) the account no longer holds: ${gone.map((d) => `${d.domain} (${d.stage})`).join(", ")}`);
  io.out(`Imported ${held} domain(s), ${estate.zones.length} zone(s), ${records} record(s) into ${shownDir}/index.ts`);
  for (const line of refused) io.out(line);
  if (imports) io.out(`Wrote ${shownDir}/${IMPORT_FILE}: ${imports.count} resource(s) for \`pulumi import --file\`, stack ${stack} of project ${slug(name)}`);
  io.out("\nNext:\n" + nextSteps(shownDir, held ? contacts : "omit", undefined, imports ? { stack, ...imports } : undefined));
  return 0;
}

/** `--zone-file FILE --zone DOMAIN`: a program creating the file's records; offline, no credentials. */
function migrateZoneFile(
  file: string,
  values: { zone?: string; domain?: string; all?: boolean; out?: string; name?: string; dependency?: string; "whole-zone"?: boolean; "include-dir"?: string; recordTypes: string[] },
  io: CliIo,
): number {
  if (values.zone === undefined || values.domain !== undefined || values.all) throw new UsageError("--zone-file FILE needs --zone DOMAIN (the zone the file describes), and neither --domain nor --all");
  const zone = canonicalHost(values.zone);
  if (!zone.includes(".")) throw new UsageError(`"${values.zone}" is not a domain name`);
  const top = resolve(io.cwd, file);
  let text: string;
  try {
    text = readFileSync(top, "utf8");
  } catch (e) {
    throw new Error(`cannot read the zone file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const includeDir = values["include-dir"];
  const root = usage(() => {
    try {
      return realpathSync(resolve(io.cwd, includeDir ?? dirname(top)));
    } catch (e) {
      throw new Error(`--include-dir ${includeDir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  });
  let read: ReturnType<typeof toRecords>;
  try {
    // $INCLUDE names a file relative to the including file; shown relative to the zone file's directory.
    // Only inside the include folder (links resolved first): a zone file from elsewhere must not read
    // ~/.ssh or /etc into the program it writes.
    const include = (name: string, from: string | undefined) => {
      const path = resolve(dirname(from === undefined ? top : resolve(dirname(top), from)), name);
      const real = realpathSync(path);
      const inside = relative(root, real);
      if (inside.startsWith("..") || isAbsolute(inside))
        throw new Error(`it is outside ${includeDir === undefined ? "the zone file's folder" : "the --include-dir folder"} ${root}; pass --include-dir DIR to read $INCLUDE files from another folder`);
      return { path: relative(dirname(top), path), text: readFileSync(real, "utf8") };
    };
    read = toRecords(text, zone, DEFAULT_CONTRACT.ttl, { include, recordTypes: values.recordTypes });
  } catch (e) {
    if (e instanceof ZoneFileError) throw new Error(`${file}: ${e.message}`);
    throw e;
  }
  const migration: Migration = { file, skipped: read.skipped, notes: read.notes };
  // Canonical already (the table read them): not canonicalized a second time.
  const records = read.records.map(({ line: _line, file: _file, extra, ...r }) => ({ ...r, extra: extra ? { ...extra } : null }));
  const estate = { domains: [], zones: [{ domain: zone, records }] };
  const outDir = resolve(io.cwd, values.out ?? "imported");
  const dependency = usage(() => dependencySpec(values.dependency, outDir));
  mkdirSync(outDir, { recursive: true });
  for (const f of generateProject(estate, { name: values.name ?? `${zone}-zone`, dependency, migration, wholeZone: values["whole-zone"] })) writeAtomic(join(outDir, f.path), f.content);
  const shownDir = values.out ?? "imported";
  io.out(`Read ${records.length + read.skipped.length} record(s) from ${file}: ${records.length} to create in ${zone}, ${read.skipped.length} not carried over, into ${shownDir}/index.ts`);
  for (const x of read.skipped) io.out(`  not carried over: ${lineOf(x)}: ${x.record} -- ${x.reason}`);
  for (const x of read.notes) io.out(`  changed: ${lineOf(x)}: ${x.record} -- ${x.reason}`);
  io.out("\nNext:\n" + nextSteps(shownDir, "omit", { records: records.length, wholeZone: values["whole-zone"] }));
  return 0;
}

/** Standard input, whole. */
function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (c: string) => (text += c));
    process.stdin.on("end", () => resolve(text));
    process.stdin.on("error", reject);
  });
}

/** `expiring --days N [--state FILE]...`: 0 when every domain in the window is renewed, 1 when one is not. */
async function runExpiring(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      days: { type: "string" },
      state: { type: "string", multiple: true },
      json: { type: "boolean" },
      ...CONNECTION_FLAGS,
    },
    strict: true,
  });
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const daysText = values.days;
  if (daysText === undefined) throw new UsageError("--days N is required: the window, in whole days from today");
  const days = /^\d+$/.test(daysText) ? Number(daysText) : NaN;
  if (!(days >= 0 && days <= 3650)) throw new UsageError(`--days must be a whole number of days from 0 to 3650, not "${daysText}"`);
  const options = clientOptions(values, io);
  const states = values.state ?? [];
  if (states.filter((f) => f === "-").length > 1) throw new UsageError("--state - (stdin) can be given once");
  const declared: DeclaredDomain[] = [];
  for (const file of states) {
    let text: string;
    try {
      text = file === "-" ? await (io.stdin ?? readStdin)() : readFileSync(resolve(io.cwd, file), "utf8");
    } catch (e) {
      throw new StateFileError(`cannot read the stack state ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    declared.push(...declaredDomains(text, file === "-" ? "stdin" : file));
  }
  const nowMs = (io.now ?? Date.now)();
  const found = await expiringDomains((io.client ?? defaultClient)(options), days, declared, nowMs);
  if (values.json) io.out(JSON.stringify(found, null, 2));
  else for (const line of formatExpiring(found, days, nowMs, states.length)) io.out(line);
  return found.some((f) => !f.renewed) ? 1 : 0;
}

/** `plugin-tarball [--out DIR]`: the plugin tarball of this installed package, and the command that installs it. */
async function runPluginTarball(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { out: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true });
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const outDir = resolve(io.cwd, values.out ?? ".");
  mkdirSync(outDir, { recursive: true });
  const { file, version } = await writePluginTarball(resolve(__dirname, "..", ".."), outDir);
  io.out(file);
  io.out(`install it: pulumi plugin install resource reseller ${version} --file ${relative(io.cwd, file) || file}`);
  return 0;
}

export async function main(argv: string[], given: CliIo): Promise<number> {
  // What the service (or a state file) said reaches the terminal escaped: every line goes out here.
  const io: CliIo = { ...given, out: (l) => given.out(terminalText(l)), err: (l) => given.err(terminalText(l)) };
  const [command, ...rest] = argv;
  try {
    if (command === "import") return await runImport(rest, io);
    if (command === "expiring") return await runExpiring(rest, io);
    if (command === "plugin-tarball") return await runPluginTarball(rest, io);
    if (command === undefined || command === "--help" || command === "-h" || command === "help") {
      io.out(USAGE);
      return command === undefined ? 2 : 0;
    }
    throw new UsageError(`unknown command "${command}"`);
  } catch (e) {
    // A client error should never carry the secret; if one did, it stops here.
    const secret = io.env.RESELLER_API_SECRET;
    let message = e instanceof Error ? e.message : String(e);
    if (secret) message = message.split(secret).join("[secret]");
    io.err(`reseller-pulumi: ${message}`);
    const usage = e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") === true;
    if (usage) io.err("\n" + USAGE);
    // expiring's 1 means "a domain lapses": a check that could not run says so apart.
    return usage || command === "expiring" ? 2 : 1;
  }
}

if (require.main === module && process.argv[2] === "sandbox") {
  // Runs until SIGINT/SIGTERM; loaded only here, so `import` never pulls in the server.
  void (require("../sandbox/cli") as typeof import("../sandbox/cli")).runSandbox(process.argv.slice(3));
} else if (require.main === module) {
  main(process.argv.slice(2), {
    env: process.env,
    out: (l) => process.stdout.write(l + "\n"),
    err: (l) => process.stderr.write(l + "\n"),
    cwd: process.cwd(),
  }).then((code) => process.exit(code));
}
