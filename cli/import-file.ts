/**
 * The file of `pulumi import --file`, for the resources a generated program declares, so that the
 * real CLI shows them as imports (`=` rows, "N imported") rather than as creates.
 *
 * The CLI cannot read a dynamic resource by its id: its Read is given the id but not the serialized
 * provider (pulumi/pulumi#3550). Since pkg v3.254.0 (pulumi/pulumi#23984) an import file's resource may
 * carry `inputs` and `outputs`, and the engine then takes them as the resource's state without Read.
 * So each entry carries what the first `up` of the program would store: the inputs the kind's check
 * makes of the program's arguments, and the outputs its adopting create returns, each with the
 * `__provider` text a program stores. Both are computed here by the kinds' own host code (the same
 * handlers the provider host runs), in this process, against a client that sends only read-only
 * requests: an adoption that would have to change something (a TTL, a zone's activation) is refused
 * with what and why, and nothing is ever written or bought.
 */
import type { Settings } from "../resources/shared/api";
import type { ResellerApi } from "../resources/shared/api";
import { OPERATIONS, type OperationName } from "../api/operations";
import { typeToken, type Kind } from "../resources/kinds";
import type { Declaration } from "./codegen";

/** The import file's name in the generated project. */
export const IMPORT_FILE = "import.json";

/** One resource of the import file (pkg/cmd/pulumi/operations/import.go, importSpec). */
export interface ImportSpec {
  type: string;
  name: string;
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

export interface ImportFile {
  resources: ImportSpec[];
}

/** Where the resources will live: the stack's project and name are part of every resource's URN (its `resourceUrn` input). */
export interface ImportTarget {
  project: string;
  stack: string;
}

/** A URN as the engine makes one for a resource at the top of a stack. */
export const topLevelUrn = (t: ImportTarget, kind: Kind, name: string): string => `urn:pulumi:${t.stack}::${t.project}::${typeToken(kind)}::${name}`;

/** A write the import refused to send: the adoption would change the account. */
export class WouldWriteError extends Error {
  override readonly name = "WouldWriteError";
}

/**
 * `client` with every operation that may change something refused before it is sent, and the answers
 * of the read-only ones kept for the life of the import: the estate read and the adoptions below
 * ask the same questions, and get one answer each (one snapshot, no request sent twice).
 */
export function readOnlyClient<T extends object>(client: T): T {
  const answers = new Map<string, Promise<unknown>>();
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== "string" || typeof value !== "function") return value;
      const op = Object.prototype.hasOwnProperty.call(OPERATIONS, prop) ? OPERATIONS[prop as OperationName] : undefined;
      if (op && !op.readOnly)
        return () => Promise.reject(new WouldWriteError(`${op.method} ${op.template} (${prop})`));
      if (!op && prop !== "listDomainInfos") return value;
      return (...args: unknown[]) => {
        // Trailing absent or empty arguments ask the same question as none.
        const key = JSON.stringify([prop, ...trimArgs(args)]);
        let answer = answers.get(key);
        if (!answer) {
          answer = (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          answers.set(key, answer);
          answer.catch(() => answers.delete(key));
        }
        return answer;
      };
    },
  });
}

function trimArgs(args: unknown[]): unknown[] {
  const out = [...args];
  const empty = (v: unknown) => v === undefined || (typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((x) => x === undefined));
  while (out.length && empty(out[out.length - 1])) out.pop();
  return out;
}

/** Values the program computes (contacts from stack config): not literals, so not in the import's inputs. */
const isLiteral = (v: unknown): boolean => v === null || typeof v !== "object" || Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype;

/**
 * The import file for `decls`, in their order: each resource's inputs (its kind's check of the
 * arguments) and outputs (its kind's adopting create), by the package's handlers against `api`
 * (wrapped read-only here). `providerText` is the `__provider` both carry.
 */
export async function importFile(decls: readonly Declaration[], target: ImportTarget, settings: Settings, api: ResellerApi, providerText: string, log: (line: string) => void = () => undefined): Promise<ImportFile> {
  const { Host } = require("../resources/host/host") as typeof import("../resources/host/host");
  const { HANDLERS } = require("../resources/handlers") as typeof import("../resources/handlers");
  const readOnly = readOnlyClient(api);
  const host = new Host({ sink: { info: log, warn: log }, client: () => readOnly, env: {} });
  host.useSettings(settings);
  const ctx = host.context();
  const resources: ImportSpec[] = [];
  for (const d of decls) {
    const urn = topLevelUrn(target, d.kind, d.name);
    const args = Object.fromEntries(Object.entries(d.args).filter(([, v]) => isLiteral(v)));
    const handler = HANDLERS[d.kind];
    const checked = await handler.check(ctx, {}, { ...args, resourceUrn: urn });
    if (!checked.ok) throw new Error(`${d.kind} ${d.name}: ${checked.failures.map((f) => f.reason).join("; ")}`);
    let made: { id: string; outs: unknown };
    try {
      made = await handler.create(ctx, checked.inputs as Record<string, unknown>);
    } catch (e) {
      if (e instanceof WouldWriteError)
        throw new Error(`${d.kind} ${d.name}: adopting it would change the account (${e.message}), so it cannot be imported unchanged; leave out --import-file, and its first \`pulumi up\` adopts it with that change`);
      throw e;
    }
    resources.push({
      type: typeToken(d.kind),
      name: d.name,
      id: made.id,
      inputs: { ...(checked.inputs as Record<string, unknown>), __provider: providerText },
      outputs: { ...(made.outs as Record<string, unknown>), __provider: providerText },
    });
  }
  // JSON as the engine reads it: absent values left out, as the provider host's answers leave them out.
  return JSON.parse(JSON.stringify({ resources })) as ImportFile;
}
