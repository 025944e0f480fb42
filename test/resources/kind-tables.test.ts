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
const ROOTS = ["resources/host/dispatch.ts", "resources/dns-zone/resource.ts", "resources/epp-code/resource.ts", "resources/zone-records/resource.ts"].map((f) => path.join(root, f));

/** One host for every compilation: a file no edit touches is read and parsed once, and the next program reuses it. */
const host = ts.createCompilerHost(config.options);
const parsed = new Map<string, ts.SourceFile | undefined>();
const getSourceFile = host.getSourceFile.bind(host);
let previous: ts.Program | undefined;

/** An error the compiler reports in a checked file. */
interface Fault {
  file: string;
  start: number;
  text: string;
}

/**
 * The semantic errors of `checked` (files relative to the root) in one compilation with each file of
 * `edits` changed by its edit (which must change it). Only the checked files are type-checked; edits
 * of different files whose faults stay in their own file share a compilation.
 */
function faultsWith(edits: Record<string, (text: string) => string>, checked: string[]): Fault[] {
  const targets = new Map(Object.entries(edits).map(([file, edit]) => [path.join(root, file), { file, edit }]));
  host.getSourceFile = (f, languageVersion, onError) => {
    const t = targets.get(path.resolve(f));
    if (t) {
      const text = host.readFile(f)!;
      const changed = t.edit(text);
      if (changed === text) throw new Error(`the edit did not change ${t.file}`);
      return ts.createSourceFile(f, changed, languageVersion);
    }
    if (!parsed.has(f)) parsed.set(f, getSourceFile(f, languageVersion, onError));
    return parsed.get(f);
  };
  const program = ts.createProgram(ROOTS, config.options, host, previous);
  previous = program;
  return checked.flatMap((file) =>
    program.getSemanticDiagnostics(program.getSourceFile(path.join(root, file))).map((d) => ({ file, start: d.start ?? -1, text: `${file}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}` })),
  );
}

/**
 * One compilation with a new kind in kinds.ts and a faulty output list in three kinds' resource.ts:
 * each fault stays in its own file (the host side, dispatch.ts, loads no resource.ts, and the new kind
 * changes no existing kind's outputs), so each test reads its own file's errors.
 */
let shared: Fault[] | undefined;
const errorsOf = (file: string): string[] => {
  shared ??= faultsWith(
    {
      "resources/kinds.ts": (t) => t.replace('| "DnsZoneRecords";', '| "DnsZoneRecords" | "Dnssec";'),
      "resources/dns-zone/resource.ts": (t) => t.replace('(["domain", "nameservers", "status"', '(["domain", "nameserver", "status"'),
      "resources/epp-code/resource.ts": (t) => t.replace('(["authCode", "requestedAt"])', '(["authCode", "requestedAt", "hostname"])'),
      "resources/zone-records/resource.ts": (t) => t.replace('"elsewhere", "authoritative"]', '"elsewhere"]'),
    },
    ["resources/host/dispatch.ts", "resources/dns-zone/resource.ts", "resources/epp-code/resource.ts", "resources/zone-records/resource.ts"],
  );
  return shared.filter((e) => e.file === file).map((e) => e.text);
};

/**
 * Faulty versions of dispatch.ts's table of implementations (the `IMPLEMENTATIONS` declaration), all
 * in one compilation: each is the declaration's own text with one edit, under another name, added to
 * the end of dispatch.ts, so the compiler judges it in the same scope and with the same `satisfies`
 * as the real one; its errors are those inside its own text. Not with the new kind: a table without
 * EppCode would then lack two kinds, and an excess entry hides a missing one in the same check.
 */
const TABLE_EDITS: Record<string, (declaration: string) => string> = {
  withoutEppCode: (d) => d.replace("  EppCode: eppCodeHandler,\n", ""),
  misnamedEppCode: (d) => d.replace("  EppCode: eppCodeHandler,", "  EppCodes: eppCodeHandler,"),
};
let tables: Record<string, string[]> | undefined;
const errorsOfTable = (name: string): string[] => {
  if (!tables) {
    const spans: Record<string, [number, number]> = {};
    const faults = faultsWith(
      {
        "resources/host/dispatch.ts": (text) => {
          const sf = ts.createSourceFile("dispatch.ts", text, ts.ScriptTarget.ES2022, true);
          const declaration = sf.statements.find((s) => ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => d.name.getText(sf) === "IMPLEMENTATIONS"));
          if (!declaration) throw new Error("dispatch.ts declares no IMPLEMENTATIONS");
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
        },
      },
      ["resources/host/dispatch.ts"],
    );
    tables = Object.fromEntries(Object.entries(spans).map(([copy, [from, to]]) => [copy, faults.filter((f) => f.start >= from && f.start < to).map((f) => f.text)]));
  }
  return tables[name];
};

test("a kind without a handler does not compile", () => {
  expect(errorsOfTable("withoutEppCode")).toEqual([expect.stringMatching(/^resources\/host\/dispatch\.ts: .*Property 'EppCode' is missing/)]);
});

test("a new kind without a handler does not compile", () => {
  expect(errorsOf("resources/host/dispatch.ts")).toEqual(expect.arrayContaining([expect.stringMatching(/^resources\/host\/dispatch\.ts: .*Property 'Dnssec' is missing/)]));
});

test("a handler under a name that is no kind does not compile", () => {
  expect(errorsOfTable("misnamedEppCode")).toEqual([expect.stringMatching(/^resources\/host\/dispatch\.ts: .*'EppCodes' does not exist/)]);
});

test("a misspelt output name does not compile", () => {
  const errors = errorsOf("resources/dns-zone/resource.ts");
  expect(errors).toEqual([expect.stringMatching(/^resources\/dns-zone\/resource\.ts: .*"nameserver"' is not assignable to type 'OutputName<"DnsZone">'/)]);
});

test("an output of another kind does not compile", () => {
  const errors = errorsOf("resources/epp-code/resource.ts");
  expect(errors).toEqual([expect.stringMatching(/^resources\/epp-code\/resource\.ts: .*"hostname"' is not assignable to type 'OutputName<"EppCode">'/)]);
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
