#!/usr/bin/env node
/**
 * `reseller-pulumi import`: reads a live account and writes a Pulumi program that adopts it.
 * `reseller-pulumi sandbox`: starts the local sandbox (sandbox/cli.ts).
 * With --import-file it also writes the file of `pulumi import --file` (./import-file.ts), so the
 * real CLI takes the resources in as imports.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { ResellerClient } from "../provider/client";
import { DEFAULT_CONTRACT } from "../provider/contract";
import { checkConnectionSettings, isSettingError, type SettingName } from "../provider/settings";
import { isGoneStage, isNotFound } from "../provider/vocabulary";
import { ZoneFileError, toRecords } from "../provider/records/zonefile";
import { canonicalHost } from "../resources/shared/normalize";
import { canonicalEstate } from "./canonical";
import { declarations, generateProject, lineOf, nextSteps, slug, type Migration } from "./codegen";
import { dependencySpec } from "./dependency";
import { readEstate, type EstateReader, type ImportScope } from "./estate";
import { IMPORT_FILE, importFile, readOnlyClient } from "./import-file";
import type { ResellerApi } from "../resources/shared/api";

const USAGE = `Usage: reseller-pulumi import (--zone DOMAIN | --domain DOMAIN | --all) [options]
       reseller-pulumi import --zone-file FILE --zone DOMAIN [--out DIR] [--name NAME]
       reseller-pulumi sandbox [--port N] [--host H] [--key K] [--secret S] [--data FILE] [--rate N] [--delay SECONDS]

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
  --whole-zone      each zone's records as one DnsZoneRecords (a zone declared whole), not one
                    DnsRecord per record
  --contacts MODE   omit (default): adopted domains keep their contacts, the program has none;
                    config: the program reads them from the secret stack config \`contacts\`
  --dependency SPEC the reseller-pulumi entry of the generated package.json, written as given:
                    default ^<this version> (from the npm registry); or file:PATH, relative
                    to --out (a checkout, or a .tgz from npm pack), or a git URL such as
                    github:OWNER/reseller-pulumi#TAG. Refused unless npm could install it.
  -h, --help        this text

The API secret is read from RESELLER_API_SECRET only, so it never lands in shell history.`;

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** Client-side rate limit; the client's default is the service's stated 60 a minute. */
  requestsPerMinute?: number;
}

export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
  cwd: string;
  /** Builds the API client; tests may pass another reader. Default: provider/client's ResellerClient. */
  client?: (opts: ClientOptions) => EstateReader;
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
function defaultClient(o: ClientOptions): EstateReader {
  const { ResellerClient: Client } = require("../provider/client") as { ResellerClient: typeof ResellerClient };
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

/** Write a file whole or not at all (temp file + rename). */
function writeAtomic(path: string, content: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
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
      "base-url": { type: "string" },
      key: { type: "string" },
      name: { type: "string" },
      contacts: { type: "string" },
      "whole-zone": { type: "boolean" },
      "import-file": { type: "boolean" },
      stack: { type: "string" },
      only: { type: "string" },
      dependency: { type: "string" },
      "requests-per-minute": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (values["zone-file"] !== undefined) return migrateZoneFile(values["zone-file"], values, io);
  const scope = scopeFrom(values);
  const baseUrl = values["base-url"] ?? io.env.RESELLER_BASE_URL;
  const apiKey = values.key ?? io.env.RESELLER_API_KEY;
  const apiSecret = io.env.RESELLER_API_SECRET;
  if (!baseUrl) throw new UsageError("no service URL: pass --base-url or set RESELLER_BASE_URL");
  if (!apiKey) throw new UsageError("no API key: pass --key or set RESELLER_API_KEY");
  if (!apiSecret) throw new UsageError("no API secret: set RESELLER_API_SECRET (it is never taken as a flag)");
  const contacts = values.contacts ?? "omit";
  if (contacts !== "omit" && contacts !== "config") throw new UsageError(`--contacts must be omit or config, not "${contacts}"`);
  const withImport = values["import-file"] === true;
  if (!withImport && (values.stack !== undefined || values.only !== undefined)) throw new UsageError("--stack and --only go with --import-file");
  if (withImport && contacts === "config")
    throw new UsageError("--import-file with --contacts config: the contacts come from the stack config, which this command does not read, so the import could not hold them; import without --contacts config, then add the contacts to the program");
  const stack = values.stack ?? "dev";
  if (!/^[A-Za-z0-9_.-]+$/.test(stack)) throw new UsageError(`--stack: "${stack}" is not a stack name (letters, digits, "_", "-" and ".")`);

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
  const outDir = resolve(io.cwd, values.out ?? "imported");
  const dependency = usage(() => dependencySpec(values.dependency, outDir));
  const makeClient = io.client ?? defaultClient;
  const options: ClientOptions = { baseUrl, apiKey, apiSecret, ...(requestsPerMinute ? { requestsPerMinute } : {}) };
  // With --import-file, the estate read and the adoptions share one read-only client: each question asked once.
  const client = withImport ? readOnlyClient(makeClient(options)) : makeClient(options);
  const estate = canonicalEstate(await readEstate(client, scope).catch((e: unknown) => Promise.reject(explain(e, scope))));
  const gone = estate.domains.filter((d) => isGoneStage(d.stage));
  if (scope.kind === "domain" && gone.length)
    throw new Error(`${scope.domain} is in stage ${gone[0].stage}: it no longer belongs to this account, so there is nothing to adopt`);
  const name = values.name ?? (scope.kind === "all" ? "reseller-account" : `${scope.domain}-${scope.kind}`);
  let imports: { count: number; only?: string[] } | undefined;
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
    imports = { count: file.resources.length, ...(only ? { only } : {}) };
  }
  mkdirSync(outDir, { recursive: true });
  for (const file of generateProject(estate, { name, dependency, contacts, wholeZone: values["whole-zone"], ...(imports ? { imports: { stack, ...imports } } : {}) })) writeAtomic(join(outDir, file.path), file.content);
  if (importText !== undefined) writeAtomic(join(outDir, IMPORT_FILE), importText);

  const held = estate.domains.filter((d) => !isGoneStage(d.stage)).length;
  const records = estate.zones.reduce((n, z) => n + z.records.length, 0);
  const shownDir = values.out ?? "imported";
  if (gone.length)
    io.out(`Skipped ${gone.length} domain(s) the account no longer holds: ${gone.map((d) => `${d.domain} (${d.stage})`).join(", ")}`);
  io.out(`Imported ${held} domain(s), ${estate.zones.length} zone(s), ${records} record(s) into ${shownDir}/index.ts`);
  if (imports) io.out(`Wrote ${shownDir}/${IMPORT_FILE}: ${imports.count} resource(s) for \`pulumi import --file\`, stack ${stack} of project ${slug(name)}`);
  io.out("\nNext:\n" + nextSteps(shownDir, held ? contacts : "omit", undefined, imports ? { stack, ...imports } : undefined));
  return 0;
}

/** `--zone-file FILE --zone DOMAIN`: a program creating the file's records; offline, no credentials. */
function migrateZoneFile(file: string, values: { zone?: string; domain?: string; all?: boolean; out?: string; name?: string; dependency?: string; "whole-zone"?: boolean }, io: CliIo): number {
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
  let read: ReturnType<typeof toRecords>;
  try {
    // $INCLUDE names a file relative to the including file; shown relative to the zone file's directory.
    const include = (name: string, from: string | undefined) => {
      const path = resolve(dirname(from === undefined ? top : resolve(dirname(top), from)), name);
      return { path: relative(dirname(top), path), text: readFileSync(path, "utf8") };
    };
    read = toRecords(text, zone, DEFAULT_CONTRACT.ttl, { include });
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

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === "import") return await runImport(rest, io);
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
    return usage ? 2 : 1;
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
