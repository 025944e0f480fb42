/**
 * Module-level state of the provider host process, shared by every dynamic resource of the stack
 * (the host serves them all from one process): settings from `configure`, one client per
 * credential, the per-zone record read cache and the shared-TTL registry.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { DEFAULT_CONTRACT, resolveContract } from "../provider/contract";
import type { DnsRecord } from "../provider/views";
import { createClient, DEFAULT_ACCOUNT, readSettings, type ConfigGet, type ResellerApi, type Settings } from "./api";
import type { Limits } from "./validate";

/** Waits longer than this are logged, saying what is waited for. */
export const LOG_WAITS_LONGER_THAN_MS = 3000;

let settings: Settings | undefined;
let configError: Error | undefined;
const clients = new Map<string, ResellerApi>();

/** Settings of accounts other than the default, by config namespace (resource option `account`). */
const accounts = new Map<string, { settings?: Settings; error?: Error }>();
/** The account of the provider call being served; unset for the default account. */
const callAccount = new AsyncLocalStorage<string>();

/** Runs one provider call for an account's shim, so client() and limits() use that account's settings. */
export function inAccount<T>(account: string | undefined, fn: () => T): T {
  return account && account !== DEFAULT_ACCOUNT ? callAccount.run(account, fn) : fn();
}

/** Called from each shim's `configure(req)` with the whole stack config; env fills gaps. */
export function configureFrom(get: ConfigGet, account: string = DEFAULT_ACCOUNT): void {
  if (account !== DEFAULT_ACCOUNT) {
    try {
      accounts.set(account, { settings: readSettings(get, process.env, account) });
    } catch (e) {
      accounts.set(account, { error: e as Error });
    }
    return;
  }
  try {
    settings = readSettings(get);
    configError = undefined;
  } catch (e) {
    // Report at first use: check() and diff() work without credentials.
    settings = undefined;
    configError = e as Error;
  }
}

/** For the program process and tests: settings given directly. */
export function useSettings(s: Settings): void {
  settings = s;
  configError = undefined;
}

function currentSettings(): Settings {
  const account = callAccount.getStore();
  if (account) {
    if (!accounts.has(account)) configureFrom(() => undefined, account);
    const a = accounts.get(account)!;
    if (a.error) throw a.error;
    return a.settings!;
  }
  if (settings) return settings;
  if (configError) throw configError;
  configureFrom(() => undefined);
  if (!settings) throw configError ?? new Error("reseller: not configured");
  return settings;
}

/** Validation limits from the (possibly overridden) contract; no credential needed. */
export function limits(): Limits {
  const account = callAccount.getStore();
  const s = account ? accounts.get(account)?.settings : settings;
  const c = s?.contract ? resolveContract(s.contract) : DEFAULT_CONTRACT;
  return { ttl: c.ttl, nameservers: c.nameservers };
}

/** One client per credential (key, base URL, secret hash), so one rate limiter per credential. */
export function client(): ResellerApi {
  const s = currentSettings();
  const id = createHash("sha256").update(`${s.baseUrl}\n${s.apiKey}\n${s.apiSecret}\n${JSON.stringify(s.contract ?? {})}`).digest("hex");
  let c = clients.get(id);
  if (!c) {
    c = createClient(s, {
      onWait: (w) => {
        if (w.ms > LOG_WAITS_LONGER_THAN_MS) info(`waiting ${Math.round(w.ms / 1000)} s before ${w.path} (${w.reason})`);
      },
      logger: { warn: (line) => warn(line) },
    });
    clients.set(id, c);
  }
  return c;
}

/** Log lines go through redact() so no credential or code leaks even by mistake. */
function clean(msg: string): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { redact } = require("../provider/redact") as { redact: (v: string) => string };
    const out = redact(msg);
    return typeof out === "string" ? out : msg;
  } catch {
    return msg;
  }
}

export function info(msg: string): void {
  void pulumi.log.info(`reseller: ${clean(msg)}`);
}

export function warn(msg: string): void {
  void pulumi.log.warn(`reseller: ${clean(msg)}`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

// ---- Per-zone record read cache: refreshing N records of a zone costs one list call. ----

/** How long a zone's record list is reused by reads. Any write to the zone drops it. */
export const RECORD_CACHE_MS = 5000;
const recordCache = new Map<string, { at: number; records: Promise<DnsRecord[]> }>();

/** The zone's records, shared by concurrent and closely following reads. */
export function zoneRecords(zone: string, now: () => number = Date.now): Promise<DnsRecord[]> {
  const hit = recordCache.get(zone);
  if (hit && now() - hit.at < RECORD_CACHE_MS) return hit.records;
  const records = client().listRecords(zone);
  recordCache.set(zone, { at: now(), records });
  records.catch(() => recordCache.delete(zone));
  return records;
}

/** Seed the cache from a zone read that returned all records. */
export function primeZoneRecords(zone: string, records: DnsRecord[], now: () => number = Date.now): void {
  recordCache.set(zone, { at: now(), records: Promise.resolve(records) });
}

export function invalidateZone(zone: string): void {
  recordCache.delete(zone);
}

// ---- Shared-TTL registry (see README, "Shared TTL"). ----

/** (zone, name, type) → resource URN → TTL, for the records checked in this host process. */
const ttlGroups = new Map<string, Map<string, number>>();

const groupKey = (zone: string, name: string, type: string): string => `${zone}\u0000${name}\u0000${type}`;

/** A URN's last segment, the resource's name. */
export const resourceName = (urn: string): string => urn.split("::").pop() ?? urn;

/**
 * Registers a record's TTL for its (zone, name, type) and returns the sibling that already declared
 * another TTL, if any. A URN re-checked moves from its old group (renamed record) to the new one.
 */
export function registerTtl(urn: string, zone: string, name: string, type: string, ttl: number): { urn: string; ttl: number } | undefined {
  const key = groupKey(zone, name, type);
  for (const [k, group] of ttlGroups) if (k !== key) group.delete(urn);
  let group = ttlGroups.get(key);
  if (!group) ttlGroups.set(key, (group = new Map()));
  group.set(urn, ttl);
  for (const [other, otherTtl] of group) if (other !== urn && otherTtl !== ttl) return { urn: other, ttl: otherTtl };
  return undefined;
}

/** Forget a record (deleted). */
export function unregisterTtl(urn: string): void {
  for (const group of ttlGroups.values()) group.delete(urn);
}

/** Test hook: a fresh process state. */
export function resetForTests(): void {
  settings = undefined;
  configError = undefined;
  accounts.clear();
  clients.clear();
  recordCache.clear();
  ttlGroups.clear();
}

/** An error that keeps a created object in state: the host packs id and properties as a partial failure. */
export class PartialFailure extends Error {
  override readonly name = "PartialFailure";
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: string[] = [message],
  ) {
    super(message);
  }
}

/** Deterministic Idempotency-Key for (urn, operation, discriminator) in the contract's key format; provider/idempotency.ts. */
export function idempotencyKey(urn: string, operation: string, discriminator?: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { deriveIdempotencyKey } = require("../provider/idempotency") as typeof import("../provider/idempotency");
  return deriveIdempotencyKey(urn, operation, discriminator, resolveContract(currentSettings().contract).idempotency);
}

/** Drops undefined (the host refuses it in structs), recursively. */
export function defined<T>(v: T): T {
  if (Array.isArray(v)) return v.map(defined) as T;
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, defined(x)])) as T;
  }
  return v;
}
