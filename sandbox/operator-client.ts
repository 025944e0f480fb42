/**
 * A small HTTP client for the operator interface (/_sandbox/), for tests and scripts that talk
 * to a sandbox in another process. Every method resolves to the `data` of the answer.
 */
import type { ClockAdvance, SettingsPatch } from "./operator";
import type { Fault, HeldRequest, RequestLogEntry } from "./server";
import type { LedgerEntry, SandboxState } from "./state";

/** An operator call the sandbox refused. */
export class SandboxOperatorError extends Error {
  override readonly name = "SandboxOperatorError";
  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** The error code of the answer, e.g. domain_not_active. */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The operator actions of a sandbox over HTTP (`/_sandbox/`), e.g. one started with `npx reseller-pulumi sandbox`. */
export class SandboxOperator {
  /** `url` is the sandbox base URL, e.g. http://127.0.0.1:8787. */
  constructor(
    /** The sandbox's base URL. */
    readonly url: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.fetchImpl(`${this.url.replace(/\/$/, "")}/_sandbox/${path}`, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { success: boolean; data?: T; error?: { code: string; message: string } };
    if (!res.ok || !json.success) throw new SandboxOperatorError(res.status, json.error?.code ?? "unknown", json.error?.message ?? `operator call failed: ${res.status}`);
    return json.data as T;
  }

  private d = (domain: string) => encodeURIComponent(domain);

  /** Every charge and refund so far, oldest first. */
  async ledger(): Promise<LedgerEntry[]> {
    return (await this.call<{ entries: LedgerEntry[] }>("GET", "ledger")).entries;
  }
  /** The API requests received (the latest 10,000), oldest first. */
  async requests(): Promise<RequestLogEntry[]> {
    return (await this.call<{ entries: RequestLogEntry[] }>("GET", "requests")).entries;
  }
  /** Empties the request log. */
  async clearRequests(): Promise<void> {
    await this.call("DELETE", "requests");
  }
  /** Makes the next matching requests fail, drop their answer, wait or be rate limited; returns the fault as kept. */
  async injectFault(fault: Fault): Promise<Fault> {
    return (await this.call<{ fault: Fault }>("POST", "faults", fault)).fault;
  }
  /** Faults not yet used up. */
  async faults(): Promise<Fault[]> {
    return (await this.call<{ faults: Fault[] }>("GET", "faults")).faults;
  }
  /** Removes every fault. */
  async clearFaults(): Promise<void> {
    await this.call("DELETE", "faults");
  }
  /** The requests a hold fault keeps waiting now, oldest first. */
  async held(): Promise<HeldRequest[]> {
    return (await this.call<{ held: HeldRequest[] }>("GET", "held")).held;
  }
  /** Lets every held request go on (each is then processed and answered); returns how many. */
  release(): Promise<{
    /** How many held requests were let go. */
    released: number;
  }> {
    return this.call("POST", "release");
  }
  /** Moves the business clock forward (stages, expiry); signatures keep using the wall clock. */
  advanceClock(seconds: number): Promise<ClockAdvance> {
    return this.call("POST", "clock/advance", { seconds });
  }
  /** Approves the order (pending_approval) or the renewal awaiting review for a domain. Returns the domain's info. */
  approve(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `orders/${this.d(domain)}/approve`);
  }
  /** Rejects it: an order becomes cancelled and is refunded; a renewal is refunded and dropped. */
  reject(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `orders/${this.d(domain)}/reject`);
  }

  /** The registry refuses a pending order: stage failed, its charge refunded. */
  fail(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `orders/${this.d(domain)}/fail`);
  }
  /** The registrant confirms WHOIS Privacy by e-mail: privacy goes live. */
  confirmPrivacy(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `domains/${this.d(domain)}/confirm-privacy`);
  }
  /** The registrant confirms a contact change by e-mail: the new registrant applies. */
  confirmContacts(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `domains/${this.d(domain)}/confirm-contacts`);
  }
  /** Identity verification done: an order in pending_kyc goes active. */
  completeKyc(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `domains/${this.d(domain)}/complete-kyc`);
  }
  /** The losing registrar lets a pending transfer go now. */
  completeTransfer(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `domains/${this.d(domain)}/complete-transfer`);
  }
  /** Restores a domain in redemption, as the reseller portal would, charging the restore and a year. */
  restore(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `domains/${this.d(domain)}/restore`);
  }
  /** Changes settings and the account's credit; resolves to them as they now are. */
  settings(partial: SettingsPatch = {}): Promise<Record<string, unknown>> {
    return this.call("PATCH", "settings", partial);
  }
  /** Back to the state the sandbox started with. */
  async reset(): Promise<void> {
    await this.call("POST", "reset");
  }
  /** @internal The whole state, for the repository's tests; its shape follows the sandbox's internals. */
  state(): Promise<SandboxState> {
    return this.call("GET", "state");
  }
}
