/**
 * Writes a TypeScript Pulumi program that adopts an estate (./estate): every resource carries
 * `adopt: true` and inputs equal to the live values, so the first `pulumi up` takes everything
 * into state without a charge or a change. Pure: same estate in, same text out, whatever order
 * the API listed things in.
 */
import { createHash } from "node:crypto";
import { isGoneStage } from "../api/vocabulary";
import { CONTACT_FIELDS, type Contact } from "../api/shapes";
import { recordIdentityParts } from "../dns";
import type { Estate, EstateDomain, EstateHost, EstateRecord, EstateZone } from "./estate";

/** The contact fields in the Domain's names, for the generated README. */
const CONTACT_FIELD_LIST = [...CONTACT_FIELDS.required, ...CONTACT_FIELDS.optional].join(", ");

/** One `pulumi config set` line per field a registrant needs, with a placeholder for its value. */
const CONTACT_CONFIG_LINES = Object.entries({
  name: "<NAME>",
  email: "<EMAIL>",
  phone: "<+PHONE>",
  addressLine1: "<ADDRESS>",
  city: "<CITY>",
  state: "<STATE>",
  postalCode: "<POSTAL CODE>",
  country: "<CC>",
} satisfies Partial<Record<keyof Contact, string>>)
  .map(([field, placeholder]) => `pulumi config set --secret --path contacts.registrant.${field} '${placeholder}'`)
  .join("\n");

/** Stages in which a domain no longer belongs to the account: nothing to adopt. */

export interface GeneratedFile {
  path: string;
  content: string;
}

export interface ProjectOptions {
  /** Pulumi project name (slugged). */
  name: string;
  /** The `reseller-pulumi` dependency of the generated package.json, e.g. "^0.1.0" or "file:../..". */
  dependency: string;
  /**
   * How the program gives each Domain its contacts. "omit": an adopted Domain without contacts
   * leaves them as they are. "config": read from the secret stack config object `contacts`
   * (one contact set for every domain), which the README tells the user to set.
   */
  contacts?: "omit" | "config";
  /**
   * Set when the program migrates a zone from a zone file (`--zone-file`): the zone and its records
   * are created, not adopted, and what the file held that is not carried over is listed.
   */
  migration?: Migration;
  /** Each zone's records as one DnsZoneRecords (`--whole-zone`) instead of one DnsRecord each. */
  wholeZone?: boolean;
  /** Set when an import file (`--import-file`) is written beside the program. */
  imports?: ImportFileSteps;
  /**
   * The `protect` option of every adopted resource (default true, `--protect false` turns it off):
   * `pulumi destroy`, a removed declaration or a replacement then fails for it instead of deleting
   * what the user only meant to bring under management. Not for a zone file's resources (created).
   */
  protect?: boolean;
}

/** What the next steps say of an import file: its stack, how many resources, (`--only`) which, and whether the program protects them. */
export interface ImportFileSteps {
  stack: string;
  count: number;
  only?: string[];
  protect: boolean;
}

/** The command that takes an import file in: protected as the program declares them, no code (the program is written). */
export const pulumiImportCommand = (protect: boolean): string => `pulumi import --file import.json --protect=${protect} --generate-code=false --yes`;

/** The options argument of a declaration: `protect` for an adopted resource (undefined: a created one), then its dependencies. */
function resourceOptions(protect: boolean | undefined, dependsOn?: string): string | undefined {
  const parts = [...(protect === undefined ? [] : [`protect: ${protect}`]), ...(dependsOn ? [`dependsOn: ${dependsOn}`] : [])];
  return parts.length ? `{ ${parts.join(", ")} }` : undefined;
}

/** A zone file's records not carried over, and records taken with a change, each with its line and reason. */
export interface Migration {
  file: string;
  skipped: MigrationLine[];
  notes: MigrationLine[];
}

/** One record of the zone file: its line (and the included file it is in, if any), the record and the reason. */
export interface MigrationLine {
  line: number;
  file?: string;
  record: string;
  reason: string;
}

/** Where a record is in the zone file: "line 12", or "sub/hosts.zone line 3" in an included file. */
export const lineOf = (x: MigrationLine): string => `${x.file ? `${x.file} ` : ""}line ${x.line}`;

/** A Pulumi logical name: lower case, [a-z0-9-], no leading/trailing or doubled dashes. */
export function slug(text: string): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s || "x";
}

export function shortHash(parts: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 6);
}

/** Record identity (the record table's): what tells two records of one zone apart. */
const recordIdentity = (r: EstateRecord): unknown[] => recordIdentityParts(r);

/** A readable hint of a record's content for its name, at most 24 characters plus the priority: "10-mail" for `MX 10 mail.example.com`. */
function contentHint(zone: string, r: EstateRecord): string {
  let c = r.content.toLowerCase();
  const z = zone.toLowerCase();
  if (c.endsWith("." + z)) c = c.slice(0, -(z.length + 1));
  else if (c === z) c = "apex";
  const words = slug(c).slice(0, 24).replace(/-+$/, "");
  const prio = r.priority !== null && r.priority !== undefined ? `${r.priority}-` : "";
  return prio + (words || "x");
}

/**
 * Stable name of a record: zone, type, owner name ("@" reads "apex"), a short readable hint of
 * the content, and a short hash of the record's identity (type, name, content, priority, extra),
 * e.g. `example-com-mx-apex-10-mail-1a2b3c`. Deterministic, and two records of one name and type
 * never share a name.
 */
export function recordResourceName(zone: string, r: EstateRecord): string {
  const owner = r.name === "@" || r.name === "" ? "apex" : slug(r.name);
  return `${slug(zone)}-${r.type.toLowerCase()}-${owner}-${contentHint(zone, r)}-${shortHash(recordIdentity(r))}`;
}

/** Code written into the program as is (not a literal). */
export class Code {
  constructor(readonly text: string) {}
}

/** An object literal's key: bare when it is an identifier, else quoted. */
const propertyKey = (k: string): string => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k));

/** A TypeScript literal for a JSON-like value (JSON strings are valid TypeScript strings). */
export function literal(value: unknown, indent = ""): string {
  if (value instanceof Code) return value.text;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, indent)).join(", ")}]`;
  const inner = indent + "  ";
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${inner}${propertyKey(k)}: ${literal(v, inner)},`);
  return entries.length ? `{\n${entries.join("\n")}\n${indent}}` : "{}";
}

/**
 * Text safe inside a `//` comment: one line. Control characters and the Unicode line terminators
 * (which end a `//` comment in TypeScript) become "?"; other text, "§" included, stays as it is (UTF-8).
 */
export function commentText(text: string): string {
  return text.replace(/[\x00-\x1f\x7f\u0085\u2028\u2029]/g, "?");
}

function declare(className: string, name: string, args: Record<string, unknown>, opts?: string): string {
  return `new reseller.${className}(${JSON.stringify(name)}, ${literal(args)}${opts ? `, ${opts}` : ""});\n`;
}

const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T): number =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/**
 * Base names per domain. Two domains whose slugs collide ("a-b.com", "a.b.com") both get a hash of
 * their own name appended, so neither takes the other's name.
 */
export function domainBaseNames(domains: string[]): Map<string, string> {
  const bySlug = new Map<string, string[]>();
  for (const d of new Set(domains)) bySlug.set(slug(d), [...(bySlug.get(slug(d)) ?? []), d]);
  const out = new Map<string, string>();
  for (const [s, ds] of bySlug) for (const d of ds) out.set(d, ds.length > 1 ? `${s}-${shortHash([d])}` : s);
  return out;
}

/** One resource the program declares: its class (also its kind), logical name and arguments as written. */
export interface Declaration {
  kind: "Domain" | "ChildHost" | "PrivacyAddon" | "Protection" | "DnsZone" | "DnsRecord" | "DnsZoneRecords";
  name: string;
  args: Record<string, unknown>;
}

/** A domain and what hangs off it (child hosts, privacy, protection), in declaration order. */
function domainDeclarations(d: EstateDomain, base: string, contacts: "omit" | "config"): Declaration[] {
  const args: Record<string, unknown> = { domain: d.domain };
  if (contacts === "config") args.contacts = new Code("contacts");
  if (d.nameservers.length) args.nameservers = [...d.nameservers];
  if (d.locked !== null) args.locked = d.locked;
  args.adopt = true;
  const out: Declaration[] = [{ kind: "Domain", name: base, args }];
  for (const h of [...d.hosts].sort(byKey((x: EstateHost) => x.hostname)))
    out.push({ kind: "ChildHost", name: `${base}-host-${slug(h.hostname)}`, args: { domain: d.domain, hostname: h.hostname, ipv4: [...h.ipv4], ipv6: [...h.ipv6], adopt: true } });
  if (d.privacy) out.push({ kind: "PrivacyAddon", name: `${base}-privacy`, args: { domain: d.domain, adopt: true } });
  if (d.protection) out.push({ kind: "Protection", name: `${base}-protection`, args: { domain: d.domain, adopt: true } });
  return out;
}

function domainBlock(d: EstateDomain, base: string, contacts: "omit" | "config", protect: boolean): string {
  let out = `\n// ${commentText(d.domain)} (stage ${commentText(d.stage)} when imported)\n`;
  for (const x of domainDeclarations(d, base, contacts)) out += declare(x.kind, x.name, x.args, resourceOptions(protect));
  return out;
}

/**
 * Zones with at least this many records are declared from a table by a loop that gives the Pulumi
 * SDK a turn every TABLE_YIELD_EVERY records: the SDK sends no registration while the program runs
 * without a break, so a straight run of thousands of declarations reaches the engine only once it
 * has all been declared (README, "Stacks of thousands of records").
 */
export const RECORD_TABLE_FROM = 500;
const TABLE_YIELD_EVERY = 100;

/** A zone's records in declaration order: resource name and arguments (zone and adopt left out). */
function zoneRecords(z: EstateZone): { name: string; args: Record<string, unknown> }[] {
  const seen = new Map<string, number>();
  return [...z.records]
    .sort(byKey((x: EstateRecord) => JSON.stringify([x.name, ...recordIdentity(x)])))
    .map((r) => {
      let name = recordResourceName(z.domain, r);
      // Exact duplicates (same type, name, content) would collide; number them in sorted order.
      const n = (seen.get(name) ?? 0) + 1;
      seen.set(name, n);
      if (n > 1) name = `${name}-${n}`;
      const args: Record<string, unknown> = { type: r.type, name: r.name, content: r.content, ttl: r.ttl };
      if (r.priority !== null && r.priority !== undefined) args.priority = r.priority;
      if (r.extra && Object.keys(r.extra).length) args.extra = recordIdentityParts(r)[4]; // keys in order, as the identity has them
      return { name, args };
    });
}

/** A one-line TypeScript literal of a JSON-like value (a table row). */
function inlineLiteral(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(inlineLiteral).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${propertyKey(k)}: ${inlineLiteral(v)}`);
  return entries.length ? `{ ${entries.join(", ")} }` : "{}";
}

/** A zone's arguments: adopted, or (a zone file's) created once its domain delegates to the service. */
const zoneArgs = (z: EstateZone, create: boolean): Record<string, unknown> => (create ? { domain: z.domain, waitForDelegation: true } : { domain: z.domain, adopt: true });

/** A record's arguments, as declared inline or by the table loop (which spreads a table row the same way). */
const recordArgs = (z: EstateZone, args: Record<string, unknown>, create: boolean): Record<string, unknown> => ({ zone: z.domain, ...args, ...(create ? {} : { adopt: true }) });

/** A zone's record table: its variable, the zone's variable, and the zone's domain. */
interface TableRef {
  zoneVar: string;
  tableVar: string;
  domain: string;
}

/** A zone and its records; a zone of RECORD_TABLE_FROM records or more gets a table, declared by `declareRecords`. */
function zoneBlock(z: EstateZone, base: string, create = false, whole = false, protect = true): { code: string; table?: TableRef } {
  const ident = base.replace(/-/g, "_");
  const zoneVar = `zone_${ident}`;
  const records = zoneRecords(z);
  // Adopted objects are protected (or not) as asked; a zone file's are created, and left as Pulumi's default.
  const kept = create ? undefined : protect;
  if (whole) return { code: wholeZoneBlock(z, base, zoneVar, records.map((r) => r.args), create, kept) };
  const tabled = records.length >= RECORD_TABLE_FROM;
  let out = `\n// DNS zone ${commentText(z.domain)}: ${z.records.length} record(s)${tabled ? ", declared from the table below by declareRecords" : ""}\n`;
  // A created zone takes records only once active (delegated to the service): the zone waits for it.
  out += `const ${zoneVar} = ${declare("DnsZone", `${base}-zone`, zoneArgs(z, create), resourceOptions(kept))}`;
  if (tabled) {
    const tableVar = `records_${ident}`;
    out += `const ${tableVar}: RecordTable = {\n${records.map((r) => `  ${JSON.stringify(r.name)}: ${inlineLiteral(r.args)},\n`).join("")}};\n`;
    return { code: out, table: { zoneVar, tableVar, domain: z.domain } };
  }
  // A DS comes after the NS records of its delegation and depends on them: a DS is only at a
  // delegation point (RFC 4035 §2.4), so it can be made only once they are.
  const dsAt = new Set(records.filter((r) => r.args.type === "DS").map((r) => r.args.name));
  const delegations = new Map<unknown, string[]>();
  const decl = (r: (typeof records)[number], after: string[] = []) =>
    declare("DnsRecord", r.name, recordArgs(z, r.args, create), resourceOptions(kept, `[${[zoneVar, ...after].join(", ")}]`));
  for (const r of records.filter((x) => x.args.type !== "DS")) {
    if (r.args.type !== "NS" || !dsAt.has(r.args.name)) {
      out += decl(r);
      continue;
    }
    const v = `${zoneVar}_ns_${[...delegations.values()].flat().length + 1}`;
    delegations.set(r.args.name, [...(delegations.get(r.args.name) ?? []), v]);
    out += `const ${v} = ${decl(r)}`;
  }
  for (const r of records.filter((x) => x.args.type === "DS")) out += decl(r, delegations.get(r.args.name));
  return { code: out };
}

/**
 * A zone and one DnsZoneRecords holding its records, one line each. Its first up takes every live
 * record it declares (nothing is created twice) and leaves the others, listed as unmanaged.
 */
function wholeZoneBlock(z: EstateZone, base: string, zoneVar: string, records: Record<string, unknown>[], create: boolean, protect: boolean | undefined): string {
  return (
    `\n// DNS zone ${commentText(z.domain)}: ${z.records.length} record(s), declared whole by one DnsZoneRecords\n` +
    `const ${zoneVar} = ${declare("DnsZone", `${base}-zone`, zoneArgs(z, create), resourceOptions(protect))}` +
    `new reseller.DnsZoneRecords(${JSON.stringify(`${base}-records`)}, {\n  zone: ${JSON.stringify(z.domain)},\n  records: [\n` +
    records.map((r) => `    ${inlineLiteral(r)},\n`).join("") +
    `  ],\n}, ${resourceOptions(protect, `[${zoneVar}]`)});\n`
  );
}

/** The end of a program with record tables: their type, the loop that declares them, and the program's entry point. */
function tablesEnd(tables: TableRef[], create: boolean, protect: boolean): string {
  return (
    "\n// Zones of " +
    RECORD_TABLE_FROM +
    " records or more are declared from tables, giving the Pulumi SDK a turn every\n" +
    `// ${TABLE_YIELD_EVERY} records: it sends the first ones to the engine while the rest are declared.\n` +
    'type RecordTable = Record<string, Omit<reseller.DnsRecordArgs, "zone" | "adopt">>;\n\n' +
    "async function declareRecords(zone: reseller.DnsZone, domain: string, table: RecordTable): Promise<void> {\n" +
    "  let declared = 0;\n" +
    "  // A DS comes after the NS records of its delegation and depends on them (RFC 4035 §2.4).\n" +
    "  const delegations = new Map<string, reseller.DnsRecord[]>();\n" +
    "  const rows = Object.entries(table);\n" +
    '  for (const [name, record] of [...rows.filter(([, r]) => r.type !== "DS"), ...rows.filter(([, r]) => r.type === "DS")]) {\n' +
    '    const owner = String(record.name ?? "@");\n' +
    '    const after = record.type === "DS" ? (delegations.get(owner) ?? []) : [];\n' +
    `    const made = new reseller.DnsRecord(name, { zone: domain, ...record${create ? "" : ", adopt: true"} }, ${resourceOptions(create ? undefined : protect, "[zone, ...after]")});\n` +
    '    if (record.type === "NS") delegations.set(owner, [...(delegations.get(owner) ?? []), made]);\n' +
    `    if (++declared % ${TABLE_YIELD_EVERY} === 0) await new Promise((resolve) => setImmediate(resolve));\n` +
    "  }\n" +
    "}\n\n" +
    "// The Pulumi runner calls this and waits for it; stack outputs are what it returns.\n" +
    "export = async () => {\n" +
    tables.map((t) => `  await declareRecords(${t.zoneVar}, ${JSON.stringify(t.domain)}, ${t.tableVar});\n`).join("") +
    "};\n"
  );
}

/** Domains the program declares: those the account still holds, sorted by name. */
function heldDomains(estate: Estate): EstateDomain[] {
  return estate.domains.filter((d) => !isGoneStage(d.stage)).sort(byKey((d: EstateDomain) => d.domain));
}

/**
 * Every resource the program declares, in its order, with the arguments it passes: what
 * `reseller-pulumi import --import-file` turns into the file of `pulumi import --file` (./import-file.ts).
 */
export function declarations(estate: Estate, opts: Pick<ProjectOptions, "contacts" | "migration" | "wholeZone"> = {}): Declaration[] {
  const domains = heldDomains(estate);
  const zones = [...estate.zones].sort(byKey((z: EstateZone) => z.domain));
  const bases = domainBaseNames([...domains.map((d) => d.domain), ...zones.map((z) => z.domain)]);
  const create = opts.migration !== undefined;
  const out: Declaration[] = domains.flatMap((d) => domainDeclarations(d, bases.get(d.domain)!, opts.contacts ?? "omit"));
  for (const z of zones) {
    const base = bases.get(z.domain)!;
    const records = zoneRecords(z);
    out.push({ kind: "DnsZone", name: `${base}-zone`, args: zoneArgs(z, create) });
    if (opts.wholeZone) out.push({ kind: "DnsZoneRecords", name: `${base}-records`, args: { zone: z.domain, records: records.map((r) => r.args) } });
    else out.push(...records.map((r) => ({ kind: "DnsRecord" as const, name: r.name, args: recordArgs(z, r.args, create) })));
  }
  return out;
}

/** The program's index.ts. */
export function generateProgram(estate: Estate, opts: Pick<ProjectOptions, "contacts" | "migration" | "wholeZone" | "protect"> = {}): string {
  const contacts = opts.contacts ?? "omit";
  const protect = opts.protect ?? true;
  const domains = heldDomains(estate);
  const zones = [...estate.zones].sort(byKey((z: EstateZone) => z.domain));
  const bases = domainBaseNames([...domains.map((d) => d.domain), ...zones.map((z) => z.domain)]);
  const m = opts.migration;
  let out = m
    ? `// Generated by \`reseller-pulumi import --zone-file\` from ${commentText(m.file)}: the first\n` +
      "// `pulumi up` creates the zone, waits until the domain is delegated to the service's\n" +
      "// nameservers (records change only on an active zone), then creates the records.\n" +
      migrationComment(m)
    : "// Generated by `reseller-pulumi import`. Every resource adopts what already exists:\n" +
      "// the first `pulumi up` takes it into state without buying or changing anything.\n" +
      "// Edit freely afterwards; a change then shows as a normal diff. `adopt: true` may stay:\n" +
      "// a record, zone or child host changed into a new one is created when there is nothing\n" +
      "// identical to take; a Domain, PrivacyAddon or Protection is never bought while it is set.\n" +
      "// To rename a resource or move it under a component, add its old name with `aliases`.\n" +
      (protect
        ? "// `protect: true`: `pulumi destroy`, a removed declaration or a replacement fails for these\n" +
          "// resources rather than delete what was only brought under management. Set it to false on a\n" +
          "// resource (then `pulumi up`) to let this stack delete it; README.md says more.\n"
        : "// `protect: false` (imported with --protect false): `pulumi destroy` deletes these zones, records,\n" +
          "// child hosts and add-ons. Set it to true (then `pulumi up`) to refuse that; README.md says more.\n");
  if (contacts === "config" && domains.length) {
    out +=
      "// Contacts are personal data: they come from the secret stack config `contacts`\n" +
      "// (see README.md), never from this file.\n" +
      'import * as pulumi from "@pulumi/pulumi";\n' +
      'import * as reseller from "reseller-pulumi";\n\n' +
      "const config = new pulumi.Config();\n" +
      'const contacts = config.requireSecretObject<reseller.DomainContactsArgs>("contacts");\n';
  } else {
    out +=
      "// Contacts are not written here (personal data): they stay as they are unless you declare them.\n" +
      'import * as reseller from "reseller-pulumi";\n';
  }
  for (const d of domains) out += domainBlock(d, bases.get(d.domain)!, contacts, protect);
  const tables: TableRef[] = [];
  for (const z of zones) {
    const { code, table } = zoneBlock(z, bases.get(z.domain)!, m !== undefined, opts.wholeZone, protect);
    out += code;
    if (table) tables.push(table);
  }
  return tables.length ? out + tablesEnd(tables, m !== undefined, protect) : out;
}

/** The zone file's lines not carried over, and those taken with a change, as `//` comment lines. */
function migrationComment(m: Migration): string {
  const line = (x: MigrationLine) => `//   ${commentText(lineOf(x))}: ${commentText(x.record)} -- ${commentText(x.reason)}\n`;
  let out = "";
  if (m.skipped.length) out += `// Not carried over (${m.skipped.length}):\n${m.skipped.map(line).join("")}`;
  if (m.notes.length) out += `// Carried over with a change (${m.notes.length}):\n${m.notes.map(line).join("")}`;
  return out;
}

/** Every file of the generated project. */
/**
 * Pulumi's TypeScript template's tsconfig (github.com/pulumi/templates, typescript/tsconfig.json),
 * unchanged: module resolution that honours package `exports`, and no skipLibCheck (the package's
 * declarations type-check as they are).
 */
export const PULUMI_TEMPLATE_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "nodenext",
    moduleResolution: "nodenext",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

export function generateProject(estate: Estate, opts: ProjectOptions): GeneratedFile[] {
  const name = slug(opts.name);
  const contacts = heldDomains(estate).length ? (opts.contacts ?? "omit") : "omit";
  return [
    { path: "index.ts", content: generateProgram(estate, { contacts, migration: opts.migration, wholeZone: opts.wholeZone, protect: opts.protect }) },
    {
      path: "Pulumi.yaml",
      content:
        `name: ${name}\n` +
        "description: Imported from the reseller account by reseller-pulumi\n" +
        "runtime:\n  name: nodejs\n  options:\n    typescript: true\n",
    },
    {
      path: "package.json",
      content:
        JSON.stringify(
          {
            name,
            private: true,
            main: "index.ts",
            dependencies: { "@pulumi/pulumi": "^3.248.0", "reseller-pulumi": opts.dependency },
            devDependencies: { "@types/node": "^22", typescript: "~5.9.0" },
          },
          null,
          2,
        ) + "\n",
    },
    {
      path: "tsconfig.json",
      content: JSON.stringify(PULUMI_TEMPLATE_TSCONFIG, null, 4) + "\n",
    },
    { path: "README.md", content: opts.migration ? migrationReadme(name, estate, opts.migration, opts.wholeZone) : projectReadme(name, estate, contacts, opts.protect ?? true, opts.imports) },
  ];
}

/**
 * What to run next, printed by the command and written into the project's README. `creates`: the
 * program migrates a zone file, so the first `up` creates the zone and that many records instead of
 * adopting what exists.
 */
export function nextSteps(dir: string | undefined, contacts: "omit" | "config" = "omit", creates?: { records: number; wholeZone?: boolean }, imports?: ImportFileSteps): string {
  if (imports?.only)
    return [
      `# in the project of stack ${imports.stack}, with import.json${dir === undefined ? "" : ` from ${dir}`}:`,
      `${pulumiImportCommand(imports.protect)}   # ${imports.count} to import: no create, no purchase, no change`,
      `# then copy the declaration${imports.only.length === 1 ? "" : "s"} of ${imports.only.join(", ")} from ${dir === undefined ? "" : `${dir}/`}index.ts into your program`,
      "pulumi preview                  # no changes",
    ].join("\n");
  return [
    ...(dir === undefined ? [] : [`cd ${dir}`]),
    "npm install",
    "pulumi login --local            # or your usual backend",
    `pulumi stack init ${imports?.stack ?? "dev"}`,
    "pulumi config set reseller:apiKey <API_KEY>",
    // With no value on the command line: the secret stays out of shell history and process lists.
    `pulumi config set --secret reseller:apiSecret     # asks for it, not echoed; or pipe it in: printf '%s' "$RESELLER_API_SECRET" | pulumi config set --secret reseller:apiSecret`,
    "pulumi config set reseller:baseUrl <BASE_URL>",
    ...(contacts === "config" ? ["pulumi config set --secret --path contacts.registrant.name '<NAME>'   # and the other fields: see README.md"] : []),
    ...(imports
      ? [`${pulumiImportCommand(imports.protect)}   # ${imports.count} to import: no create, no purchase, no change`, "pulumi preview                  # no changes"]
      : creates === undefined
      ? ["pulumi preview                  # expect only creates (adoptions), no updates", "pulumi up                       # adopts: no purchase, no change"]
      : [
          creates.wholeZone
            ? `pulumi preview                  # expect 2 creates: the zone and one DnsZoneRecords of ${creates.records} record(s)`
            : `pulumi preview                  # expect ${creates.records + 1} creates: the zone and ${creates.records} record(s)`,
          "pulumi up                       # creates the zone, waits for the delegation, creates the records",
        ]),
    imports ? "pulumi up                       # no changes" : "pulumi up                       # again: no changes",
  ].join("\n");
}

function migrationReadme(name: string, estate: Estate, m: Migration, wholeZone = false): string {
  const z = estate.zones[0];
  const list = (xs: MigrationLine[]) => xs.map((x) => `- ${lineOf(x)}: \`${x.record.replace(/`/g, "'")}\` — ${x.reason}`).join("\n");
  return `# ${name}

Generated by \`reseller-pulumi import --zone-file ${m.file}\`: the DNS zone ${z.domain} and its
${z.records.length} record(s), to be created by the first \`pulumi up\`. The zone takes records only once
it is active, that is once the domain is delegated to the service's nameservers: \`up\` creates the
zone, waits for the delegation (\`waitForDelegation\`), then creates the records.

\`\`\`sh
${nextSteps(undefined, "omit", { records: z.records.length, wholeZone })}
\`\`\`
${m.skipped.length ? `\n## Not carried over (${m.skipped.length})\n\n${list(m.skipped)}\n` : ""}${m.notes.length ? `\n## Carried over with a change (${m.notes.length})\n\n${list(m.notes)}\n` : ""}`;
}

function importParagraph(imports: ImportFileSteps): string {
  return `
\`import.json\` takes ${imports.only ? imports.only.join(", ") : "them"} into stack \`${imports.stack}\` as imports: \`pulumi import --file\`
shows each as \`=\` (import), with the state the first \`up\` would have stored, read when this
was generated. Nothing is created, bought or changed. Import it before the first \`up\`; a
resource changed on the service since is corrected by the \`up\` after it, as any change is.
`;
}

/** The generated README's section on destroy: which protection applies, and how to change it. */
function protectionSection(protect: boolean): string {
  return protect
    ? `
## Protected from destroy

Every resource is declared with \`protect: true\` (the default of \`reseller-pulumi import\`, as of
\`pulumi import\`): \`pulumi destroy\`, removing a declaration, or an edit that replaces a resource
fails for it, naming it, and deletes nothing of what you brought under management. To let this
stack delete one, set \`protect: false\` in its options and \`pulumi up\` (or \`pulumi state
unprotect <urn>\`); to stop managing everything and keep it all, \`pulumi stack rm --force\`
removes the stack's state and nothing else. \`reseller-pulumi import --protect false\` writes the
program without protection.
`
    : `
## Not protected from destroy

Written with \`--protect false\`: every resource is declared with \`protect: false\`, so \`pulumi
destroy\` deletes these zones, records and child hosts and disables privacy (a Domain is never
deleted, and Protection cannot be removed through the API). To refuse that, set \`protect: true\` in
their options and \`pulumi up\` (or \`pulumi state protect <urn>\`).
`;
}

function projectReadme(name: string, estate: Estate, contacts: "omit" | "config", protect: boolean, imports?: ImportFileSteps): string {
  const domains = heldDomains(estate);
  const records = estate.zones.reduce((n, z) => n + z.records.length, 0);
  const counts = [
    [domains.length, "domain"],
    [estate.zones.length, "zone"],
    [records, "record"],
  ]
    .filter(([n]) => n !== 0)
    .map(([n, what]) => `${n} ${what}${n === 1 ? "" : "s"}`)
    .join(", ") || "nothing";
  const contactSection = !domains.length
    ? ""
    : contacts === "config"
      ? `
## Contacts

The program reads the domains' contacts from the secret config object \`contacts\`
(\`registrant\`, and optionally \`admin\`, \`tech\`, \`billing\`, each with the fields
${CONTACT_FIELD_LIST}).
Set them as they are at the registry, so the first \`pulumi up\` changes nothing:

\`\`\`sh
${CONTACT_CONFIG_LINES}
\`\`\`
`
      : `
## Contacts

Contacts are personal data and are not in this program: adopted domains keep theirs as they
are. To manage them with Pulumi, read them from secret config (\`config.requireSecretObject\`)
and pass them as the Domain's \`contacts\`.
`;
  return `# ${name}

Generated by \`reseller-pulumi import\`: ${counts}.
Every resource has \`adopt: true\`: on the first \`pulumi up\` it checks that the object exists
and takes it into state without buying or changing anything. After that the program is yours:
edit it and \`pulumi up\` as usual. \`adopt: true\` can stay: a record, zone or child host that an
edit turns into a new object is created when no identical one exists; a Domain, PrivacyAddon or
Protection is never bought while it is set (remove it to buy).

${imports ? importParagraph(imports) : ""}
\`\`\`sh
${nextSteps(undefined, contacts, undefined, imports)}
\`\`\`
${protectionSection(protect)}${contactSection}
## Names

Resource names are derived from the domain, the record's type, name and content, plus a short
hash of the record, so importing again produces the same names whatever order the API lists
things in. To rename a resource or move it under a component, keep the old name in the
\`aliases\` resource option (e.g. \`{ aliases: [{ name: "old-name" }] }\`): the engine then
moves it in state and makes no API call. Without aliases Pulumi creates the new name and deletes
the old one; reseller-pulumi then hands the live object over and deletes nothing (README,
"Moving resources").
`;
}
