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
  /** Deadline of the whole attempt: connect, headers and the last byte of the body. */
  timeoutMs: number;
  /** Largest answer read, bytes (contract: maxResponseBytes). */
  maxResponseBytes: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Thrown by `exchange` when no usable response arrived; carries the classified failure. */
export class TransportFailure extends Error {
  override readonly name = "TransportFailure";
  constructor(readonly failure: Exclude<AttemptFailure, { kind: "status" }>) {
    super(failure.reason);
  }
}

/** Codes of an attempt's own end: its deadline passed, or its answer outgrew the cap. */
const DEADLINE_CODE = "RESELLER_DEADLINE";
const OVERSIZED_CODE = "RESELLER_OVERSIZED";

/** Failures raised before a connection existed: nothing can have reached the service. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);
/**
 * Errors of the HTTP stack's own checks, raised before a byte is written: a header value with CR/LF,
 * a malformed URL or method. Not the network's doing, so never retried and never "connection lost".
 */
const LOCAL_CODES = new Set([
  "UND_ERR_INVALID_ARG",
  "UND_ERR_NOT_SUPPORTED",
  "ERR_INVALID_URL",
  "ERR_INVALID_ARG_TYPE",
  "ERR_INVALID_ARG_VALUE",
  "ERR_INVALID_CHAR",
  "ERR_INVALID_HTTP_TOKEN",
  "ERR_HTTP_INVALID_HEADER_VALUE",
  "ERR_UNESCAPED_CHARACTERS",
]);

/** An attempt's own end (DEADLINE_CODE, OVERSIZED_CODE); the message is the failure's whole reason. */
class AttemptEnded extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Maps an error of the dispatcher to a failure kind. Reasons name the error code only (no headers, no body). */
export function classifyTransportError(e: unknown): Exclude<AttemptFailure, { kind: "status" }> {
  if (e instanceof AttemptEnded) return { kind: e.code === OVERSIZED_CODE ? "oversized" : "timeout", reason: e.message };
  const err = e as { code?: unknown; name?: unknown } | null;
  const code = typeof err?.code === "string" ? err.code : typeof err?.name === "string" ? err.name : "unknown error";
  if (LOCAL_CODES.has(code)) return { kind: "local", reason: `refused by the local HTTP stack before sending (${code})` };
  if (NOT_SENT_CODES.has(code)) return { kind: "not-sent", reason: `connection failed (${code})` };
  if (TIMEOUT_CODES.has(code)) return { kind: "timeout", reason: `no answer in time (${code})` };
  return { kind: "network", reason: `connection lost (${code})` };
}

/** A keep-alive agent for one client. */
export function createAgent(timeoutMs: number): Agent {
  return new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connect: { timeout: timeoutMs } });
}

const oversized = (cap: number): AttemptEnded =>
  new AttemptEnded(OVERSIZED_CODE, `answer larger than ${cap} bytes, not read (contract entry maxResponseBytes)`);

/** The body as text, refusing (unread) a declared or actual size above `cap`. */
async function readCapped(body: Dispatcher.ResponseData["body"], declared: string | undefined, cap: number): Promise<string> {
  if (declared !== undefined && Number(declared) > cap) {
    body.destroy();
    throw oversized(cap);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > cap) {
      body.destroy();
      throw oversized(cap);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

/**
 * Sends one request and reads the whole answer as text, within one deadline over the attempt (a
 * body dripped a byte at a time fails at the deadline, not per gap) and the size cap.
 */
export async function exchange(dispatcher: Dispatcher, req: HttpRequest): Promise<HttpResponse> {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new AttemptEnded(DEADLINE_CODE, `no whole answer within ${req.timeoutMs} ms (the deadline of an attempt covers its body; raise reseller:timeoutSeconds if the service is slow)`)),
    req.timeoutMs,
  );
  try {
    const res = await dispatcher.request({
      origin: req.origin,
      method: req.method as Dispatcher.HttpMethod,
      path: req.path,
      headers: req.headers,
      body: req.body,
      signal: deadline.signal,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
    });
    const text = await readCapped(res.body, headerValue(res.headers, "content-length"), req.maxResponseBytes);
    return { status: res.statusCode, headers: res.headers, text };
  } catch (e) {
    throw new TransportFailure(classifyTransportError(deadline.signal.aborted && !(e instanceof AttemptEnded) ? deadline.signal.reason : e));
  } finally {
    clearTimeout(timer);
  }
}

/** First value of a header, case-insensitive. */
export function headerValue(headers: HttpResponse["headers"], name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === lower) return Array.isArray(v) ? v[0] : v;
  return undefined;
}
