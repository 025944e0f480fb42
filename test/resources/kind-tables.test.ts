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

/**
 * The semantic errors of `checked` (files relative to the root), as `file: message`, in one compilation
 * with each file of `edits` changed by its edit (which must change it). Only the checked files are
 * type-checked; edits of different files whose faults stay in their own file share a compilation.
 */
function errorsWith(edits: Record<string, (text: string) => string>, checked: string[]): string[] {
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
  return checked.flatMap((f) =>
    program.getSemanticDiagnostics(program.getSourceFile(path.join(root, f))).map((d) => `${f}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`),
  );
}

/**
 * One compilation with a new kind in kinds.ts and a faulty output list in three kinds' resource.ts:
 * each fault stays in its own file (the host side, dispatch.ts, loads no resource.ts, and the new kind
 * changes no existing kind's outputs), so each test reads its own file's errors.
 */
let shared: string[] | undefined;
const errorsOf = (file: string): string[] => {
  shared ??= errorsWith(
    {
      "resources/kinds.ts": (t) => t.replace('| "DnsZoneRecords";', '| "DnsZoneRecords" | "Dnssec";'),
      "resources/dns-zone/resource.ts": (t) => t.replace('(["domain", "nameservers", "status"', '(["domain", "nameserver", "status"'),
      "resources/epp-code/resource.ts": (t) => t.replace('(["authCode", "requestedAt"])', '(["authCode", "requestedAt", "hostname"])'),
      "resources/zone-records/resource.ts": (t) => t.replace('"elsewhere", "authoritative"]', '"elsewhere"]'),
    },
    ["resources/host/dispatch.ts", "resources/dns-zone/resource.ts", "resources/epp-code/resource.ts", "resources/zone-records/resource.ts"],
  );
  return shared.filter((e) => e.startsWith(`${file}: `));
};

test("a kind without a handler does not compile", () => {
  // Not with the others: without EppCode's handler, the compiler no longer judges EppCode's output list in epp-code/resource.ts.
  const errors = errorsWith({ "resources/host/dispatch.ts": (t) => t.replace("  EppCode: eppCodeHandler,\n", "") }, ["resources/host/dispatch.ts"]);
  expect(errors).toEqual(expect.arrayContaining([expect.stringMatching(/^resources\/host\/dispatch\.ts: .*Property 'EppCode' is missing/)]));
});

test("a new kind without a handler does not compile", () => {
  expect(errorsOf("resources/host/dispatch.ts")).toEqual(expect.arrayContaining([expect.stringMatching(/^resources\/host\/dispatch\.ts: .*Property 'Dnssec' is missing/)]));
});

test("a handler under a name that is no kind does not compile", () => {
  // Not with the new kind: an excess property hides a missing one in the same check.
  const errors = errorsWith({ "resources/host/dispatch.ts": (t) => t.replace("  EppCode: eppCodeHandler,", "  EppCodes: eppCodeHandler,") }, ["resources/host/dispatch.ts"]);
  expect(errors).toEqual(expect.arrayContaining([expect.stringMatching(/^resources\/host\/dispatch\.ts: .*'EppCodes' does not exist/)]));
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
