/**
 * A small HTTP client for the operator interface (/_sandbox/), for tests and scripts that talk
 * to a sandbox in another process. Every method resolves to the `data` of the answer.
 */
import type { SettingsPatch } from "./operator";
import type { Fault, RequestLogEntry } from "./server";
import type { LedgerEntry, SandboxState } from "./state";

export class SandboxOperatorError extends Error {
  override readonly name = "SandboxOperatorError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class SandboxOperator {
  /** `url` is the sandbox base URL, e.g. http://127.0.0.1:8787. */
  constructor(
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

  async ledger(): Promise<LedgerEntry[]> {
    return (await this.call<{ entries: LedgerEntry[] }>("GET", "ledger")).entries;
  }
  async requests(): Promise<RequestLogEntry[]> {
    return (await this.call<{ entries: RequestLogEntry[] }>("GET", "requests")).entries;
  }
  async clearRequests(): Promise<void> {
    await this.call("DELETE", "requests");
  }
  async injectFault(fault: Fault): Promise<Fault> {
    return (await this.call<{ fault: Fault }>("POST", "faults", fault)).fault;
  }
  async faults(): Promise<Fault[]> {
    return (await this.call<{ faults: Fault[] }>("GET", "faults")).faults;
  }
  async clearFaults(): Promise<void> {
    await this.call("DELETE", "faults");
  }
  advanceClock(seconds: number): Promise<{ now: string; offset_seconds: number }> {
    return this.call("POST", "clock/advance", { seconds });
  }
  approve(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `orders/${this.d(domain)}/approve`);
  }
  reject(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `orders/${this.d(domain)}/reject`);
  }

  fail(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `orders/${this.d(domain)}/fail`);
  }
  confirmPrivacy(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `domains/${this.d(domain)}/confirm-privacy`);
  }
  confirmContacts(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `domains/${this.d(domain)}/confirm-contacts`);
  }
  completeKyc(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `domains/${this.d(domain)}/complete-kyc`);
  }
  completeTransfer(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `domains/${this.d(domain)}/complete-transfer`);
  }
  restore(domain: string): Promise<Record<string, unknown>> {
    return this.call("POST", `domains/${this.d(domain)}/restore`);
  }
  settings(partial: SettingsPatch = {}): Promise<Record<string, unknown>> {
    return this.call("PATCH", "settings", partial);
  }
  async reset(): Promise<void> {
    await this.call("POST", "reset");
  }
  state(): Promise<SandboxState> {
    return this.call("GET", "state");
  }
}
