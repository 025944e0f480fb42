/**
 * Reading success answers: the envelope {success: true, data}, a view parsed with its zod schema,
 * and one page of a list. Every mismatch becomes a ResponseShapeError naming endpoint and field.
 */
import type { z } from "zod";
import type { PagingContract } from "./contract";
import { ResponseShapeError } from "./errors";

/** "data.items[2].ttl" from a zod issue path. */
export function formatFieldPath(base: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, k) => (typeof k === "number" ? `${acc}[${k}]` : `${acc}.${String(k)}`), base);
}

/** The `data` of a success envelope. An empty body (e.g. 204) yields undefined. */
export function envelopeData(text: string, status: number, endpoint: string): unknown {
  if (text.trim() === "") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ResponseShapeError(endpoint, "(body)", "not JSON", status);
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
    const next = (pagination as Record<string, unknown>).next_page;
    if (typeof next === "number" && Number.isInteger(next) && next > 0) nextPage = next;
    else if (next !== null && next !== undefined)
      throw new ResponseShapeError(endpoint, `data.${paging.paginationField}.next_page`, "expected a positive integer or null", status);
  }
  return { items: d[field] as unknown[], at: `data.${field}`, nextPage };
}
