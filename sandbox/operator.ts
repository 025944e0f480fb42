/**
 * The operator interface: the sandbox's back office. LocalOperator acts on an in-process
 * sandbox with plain (synchronous) return values; handleOperator serves the same actions
 * over HTTP under /_sandbox/ for loopback callers, without API authentication (operatorRefusal
 * says what else a request needs: a loopback Host, no foreign Origin, a JSON body).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { PRIVACY_STATUS, STAGE, isPrivacyAwaitingVerification } from "../api/vocabulary";
import { normalizeAddress } from "./auth";
import { ApiError, describe, invalid, notFound } from "./errors";
import { faultPathRegex, type Fault, type HeldRequest, type RequestLogEntry, type Sandbox } from "./server";
import { addYears, cents, parseCents, type DomainEntry, type LedgerEntry, type SandboxState, type Settings } from "./state";
import { canonicalHost } from "./validate";

/** Sandbox settings to change; omitted fields keep their value. */
export interface SettingsPatch {
  /** Which purchases wait for an operator's approval. */
  approval?: {
    /** Register and transfer orders stop in pending_approval. */
    orders?: boolean;
    /** Renewals wait for review. */
    renewals?: boolean;
  };
  /** TLDs whose new orders wait in pending_kyc. */
  kycTlds?: string[];
  /** Business-clock seconds an order stays pending. */
  processingDelaySeconds?: number;
  /** Rate limit per credential. */
  requestsPerMinute?: number;
  /** Account credit, decimal string or number. */
  balance?: string | number;
  /** Nameservers a domain gets when its order names none. */
  defaultNameservers?: string[];
}

/** The business clock after it moved (the HTTP operator's answer, field for field). */
export interface ClockAdvance {
  /** Business time now, ISO 8601. */
  now: string;
  /** Total offset from the wall clock, seconds. */
  offset_seconds: number;
}

/** Settings as they are after a change, with the account's credit. */
export interface SandboxSettings {
  /** Which purchases wait for an operator's approval. */
  approval: {
    /** Register and transfer orders stop in pending_approval. */
    orders: boolean;
    /** Renewals wait for review. */
    renewals: boolean;
  };
  /** TLDs whose new orders wait in pending_kyc. */
  kycTlds: string[];
  /** Business-clock seconds an order stays pending. */
  processingDelaySeconds: number;
  /** Rate limit per credential. */
  requestsPerMinute: number;
  /** Nameservers a domain gets when its order names none. */
  defaultNameservers: string[];
  /** Account credit, decimal string. */
  balance: string;
}

/** The operator actions of a sandbox in this process (`handle.operator`); each returns at once. */
export class LocalOperator {
  /** @internal The sandbox's handle builds it. */
  constructor(private readonly sb: Sandbox) {}

  private get core() {
    return this.sb.core;
  }

  private commit<T>(v: T): T {
    this.sb.persist();
    return v;
  }

  private domain(name: string) {
    const d = this.core.domain(canonicalHost(name) ?? name);
    this.core.settle(d);
    return d;
  }

  /** Every charge and refund so far, oldest first. */
  ledger(): LedgerEntry[] {
    return this.core.state.ledger.map((e) => ({ ...e }));
  }

  /** The API requests received (the latest 10,000), oldest first. */
  requests(): RequestLogEntry[] {
    return this.sb.requests.map((e) => ({ ...e }));
  }

  /** How many API requests were received since the log was last emptied, and when the earliest arrived (ISO time), beyond the log's 10,000. */
  requestsReceived(): {
    /** Requests received since the log was last emptied. */
    count: number;
    /** When the earliest of them arrived (ISO time); absent when none has. */
    firstAt?: string;
  } {
    return { ...this.sb.received };
  }

  /** Empties the request log. */
  clearRequests(): void {
    this.sb.requests = [];
    this.sb.received = { count: 0 };
  }

  /** Makes the next matching requests fail, drop their answer, wait or be rate limited; returns the fault as kept. */
  injectFault(fault: Fault): Fault {
    const f = validateFault(fault);
    this.sb.faults.push(f);
    return { ...f };
  }

  /** Faults not yet used up. */
  faults(): Fault[] {
    return this.sb.faults.map((f) => ({ ...f }));
  }

  /** Removes every fault. */
  clearFaults(): void {
    this.sb.faults = [];
  }

  /** The requests a hold fault keeps waiting now, oldest first. */
  held(): HeldRequest[] {
    return this.sb.held();
  }

  /** Lets every held request go on (each is then processed and answered); returns how many. */
  release(): {
    /** How many held requests were let go. */
    released: number;
  } {
    return { released: this.sb.release() };
  }

  /** Move the business clock forward (stages, expiry); signatures keep using the wall clock. */
  advanceClock(seconds: number): ClockAdvance {
    if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0 || seconds > 100 * 366 * 86400) {
      throw invalid("seconds", seconds, "a number of seconds from 0 to 100 years");
    }
    this.core.state.clockOffsetMs += Math.round(seconds * 1000);
    this.core.settleAll();
    return this.commit({ now: new Date(this.core.bnow()).toISOString(), offset_seconds: this.core.state.clockOffsetMs / 1000 });
  }

  /** Approve the order (pending_approval) or the renewal awaiting review for a domain. */
  approve(name: string): Record<string, unknown> {
    const d = this.domain(name);
    if (d.stage === STAGE.pending_approval) {
      this.core.startProcessing(d);
    } else if (d.pendingRenewal) {
      d.expiresAt = new Date(d.expiresAt).setUTCFullYear(new Date(d.expiresAt).getUTCFullYear() + d.pendingRenewal.years);
      d.pendingRenewal = null;
      if (d.stage === STAGE.expired && d.expiresAt > this.core.bnow()) d.stage = STAGE.active;
      this.core.settle(d); // a renewal that still ends in the past leaves the grace period as usual
    } else {
      throw new ApiError("domain_not_active", `domain ${d.domain} has no order or renewal awaiting approval (stage ${d.stage})`);
    }
    return this.commit(this.core.domainInfo(d));
  }

  /** Reject: an order becomes cancelled and its charge is refunded; a renewal is refunded and dropped. */
  reject(name: string): Record<string, unknown> {
    const d = this.domain(name);
    if (d.stage === STAGE.pending_approval) {
      this.endOrder(d, STAGE.cancelled);
    } else if (d.pendingRenewal) {
      this.core.charge(d.domain, "refund", d.pendingRenewal.years, -d.pendingRenewal.amount, d.pendingRenewal.invoice, null);
      d.pendingRenewal = null;
      this.core.settle(d); // an expired domain past its grace period now moves to redemption
    } else {
      throw new ApiError("domain_not_active", `domain ${d.domain} has no order or renewal awaiting approval (stage ${d.stage})`);
    }
    return this.commit(this.core.domainInfo(d));
  }

  /**
   * The registry refuses an order (not shown in the spec; our reading of the stage `failed`): an
   * order held for review or still processing becomes `failed` and its charge is refunded, as a
   * rejection is. The name can then be ordered again.
   */
  fail(name: string): Record<string, unknown> {
    const d = this.domain(name);
    if (d.stage !== STAGE.pending_approval && d.stage !== STAGE.pending && d.stage !== STAGE.pending_transfer) {
      throw new ApiError("domain_not_active", `domain ${d.domain} has no order awaiting review or processing (stage ${d.stage})`);
    }
    this.endOrder(d, STAGE.failed);
    return this.commit(this.core.domainInfo(d));
  }

  /** An order that ends without the name: the stage it ends in, and its charge refunded on its invoice. */
  private endOrder(d: DomainEntry, stage: typeof STAGE.cancelled | typeof STAGE.failed): void {
    d.stage = stage;
    d.readyAt = null;
    if (d.orderAmount > 0) this.core.charge(d.domain, "refund", null, -d.orderAmount, d.orderInvoice ?? this.core.newInvoice(), null);
  }

  /** The registrant confirms WHOIS Privacy by e-mail: privacy goes live. Returns the domain's info. */
  confirmPrivacy(name: string): Record<string, unknown> {
    const d = this.domain(name);
    if (!isPrivacyAwaitingVerification(d.privacy)) {
      throw new ApiError("domain_not_active", `WHOIS Privacy of ${d.domain} is ${d.privacy.status}, not ${PRIVACY_STATUS.awaitingVerification}`);
    }
    d.privacy = { enabled: true, status: PRIVACY_STATUS.live, verified: true };
    return this.commit(this.core.domainInfo(d));
  }

  /** The registrant confirms a contact change by e-mail: the new registrant applies. Returns the domain's info. */
  confirmContacts(name: string): Record<string, unknown> {
    const d = this.domain(name);
    if (!d.pendingRegistrant) throw new ApiError("domain_not_active", `domain ${d.domain} has no contact change awaiting confirmation`);
    d.contacts.registrant = d.pendingRegistrant;
    d.pendingRegistrant = null;
    return this.commit(this.core.domainInfo(d));
  }

  /** Identity verification done: an order in pending_kyc goes active. Returns the domain's info. */
  completeKyc(name: string): Record<string, unknown> {
    const d = this.domain(name);
    d.kycDone = true;
    if (d.stage === STAGE.pending_kyc) d.stage = STAGE.active;
    return this.commit(this.core.domainInfo(d));
  }

  /** The losing registrar lets a pending transfer go now. Returns the domain's info. */
  completeTransfer(name: string): Record<string, unknown> {
    const d = this.domain(name);
    if (d.stage !== STAGE.pending_transfer) throw new ApiError("domain_not_active", `domain ${d.domain} is ${d.stage}, not pending_transfer`);
    d.readyAt = this.core.bnow();
    this.core.settle(d);
    return this.commit(this.core.domainInfo(d));
  }

  /**
   * Restore a domain in redemption, as the reseller portal would (the API has no restore call;
   * POST /pricing quotes it): charges the TLD's restore price plus one year's renewal, adds one
   * year to the expiry, and the stage follows from the new expiry.
   */
  restore(name: string): Record<string, unknown> {
    const d = this.domain(name);
    if (d.stage !== STAGE.redemption) throw new ApiError("domain_not_active", `domain ${d.domain} is ${d.stage}, not redemption; only a domain in redemption is restored`);
    const t = this.core.tldOf(d.domain);
    if (!t) throw new ApiError("internal_error", `no TLD entry for ${d.domain}`);
    const amount = t.restore + t.renew;
    this.core.ensureCredit(amount);
    this.core.charge(d.domain, "restore", 1, amount, this.core.newInvoice(), null);
    d.expiresAt = addYears(d.expiresAt, 1);
    d.stage = d.expiresAt > this.core.bnow() ? STAGE.active : STAGE.expired;
    this.core.settle(d);
    return this.commit(this.core.domainInfo(d));
  }

  /** Changes settings and the account's credit; returns them as they now are. */
  settings(patch: SettingsPatch = {}): SandboxSettings {
    const s = applySettings(this.core.state.settings, patch);
    if (patch.balance !== undefined) {
      const c = parseCents(patch.balance);
      if (c === null || c < 0) throw invalid("balance", patch.balance, "a non-negative decimal amount such as 1000.00");
      this.core.state.account.balance = c;
    }
    this.core.state.settings = s;
    return this.commit({ ...structuredClone(s), balance: cents(this.core.state.account.balance) });
  }

  /** Back to the state the sandbox started with. */
  reset(): void {
    this.sb.reset();
  }

  /** @internal The whole state, for the repository's tests; its shape follows the sandbox's internals. */
  state(): SandboxState {
    this.core.settleAll();
    return structuredClone(this.core.state);
  }
}

function applySettings(current: Settings, p: SettingsPatch): Settings {
  if (!p || typeof p !== "object") throw invalid("settings", p, "an object");
  const s = structuredClone(current);
  if (p.approval !== undefined) {
    if (!p.approval || typeof p.approval !== "object") throw invalid("approval", p.approval, "an object with orders and renewals booleans");
    for (const k of ["orders", "renewals"] as const) {
      const v = p.approval[k];
      if (v === undefined) continue;
      if (typeof v !== "boolean") throw invalid(`approval.${k}`, v, "true or false");
      s.approval[k] = v;
    }
  }
  if (p.kycTlds !== undefined) {
    if (!Array.isArray(p.kycTlds) || p.kycTlds.some((t) => typeof t !== "string")) throw invalid("kycTlds", p.kycTlds, "an array of TLDs such as de");
    s.kycTlds = p.kycTlds.map((t) => t.replace(/^\./, "").toLowerCase());
  }
  if (p.processingDelaySeconds !== undefined) {
    const v = p.processingDelaySeconds;
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw invalid("processingDelaySeconds", v, "a number of seconds, 0 or more");
    s.processingDelaySeconds = v;
  }
  if (p.requestsPerMinute !== undefined) {
    const v = p.requestsPerMinute;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1) throw invalid("requestsPerMinute", v, "a positive integer");
    s.requestsPerMinute = v;
  }
  if (p.defaultNameservers !== undefined) {
    const v = p.defaultNameservers;
    if (!Array.isArray(v) || v.length < 2 || v.some((h) => typeof h !== "string" || !canonicalHost(h))) {
      throw invalid("defaultNameservers", v, "an array of at least 2 host names");
    }
    s.defaultNameservers = v.map((h) => canonicalHost(h)!);
  }
  return s;
}

function validateFault(f: Fault): Fault {
  const rule = "kind error, drop-after-commit, delay, hold or rate-limit with a positive integer count";
  if (!f || typeof f !== "object") throw invalid("fault", f, rule);
  const count = f.count ?? 1;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1) throw invalid("count", f.count, "a positive integer");
  const match = f.match;
  if (match !== undefined && (typeof match !== "object" || match === null)) throw invalid("match", match, "an object with method and/or path");
  if (match && typeof match.path === "string") {
    try {
      faultPathRegex(match.path);
    } catch {
      throw invalid("match.path", match.path, "a substring or a valid /regular expression/");
    }
  }
  const m = match ? { ...(typeof match.method === "string" ? { method: match.method } : {}), ...(typeof match.path === "string" ? { path: match.path } : {}) } : undefined;
  switch (f.kind) {
    case "error": {
      const status = f.status ?? 500;
      if (!Number.isInteger(status) || status < 400 || status > 599) throw invalid("status", f.status, "an HTTP error status from 400 to 599");
      return { kind: "error", status, count, ...(m ? { match: m } : {}) };
    }
    case "drop-after-commit":
      return { kind: "drop-after-commit", count, ...(m ? { match: m } : {}) };
    case "delay":
      if (typeof f.ms !== "number" || f.ms < 0 || f.ms > 60_000) throw invalid("ms", f.ms, "milliseconds from 0 to 60000");
      return { kind: "delay", ms: f.ms, count, ...(m ? { match: m } : {}) };
    case "hold":
      return { kind: "hold", count, ...(m ? { match: m } : {}) };
    case "rate-limit": {
      const r = f.retryAfterSeconds ?? 1;
      if (typeof r !== "number" || !Number.isInteger(r) || r < 0) throw invalid("retryAfterSeconds", f.retryAfterSeconds, "a non-negative integer");
      return { kind: "rate-limit", count, retryAfterSeconds: r, ...(m ? { match: m } : {}) };
    }
    default:
      throw invalid("kind", (f as { kind?: unknown }).kind, rule);
  }
}

const LOOPBACK = new Set(["127.0.0.1", "::1"]);

/** A Host header that is a host name or address and an optional port, nothing else (no user part a URL parser would read past). */
const HOST_HEADER = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Whether a Host header names this machine: localhost (and *.localhost, RFC 6761 §6.3), 127.0.0.0/8
 * or ::1, in any spelling a URL parser reads as one of them. A page that reaches the sandbox by DNS
 * rebinding sends its own name here.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined || !HOST_HEADER.test(host)) return false;
  let name: string;
  try {
    name = new URL(`http://${host}/`).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return false;
  }
  return name === "localhost" || name.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(name) || name === "[::1]" || name === "[::ffff:7f00:1]";
}

/**
 * Why a request may not reach the operator interface, or undefined. Beyond a loopback caller: a
 * loopback Host (a web page that rebinds its name to 127.0.0.1 sends its own), no Origin but the
 * sandbox's own (a page's fetch or form sends its origin; Node and curl send none), and a body only
 * as JSON (a cross-site form can post text/plain or form data without asking first, never JSON).
 */
export function operatorRefusal(req: IncomingMessage): ApiError | undefined {
  if (!LOOPBACK.has(normalizeAddress(req.socket.remoteAddress))) return new ApiError("ip_not_allowed", "the operator interface answers loopback callers only");
  const host = req.headers.host;
  if (!isLoopbackHost(host))
    return new ApiError("bad_request", `the operator interface answers requests addressed to a loopback name only (localhost, 127.0.0.1, [::1]); Host was ${describe(host)}`, undefined, undefined, 403);
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host!.toLowerCase()}`)
    return new ApiError("bad_request", `the operator interface does not answer requests from web pages of another origin; Origin was ${describe(origin)}`, undefined, undefined, 403);
  return undefined;
}

/** Whether a Content-Type is JSON (application/json, any parameters). */
const isJsonType = (type: string | undefined): boolean => type !== undefined && type.split(";")[0].trim().toLowerCase() === "application/json";

/** Serve /_sandbox/... Answers { success, data } like the API. */
export async function handleOperator(op: LocalOperator, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const send = (status: number, body: unknown) => {
    res.statusCode = status;
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.end(JSON.stringify(body));
  };
  try {
    const refused = operatorRefusal(req);
    if (refused) {
      req.resume();
      throw refused;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size > 65536) throw new ApiError("payload_too_large", "operator request bodies are limited to 64 KiB");
      chunks.push(c as Buffer);
    }
    let body: Record<string, unknown> = {};
    if (size > 0) {
      if (!isJsonType(req.headers["content-type"]))
        throw new ApiError("bad_request", `the operator interface takes JSON bodies only: send Content-Type: application/json (got ${describe(req.headers["content-type"])})`, undefined, undefined, 415);
      try {
        const v: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error("not an object");
        body = v as Record<string, unknown>;
      } catch {
        throw new ApiError("bad_request", "the operator request body must be a JSON object");
      }
    }
    const method = req.method ?? "GET";
    const path = (req.url ?? "/").split("?")[0];
    const seg = path.split("/").slice(2).map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return "\0";
      }
    });
    const route = `${method} ${seg.map((s, i) => (i === 1 && (seg[0] === "orders" || seg[0] === "domains") ? ":d" : s)).join("/")}`;
    const d = seg[1] ?? "";
    const data = ((): unknown => {
      switch (route) {
        case "GET ledger":
          return { entries: op.ledger() };
        case "GET requests":
          return { entries: op.requests() };
        case "DELETE requests":
          op.clearRequests();
          return { cleared: true };
        case "GET faults":
          return { faults: op.faults() };
        case "POST faults":
          return { fault: op.injectFault(body as unknown as Fault) };
        case "DELETE faults":
          op.clearFaults();
          return { cleared: true };
        case "GET held":
          return { held: op.held() };
        case "POST release":
          return op.release();
        case "POST clock/advance":
          return op.advanceClock(body.seconds as number);
        case "POST orders/:d/approve":
          return op.approve(d);
        case "POST orders/:d/reject":
          return op.reject(d);
        case "POST orders/:d/fail":
          return op.fail(d);
        case "POST domains/:d/confirm-privacy":
          return op.confirmPrivacy(d);
        case "POST domains/:d/confirm-contacts":
          return op.confirmContacts(d);
        case "POST domains/:d/complete-kyc":
          return op.completeKyc(d);
        case "POST domains/:d/complete-transfer":
          return op.completeTransfer(d);
        case "POST domains/:d/restore":
          return op.restore(d);
        case "PATCH settings":
          return op.settings(body as SettingsPatch);
        case "GET settings":
          return op.settings({});
        case "POST reset":
          op.reset();
          return { reset: true };
        case "GET state":
          return op.state();
        default:
          throw notFound("operator endpoint", `${method} ${path.slice(0, 120)}`);
      }
    })();
    send(200, { success: true, data });
  } catch (e) {
    const err = e instanceof ApiError ? e : new ApiError("internal_error", "unexpected operator failure");
    send(err.status, err.body());
  }
}
