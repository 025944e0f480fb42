/**
 * Reading answers: the envelope {success: true, data}, a view parsed with its zod schema, one page
 * of a list, and the renames by which a contract override maps the service's field names, error
 * codes and privacy status words to ours. Every mismatch becomes a ResponseShapeError naming endpoint and field.
 */
import type { z } from "zod";
import type { PagingContract } from "./contract";
import { ResponseShapeError } from "./errors";

/** "data.items[2].ttl" from a zod issue path. */
export function formatFieldPath(base: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, k) => (typeof k === "number" ? `${acc}[${k}]` : `${acc}.${String(k)}`), base);
}

/**
 * The `data` of a success envelope. An empty body (e.g. 204) yields undefined. The content type is
 * only named when the body is not JSON (a proxy's page): a valid envelope is read whatever its label.
 */
export function envelopeData(text: string, status: number, endpoint: string, contentType?: string): unknown {
  if (text.trim() === "") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const label = contentType && !/\bjson\b/i.test(contentType) ? ` (content type ${JSON.stringify(contentType).slice(1, -1).slice(0, 60)})` : "";
    throw new ResponseShapeError(endpoint, "(body)", `not JSON${label}`, status);
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new ResponseShapeError(endpoint, "(body)", "not a JSON object", status);
  const b = body as Record<string, unknown>;
  if (b.success !== true) throw new ResponseShapeError(endpoint, "success", `expected true, got ${JSON.stringify(b.success) ?? "nothing"}`, status);
  if (!("data" in b)) throw new ResponseShapeError(endpoint, "data", "missing", status);
  return b.data;
}

/** Parses `value` (found at `at`) with a view, or throws ResponseShapeError at the first broken field. */
export function parseView<S extends z.ZodType>(schema: S, value: unknown, endpoint: string, status: number, at = "data"): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new ResponseShapeError(endpoint, formatFieldPath(at, issue.path), issue.message, status);
}

export interface Page {
  items: unknown[];
  /** Field path of the items, for error messages. */
  at: string;
  nextPage: number | null;
}

/**
 * One page of a list (contract: PagingContract): `data.{items, pagination.next_page}`, a bare
 * array (one page), or an array under `data.<name>` (e.g. data.domains).
 */
export function readPage(data: unknown, name: string, paging: PagingContract, endpoint: string, status: number): Page {
  if (Array.isArray(data)) return { items: data, at: "data", nextPage: null };
  if (!data || typeof data !== "object") throw new ResponseShapeError(endpoint, "data", "expected a list (object with items, or an array)", status);
  const d = data as Record<string, unknown>;
  const field = Array.isArray(d[paging.itemsField]) ? paging.itemsField : Array.isArray(d[name]) ? name : undefined;
  if (!field) throw new ResponseShapeError(endpoint, `data.${paging.itemsField}`, `expected an array (or data.${name})`, status);
  const pagination = d[paging.paginationField];
  let nextPage: number | null = null;
  if (pagination !== undefined && pagination !== null) {
    const next = (pagination as Record<string, unknown>)[paging.nextPageField];
    if (typeof next === "number" && Number.isInteger(next) && next > 0) nextPage = next;
    else if (next !== null && next !== undefined)
      throw new ResponseShapeError(endpoint, `data.${paging.paginationField}.${paging.nextPageField}`, "expected a positive integer or null", status);
  }
  return { items: d[field] as unknown[], at: `data.${field}`, nextPage };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `data` with its fields renamed by `map` (the service's name -> ours; contract: views), so a view
 * parses a service that spells a field differently. Anything but a plain object is returned as is.
 */
export function renameFields(data: unknown, map: Readonly<Record<string, string>>): unknown {
  if (!isPlainObject(data) || Object.keys(map).length === 0) return data;
  const out = { ...data };
  for (const [wire, ours] of Object.entries(map)) {
    if (wire === ours || !Object.hasOwn(data, wire)) continue;
    out[ours] = data[wire];
    delete out[wire];
  }
  return out;
}

/** `data` with renameFields applied to each element of the array at `data[field]` (e.g. a zone's records). */
export function renameIn(data: unknown, field: string, map: Readonly<Record<string, string>>): unknown {
  if (!isPlainObject(data) || !Array.isArray(data[field]) || Object.keys(map).length === 0) return data;
  return { ...data, [field]: (data[field] as unknown[]).map((x) => renameFields(x, map)) };
}

/** `data` with the word in `data[field]` replaced by ours (`map`: the service's word -> ours; contract: privacyStatuses). */
export function renameWord(data: unknown, field: string, map: Readonly<Record<string, string>>): unknown {
  if (!isPlainObject(data) || Object.keys(map).length === 0) return data;
  const w = data[field];
  return typeof w === "string" && Object.hasOwn(map, w) ? { ...data, [field]: map[w] } : data;
}

/**
 * An error body with the service's machine code replaced by ours (contract: errors.codes, given as
 * the service's code -> ours), in each form the client reads: `{error: {code}}`, `{code}`, `{error: "code"}`.
 */
export function renameErrorCode(body: unknown, map: Readonly<Record<string, string>>): unknown {
  if (!isPlainObject(body) || Object.keys(map).length === 0) return body;
  const ours = (c: unknown): unknown => (typeof c === "string" && Object.hasOwn(map, c) ? map[c] : c);
  if (isPlainObject(body.error)) return { ...body, error: { ...body.error, code: ours(body.error.code) } };
  if (typeof body.error === "string") return { ...body, error: ours(body.error) };
  if ("code" in body) return { ...body, code: ours(body.code) };
  return body;
}

/**
 * The rename map (service's name -> ours) for one contract table: for each entry whose name in
 * `current` (the contract in force) differs from `defaults` (the names the views and errors use).
 */
export function renamesFrom(defaults: Readonly<Record<string, string>>, current: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, ours] of Object.entries(defaults)) if (current[k] !== undefined && current[k] !== ours) out[current[k]] = ours;
  return out;
}
