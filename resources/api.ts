/**
 * What resources/ needs from provider/: the client's methods (as an interface, so handlers depend
 * on a shape, not a construction), and small readers of its errors by status and code. Errors are
 * read by their `status`/`code` fields rather than by class, so a wrapped or re-thrown error from
 * the client is still understood.
 */
import type {
  Availability,
  Balance,
  Contacts,
  ContactsUpdate,
  DnsRecord,
  DnsZone,
  DnsZoneWithRecords,
  DomainInfo,
  DomainOrder,
  Host,
  PrivacyView,
  ProtectionView,
  Quote,
  RecordInput,
  RegisterRequest,
  RenewRequest,
  Template,
  TemplateApplied,
  Tier,
  Tld,
  TransferRequest,
  ConflictStrategy,
  PricingAction,
} from "../provider/views";
import type { Contact, ContactType } from "../provider/shapes";
import { DEFAULT_CONTRACT, resolveContract, type ContractOverrides } from "../provider/contract";
import type { ResellerClientOptions } from "../provider/client";

export interface Keyed {
  idempotencyKey: string;
}

/** The subset of provider/client.ts ResellerClient that resources use. */
export interface ResellerApi {
  listTlds(): Promise<Tld[]>;
  checkAvailability(domains: string[], years?: number): Promise<Availability[]>;
  checkDomain(domain: string): Promise<Availability>;
  quote(req: { action: PricingAction; domain: string; years: number }): Promise<Quote>;
  getBalance(): Promise<Balance>;
  getTier(): Promise<Tier>;
  register(req: RegisterRequest, opts: Keyed): Promise<DomainOrder>;
  transfer(req: TransferRequest, opts: Keyed): Promise<DomainOrder>;
  renew(domain: string, body: RenewRequest, opts: Keyed): Promise<DomainOrder>;
  getDomain(domain: string): Promise<DomainInfo>;
  listDomainInfos(): Promise<DomainInfo[]>;
  listZones(): Promise<DnsZone[]>;
  setNameservers(domain: string, nameservers: string[]): Promise<unknown>;
  getContacts(domain: string): Promise<Contacts>;
  updateContacts(domain: string, contacts: Partial<Record<ContactType, Contact>>): Promise<ContactsUpdate>;
  setLock(domain: string, locked: boolean): Promise<unknown>;
  requestEppCode(domain: string): Promise<{ auth_code: string }>;
  listHosts(domain: string): Promise<Host[]>;
  createHost(domain: string, host: Host): Promise<Host>;
  updateHost(domain: string, hostname: string, addresses: { ipv4: string[]; ipv6: string[] }): Promise<Host>;
  deleteHost(domain: string, hostname: string): Promise<unknown>;
  getPrivacy(domain: string): Promise<PrivacyView>;
  enablePrivacy(domain: string, opts: Keyed): Promise<PrivacyView>;
  disablePrivacy(domain: string): Promise<unknown>;
  getProtection(domain: string): Promise<ProtectionView>;
  enableProtection(domain: string, opts: Keyed): Promise<ProtectionView>;
  createZone(domain: string): Promise<DnsZone>;
  getZone(domain: string): Promise<DnsZoneWithRecords>;
  checkZone(domain: string): Promise<DnsZone>;
  deleteZone(domain: string): Promise<unknown>;
  listRecords(domain: string, filter?: { type?: string }): Promise<DnsRecord[]>;
  createRecord(domain: string, record: RecordInput): Promise<DnsRecord>;
  updateRecord(domain: string, id: string, patch: Partial<RecordInput>): Promise<DnsRecord>;
  deleteRecord(domain: string, id: string): Promise<unknown>;
  listTemplates(): Promise<Template[]>;
  applyTemplate(
    domain: string,
    id: string,
    body: { variables: Record<string, string>; conflict_strategy: ConflictStrategy },
  ): Promise<TemplateApplied>;
}

/** Settings a client is made from: stack config (reseller:*) with environment fallback. */
export interface Settings {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  contract?: ContractOverrides;
  requestsPerMinute?: number;
  /** Per-attempt timeout of the client, ms (`reseller:timeoutSeconds`; the client's default when absent). */
  timeoutMs?: number;
}

/** A config reader: `pulumi.Config("reseller").get` in the program, `req.config.get("reseller:...")` in the host. */
export type ConfigGet = (key: "apiKey" | "apiSecret" | "baseUrl" | "contract" | "requestsPerMinute" | "timeoutSeconds") => string | undefined;

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** A setting's value for a message: JSON, shortened, with any user:password@ in a URL masked. */
function shownSetting(v: string): string {
  const s = JSON.stringify(v.replace(/\/\/[^/@\s]*@/, "//(secret)@"));
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** The default account: stack config namespace `reseller`, environment prefix `RESELLER_`. */
export const DEFAULT_ACCOUNT = "reseller";

/** Names a second account's settings: a config namespace such as "reseller-eu" (letters, digits, "-", "_"). */
export function accountFailure(account: unknown): string | undefined {
  if (account === undefined) return undefined;
  if (typeof account !== "string" || !/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(account))
    return `account: ${JSON.stringify(account)} is not a config namespace (letters, digits, "-" and "_", starting with a letter, e.g. "reseller-eu")`;
  return undefined;
}

/** The environment prefix of an account's settings: "reseller" -> RESELLER_, "reseller-eu" -> RESELLER_EU_. */
export const envPrefix = (account: string): string => `${account.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_`;

/** Each setting's environment fallback, by setting name (prefix RESELLER_ for the default account). */
export const ENV_NAMES: Record<Parameters<ConfigGet>[0], string> = {
  baseUrl: "BASE_URL",
  apiKey: "API_KEY",
  apiSecret: "API_SECRET",
  contract: "CONTRACT",
  requestsPerMinute: "REQUESTS_PER_MINUTE",
  timeoutSeconds: "TIMEOUT_SECONDS",
};

/** Reads settings; a missing credential is reported by name, never by value. Every setting falls back to the environment. */
export function readSettings(configGet: ConfigGet, env: NodeJS.ProcessEnv = process.env, account: string = DEFAULT_ACCOUNT): Settings {
  const prefix = envPrefix(account);
  const get: ConfigGet = (key) => configGet(key) ?? env[`${prefix}${ENV_NAMES[key]}`];
  const name = (key: keyof typeof ENV_NAMES): string => `${account}:${key} (or ${prefix}${ENV_NAMES[key]})`;
  let baseUrl = get("baseUrl");
  const apiKey = get("apiKey");
  const apiSecret = get("apiSecret");
  const missing = [
    !baseUrl && name("baseUrl"),
    !apiKey && name("apiKey"),
    !apiSecret && `${name("apiSecret")}; set it with \`pulumi config set --secret\``,
  ].filter(Boolean);
  if (missing.length) throw new Error(`reseller: missing configuration: ${missing.join(", ")}`);
  if (!isHttpUrl(baseUrl!)) throw new Error(`${account}:baseUrl: ${shownSetting(baseUrl!)} is not an http(s) URL (e.g. https://api.example.com)`);
  const contractText = get("contract");
  let contract: ContractOverrides | undefined;
  if (contractText) {
    try {
      contract = JSON.parse(contractText) as ContractOverrides;
    } catch {
      throw new Error(`${account}:contract: ${shownSetting(contractText)} is not valid JSON (expected an object of contract overrides, see provider/contract.ts)`);
    }
    try {
      resolveContract(contract); // refuse an unknown or ill-typed entry now, by name, rather than ignore it
    } catch (e) {
      throw new Error(`${account}:contract: ${(e as Error).message}`);
    }
  }
  const rpm = get("requestsPerMinute");
  const requestsPerMinute = rpm === undefined ? undefined : Number(rpm);
  if (requestsPerMinute !== undefined && !(Number.isFinite(requestsPerMinute) && requestsPerMinute > 0))
    throw new Error(`${account}:requestsPerMinute: "${rpm}" is not a positive number`);
  const timeout = get("timeoutSeconds");
  const timeoutSeconds = timeout === undefined ? undefined : Number(timeout);
  if (timeoutSeconds !== undefined && !(Number.isFinite(timeoutSeconds) && timeoutSeconds > 0))
    throw new Error(`${account}:timeoutSeconds: "${timeout}" is not a positive number`);
  // A URL copied with the API prefix (the sandbox once printed it so) is taken as meant, never doubled.
  const apiPrefix = contract ? resolveContract(contract).apiPrefix : DEFAULT_CONTRACT.apiPrefix;
  const trimmed = baseUrl!.replace(/\/+$/, "");
  if (apiPrefix && trimmed.endsWith(apiPrefix)) baseUrl = trimmed.slice(0, -apiPrefix.length) || trimmed;
  return { baseUrl: baseUrl!, apiKey: apiKey!, apiSecret: apiSecret!, contract, requestsPerMinute, ...(timeoutSeconds ? { timeoutMs: Math.round(timeoutSeconds * 1000) } : {}) };
}

/** Builds the real client (provider/client.ts), loaded lazily so pure modules do not pull it in. */
export function createClient(settings: Settings, hooks: Pick<ResellerClientOptions, "logger" | "onWait"> = {}): ResellerApi {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ResellerClient } = require("../provider/client") as typeof import("../provider/client");
  // Typed assignment: the compiler checks that the real client has the shape resources rely on.
  const api: ResellerApi = new ResellerClient({ ...settings, ...hooks });
  return api;
}

/** The machine code of an API error, or undefined. */
export function errorCode(e: unknown): string | undefined {
  const c = (e as { code?: unknown } | null)?.code;
  return typeof c === "string" ? c : undefined;
}

export function errorStatus(e: unknown): number | undefined {
  const s = (e as { status?: unknown } | null)?.status;
  return typeof s === "number" ? s : undefined;
}

export const isNotFound = (e: unknown): boolean => errorCode(e) === "not_found" || errorStatus(e) === 404;
export const hasCode = (e: unknown, code: string): boolean => errorCode(e) === code;

/** Whether the client says a creating request may have been applied (OutcomeUnknownError). */
export const isOutcomeUnknown = (e: unknown): boolean => (e as { name?: unknown } | null)?.name === "OutcomeUnknownError";

/**
 * Whether a request got no answer from the service: outcome unknown, or a network failure after the
 * client's own retries (which, for keyed orders, already re-sent the same Idempotency-Key). A request
 * that never left (connection refused, unknown host) was answered by nothing and charged nothing.
 */
export const isUnanswered = (e: unknown): boolean =>
  isOutcomeUnknown(e) || ((e as { name?: unknown } | null)?.name === "ResellerNetworkError" && (e as { sent?: unknown }).sent !== false);
