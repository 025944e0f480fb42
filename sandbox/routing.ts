/** Handler types and list paging shared by the route files. */
import type { Contract } from "../api/contract";
import type { SandboxCore } from "./core";
import { invalid } from "./errors";
import type { Body } from "./validate";

export interface Credential {
  key: string;
  secret: string;
  scopes: string[];
  allowIps: string[];
}

export interface Ctx {
  core: SandboxCore;
  contract: Contract;
  method: string;
  /** Path relative to the API prefix, e.g. /domains/example.com. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Body;
  cred: Credential;
  idempotencyKey: string | null;
  /** Mark the request as having changed state (logged as mutating, persisted). */
  changed(): void;
}

export interface Result {
  status: number;
  data: unknown;
}

export type Handler = (ctx: Ctx) => Result;


export const ok = (data: unknown, status = 200): Result => ({ status, data });

/** One page of a list: data = { items, pagination: { page, per_page, total, next_page } }. */
export function page<T>(ctx: Ctx, items: T[]): Record<string, unknown> {
  const p = ctx.contract.paging;
  const num = (name: string, dflt: number): number => {
    const raw = ctx.query.get(name);
    if (raw === null) return dflt;
    if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1) throw invalid(name, raw, "a positive integer");
    return Number(raw);
  };
  const pageNo = num(p.pageParam, 1);
  const perPage = Math.min(num(p.perPageParam, p.perPage), p.maxPerPage);
  const start = (pageNo - 1) * perPage;
  const slice = items.slice(start, start + perPage);
  return {
    [p.itemsField]: slice,
    [p.paginationField]: {
      page: pageNo,
      per_page: perPage,
      total: items.length,
      [p.nextPageField]: start + perPage < items.length ? pageNo + 1 : null,
    },
  };
}
