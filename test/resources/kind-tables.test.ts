/**
 * The kind tables are checked by the compiler (issue: a missing handler is a compile error; output
 * lists are checked against the outputs types). Each case type-checks the real sources with one
 * edit made in memory, and expects the compiler to name the fault; the sources as they are, and the
 * `@ts-expect-error` cases of kind-tables.types.ts, compile clean.
 */
import * as path from "node:path";
import ts from "typescript";

const root = path.resolve(__dirname, "..", "..");
const config = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), { noEmit: true }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
const SOURCES = ["resources/host/dispatch.ts", "resources/dns-zone/resource.ts", "resources/epp-code/resource.ts", "resources/domain/resource.ts", "resources/zone-records/resource.ts", "test/resources/kind-tables.types.ts"];
let previous: ts.Program | undefined;

/**
 * The semantic errors in SOURCES, as `file: message`, with each file of `edits` changed by its edit
 * (which must change it). Edits of different files whose faults stay in their own file share one
 * compilation (each a full type check); a test then reads its own file's errors.
 */
function errorsWith(edits: Record<string, (text: string) => string> = {}): string[] {
  const host = ts.createCompilerHost(config.options);
  const read = host.readFile.bind(host);
  const targets = new Map(Object.entries(edits).map(([file, edit]) => [path.join(root, file), { file, edit }]));
  host.readFile = (f) => {
    const text = read(f);
    const t = targets.get(path.resolve(f));
    if (text === undefined || !t) return text;
    const changed = t.edit(text);
    if (changed === text) throw new Error(`the edit did not change ${t.file}`);
    return changed;
  };
  const program = ts.createProgram(SOURCES.map((f) => path.join(root, f)), config.options, host, previous);
  previous = program;
  return SOURCES.flatMap((f) =>
    program.getSemanticDiagnostics(program.getSourceFile(path.join(root, f))).map((d) => `${f}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`),
  );
}

/** The errors of `file` in a compilation with one edit in each of these files, each fault named in its own file. */
let separate: string[] | undefined;
const errorsOf = (file: string): string[] => {
  separate ??= errorsWith({
    "resources/dns-zone/resource.ts": (t) => t.replace('(["domain", "nameservers", "status"', '(["domain", "nameserver", "status"'),
    "resources/epp-code/resource.ts": (t) => t.replace('(["authCode", "requestedAt"])', '(["authCode", "requestedAt", "hostname"])'),
    "resources/zone-records/resource.ts": (t) => t.replace('"elsewhere", "authoritative"]', '"elsewhere"]'),
  });
  return separate.filter((e) => e.startsWith(`${file}: `));
};

test("the sources, and every @ts-expect-error case, compile clean", () => {
  expect(errorsWith()).toEqual([]);
});

test("a kind without a handler does not compile", () => {
  // Not with the others: without EppCode's handler, the compiler no longer judges EppCode's output list in epp-code/resource.ts.
  const errors = errorsWith({ "resources/host/dispatch.ts": (t) => t.replace("  EppCode: eppCodeHandler,\n", "") });
  expect(errors).toEqual(expect.arrayContaining([expect.stringMatching(/^resources\/host\/dispatch\.ts: .*Property 'EppCode' is missing/)]));
});

test("a new kind without a handler does not compile", () => {
  const errors = errorsWith({ "resources/kinds.ts": (t) => t.replace('| "DnsZoneRecords";', '| "DnsZoneRecords" | "Dnssec";') });
  expect(errors).toEqual(expect.arrayContaining([expect.stringMatching(/^resources\/host\/dispatch\.ts: .*Property 'Dnssec' is missing/)]));
});

test("a handler under a name that is no kind does not compile", () => {
  const errors = errorsWith({ "resources/host/dispatch.ts": (t) => t.replace("  EppCode: eppCodeHandler,", "  EppCodes: eppCodeHandler,") });
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
