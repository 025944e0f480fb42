/**
 * API clients, one per connection: the provider host (./host/host.ts) and the read-only functions
 * in the program (../program/functions.ts) both take theirs from a `ClientCache`, keyed by `clientKey`.
 * Settings that differ in anything the client is built from get two clients; equal ones share one,
 * whichever account (config namespace) they came from. Pacing is per credential in the process
 * whatever the number of clients (api/rate-limiter.ts).
 */
import { createHash } from "node:crypto";
import { createClient, type ClientHooks, type ResellerApi, type Settings } from "./api";

/** Whether a setting makes another client: every setting the client reads does. A new setting must be placed here (the compiler asks). */
const MAKES_ANOTHER_CLIENT: { readonly [K in keyof Settings]-?: boolean } = {
  baseUrl: true,
  apiKey: true,
  apiSecret: true, // by its fingerprint: the key never holds it
  contract: true,
  requestsPerMinute: true,
  timeoutMs: true,
  rateLimitLogDir: true,
  preflight: false, // read by check (../kit/preflight.ts), never by the client
};

const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

/** Objects with their keys sorted, so equal contract overrides written in another order are one connection. */
const sortedKeys = (_: string, v: unknown): unknown =>
  v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v;

/** The connection `settings` name: a hash of the settings that make another client, the secret by its fingerprint. */
export function clientKey(settings: Settings): string {
  const fields = (Object.keys(MAKES_ANOTHER_CLIENT) as (keyof Settings)[])
    .filter((k) => MAKES_ANOTHER_CLIENT[k])
    .map((k) => (k === "apiSecret" ? sha256(settings.apiSecret) : (settings[k] ?? null)));
  return sha256(JSON.stringify(fields, sortedKeys));
}

/** Clients by `clientKey`, each made on first use with this cache's hooks (its owner's clock and log). */
export class ClientCache {
  private readonly clients = new Map<string, ResellerApi>();

  constructor(private readonly hooks: ClientHooks = {}) {}

  /** The client of `settings`' connection. */
  get(settings: Settings): ResellerApi {
    const key = clientKey(settings);
    let c = this.clients.get(key);
    if (!c) this.clients.set(key, (c = createClient(settings, this.hooks)));
    return c;
  }
}
