/**
 * Module-level state of the provider host process, shared by every dynamic resource of the stack
 * (the host serves them all from one process): settings from `configure`, one client per
 * credential and the shared-TTL registry (read caches: ./read-cache.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { DEFAULT_CONTRACT, resolveContract } from "../provider/contract";
import { createClient, DEFAULT_ACCOUNT, readSettings, type ConfigGet, type ResellerApi, type Settings } from "./api";
import { MIN_CLI_VERSION, sdkTooOld } from "./sdk-version";
import { resetReadCaches } from "./read-cache";
import type { Limits } from "./validate";

/** Waits longer than this are logged, saying what is waited for. */
export const LOG_WAITS_LONGER_THAN_MS = 3000;

let settings: Settings | undefined;
let configError: Error | undefined;
/** Whether the host called `configure` (SDK 3.139 and later do), and whether any reseller:* credential came with it. */
let configured = false;
let stackHadCredentials = false;
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
  configured = true;
  stackHadCredentials = (["apiKey", "apiSecret", "baseUrl"] as const).some((k) => get(k) !== undefined);
  try {
    settings = readSettings(get);
    configError = undefined;
  } catch (e) {
    // Report at first use: check() and diff() work without credentials.
    settings = undefined;
    configError = e as Error;
  }
}

/**
 * A missing-configuration error that says why when the cause is the Pulumi version: an SDK that
 * never calls `configure`, or a CLI that calls it without the stack's reseller:* keys.
 */
function explained(e: Error): Error {
  if (!/missing configuration/.test(e.message)) return e;
  if (!configured) {
    const old = sdkTooOld();
    if (old) return new Error(old);
  } else if (!stackHadCredentials)
    return new Error(
      `${e.message}. No reseller:* credential reached the provider: if they are set in the stack config (pulumi config), the Pulumi CLI is older than ${MIN_CLI_VERSION}, the first that passes the stack config to dynamic providers; upgrade it`,
    );
  return e;
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
  if (configError) throw explained(configError);
  // Never configured (an SDK older than 3.139, or the program's own process): the environment only.
  try {
    settings = readSettings(() => undefined);
  } catch (e) {
    throw explained(e as Error);
  }
  return settings;
}

/** The contract overrides in force (reseller:contract), if configured. */
export function currentContractOverrides(): Settings["contract"] {
  return settings?.contract;
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

// ---- Read caches (zone record lists, account lists): resources/read-cache.ts ----

export { RECORD_CACHE_MS, invalidateZone, primeZoneRecords, zoneRecords } from "./read-cache";

// ---- Shared-TTL registry (see README, "Shared TTL"). ----

/** (zone, name, type) → resource URN → TTL, for the records checked in this host process. */
const ttlGroups = new Map<string, Map<string, number>>();
/** URN → its group's key, so a re-check leaves its old group without scanning every group. */
const ttlGroupOf = new Map<string, string>();

const groupKey = (zone: string, name: string, type: string): string => `${zone}\u0000${name}\u0000${type}`;

/** A URN's last segment, the resource's name. */
export const resourceName = (urn: string): string => urn.split("::").pop() ?? urn;

/**
 * Registers a record's TTL for its (zone, name, type) and returns the sibling that already declared
 * another TTL, if any. A URN re-checked moves from its old group (renamed record) to the new one.
 */
export function registerTtl(urn: string, zone: string, name: string, type: string, ttl: number): { urn: string; ttl: number } | undefined {
  const key = groupKey(zone, name, type);
  const previous = ttlGroupOf.get(urn);
  if (previous !== undefined && previous !== key) ttlGroups.get(previous)?.delete(urn);
  ttlGroupOf.set(urn, key);
  let group = ttlGroups.get(key);
  if (!group) ttlGroups.set(key, (group = new Map()));
  group.set(urn, ttl);
  for (const [other, otherTtl] of group) if (other !== urn && otherTtl !== ttl) return { urn: other, ttl: otherTtl };
  return undefined;
}

/** Forget a record (deleted). */
export function unregisterTtl(urn: string): void {
  const key = ttlGroupOf.get(urn);
  if (key !== undefined) ttlGroups.get(key)?.delete(urn);
  ttlGroupOf.delete(urn);
}

// ---- Ownership: one live object, one owner per command (see README, "Moving resources"). ----

/**
 * Live object → the URN that claimed it in this provider-host process, i.e. in this `pulumi` command.
 * Creates, adopts and take-overs claim what they made or took; diffs claim the object a resource
 * already holds. A rename or reparent without `aliases` is, to the engine, a create of the new URN
 * and then a delete of the old one: the old URN's delete finds the object claimed and leaves it.
 */
const owners = new Map<string, string>();

/** Keys of live objects, one namespace per kind of object (a template's records and DnsRecords share "record"). */
export const objectKey = {
  record: (zone: string, id: string): string => `record ${zone} ${id}`,
  zone: (domain: string): string => `zone ${domain}`,
  host: (domain: string, hostname: string): string => `host ${domain} ${hostname}`,
  privacy: (domain: string): string => `privacy ${domain}`,
  protection: (domain: string): string => `protection ${domain}`,
  eppCode: (domain: string): string => `epp ${domain}`,
  domain: (domain: string): string => `domain ${domain}`,
};

/** The URN that claimed `key`, when it is not `urn` (an absent URN, from an old state, counts as another). */
export function claimedByOther(key: string, urn: unknown): string | undefined {
  const o = owners.get(key);
  return o !== undefined && o !== urn ? o : undefined;
}

/** Claims `key` for `urn`; returns the other URN that holds it instead (nothing claimed then). */
export function claim(key: string, urn: unknown): string | undefined {
  const other = claimedByOther(key, urn);
  if (other) return other;
  if (typeof urn === "string") owners.set(key, urn);
  return undefined;
}

/** Drops a claim after the object was deleted by its owner. */
export function release(key: string, urn: unknown): void {
  if (owners.get(key) === urn) owners.delete(key);
}

/**
 * For delete: whether the object moved to another URN in this command, logged when it did. The
 * object is then left in place: only the old URN leaves the stack.
 */
export function movedAway(key: string, urn: unknown, what: string): boolean {
  const other = claimedByOther(key, urn);
  if (!other) return false;
  info(`${what}: left in place: "${resourceName(other)}" manages it now (renamed or moved without aliases); only ${typeof urn === "string" ? `"${resourceName(urn)}"` : "the old resource"} left the stack`);
  return true;
}

// ---- Record deletes in flight, per zone: a zone delete waits for this command's own. ----

const recordDeletes = new Map<string, { inFlight: number; last: number }>();

/** Runs a record delete of `zone`, counted so a parallel zone delete knows this command is still emptying it. */
export async function trackRecordDelete<T>(zone: string, run: () => Promise<T>, now: () => number = Date.now): Promise<T> {
  let a = recordDeletes.get(zone);
  if (!a) recordDeletes.set(zone, (a = { inFlight: 0, last: now() }));
  a.inFlight += 1;
  a.last = now();
  try {
    return await run();
  } finally {
    a.inFlight -= 1;
    a.last = now();
  }
}

/** Record deletes of `zone` in flight now, and when one last started or ended (ms; 0 = never). */
export function recordDeleteActivity(zone: string): { inFlight: number; last: number } {
  return { ...(recordDeletes.get(zone) ?? { inFlight: 0, last: 0 }) };
}

/** Test hook: a fresh process state. */
export function resetForTests(): void {
  settings = undefined;
  configured = false;
  stackHadCredentials = false;
  configError = undefined;
  accounts.clear();
  clients.clear();
  resetReadCaches();
  ttlGroups.clear();
  owners.clear();
  recordDeletes.clear();
  ttlGroupOf.clear();
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
