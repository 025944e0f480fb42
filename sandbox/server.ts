/**
 * The HTTP layer: body limits, faults, authentication, routing, idempotency, the request log
 * and persistence. Business rules live in the route files; this file decides only whether a
 * request reaches them and how the answer goes back.
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, fchmodSync, openSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Contract } from "../api/contract";
import { matchTemplate } from "../api/operations";
import { checkpoint } from "./checkpoint";
import { NonceStore, RateLimiter, authenticate, checkAllowlist, header, nonceFileOf, normalizeAddress, verifySigned } from "./auth";
import { SandboxCore } from "./core";
import { ApiError } from "./errors";
import type { Credential, Ctx } from "./routing";
import { ROUTES } from "./routes";
import { isoTime, type SandboxState, type Settings } from "./state";
import { idempotencyKeyValid, type Body } from "./validate";

/** How the request log names a credential: a short hash of its key, so the log holds no credential. */
export const credentialFingerprint = (key: string): string => `key_${createHash("sha256").update(key, "utf8").digest("hex").slice(0, 12)}`;

/** Which requests a fault applies to; omitted fields match any. */
export type FaultMatch = {
  /** HTTP method, e.g. POST. */
  method?: string;
  /** A part of the request's path, or a regular expression written `/…/flags`. */
  path?: string;
};
/**
 * A fault for the next `count` matching API requests: an error answer (`status`, default 500),
 * the request applied but its answer dropped, an answer delayed by `ms`, a request held until the
 * operator releases it, or a 429 with `retryAfterSeconds`.
 */
export type Fault = ErrorFault | DropAfterCommitFault | DelayFault | HoldFault | RateLimitFault;

/** An error answer instead of the request's. */
export interface ErrorFault {
  /** Error answer. */
  kind: "error";
  /** HTTP status; default 500. */
  status?: number;
  /** How many matching requests it applies to. */
  count: number;
  /** Which requests; omitted: any. */
  match?: FaultMatch;
}
/** The request is applied, then its answer is dropped (the connection closes). */
export interface DropAfterCommitFault {
  /** Applied, then no answer. */
  kind: "drop-after-commit";
  /** How many matching requests it applies to. */
  count: number;
  /** Which requests; omitted: any. */
  match?: FaultMatch;
}
/** The answer waits. */
export interface DelayFault {
  /** Delayed answer. */
  kind: "delay";
  /** How long, milliseconds. */
  ms: number;
  /** How many matching requests it applies to. */
  count: number;
  /** Which requests; omitted: any. */
  match?: FaultMatch;
}
/**
 * The request waits, not yet processed, until the operator releases it (`release()`) or resets the
 * sandbox; then it proceeds. A test acts while a request is in flight, and lets it go
 * once it has seen what it waits for, with no margin of time.
 */
export interface HoldFault {
  /** Held until released. */
  kind: "hold";
  /** How many matching requests it applies to. */
  count: number;
  /** Which requests; omitted: any. */
  match?: FaultMatch;
}
/** A request a hold fault keeps waiting. */
export interface HeldRequest {
  /** HTTP method. */
  method: string;
  /** Path and query as sent (as the request log has it). */
  path: string;
}
/** A 429 rate-limited answer. */
export interface RateLimitFault {
  /** Rate limited. */
  kind: "rate-limit";
  /** The Retry-After header's seconds, if any. */
  retryAfterSeconds?: number;
  /** How many matching requests it applies to. */
  count: number;
  /** Which requests; omitted: any. */
  match?: FaultMatch;
}

/** One API request as the sandbox saw it. */
export interface RequestLogEntry {
  /** When it arrived (business clock), ISO 8601. */
  at: string;
  /** HTTP method. */
  method: string;
  /** Path and query as sent (cut at 2,048 characters). */
  path: string;
  /** Status of the answer; 0 when none was sent. */
  status: number;
  /** Whether the request could change state (POST, PUT, PATCH, DELETE). */
  mutating: boolean;
  /** Its Idempotency-Key header, if any. */
  idempotency_key: string | null;
  /** Whether the answer was a stored one replayed for a repeated Idempotency-Key. */
  replayed: boolean;
  /** Which credential sent it: a fingerprint of the key (credentialFingerprint), never the key itself. */
  credential: string | null;
  /** The error code answered, if any. */
  error: string | null;
  /** The kind of fault applied to it, if any. */
  fault: string | null;
}

export interface SandboxRuntimeOptions {
  contract: Contract;
  credentials: Credential[];
  settings: Settings;
  now: () => number;
  random: (n: number) => Uint8Array;
  dataFile?: string;
  state?: SandboxState;
}

interface Reply {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

const MAX_LOG = 10_000;
/** Deepest JSON nesting accepted; deeper bodies are 400, before any recursive walk could overflow. */
const MAX_DEPTH = 32;

/** Nesting depth of a parsed JSON value, without recursion. */
function depth(v: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[v, 1]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (!x || typeof x !== "object") continue;
    if (d > max) max = d;
    if (max > MAX_DEPTH) return max;
    for (const c of Object.values(x)) stack.push([c, d + 1]);
  }
  return max;
}
const MAX_SEGMENT = 253;

/** Stable JSON (sorted keys), so a replayed body compares equal whatever its key order or spacing. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/** A fault's path pattern: "/regex/flags" is a regular expression, anything else a substring. */
export function faultPathRegex(pattern: string): RegExp | null {
  const m = /^\/(.+)\/([dgimsuy]*)$/.exec(pattern);
  return m ? new RegExp(m[1], m[2]) : null;
}

export function faultPathMatches(pattern: string, path: string): boolean {
  const re = faultPathRegex(pattern);
  return re ? re.test(path) : path.includes(pattern);
}

/** Error code injected for a fault of a given status. */
function codeForStatus(status: number): ApiError["code"] {
  if (status === 429) return "rate_limited";
  if (status === 404) return "not_found";
  if (status === 401) return "unauthorized";
  if (status === 400) return "bad_request";
  if (status === 409) return "domain_not_active";
  if (status === 422) return "validation_error";
  return "internal_error";
}

export class Sandbox {
  readonly core: SandboxCore;
  readonly contract: Contract;
  credentials: Credential[];
  readonly initialSettings: Settings;
  readonly limiter = new RateLimiter();
  /** Kept beside the data file when there is one (nonceFileOf), so a restart does not forget them. */
  readonly nonces: NonceStore;
  requests: RequestLogEntry[] = [];
  /** Requests logged since the log was last emptied, and the earliest arrival among them: the log keeps only the latest MAX_LOG. */
  received: { count: number; firstAt?: string } = { count: 0 };
  faults: Fault[] = [];
  /** Requests a hold fault keeps waiting, oldest first, each with what lets it go on. */
  private holding: { request: HeldRequest; release: () => void }[] = [];
  private seq = 0;

  constructor(readonly opts: SandboxRuntimeOptions) {
    this.contract = opts.contract;
    this.credentials = opts.credentials;
    this.initialSettings = structuredClone(opts.settings);
    this.nonces = new NonceStore(opts.dataFile === undefined ? undefined : nonceFileOf(opts.dataFile));
    this.core = new SandboxCore({ now: opts.now, random: opts.random }, opts.state, structuredClone(opts.settings));
  }

  /**
   * Write the state file atomically (temp file, then rename), readable by its owner only: it holds
   * contacts and EPP codes. The temp file is created anew (O_EXCL: a link planted at its name is not
   * followed) and set 0600 whatever the umask, so the renamed file is 0600 even if the old one was not.
   */
  persist(): void {
    const file = this.opts.dataFile;
    if (!file) return;
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      unlinkSync(tmp);
    } catch {
      // none left over
    }
    const fd = openSync(tmp, "wx", 0o600);
    try {
      fchmodSync(fd, 0o600);
      writeFileSync(fd, JSON.stringify(this.core.state));
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  }

  log(e: RequestLogEntry): void {
    this.requests.push(e);
    this.received.count++;
    if (this.received.firstAt === undefined || e.at < this.received.firstAt) this.received.firstAt = e.at;
    if (this.requests.length > MAX_LOG) this.requests.splice(0, this.requests.length - MAX_LOG);
  }

  /** The requests held now, oldest first. */
  held(): HeldRequest[] {
    return this.holding.map((h) => ({ ...h.request }));
  }

  /** Lets every held request go on; returns how many there were. */
  release(): number {
    const all = this.holding;
    this.holding = [];
    for (const h of all) h.release();
    return all.length;
  }

  /** Next matching fault, its count used up by one. */
  private takeFault(method: string, path: string, kinds: Fault["kind"][]): Fault | undefined {
    const f = this.faults.find(
      (x) =>
        kinds.includes(x.kind) &&
        x.count > 0 &&
        (!x.match?.method || x.match.method.toUpperCase() === method) &&
        (!x.match?.path || faultPathMatches(x.match.path, path)),
    );
    if (!f) return undefined;
    f.count -= 1;
    if (f.count <= 0) this.faults = this.faults.filter((x) => x !== f);
    return f;
  }

  /** Handle one API request (URL under the API prefix). */
  async handleApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? "GET").toUpperCase();
    const rawUrl = req.url ?? "/";
    const entry: RequestLogEntry = {
      at: isoTime(this.opts.now()),
      method,
      path: rawUrl.length > 2048 ? `${rawUrl.slice(0, 2048)}...` : rawUrl,
      status: 0,
      mutating: false,
      idempotency_key: null,
      replayed: false,
      credential: null,
      error: null,
      fault: null,
    };
    const requestId = header(req.headers, this.contract.headers.requestId)?.slice(0, 128) ?? `req_${++this.seq}`;
    const send = (reply: Reply, closeAfter = false): void => {
      entry.status = reply.status;
      this.log(entry);
      const text = JSON.stringify(reply.body);
      res.statusCode = reply.status;
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.setHeader(this.contract.headers.requestId, requestId);
      for (const [k, v] of Object.entries(reply.headers)) res.setHeader(k, v);
      if (closeAfter) res.setHeader("Connection", "close");
      res.end(text);
      if (closeAfter) res.on("finish", () => req.destroy());
    };
    const fail = (e: ApiError, extra: Record<string, string> = {}, closeAfter = false): void => {
      entry.error = e.code;
      const headers = { ...extra };
      if (e.code === "rate_limited" && typeof e.details?.retry_after === "number") headers[this.contract.headers.retryAfter] = String(e.details.retry_after);
      send({ status: e.status, body: e.body(), headers }, closeAfter);
    };

    try {
      // The body is read from the start, so a request delayed past its client's timeout is still
      // processed when the client has gone (as a service does with a request it received).
      const bodyRead = this.readBody(req);
      bodyRead.catch(() => undefined);
      // Faults injected by the operator come first; a delay or a hold then lets the request proceed.
      const wait = this.takeFault(method, rawUrl, ["delay", "hold"]);
      if (wait?.kind === "delay") {
        entry.fault = "delay";
        // Unref'd: the server keeps the process alive while it listens; a delay left when it closes does not.
        await new Promise((r) => setTimeout(r, Math.max(0, Math.min(wait.ms, 60_000))).unref());
      } else if (wait?.kind === "hold") {
        entry.fault = "hold";
        await new Promise<void>((release) => this.holding.push({ request: { method, path: entry.path }, release }));
      }
      const early = this.takeFault(method, rawUrl, ["error", "rate-limit"]);
      if (early) {
        entry.fault = early.kind;
        req.resume();
        if (early.kind === "rate-limit") {
          const retry = early.retryAfterSeconds ?? 1;
          return fail(new ApiError("rate_limited", `rate limit exceeded (injected); retry after ${retry} s`, undefined, { retry_after: retry }));
        }
        if (early.kind === "error") {
          const status = early.status ?? 500;
          return fail(new ApiError(codeForStatus(status), `injected fault: the service answered ${status}`, undefined, undefined, status));
        }
      }

      const body = await bodyRead;
      if (body === null) {
        return fail(new ApiError("payload_too_large", `request body is larger than ${this.contract.maxBodyBytes} bytes; send a smaller body`), {}, true);
      }

      const cred = authenticate(this.credentials, req.headers, this.contract);
      entry.credential = credentialFingerprint(cred.key);
      checkAllowlist(cred, normalizeAddress(req.socket.remoteAddress));
      this.limiter.check(cred.key, this.core.settings.requestsPerMinute, this.opts.now(), this.contract.rateLimit.windowSeconds * 1000);

      const q = rawUrl.indexOf("?");
      const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
      const query = new URLSearchParams(q < 0 ? "" : rawUrl.slice(q + 1));
      const relRaw = rawPath.slice(this.contract.apiPrefix.length) || "/";
      const segments = decodeSegments(relRaw);
      if (!segments) throw new ApiError("not_found", `no endpoint at ${JSON.stringify(rawPath.slice(0, 120))}`);
      const matches = ROUTES.map((r) => ({ r, params: matchTemplate(r.template, segments) })).filter((m) => m.params !== null);
      if (matches.length === 0) throw new ApiError("not_found", `no endpoint at ${JSON.stringify(rawPath.slice(0, 120))}`);
      // Literal segments win over parameters (/domains/register over /domains/{domain}).
      const forMethod = matches.filter((m) => m.r.method === method).sort((a, b) => Object.keys(a.params!).length - Object.keys(b.params!).length);
      if (forMethod.length === 0) {
        const allowed = [...new Set(matches.map((m) => m.r.method))].join(", ");
        throw new ApiError("method_not_allowed", `${method} is not allowed on ${rawPath.slice(0, 120)}; allowed: ${allowed}`, undefined, { allowed });
      }
      const route = forMethod[0];
      const op = route.r;
      const relPath = `/${segments.join("/")}`;

      if (op.signed || header(req.headers, this.contract.headers.signature) !== undefined) {
        verifySigned(cred, req.headers, method, rawUrl, body, this.contract, this.opts.now(), this.nonces);
      }
      const scope = op.scope;
      if (!cred.scopes.includes(scope)) {
        throw new ApiError("insufficient_scope", `API key ${cred.key} lacks the scope ${scope} needed for ${method} ${relPath}; add it in the reseller portal`, undefined, {
          required_scope: scope,
        });
      }

      let parsed: Body = {};
      if (body.length > 0 && method !== "GET") {
        let v: unknown;
        try {
          v = JSON.parse(body.toString("utf8"));
        } catch {
          throw new ApiError("bad_request", "the request body is not valid JSON; send a JSON object");
        }
        if (!v || typeof v !== "object" || Array.isArray(v)) throw new ApiError("bad_request", "the request body must be a JSON object");
        if (depth(v) > MAX_DEPTH) throw new ApiError("bad_request", `the request body is nested deeper than ${MAX_DEPTH} levels`);
        parsed = v as Body;
      }

      let storeKey: string | null = null;
      let fingerprint = "";
      if (op.keyed) {
        const H = this.contract.headers.idempotencyKey;
        const key = header(req.headers, H);
        if (key === undefined || key === "") {
          throw new ApiError("idempotency_key_required", `${method} ${relPath} needs an ${H} header; reuse the same key when you retry`);
        }
        if (!idempotencyKeyValid(key, this.contract.idempotency.maxKeyLength)) {
          throw new ApiError("validation_error", `${H} must be 1 to ${this.contract.idempotency.maxKeyLength} visible ASCII characters`, H);
        }
        entry.idempotency_key = key;
        storeKey = `${cred.key}\n${key}`;
        fingerprint = createHash("sha256").update(`${method} ${relPath}\n${canonicalJson(parsed)}`).digest("hex");
        this.pruneIdempotency();
        const stored = this.core.state.idempotency[storeKey];
        if (stored) {
          if (stored.fingerprint !== fingerprint) {
            throw new ApiError("idempotency_key_reused", `${H} ${JSON.stringify(key)} was used for a different request; use a new key for a new request`, H);
          }
          entry.replayed = true;
          return send({ status: stored.status, body: stored.body, headers: { [this.contract.headers.idempotentReplay]: "true" } });
        }
      }

      let changed = false;
      const ctx: Ctx = {
        core: this.core,
        contract: this.contract,
        method,
        path: relPath,
        params: route.params!,
        query,
        body: parsed,
        cred,
        idempotencyKey: entry.idempotency_key,
        changed: () => {
          changed = true;
        },
      };
      let reply: Reply;
      // A refused or failed change leaves no trace: the state is restored from this copy.
      const before = method === "GET" ? null : checkpoint(this.core.state);
      try {
        let result: ReturnType<typeof route.r.handler>;
        try {
          result = route.r.handler(ctx);
        } catch (e) {
          if (before) {
            this.core.state = before();
            changed = false;
          }
          throw e;
        }
        reply = { status: result.status, body: { success: true, data: result.data }, headers: {} };
        if (storeKey) {
          this.core.state.idempotency[storeKey] = { fingerprint, status: reply.status, body: reply.body, storedAt: this.opts.now() };
          changed = true;
        }
      } finally {
        if (changed) {
          entry.mutating = method !== "GET";
          this.persist();
        }
      }
      const drop = this.takeFault(method, rawUrl, ["drop-after-commit"]);
      if (drop) {
        entry.fault = drop.kind;
        entry.status = reply.status;
        this.log(entry);
        res.socket?.destroy();
        return;
      }
      return send(reply);
    } catch (e) {
      if (e instanceof ApiError) {
        return fail(e, {}, e.code === "payload_too_large");
      }
      return fail(new ApiError("internal_error", `unexpected server failure (request ${requestId})`));
    }
  }

  private pruneIdempotency(): void {
    const cutoff = this.opts.now() - this.contract.idempotency.retentionSeconds * 1000;
    for (const [k, v] of Object.entries(this.core.state.idempotency)) if (v.storedAt < cutoff) delete this.core.state.idempotency[k];
  }

  /** The raw body, or null when it exceeds the limit (reading stops there). */
  private readBody(req: IncomingMessage): Promise<Buffer | null> {
    const max = this.contract.maxBodyBytes;
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > max) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      req.on("data", (c: Buffer) => {
        if (done) return;
        size += c.length;
        if (size > max) {
          done = true;
          req.pause();
          resolve(null);
          return;
        }
        chunks.push(c);
      });
      req.on("end", () => {
        if (!done) {
          done = true;
          resolve(Buffer.concat(chunks));
        }
      });
      req.on("error", (err) => {
        if (!done) {
          done = true;
          reject(err);
        }
      });
    });
  }

  /** Back to the seed: state, log, faults, nonces, rate windows. */
  reset(): void {
    this.core.reset(structuredClone(this.initialSettings));
    this.requests = [];
    this.received = { count: 0 };
    this.faults = [];
    this.release();
    this.nonces.clear();
    this.limiter.clear();
    this.persist();
  }
}

/**
 * Split a path (relative to the prefix) into decoded segments, or null when a segment is
 * malformed, empty, a dot segment, too long, or decodes to a slash, backslash or control byte.
 */
export function decodeSegments(rel: string): string[] | null {
  const raw = rel.split("/").slice(1);
  if (raw.length === 0 || raw.length > 8) return null;
  const out: string[] = [];
  for (const s of raw) {
    let d: string;
    try {
      d = decodeURIComponent(s);
    } catch {
      return null;
    }
    if (d === "" || d === "." || d === ".." || d.length > MAX_SEGMENT || /[/\\\x00-\x1f\x7f]/.test(d)) return null;
    out.push(d);
  }
  return out;
}

export const defaultRandom = (n: number): Uint8Array => new Uint8Array(randomBytes(n));
