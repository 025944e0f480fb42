/**
 * What resources/ needs from api/: the client's methods (as a type picked from the client, so
 * handlers depend on a shape, not a construction, and the shape cannot drift from the client), and
 * settings it is made from. Its errors are read with api/vocabulary's guards.
 */
import { isAbsolute } from "node:path";
import { resolveContract, DEFAULT_CONTRACT, type ContractOverrides } from "../../api/contract";
import type { ResellerClient, ResellerClientOptions } from "../../api/client";
import type { OperationName, ReadOnlyOperationName } from "../../api/operations";
import { checkConnectionSettings, parseDecimalSetting, shownSetting } from "../../api/settings";

/** The Idempotency-Key option of the keyed orders (register, transfer, renew, privacy and protection enable). */
export type Keyed = Parameters<ResellerClient["register"]>[1];

/** The client's methods: one per operation of the table (api/operations.ts), plus the domain list read as information views. */
export type ResellerApi = Pick<ResellerClient, OperationName | "listDomainInfos">;

/** The methods of the operations that change nothing: all the read-only functions (../program/functions.ts) may call. */
export type ReadOnlyApi = Pick<ResellerClient, ReadOnlyOperationName>;

/** Settings a client is made from: stack config (reseller:*) with environment fallback. */
export interface Settings {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  contract?: ContractOverrides;
  requestsPerMinute?: number;
  /** Deadline of one attempt of the client, body included, ms (`reseller:timeoutSeconds`; the client's default when absent). */
  timeoutMs?: number;
  /** Folder of the shared rate-limit log (`reseller:rateLimitDir`; the user's cache folder when absent). */
  rateLimitLogDir?: string;
  /** Whether check reads the service to predict up (`reseller:preflight`, default true; resources/kit/preflight.ts). */
  preflight?: boolean;
}

/** A config reader: `pulumi.Config("reseller").get` in the program, `req.config.get("reseller:...")` in the host. */
export type ConfigGet = (key: "apiKey" | "apiSecret" | "baseUrl" | "contract" | "requestsPerMinute" | "timeoutSeconds" | "rateLimitDir" | "preflight") => string | undefined;

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
  rateLimitDir: "RATE_LIMIT_DIR",
  preflight: "PREFLIGHT",
};

/** Each setting as the provider's schema documents it (its config variables), by setting name; secret ones say so. */
export const SETTING_DOCS: Record<Parameters<ConfigGet>[0], { doc: string; secret?: boolean }> = {
  baseUrl: { doc: "The service's scheme and host (and any path before /api/v1), e.g. https://reseller.example; https only, except for this machine. Environment: RESELLER_BASE_URL." },
  apiKey: { doc: "The API key (visible ASCII). Environment: RESELLER_API_KEY." },
  apiSecret: { doc: "The API secret; never stored in plain text. Environment: RESELLER_API_SECRET.", secret: true },
  contract: { doc: "JSON overrides of the assumptions the package makes where the service's description is silent. Environment: RESELLER_CONTRACT." },
  requestsPerMinute: { doc: "The client's rate limit per credential (default 60). Environment: RESELLER_REQUESTS_PER_MINUTE." },
  timeoutSeconds: { doc: "Deadline of one request attempt, seconds (default 30). Environment: RESELLER_TIMEOUT_SECONDS." },
  rateLimitDir: { doc: "Absolute path of the folder of the shared rate-limit logs (default: the user's cache folder). Environment: RESELLER_RATE_LIMIT_DIR." },
  preflight: { doc: "\"false\" turns off the reads check makes to predict up (default \"true\"). Environment: RESELLER_PREFLIGHT." },
};

/** Reads settings; a missing credential is reported by name, never by value. Every setting falls back to the environment. */
export function readSettings(configGet: ConfigGet, env: NodeJS.ProcessEnv = process.env, account: string = DEFAULT_ACCOUNT): Settings {
  const prefix = envPrefix(account);
  const get: ConfigGet = (key) => configGet(key) ?? env[`${prefix}${ENV_NAMES[key]}`];
  const name = (key: keyof typeof ENV_NAMES): string => `${account}:${key} (or ${prefix}${ENV_NAMES[key]})`;
  let baseUrl = get("baseUrl");
  const apiKey = get("apiKey");
  const apiSecret = get("apiSecret");
  const missing = [!baseUrl && name("baseUrl"), !apiKey && name("apiKey"), !apiSecret && name("apiSecret")].filter(Boolean);
  // The fix: each setting by its config command (the secret encrypted), or its environment variable.
  const how = [!baseUrl && `\`pulumi config set ${account}:baseUrl <scheme and host>\``, !apiKey && `\`pulumi config set ${account}:apiKey <API key>\``, !apiSecret && `\`pulumi config set --secret ${account}:apiSecret\` (it asks for the secret, or reads it from a pipe: never on the command line)`].filter(Boolean);
  const one = missing.length === 1;
  if (missing.length)
    throw new Error(`reseller: missing configuration: ${missing.join(", ")}. Set ${one ? "it" : "them"} with ${how.join(", ")}, or the environment variable${one ? "" : "s"} in parentheses`);
  const contractText = get("contract");
  let contract: ContractOverrides | undefined;
  if (contractText) {
    try {
      contract = JSON.parse(contractText) as ContractOverrides;
    } catch {
      throw new Error(`${account}:contract: ${shownSetting(contractText)} is not valid JSON (expected an object of contract overrides, see api/contract.ts)`);
    }
    try {
      resolveContract(contract); // refuse an unknown or ill-typed entry now, by name, rather than ignore it
    } catch (e) {
      throw new Error(`${account}:contract: ${(e as Error).message}`);
    }
  }
  const rpm = get("requestsPerMinute");
  const requestsPerMinute = rpm === undefined ? undefined : parseDecimalSetting(`${account}:requestsPerMinute`, rpm);
  const timeout = get("timeoutSeconds");
  const timeoutMs = timeout === undefined ? undefined : Math.max(1, Math.round(parseDecimalSetting(`${account}:timeoutSeconds`, timeout) * 1000));
  // The client checks these too; here they are refused at configure, named as the stack config names them.
  checkConnectionSettings({ baseUrl: baseUrl!, apiKey: apiKey!, apiSecret: apiSecret!, timeoutMs, requestsPerMinute }, (k) => `${account}:${k === "timeoutMs" ? "timeoutSeconds" : k}`);
  const rateLimitLogDir = get("rateLimitDir");
  if (rateLimitLogDir !== undefined && !isAbsolute(rateLimitLogDir))
    throw new Error(`${account}:rateLimitDir: ${shownSetting(rateLimitLogDir)} is not an absolute path (a folder of your own, mode 0700, e.g. under your home folder)`);
  const preflight = get("preflight");
  if (preflight !== undefined && preflight !== "true" && preflight !== "false") throw new Error(`${account}:preflight: ${shownSetting(preflight)} is not true or false`);
  // A URL copied with the API prefix (the sandbox once printed it so) is taken as meant, never doubled.
  const apiPrefix = contract ? resolveContract(contract).apiPrefix : DEFAULT_CONTRACT.apiPrefix;
  const trimmed = baseUrl!.replace(/\/+$/, "");
  if (apiPrefix && trimmed.endsWith(apiPrefix)) baseUrl = trimmed.slice(0, -apiPrefix.length) || trimmed;
  return {
    baseUrl: baseUrl!,
    apiKey: apiKey!,
    apiSecret: apiSecret!,
    contract,
    requestsPerMinute,
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(rateLimitLogDir !== undefined ? { rateLimitLogDir } : {}),
    ...(preflight === "false" ? { preflight: false } : {}),
  };
}

/** What a client's owner hooks into it: the clock it signs, paces and waits on, its log, what it answered, its cancel. */
export type ClientHooks = Pick<ResellerClientOptions, "logger" | "onWait" | "waitNoticeMs" | "onResponse" | "now" | "sleep" | "signal">;

/**
 * Builds the real client (api/client.ts). Loaded here, on first use, rather than imported: a
 * program imports this package for its resource classes, and loading the client with undici costs
 * it about 80–95 ms more (measured on dist/, after resources/index is loaded) that a program making
 * no function call never needs. The provider host loads it at its first API call.
 */
export function createClient(settings: Settings, hooks: ClientHooks = {}): ResellerApi {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ResellerClient } = require("../../api/client") as typeof import("../../api/client");
  return new ResellerClient({ ...settings, ...hooks });
}
