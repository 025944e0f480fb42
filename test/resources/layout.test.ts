/**
 * resources/ keeps the two processes apart by folder (resources/README.md, "Two processes"): the
 * program's side (program/, each kind's resource.ts, index.ts) never loads host-side code, the
 * host's side (host/, kit/, each kind's schema, diff and handler, runtime.ts) never loads program-side
 * code, shared/ (libraries both link) loads neither, and the declarations (kinds.ts, each kind's
 * args.ts and state.ts) hold no behaviour. Read statically from the sources' import statements with
 * the TypeScript parser, so a file put on the wrong side fails here before it runs anywhere.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const root = path.resolve(__dirname, "..", "..");
const RESOURCES = path.join(root, "resources");

type Side = "program" | "host" | "shared" | "declarations" | "provider";

/** Kind folders: one per resource kind (two kinds share domain-addon/). */
const KIND_FOLDERS = ["domain", "dns-zone", "dns-record", "zone-template", "child-host", "domain-addon", "epp-code", "zone-records"];

/** The side of a module of resources/ by its path (relative to resources/, with "/"); undefined: it has no place. */
function sideOf(rel: string): Side | undefined {
  const [top, file] = rel.split("/");
  if (rel === "kinds.ts") return "declarations";
  if (rel === "index.ts") return "program";
  if (rel === "runtime.ts" || rel === "handlers.ts") return "host";
  if (top === "program") return "program";
  // provider/: the native provider plugin (issue 45), a host of the handlers like host/, which also serves the read-only functions (Invoke).
  if (top === "provider") return "provider";
  if (top === "host" || top === "kit") return "host";
  if (top === "shared") return "shared";
  if (KIND_FOLDERS.includes(top) && file) {
    if (file === "args.ts" || file === "state.ts") return "declarations";
    if (file === "resource.ts") return "program";
    return "host";
  }
  return undefined;
}

/** The program-side modules the native provider runs: the read-only functions its Invoke serves. */
const PROVIDER_SERVES = ["program/functions.ts", "program/lookups.ts", "program/invoke.ts"];

interface Import {
  /** Resolved path relative to resources/ ("../provider/x.ts" for modules outside), or the bare name. */
  target: string;
  typeOnly: boolean;
}

/** A module's imports, re-exports and requires; `import type` and `export type` (or only `type` names) are type-only. */
function importsOf(rel: string, text: string): Import[] {
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.ES2022, true);
  const out: Import[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    if (!spec.startsWith(".")) {
      out.push({ target: spec, typeOnly });
      return;
    }
    const abs = path.resolve(path.dirname(path.join(RESOURCES, rel)), spec);
    const file = [`${abs}.ts`, path.join(abs, "index.ts")].find((f) => fs.existsSync(f)) ?? `${abs}.ts`;
    out.push({ target: path.relative(RESOURCES, file).split(path.sep).join("/"), typeOnly });
  };
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const c = n.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(n.moduleSpecifier.text, typeOnly);
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      const named = n.exportClause && ts.isNamedExports(n.exportClause) ? n.exportClause.elements : undefined;
      add(n.moduleSpecifier.text, n.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
    } else if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "require" && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) {
      add(n.arguments[0].text, false);
    } else if (ts.isImportTypeNode(n)) {
      // `import("x").T` in a type: type-only, nothing to check.
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** Whether a declarations module holds behaviour: anything but types, type imports and (kinds.ts only) constants. */
function behaviourIn(rel: string, text: string): string[] {
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  for (const s of sf.statements) {
    if (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) continue;
    if (ts.isImportDeclaration(s) && s.importClause?.isTypeOnly) continue;
    if (ts.isExportDeclaration(s) && s.isTypeOnly) continue;
    // kinds.ts: names and tokens as constants (a string, or a template of one).
    if (rel === "kinds.ts" && ts.isVariableStatement(s) && s.declarationList.flags & ts.NodeFlags.Const) continue;
    found.push(`${rel}: ${s.getText(sf).split("\n")[0]}`);
  }
  return found;
}

/** The faults of a set of modules (path relative to resources/ → text): each a line naming the file and the rule. */
function faults(modules: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [rel, text] of Object.entries(modules)) {
    const side = sideOf(rel);
    if (!side) {
      out.push(`${rel}: not on a side (program/, host/, kit/, shared/, a kind folder, or kinds.ts)`);
      continue;
    }
    if (side === "declarations") out.push(...behaviourIn(rel, text));
    for (const i of importsOf(rel, text)) {
      const to = i.target.startsWith("..") ? undefined : sideOf(i.target);
      if (side === "declarations" && !i.typeOnly) out.push(`${rel}: declarations import ${i.target} for its values`);
      if (side === "program" && to === "host" && !i.typeOnly) out.push(`${rel}: program side loads host code ${i.target}`);
      if (side === "host" && to === "program") out.push(`${rel}: host side imports program code ${i.target}`);
      if (side === "shared" && (to === "program" || to === "host")) out.push(`${rel}: shared code imports ${to} code ${i.target}`);
      if (side === "provider" && to === "program" && !i.typeOnly && !PROVIDER_SERVES.includes(i.target)) out.push(`${rel}: the native provider loads program code ${i.target}`);
      if (side !== "provider" && to === "provider" && !i.typeOnly) out.push(`${rel}: loads the native provider's code ${i.target}`);
      if (side === "shared" && i.target === "@pulumi/pulumi" && !i.typeOnly) out.push(`${rel}: shared code loads @pulumi/pulumi`);
    }
  }
  return out;
}

function sources(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".ts")) out[path.relative(RESOURCES, p).split(path.sep).join("/")] = fs.readFileSync(p, "utf8");
    }
  };
  walk(RESOURCES);
  return out;
}

test("no module of resources/ serves both processes: each side loads only its own code, shared/ and the declarations", () => {
  const all = sources();
  expect(Object.keys(all).length).toBeGreaterThan(40);
  expect(faults(all)).toEqual([]);
});

test("every kind folder holds its arguments, check, handler and class", () => {
  const all = sources();
  const missing = KIND_FOLDERS.flatMap((k) => ["args.ts", "state.ts", "handler.ts", "resource.ts"].filter((f) => !(`${k}/${f}` in all)).map((f) => `${k}/${f}`));
  expect(missing).toEqual([]);
  // Every folder of resources/ is a side or a kind: a new one must say which.
  const folders = fs.readdirSync(RESOURCES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  expect(folders.filter((f) => !["program", "host", "kit", "provider", "shared", ...KIND_FOLDERS].includes(f))).toEqual([]);
});

test("the check fails on each kind of fault (it is not vacuous)", () => {
  expect(
    faults({
      "program/x.ts": 'import { preflight } from "../kit/preflight";\nimport type { HostContext } from "../kit/context";\n',
      "domain/resource.ts": 'import { domainHandler } from "./handler";\n',
      "host/y.ts": 'import type { ResellerResourceOptions } from "../program/register";\n',
      "shared/z.ts": 'import { Host } from "../host/host";\nimport * as pulumi from "@pulumi/pulumi";\n',
      "dns-zone/args.ts": 'import { z } from "zod";\nexport const x = 1;\nexport interface Y { a: string }\n',
      "kinds.ts": "export function f() { return 1; }\n",
      "stray.ts": "",
      "program/req.ts": 'const run = () => require("../runtime");\n',
    }),
  ).toEqual([
    "program/x.ts: program side loads host code kit/preflight.ts",
    "domain/resource.ts: program side loads host code domain/handler.ts",
    "host/y.ts: host side imports program code program/register.ts",
    "shared/z.ts: shared code imports host code host/host.ts",
    "shared/z.ts: shared code loads @pulumi/pulumi",
    "dns-zone/args.ts: import { z } from \"zod\";",
    "dns-zone/args.ts: export const x = 1;",
    "dns-zone/args.ts: declarations import zod for its values",
    "kinds.ts: export function f() { return 1; }",
    "stray.ts: not on a side (program/, host/, kit/, shared/, a kind folder, or kinds.ts)",
    "program/req.ts: program side loads host code runtime.ts",
  ]);
});

/** The kinds' names, as kinds.ts declares them (`export type Kind = "Domain" | ...`). */
function kindNames(): string[] {
  const text = fs.readFileSync(path.join(RESOURCES, "kinds.ts"), "utf8");
  const union = /export type Kind = ([^;]+);/.exec(text)?.[1] ?? "";
  return [...union.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

/** Where a framework module (one no kind owns: kit/, host/, shared/, program/, runtime.ts) spells a kind's name as a string. */
function kindNamesIn(modules: Record<string, string>, kinds: string[]): string[] {
  const out: string[] = [];
  for (const [rel, text] of Object.entries(modules)) {
    const top = rel.split("/")[0];
    if (!["kit", "host", "shared", "program"].includes(top) && rel !== "runtime.ts") continue;
    const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.ES2022, true);
    const visit = (n: ts.Node): void => {
      if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && kinds.includes(n.text)) out.push(`${rel}: names the kind "${n.text}"`);
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

test("no framework module names a kind: a kind's own rules are its folder's, reached through its handler's hooks", () => {
  const kinds = kindNames();
  expect(kinds).toContain("DnsRecord");
  expect(kindNamesIn(sources(), kinds)).toEqual([]);
  // Not vacuous: a dispatch that asks for a kind by name is found.
  expect(kindNamesIn({ "host/x.ts": 'if (name !== "DnsRecord") return;\n', "dns-record/y.ts": 'const k = "DnsRecord";\n' }, kinds)).toEqual(['host/x.ts: names the kind "DnsRecord"']);
});

/**
 * The floors of resources/, from the top: runtime.ts, host/ (and a native provider/), handlers.ts,
 * the kind folders, then kit/ and program/, then shared/ and kinds.ts. An import goes down; the
 * one way up allowed is a program-side type (a kind's args.ts or state.ts, erased when compiled).
 */
function upwardImports(modules: Record<string, string>): string[] {
  const floor = (rel: string): number => {
    const top = rel.split("/")[0];
    if (rel === "runtime.ts") return 6;
    if (top === "host" || top === "provider") return 5;
    if (rel === "handlers.ts" || rel === "index.ts") return 4;
    if (KIND_FOLDERS.includes(top)) return 3;
    if (top === "kit" || top === "program") return 2;
    return 1;
  };
  const out: string[] = [];
  for (const [rel, text] of Object.entries(modules)) {
    for (const i of importsOf(rel, text)) {
      if (i.target.startsWith("..") || !i.target.endsWith(".ts")) continue;
      const up = floor(i.target) > floor(rel) || (floor(i.target) === floor(rel) && floor(rel) === 2 && i.target.split("/")[0] !== rel.split("/")[0]);
      const declaration = /\/(args|state)\.ts$/.test(i.target);
      if (up && !(i.typeOnly && declaration)) out.push(`${rel} imports ${i.target}${i.typeOnly ? " (types)" : ""}, a floor above it`);
    }
  }
  return out;
}

test("imports in resources/ run one way: down the floors, or a type of a kind's declarations", () => {
  expect(upwardImports(sources())).toEqual([]);
  // Not vacuous: the kit reaching into a kind, or a kind into the handler table, is named.
  expect(
    upwardImports({
      "kit/x.ts": 'import { zonesInRun } from "../dns-zone/zones-in-run";\n',
      "dns-record/y.ts": 'import type { OutputsOf } from "../handlers";\n',
      "program/z.ts": 'import type { DomainContacts } from "../domain/args";\n',
    }),
  ).toEqual(["kit/x.ts imports dns-zone/zones-in-run.ts, a floor above it", "dns-record/y.ts imports handlers.ts (types), a floor above it"]);
});
