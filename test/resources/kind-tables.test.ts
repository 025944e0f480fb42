/**
 * The kind tables are checked by the compiler (issue: a missing handler is a compile error; output
 * lists are checked against the outputs types). Each case type-checks the real sources with edits made
 * in memory, and expects the compiler to name the fault in the edited file. That the sources as they
 * are, and the `@ts-expect-error` cases of kind-tables.types.ts, compile clean is proven by
 * `npm run build` (tsc over tsconfig.json, which includes that file, with the options used here), which
 * `npm test` runs before jest: a clean compile here would repeat it.
 */
import * as path from "node:path";
import ts from "typescript";

const root = path.resolve(__dirname, "..", "..");
const config = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), { noEmit: true }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
const ROOTS = ["resources/handlers.ts", "resources/dns-zone/resource.ts", "resources/epp-code/resource.ts", "resources/zone-records/resource.ts"].map((f) => path.join(root, f));

/** An error the compiler reports in a checked file. */
interface Fault {
  file: string;
  start: number;
  text: string;
}

/**
 * The semantic errors of `checked` (files relative to the root) in one compilation with each file of
 * `edits` changed by its edit (which must change it). Only the checked files are type-checked.
 */
function faultsWith(edits: Record<string, (text: string) => string>, checked: string[]): Fault[] {
  const targets = new Map(Object.entries(edits).map(([file, edit]) => [path.join(root, file), { file, edit }]));
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (f, languageVersion, onError) => {
    const t = targets.get(path.resolve(f));
    if (t) {
      const text = host.readFile(f)!;
      const changed = t.edit(text);
      if (changed === text) throw new Error(`the edit did not change ${t.file}`);
      return ts.createSourceFile(f, changed, languageVersion);
    }
    return getSourceFile(f, languageVersion, onError);
  };
  const program = ts.createProgram(ROOTS, config.options, host);
  return checked.flatMap((file) =>
    program.getSemanticDiagnostics(program.getSourceFile(path.join(root, file))).map((d) => ({ file, start: d.start ?? -1, text: `${file}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}` })),
  );
}

/**
 * Faulty versions of handlers.ts's table of implementations (the `IMPLEMENTATIONS` declaration): each
 * is the declaration's own text with one edit, under another name, added to the end of handlers.ts, so
 * the compiler judges it in the same scope and with the same `satisfies` as the real one; its errors
 * are those inside its own text.
 */
const TABLE_EDITS: Record<string, (declaration: string) => string> = {
  withoutEppCode: (d) => d.replace("  EppCode: eppCodeHandler,\n", ""),
  misnamedEppCode: (d) => d.replace("  EppCode: eppCodeHandler,", "  EppCodes: eppCodeHandler,"),
};

/** Where each copy of TABLE_EDITS lies in the edited handlers.ts. */
const spans: Record<string, [number, number]> = {};
function withTableCopies(text: string): string {
  const sf = ts.createSourceFile("handlers.ts", text, ts.ScriptTarget.ES2022, true);
  const declaration = sf.statements.find((s) => ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => d.name.getText(sf) === "IMPLEMENTATIONS"));
  if (!declaration) throw new Error("handlers.ts declares no IMPLEMENTATIONS");
  let out = text;
  for (const [copy, edit] of Object.entries(TABLE_EDITS)) {
    const edited = edit(declaration.getText(sf));
    if (edited === declaration.getText(sf)) throw new Error(`the edit ${copy} did not change IMPLEMENTATIONS`);
    const renamed = edited.replace(/\bIMPLEMENTATIONS\b/, copy);
    out += "\nexport ";
    spans[copy] = [out.length, out.length + renamed.length];
    out += renamed + "\n";
  }
  return out;
}

/**
 * One compilation for every case (a compilation type-checks the handlers behind the table again,
 * most of this file's cost): a new kind in kinds.ts, a faulty output list in three kinds'
 * resource.ts, and the faulty tables added to handlers.ts. Each fault stays where it is made: the
 * host side, handlers.ts, loads no resource.ts, the new kind changes no existing kind's outputs, and
 * a copy of the table is used nowhere; so each test reads the errors of its own file, or of its own
 * copy's text. A copy is judged against the kinds with the new one, so a copy without EppCode lacks
 * Dnssec too (its test asks that EppCode is named); an excess entry hides a missing one in the same
 * check, so the misnamed copy's one error is still the name that is no kind.
 */
let shared: Fault[] | undefined;
const faults = (): Fault[] =>
  (shared ??= faultsWith(
    {
      "resources/kinds.ts": (t) => t.replace('| "DnsZoneRecords";', '| "DnsZoneRecords" | "Dnssec";'),
      "resources/handlers.ts": withTableCopies,
      "resources/dns-zone/resource.ts": (t) => t.replace('(["domain", "nameservers", "status"', '(["domain", "nameserver", "status"'),
      "resources/epp-code/resource.ts": (t) => t.replace('(["authCode", "requestedAt"])', '(["authCode", "requestedAt", "hostname"])'),
      "resources/zone-records/resource.ts": (t) => t.replace('"elsewhere", "authoritative"]', '"elsewhere"]'),
    },
    ["resources/handlers.ts", "resources/dns-zone/resource.ts", "resources/epp-code/resource.ts", "resources/zone-records/resource.ts"],
  ));
const inCopy = (f: Fault): boolean => Object.values(spans).some(([from, to]) => f.start >= from && f.start < to);
/** The errors of a file, outside the table's copies. */
const errorsOf = (file: string): string[] => faults().filter((e) => e.file === file && !inCopy(e)).map((e) => e.text);
/** The errors inside one copy of the table. */
const errorsOfTable = (name: string): string[] => {
  const all = faults();
  const [from, to] = spans[name];
  return all.filter((f) => f.file === "resources/handlers.ts" && f.start >= from && f.start < to).map((f) => f.text);
};

test("a kind without a handler does not compile", () => {
  // The copy lacks the new kind of the shared compilation as well: the compiler names both.
  expect(errorsOfTable("withoutEppCode")).toEqual([expect.stringMatching(/^resources\/handlers\.ts: .*is missing the following properties from type .*: EppCode, Dnssec$/)]);
});

test("a new kind without a handler does not compile", () => {
  expect(errorsOf("resources/handlers.ts")).toEqual(expect.arrayContaining([expect.stringMatching(/^resources\/handlers\.ts: .*Property 'Dnssec' is missing/)]));
});

test("a handler under a name that is no kind does not compile", () => {
  expect(errorsOfTable("misnamedEppCode")).toEqual([expect.stringMatching(/^resources\/handlers\.ts: .*'EppCodes' does not exist/)]);
});

test("a misspelt output name does not compile", () => {
  const errors = errorsOf("resources/dns-zone/resource.ts");
  expect(errors).toEqual([expect.stringMatching(/^resources\/dns-zone\/resource\.ts: .*"nameserver"' is not assignable to type 'OutputName<ZoneOutputs>'/)]);
});

test("an output of another kind does not compile", () => {
  const errors = errorsOf("resources/epp-code/resource.ts");
  expect(errors).toEqual([expect.stringMatching(/^resources\/epp-code\/resource\.ts: .*"hostname"' is not assignable to type 'OutputName<EppCodeOutputs>'/)]);
});

test("a declared output left out of the list does not compile", () => {
  const errors = errorsOf("resources/zone-records/resource.ts");
  expect(errors).toEqual([expect.stringMatching(/^resources\/zone-records\/resource\.ts: .*unlistedOutputs: "authoritative"/)]);
});

test("the host tells kinds by the table's own keys: a URN naming an Object member is no kind", () => {
  // Loaded here: the other cases only compile.
  const { kindOfUrn } = require("../../resources/host/dispatch") as typeof import("../../resources/host/dispatch");
  const urn = (kind: string) => `urn:pulumi:dev::reseller::pulumi-nodejs:dynamic/reseller:${kind}::web`;
  expect(kindOfUrn(urn("DnsZone"))).toBe("DnsZone");
  for (const name of ["toString", "constructor", "hasOwnProperty"]) expect(() => kindOfUrn(urn(name))).toThrow(`cannot tell the resource kind from resourceUrn "${urn(name)}"`);
});
