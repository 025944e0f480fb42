/**
 * The request loop: rate limit, sign, send, classify, retry. Owns the per-client clock offset
 * and the only copy of the API secret (a private field, invisible to JSON.stringify and inspect).
 */
import type { Dispatcher } from "undici";
import { ERROR_CODES, type Contract } from "./contract";
import { endpointLabel, fillPath, requestSafety, type Operation } from "./operations";
import { envelopeData, renameErrorCode, renamesFrom } from "./envelope";
import { LocalRequestError, OutcomeUnknownError, RequestCancelledError, ResellerApiError, ResellerNetworkError, type RequestContext } from "./errors";
import type { SendWindow } from "./rate-limiter";
import { outcomeUnknown, parseRetryAfter, retryDelay, shouldRetry, type AttemptFailure } from "./retry";
import { formatTimestamp, makeNonce, signRequest } from "./signing";
import { exchange, headerValue, TransportFailure, type HttpResponse } from "./transport";
import { clockOffsetFrom } from "./clock-skew";
import { sensitiveStrings } from "./redact";

export interface Logger {
  debug?: (msg: string) => void;
  info?: (msg: string) => void;
  warn?: (msg: string) => void;
}

/** Reported before a wait longer than the notice threshold, so a CI log shows progress. */
export interface WaitEvent {
  reason: "rate-limit" | "rate-limited-429" | "retry-backoff";
  /** This request's wait (Infinity: until an answer in flight frees a place). */
  ms: number;
  /** Endpoint label, e.g. "GET /domains/{domain}". */
  path: string;
  /** A rate-limit wait: how many requests of this process wait for a place, the last of them about `drainMs` from now, and the pace, in requests a minute. */
  queue?: { waiting: number; drainMs: number; perMinute: number };
}

/** One answer of the service (every attempt, success or not), for metrics. */
export interface ResponseEvent {
  /** Endpoint label, e.g. "GET /domains/{domain}". */
  path: string;
  status: number;
  attempt: number;
}

export interface Call {
  endpoint: Operation;
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  idempotencyKey?: string;
}

export interface Answer {
  status: number;
  data: unknown;
  /** "METHOD /template". */
  endpoint: string;
}

export interface RequestLoopSettings {
  origin: string;
  /** Path of the base URL before the API prefix ("" for a bare host). */
  basePath: string;
  apiKey: string;
  /** How errors name the key and secret (client option `credentialSettings`). */
  credentialSettings?: string;
  contract: Contract;
  timeoutMs: number;
  maxRetries: number;
  /** 429s after which a call fails (contract.rateLimit.maxRetries unless overridden). */
  maxRateLimitRetries: number;
  waitNoticeMs: number;
  /** The credential's send window (rate limit), shared by the clients of the process. */
  window: SendWindow;
  dispatcher: Dispatcher;
  now: () => number;
  random: (bytes: number) => Uint8Array;
  sleep: (ms: number) => Promise<void>;
  logger: Logger;
  onWait?: (event: WaitEvent) => void;
  onResponse?: (event: ResponseEvent) => void;
  /** Once aborted, no attempt starts; one in flight runs to its answer or deadline (client option `signal`). */
  signal?: AbortSignal;
}

/** Why a cancelled client sends nothing more, in words. */
const cancelReason = (signal: AbortSignal): string => {
  const r: unknown = signal.reason;
  return r instanceof Error ? r.message : typeof r === "string" ? r : "the operation was cancelled";
};

/** `p`, or as soon as `signal` aborts whichever comes first; a value `p` brings later goes to `late`. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined, late: (v: T) => void): Promise<T | undefined> {
  if (!signal) return p;
  if (signal.aborted) {
    void p.then(late, () => undefined);
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    let done = false;
    const onAbort = (): void => {
      if (done) return;
      done = true;
      resolve(undefined);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        if (done) late(v);
        else {
          done = true;
          resolve(v);
        }
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        if (!done) {
          done = true;
          reject(e);
        }
      },
    );
  });
}

/** A number in [0, 1) from the injected byte source. */
const unitRandom = (random: (n: number) => Uint8Array) => (): number => {
  const b = random(4);
  return (((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0) / 2 ** 32;
};

export class RequestLoop {
  readonly #secret: string;
  readonly #s: RequestLoopSettings;
  /** Added to the local clock when signing; learnt from 401 timestamp_out_of_range. */
  #clockOffsetMs = 0;
  /** The service's error codes -> ours, for the codes the contract renames (contract: errors.codes). */
  readonly #codes: Record<string, string>;

  constructor(settings: RequestLoopSettings, secret: string) {
    this.#s = settings;
    this.#secret = secret;
    this.#codes = renamesFrom(ERROR_CODES, settings.contract.errors.codes);
  }

  get clockOffsetMs(): number {
    return this.#clockOffsetMs;
  }

  private notifyWait(event: WaitEvent): void {
    // The longest known wait: this request's, or the queue's behind it (many short waits make a long one).
    const longest = Math.max(...[event.ms, event.queue?.drainMs ?? 0].filter(Number.isFinite));
    if (longest < this.#s.waitNoticeMs) return;
    this.#s.onWait?.(event);
    this.#s.logger.info?.(`waiting ${Math.round(longest / 1000)} s (${event.reason}) before ${event.path}`);
  }

  private headersFor(op: Operation, signedPath: string, body: string, idempotencyKey?: string): Record<string, string> {
    const { contract: c, apiKey, now, random } = this.#s;
    const H = c.headers;
    const h: Record<string, string> = {
      [H.key]: apiKey,
      [H.secret]: this.#secret,
      "content-type": "application/json",
      accept: "application/json",
    };
    if (idempotencyKey !== undefined) h[H.idempotencyKey] = idempotencyKey;
    if (c.signing.clientSigns === "all" || op.signed) {
      const timestamp = formatTimestamp(now() + this.#clockOffsetMs, c.signing.timestampUnit);
      const nonce = makeNonce(c.signing.nonceBytes, random);
      h[H.timestamp] = timestamp;
      h[H.nonce] = nonce;
      h[H.signature] = signRequest({ method: op.method, path: signedPath, body, apiKey, timestamp, nonce }, this.#secret, c.signing.signatureEncoding, c.signing);
    }
    return h;
  }

  /** Sends a call until it succeeds or the policy gives up; returns the envelope's data. */
  async send(call: Call): Promise<Answer> {
    const s = this.#s;
    const { method } = call.endpoint;
    const label = endpointLabel(call.endpoint);
    const relPath = fillPath(call.endpoint.template, call.params);
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) qs.set(k, String(v));
    const signedPath = `${s.basePath}${s.contract.apiPrefix}${relPath}${qs.size ? `?${qs}` : ""}`;
    const body = call.body === undefined ? "" : JSON.stringify(call.body);
    const safety = requestSafety(call.endpoint, call.idempotencyKey !== undefined);
    const ctx: RequestContext = {
      method,
      template: call.endpoint.template,
      path: signedPath,
      secrets: [this.#secret, ...sensitiveStrings(call.body)],
      credentialSettings: s.credentialSettings,
    };
    const jitter = unitRandom(s.random);
    const rl = s.contract.rateLimit;
    // One wait budget per call: every wait before a retry (429, a 5xx's Retry-After, backoff) draws from it.
    const budgetMs = rl.maxWaitSeconds * 1000;
    let waitedMs = 0;
    /** Why a wait of `ms` more is not made (it would pass the budget), or undefined. */
    const overBudget = (ms: number): string | undefined =>
      waitedMs + ms > budgetMs ? `rather than wait ${Math.ceil(ms / 1000)} s more after ${Math.round(waitedMs / 1000)} s (at most ${rl.maxWaitSeconds} s for one call)` : undefined;
    let retries = 0;
    let rateLimitRetries = 0;
    let skewCorrected = false;
    // How an earlier attempt may have reached the service and been applied (sent, then no whole answer;
    // or a 5xx): a later attempt that never left does not make the call "never reached the service".
    let reached: string | undefined;

    /** A cancelled client starts no attempt: nothing sent yet is never sent; after an attempt that reached the service, the outcome is unknown. */
    const notSent = (): Error => {
      const why = cancelReason(s.signal!);
      return reached === undefined ? new RequestCancelledError(ctx, why) : new OutcomeUnknownError(ctx, `${why} before a retry; an earlier attempt reached the service (${reached})`);
    };
    for (let attempt = 1; ; attempt++) {
      if (s.signal?.aborted) throw notSent();
      // A place in the window granted after the cancel is given back at once, unused.
      const release = await untilAborted(
        s.window.acquire((ms, paused, queue) =>
          this.notifyWait({ reason: paused ? "rate-limited-429" : "rate-limit", ms, path: label, queue: { ...queue, perMinute: Math.round((s.window.limit * 60_000) / s.window.windowMs) } }),
        ),
        s.signal,
        (r) => r(),
      );
      if (release === undefined || s.signal?.aborted) {
        release?.();
        throw notSent();
      }
      const headers = this.headersFor(call.endpoint, signedPath, body, call.idempotencyKey);
      let res: HttpResponse;
      try {
        res = await exchange(s.dispatcher, {
          origin: s.origin,
          method,
          path: signedPath,
          headers,
          body: body || undefined,
          timeoutMs: s.timeoutMs,
          maxResponseBytes: s.contract.maxResponseBytes,
        });
        release();
      } catch (e) {
        release();
        if (!(e instanceof TransportFailure)) throw e;
        const failure = e.failure;
        s.logger.debug?.(`${label} attempt ${attempt}: ${failure.reason}`);
        if (failure.kind === "local") throw new LocalRequestError(ctx, failure.reason);
        let gaveUp: string | undefined;
        if (shouldRetry(failure, safety) && retries < s.maxRetries) {
          const ms = retryDelay(retries, jitter);
          gaveUp = overBudget(ms);
          if (gaveUp === undefined) {
            if (failure.kind !== "not-sent") reached ??= `attempt ${attempt}: ${failure.reason}`;
            retries++;
            await this.backoff(ms, label);
            waitedMs += ms;
            continue;
          }
        }
        if (outcomeUnknown(failure, safety)) throw new OutcomeUnknownError(ctx, failure.reason);
        const neverSent = failure.kind === "not-sent" && reached === undefined;
        const earlier = failure.kind === "not-sent" && reached !== undefined ? `; an earlier attempt reached the service (${reached})` : "";
        const budget = gaveUp === undefined ? "" : `; the client gave up ${gaveUp}: contract rateLimit.maxWaitSeconds`;
        throw new ResellerNetworkError(ctx, `${failure.reason}${earlier}${budget}`, attempt, !neverSent, { keyed: call.idempotencyKey !== undefined, kind: failure.kind });
      }

      s.logger.debug?.(`${label} attempt ${attempt}: ${res.status}`);
      s.onResponse?.({ path: label, status: res.status, attempt });
      if (res.status >= 200 && res.status < 300) return { status: res.status, data: envelopeData(res.text, res.status, label, headerValue(res.headers, "content-type")), endpoint: label };

      const capMs = rl.maxRetryAfterSeconds * 1000;
      const retryAfterMs = parseRetryAfter(headerValue(res.headers, s.contract.headers.retryAfter), s.now(), capMs);
      const errorBody = renameErrorCode(parseJson(res.text), this.#codes);
      const answerCtx: RequestContext = { ...ctx, requestId: headerValue(res.headers, s.contract.headers.requestId), retryAfterMs };
      const err = ResellerApiError.from(res.status, errorBody, answerCtx);
      const failure: AttemptFailure = { kind: "status", status: res.status };

      if (res.status === 429 || err.code === ERROR_CODES.rateLimited) {
        const detail = Number(err.details?.retry_after);
        const asked = retryAfterMs ?? (Number.isFinite(detail) && detail >= 0 ? detail * 1000 : retryDelay(rateLimitRetries + 1, jitter));
        const waitMs = Math.min(capMs, Math.max(rl.minRetryAfterSeconds * 1000, asked));
        const bound = rateLimitRetries >= s.maxRateLimitRetries ? `after ${rateLimitRetries} retries (the most for one call)` : overBudget(waitMs);
        if (bound !== undefined) {
          const note = `The service answered 429 ${rateLimitRetries + 1} times; the client gave up ${bound}: contract rateLimit.maxRetries ${s.maxRateLimitRetries}, maxWaitSeconds ${rl.maxWaitSeconds}. The service's limit is ${rl.requestsPerMinute} requests per minute per credential, and this client paces itself to ${Math.round((s.window.limit * 60) / rl.windowSeconds)} per minute.`;
          throw ResellerApiError.from(res.status, errorBody, { ...answerCtx, note });
        }
        rateLimitRetries++;
        waitedMs += waitMs;
        // Another process spends the same credential: hold every request of it until the service is ready.
        s.window.pause(s.now(), s.now() + waitMs);
        s.logger.debug?.(`${label}: 429, pausing the credential for ${waitMs} ms`);
        continue;
      }
      if (err.code === ERROR_CODES.timestampSkew && !skewCorrected) {
        const offset = clockOffsetFrom(err.details, s.now());
        const maxOffsetMs = s.contract.signing.maxClockOffsetSeconds * 1000;
        if (offset !== undefined && Math.abs(offset) > maxOffsetMs) {
          s.logger.warn?.(
            `the service's time puts the local clock ${Math.round(Math.abs(offset) / 1000)} s ${offset > 0 ? "behind" : "ahead"}, more than the ${s.contract.signing.maxClockOffsetSeconds} s the client adopts (contract signing.maxClockOffsetSeconds); it is ignored: check the machine clock (NTP) and what answers at reseller:baseUrl`,
          );
        } else if (offset !== undefined) {
          skewCorrected = true;
          this.#clockOffsetMs = offset;
          s.logger.warn?.(`the local clock is ${Math.round(-offset / 1000)} s off the service clock; signing with the service's time`);
          continue;
        }
      }
      if (shouldRetry(failure, safety) && retries < s.maxRetries) {
        const ms = retryAfterMs ?? retryDelay(retries, jitter);
        const gaveUp = overBudget(ms);
        if (gaveUp !== undefined) {
          const note = `The service answered ${res.status} ${attempt} times; the client gave up ${gaveUp}: contract rateLimit.maxWaitSeconds ${rl.maxWaitSeconds}.`;
          if (outcomeUnknown(failure, safety)) throw new OutcomeUnknownError(ctx, `status ${res.status} ${err.code}`, res.status);
          throw ResellerApiError.from(res.status, errorBody, { ...answerCtx, note });
        }
        if (res.status >= 500) reached ??= `attempt ${attempt}: status ${res.status} ${err.code}`;
        retries++;
        await this.backoff(ms, label);
        waitedMs += ms;
        continue;
      }
      if (outcomeUnknown(failure, safety)) throw new OutcomeUnknownError(ctx, `status ${res.status} ${err.code}`, res.status);
      throw err;
    }
  }

  private async backoff(ms: number, label: string): Promise<void> {
    this.notifyWait({ reason: "retry-backoff", ms, path: label });
    // A cancel ends the wait: the next attempt is then not started.
    if (ms > 0) await untilAborted(this.#s.sleep(ms), this.#s.signal, () => undefined);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
