/**
 * The sandbox's one error type. Codes come from the contract (ERROR_CODES), so the client and the
 * sandbox agree by construction; statuses from the sandbox's rules (ERROR_STATUS).
 */
import type { ErrorCode } from "../api/contract";
import { ERROR_STATUS } from "./rules";

export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    readonly details?: Record<string, unknown>,
    status?: number,
  ) {
    super(message);
    this.status = status ?? ERROR_STATUS[code];
  }

  body(): { success: false; error: { code: string; message: string; field?: string; details?: Record<string, unknown> } } {
    const error: { code: string; message: string; field?: string; details?: Record<string, unknown> } = {
      code: this.code,
      message: this.message,
    };
    if (this.field !== undefined) error.field = this.field;
    if (this.details !== undefined) error.details = this.details;
    return { success: false, error };
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** 422 validation_error naming the field, the offending value and the rule. */
export function invalid(field: string, value: unknown, rule: string): ApiError {
  return new ApiError("validation_error", `${field} ${describe(value)} is invalid: ${rule}`, field);
}

/** 422 for a missing required field. */
export function missing(field: string, rule: string): ApiError {
  return new ApiError("validation_error", `${field} is required: ${rule}`, field);
}

export function notFound(what: string, value: string): ApiError {
  return new ApiError("not_found", `${what} ${describe(value)} was not found in this account`);
}

/** A short, safe rendering of a value for messages (never used for secrets). */
export function describe(value: unknown): string {
  let s: string;
  try {
    s = typeof value === "string" ? JSON.stringify(value) : value === undefined ? "(missing)" : JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
