/**
 * One HTTP exchange over an undici dispatcher, and the classification of its failures into what
 * the retry policy needs to know: was anything sent, or did the answer just not come.
 */
import { Agent, type Dispatcher } from "undici";
import type { AttemptFailure } from "./retry";

export interface HttpRequest {
  /** Scheme, host and port. */
  origin: string;
  method: string;
  /** Path with query string, exactly as signed. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Thrown by `exchange` when no response arrived; carries the classified failure. */
export class TransportFailure extends Error {
  override readonly name = "TransportFailure";
  constructor(readonly failure: Exclude<AttemptFailure, { kind: "status" }>) {
    super(failure.reason);
  }
}

/** Failures raised before a connection existed: nothing can have reached the service. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** Maps an error of the dispatcher to a failure kind. Reasons name the error code only (no headers, no body). */
export function classifyTransportError(e: unknown): Exclude<AttemptFailure, { kind: "status" }> {
  const err = e as { code?: unknown; name?: unknown } | null;
  const code = typeof err?.code === "string" ? err.code : typeof err?.name === "string" ? err.name : "unknown error";
  if (NOT_SENT_CODES.has(code)) return { kind: "not-sent", reason: `connection failed (${code})` };
  if (TIMEOUT_CODES.has(code)) return { kind: "timeout", reason: `no answer in time (${code})` };
  return { kind: "network", reason: `connection lost (${code})` };
}

/** A keep-alive agent for one client. */
export function createAgent(timeoutMs: number): Agent {
  return new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connect: { timeout: timeoutMs } });
}

/** Sends one request and reads the whole answer as text. */
export async function exchange(dispatcher: Dispatcher, req: HttpRequest): Promise<HttpResponse> {
  try {
    const res = await dispatcher.request({
      origin: req.origin,
      method: req.method as Dispatcher.HttpMethod,
      path: req.path,
      headers: req.headers,
      body: req.body,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, text };
  } catch (e) {
    throw new TransportFailure(classifyTransportError(e));
  }
}

/** First value of a header, case-insensitive. */
export function headerValue(headers: HttpResponse["headers"], name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === lower) return Array.isArray(v) ? v[0] : v;
  return undefined;
}
