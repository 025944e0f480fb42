/**
 * Makes the native provider's schema.json from the declarations the resources and functions are
 * made of, read with the TypeScript compiler: each kind's `<Kind>Args` (inputs: doc, optional or
 * required) and its class (outputs: the list its resource.ts registers, with the class's docs), the
 * secret outputs the constructors declare (`SECRET_OUTPUTS`), the functions the plugin serves
 * (resources/provider/functions.ts) with their argument and result types, and the settings
 * (`SETTING_DOCS`) as config variables. `npm run provider-schema` writes it; `--check` fails when
 * the committed file differs (test/resources/provider/schema.test.ts checks it).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { SETTING_DOCS } from "../../resources/shared/api";
import { FUNCTIONS } from "../../resources/provider/functions";
import { SECRET_OUTPUTS } from "../../resources/program/register";
import { typeToken, type Kind } from "../../resources/kinds";

const ROOT = path.resolve(__dirname, "..", "..", "..");
/** Where the package keeps it (the plugin reads it there: resources/provider/schema.ts). */
export const SCHEMA_PATH = path.join(ROOT, "schema.json");
const PACKAGE = "reseller";

type Spec = Record<string, unknown>;

export function buildSchema(root = ROOT): Spec {
  const index = path.join(root, "resources", "index.ts");
  const program = ts.createProgram([index, path.join(root, "resources", "kinds.ts")], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, strict: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const exportsOf = (file: string): Map<string, ts.Symbol> => {
    const sf = program.getSourceFile(file)!;
    const m = new Map<string, ts.Symbol>();
    for (const s of checker.getExportsOfModule(checker.getSymbolAtLocation(sf)!)) m.set(s.name, s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
    return m;
  };
  const exported = exportsOf(index);
  const kindsFile = program.getSourceFile(path.join(root, "resources", "kinds.ts"))!;
  const kindAlias = kindsFile.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === "Kind")!;
  const kinds = (checker.getTypeFromTypeNode(kindAlias.type) as ts.UnionType).types.map((t) => (t as ts.StringLiteralType).value) as Kind[];

  const types: Record<string, Spec> = {};
  const docOf = (s: ts.Symbol): string => ts.displayPartsToString(s.getDocumentationComment(checker)).trim();

  /** The members of a union that are values (not a Promise or Output of one, undefined or null). */
  const values = (t: ts.Type): ts.Type[] => {
    const parts = t.isUnion() ? t.types : [t];
    return parts.filter((p) => {
      if (p.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)) return false;
      const name = p.getSymbol()?.name;
      return name !== "Promise" && name !== "OutputInstance" && name !== "Output";
    });
  };
  const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

  function typeSpec(t: ts.Type, hint: string): Spec {
    let parts = values(t);
    if (parts.length > 1 && parts.every((p) => p.flags & ts.TypeFlags.BooleanLike)) return { type: "boolean" };
    if (parts.length > 1 && parts.every((p) => p.flags & ts.TypeFlags.StringLike)) return { type: "string" };
    if (parts.length > 1) {
      const specs = parts.map((p, i) => typeSpec(p, `${hint}${i}`));
      const distinct = [...new Map(specs.map((s) => [JSON.stringify(s), s])).values()];
      return distinct.length === 1 ? distinct[0] : { oneOf: distinct };
    }
    const p = parts[0];
    if (!p) return { $ref: "pulumi.json#/Any" };
    if (p.flags & ts.TypeFlags.BooleanLike) return { type: "boolean" };
    if (p.flags & ts.TypeFlags.StringLike) return { type: "string" };
    if (p.flags & ts.TypeFlags.NumberLike) return { type: "number" };
    if (checker.isArrayType(p)) return { type: "array", items: typeSpec(checker.getTypeArguments(p as ts.TypeReference)[0], hint) };
    if (p.flags & ts.TypeFlags.Object) {
      const index = p.getStringIndexType();
      if (index && p.getProperties().length === 0) return { type: "object", additionalProperties: typeSpec(index, hint) };
      // A generic alias (Partial<...>, Record<...>) names no type of ours: the place it is used does.
      const alias = p.aliasSymbol && !p.aliasTypeArguments?.length ? p.aliasSymbol.name : undefined;
      const name = (alias ?? (p.getSymbol()?.name && !p.getSymbol()!.name.startsWith("__") ? p.getSymbol()!.name : hint)).replace(/Args$/, "");
      const token = `${PACKAGE}:index:${pascal(name)}`;
      if (!types[token]) {
        types[token] = {}; // taken before its members: a type that holds itself refers to itself
        const { properties, required } = members(p.getProperties(), pascal(name));
        types[token] = { type: "object", properties, ...(required.length ? { required } : {}) };
      }
      return { $ref: `#/types/${token}` };
    }
    return { $ref: "pulumi.json#/Any" };
  }

  /** A property's type, `pulumi.Input<T>` and `pulumi.Output<T>` taken as T. */
  function declaredType(s: ts.Symbol): ts.Type {
    const decl = s.valueDeclaration;
    const node = decl && (ts.isPropertySignature(decl) || ts.isPropertyDeclaration(decl)) ? decl.type : undefined;
    if (node && ts.isTypeReferenceNode(node) && /(^|\.)(Input|Output)$/.test(node.typeName.getText()) && node.typeArguments?.length === 1) return checker.getTypeFromTypeNode(node.typeArguments[0]);
    return checker.getTypeOfSymbol(s);
  }

  function members(symbols: readonly ts.Symbol[], hint: string, skip: readonly string[] = []): { properties: Record<string, Spec>; required: string[] } {
    const properties: Record<string, Spec> = {};
    const required: string[] = [];
    for (const s of symbols) {
      if (skip.includes(s.name)) continue;
      const doc = docOf(s);
      properties[s.name] = { ...typeSpec(declaredType(s), `${hint}${pascal(s.name)}`), ...(doc ? { description: doc } : {}) };
      if (!(s.flags & ts.SymbolFlags.Optional)) required.push(s.name);
    }
    return { properties, required };
  }

  /** The output names a kind's resource.ts registers (its `outputNames<...>()([...])` list). */
  const outputList = (cls: ts.Symbol): string[] => {
    const sf = cls.valueDeclaration!.getSourceFile();
    let names: string[] = [];
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && ts.isCallExpression(n.expression) && n.expression.expression.getText(sf).startsWith("outputNames")) {
        const arr = n.arguments[0];
        if (arr && ts.isArrayLiteralExpression(arr)) names = arr.elements.filter(ts.isStringLiteral).map((e) => e.text);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
    return names;
  };

  const resources: Record<string, Spec> = {};
  for (const kind of kinds) {
    const cls = exported.get(kind)!;
    // The constructor's arguments (PrivacyAddon and Protection share DomainAddonArgs).
    const ctor = checker.getSignaturesOfType(checker.getTypeOfSymbol(cls), ts.SignatureKind.Construct)[0];
    const argType = checker.getNonNullableType(checker.getTypeOfSymbol(ctor.getParameters()[1]));
    const inputs = members(argType.getProperties(), kind);
    const classType = checker.getDeclaredTypeOfSymbol(cls);
    const declared = new Map(classType.getProperties().map((s) => [s.name, s]));
    const argSymbols = new Map(argType.getProperties().map((s) => [s.name, s]));
    const secret = new Set(SECRET_OUTPUTS[typeToken(kind)] ?? []);
    // Outputs: those the class registers, and every input (state keeps the inputs among the outputs).
    const names = [...new Set([...outputList(cls), ...argSymbols.keys()])];
    const outputs = members(
      names.map((n) => declared.get(n) ?? argSymbols.get(n)!),
      kind,
    );
    for (const n of secret) {
      if (outputs.properties[n]) outputs.properties[n].secret = true;
      if (inputs.properties[n]) inputs.properties[n].secret = true;
    }
    resources[`${PACKAGE}:index:${kind}`] = {
      description: docOf(cls),
      properties: outputs.properties,
      inputProperties: inputs.properties,
      ...(inputs.required.length ? { requiredInputs: inputs.required } : {}),
      aliases: [{ type: typeToken(kind) }],
    };
  }

  // Every type is known once the resources are: their examples name them as the native SDK does.
  const typeNames = new Set(Object.keys(types).map((token) => token.split(":").pop()!));
  for (const r of Object.values(resources)) r.description = resourceDoc(r.description as string, typeNames);

  const functions: Record<string, Spec> = {};
  for (const name of Object.keys(FUNCTIONS) as (keyof typeof FUNCTIONS)[]) {
    const fn = exported.get(name)!;
    const sig = checker.getSignaturesOfType(checker.getTypeOfSymbol(fn), ts.SignatureKind.Call)[0];
    const param = sig.getParameters()[0];
    const argType = param ? checker.getNonNullableType(checker.getTypeOfSymbol(param)) : undefined;
    const ins = argType ? members(argType.getProperties(), pascal(name), ["account"]) : { properties: {}, required: [] };
    let result = checker.getAwaitedType(sig.getReturnType())!;
    const outs = checker.isArrayType(result)
      ? { properties: { items: { type: "array", items: typeSpec(checker.getTypeArguments(result as ts.TypeReference)[0], `${pascal(name)}Item`), description: "The results." } as Spec }, required: ["items"] }
      : members((result = checker.getNonNullableType(result)).getProperties(), `${pascal(name)}Result`);
    functions[`${PACKAGE}:index:${name}`] = {
      description: functionDoc(docOf(fn)),
      inputs: { properties: ins.properties, ...(ins.required.length ? { required: ins.required } : {}), type: "object" },
      outputs: { properties: outs.properties, ...(outs.required.length ? { required: outs.required } : {}), type: "object" },
    };
  }

  const variables = Object.fromEntries(
    Object.entries(SETTING_DOCS).map(([k, v]) => [k, { type: "string", description: v.doc, ...(v.secret ? { secret: true } : {}) }]),
  );
  const version = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
  return {
    name: PACKAGE,
    displayName: "Reseller",
    version,
    description: "Domains, DNS zones and records of a domain-reseller account: registration and renewal that never pay twice, and a local sandbox.",
    keywords: ["pulumi", "dns", "domains", "category/network", "kind/native"],
    license: "Apache-2.0",
    config: { variables },
    provider: { description: "The reseller provider: one account's settings.", inputProperties: variables },
    types,
    resources,
    functions,
    language: { nodejs: { packageName: "@reseller-pulumi/native", packageDescription: "The reseller provider's TypeScript SDK (generated from schema.json)." } },
  };
}

/** Where a declaration's doc shows its examples: from the heading to the end of the last code block after it. */
const EXAMPLES = /\n*## Example Usage\n[\s\S]*```\n?/;

/**
 * A resource's doc as the native SDKs show it. Its examples are the dynamic class's TypeScript, which
 * holds on the native SDK once it imports `@reseller-pulumi/native` and names the schema's types under
 * `reseller.types.input` (test/dev/codegen type-checks each against the generated SDK). They go in
 * Pulumi's example shortcodes, heading inside: each generator keeps the examples of its own language
 * only, and drops an example with none, so the Go and Python SDKs show no empty "Example Usage".
 */
function resourceDoc(doc: string, typeNames: ReadonlySet<string>): string {
  return doc.replace(EXAMPLES, (examples) => {
    const native = examples
      .trim()
      .replaceAll('from "reseller-pulumi"', 'from "@reseller-pulumi/native"')
      .replace(/\breseller\.(\w+)Args\b/g, (ref, name: string) => (typeNames.has(name) ? `reseller.types.input.${name}Args` : ref));
    return `\n\n{{% examples %}}\n{{% example %}}\n${native}\n{{% /example %}}\n{{% /examples %}}\n`;
  }).trim();
}

/**
 * A function's doc as the native SDKs show it: without the dynamic function's examples, whose results
 * differ on the native SDK (a list comes as `{ items }`, a secret as an output of the invoke).
 */
const functionDoc = (doc: string): string => doc.replace(EXAMPLES, "\n\n").trim();

export const schemaText = (root = ROOT): string => `${JSON.stringify(sortKeys(buildSchema(root)), null, 2)}\n`;

/** Keys sorted at every level, so the file's text depends on the declarations only. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}

if (require.main === module) {
  const text = schemaText();
  if (process.argv.includes("--check")) {
    const had = fs.existsSync(SCHEMA_PATH) ? fs.readFileSync(SCHEMA_PATH, "utf8") : "";
    if (had !== text) {
      process.stderr.write("schema.json differs from the declarations: run npm run provider-schema\n");
      process.exit(1);
    }
  } else fs.writeFileSync(SCHEMA_PATH, text);
}
