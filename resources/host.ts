/**
 * What a handler works with in the provider host: one `HostContext` per account (config
 * namespace), built from the settings `configure` passed, and handed to every handler call. It
 * carries the API client, the clock, the logger, the read caches, the ownership registry, the
 * shared-TTL registry and the record deletes in flight. Nothing else on the host side holds state:
 * runtime.ts keeps the one `Host` of the process, and tests build their own with their own clock.
 */
import { createHash } from "node:crypto";
import { systemClock, type Clock } from "../provider/clock";
import { resolveContract, DEFAULT_CONTRACT, type Contract, type ContractOverrides } from "../provider/contract";
import { accountId, purchaseKey, type Purchase } from "../provider/idempotency";
import { redact } from "../provider/redact";
import { createClient, DEFAULT_ACCOUNT, readSettings, type ConfigGet, type ResellerApi, type Settings } from "./api";
import { ReadCaches } from "./read-cache";
import { SecretValues } from "./secret-inputs";
import { MIN_CLI_VERSION } from "./sdk-version";
import type { Limits } from "./validate";

export { systemClock, type Clock };

/** Where log lines go (Pulumi's engine log in the host). Lines reach it redacted, always. */
export interface LogSink {
  info(line: string): void;
  warn(line: string): void;
}

export interface Log {
  info(msg: string): void;
  warn(msg: string): void;
}

/** Waits longer than this are logged, saying what is waited for. */
export const LOG_WAITS_LONGER_THAN_MS = 3000;

/** A log line as it may be shown: credentials and contact details masked. If masking fails, the line is withheld, never shown raw. */
export function redacted(msg: string): string {
  try {
    const out = redact(msg);
    return typeof out === "string" ? out : "(a log line was withheld: it could not be redacted)";
  } catch {
    return "(a log line was withheld: it could not be redacted)";
  }
}

/** Log lines masked twice over: credentials and contact details by rule, and every value the program marked secret. */
const redactingLog = (sink: LogSink, secrets: SecretValues): Log => ({
  info: (msg) => sink.info(`reseller: ${secrets.mask(redacted(msg))}`),
  warn: (msg) => sink.warn(`reseller: ${secrets.mask(redacted(msg))}`),
});

/** A URN's last segment, the resource's name. */
export const resourceName = (urn: string): string => urn.split("::").pop() ?? urn;

// ---- Ownership: one live object, one owner per command (see README, "Moving resources"). ----

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

/**
 * Live object → the URN that claimed it in this provider-host process, i.e. in this `pulumi` command.
 * Creates, adopts and take-overs claim what they made or took; diffs claim the object a resource
 * already holds. A rename or reparent without `aliases` is, to the engine, a create of the new URN
 * and then a delete of the old one: the old URN's delete finds the object claimed and leaves it.
 */
export class Ownership {
  private readonly owners = new Map<string, string>();

  constructor(private readonly log: Log) {}

  /** The URN that claimed `key`, when it is not `urn` (an absent URN, from an old state, counts as another). */
  claimedByOther(key: string, urn: string | undefined): string | undefined {
    const o = this.owners.get(key);
    return o !== undefined && o !== urn ? o : undefined;
  }

  /** Claims `key` for `urn`; returns the other URN that holds it instead (nothing claimed then). */
  claim(key: string, urn: string | undefined): string | undefined {
    const other = this.claimedByOther(key, urn);
    if (other) return other;
    if (urn !== undefined) this.owners.set(key, urn);
    return undefined;
  }

  /** Drops a claim after the object was deleted by its owner. */
  release(key: string, urn: string | undefined): void {
    if (this.owners.get(key) === urn) this.owners.delete(key);
  }

  /** Refuses a create of an object another resource of this run already holds. */
  refuseIfClaimed(key: string, urn: string | undefined, what: string, kind: string): void {
    const other = this.claimedByOther(key, urn);
    if (other) throw new Error(`${what} is already managed by "${resourceName(other)}" in this stack; declare one ${kind} for it`);
  }

  /**
   * For delete: whether the object moved to another URN in this command, logged when it did. The
   * object is then left in place: only the old URN leaves the stack.
   */
  movedAway(key: string, urn: string | undefined, what: string): boolean {
    const other = this.claimedByOther(key, urn);
    if (!other) return false;
    this.log.info(
      `${what}: left in place: "${resourceName(other)}" manages it now (renamed or moved without aliases); only ${urn !== undefined ? `"${resourceName(urn)}"` : "the old resource"} left the stack`,
    );
    return true;
  }
}

// ---- Shared TTL (see README, "Shared TTL"). ----

/** (zone, name, type) → resource URN → TTL, for the records checked in this host process. */
export class TtlRegistry {
  private readonly groups = new Map<string, Map<string, number>>();
  /** URN → its group's key, so a re-check leaves its old group without scanning every group. */
  private readonly groupOf = new Map<string, string>();

  /**
   * Registers a record's TTL for its (zone, name, type) and returns the sibling that already declared
   * another TTL, if any. A URN re-checked moves from its old group (renamed record) to the new one.
   */
  register(urn: string, zone: string, name: string, type: string, ttl: number): { urn: string; ttl: number } | undefined {
    const key = `${zone}\u0000${name}\u0000${type}`;
    const previous = this.groupOf.get(urn);
    if (previous !== undefined && previous !== key) this.groups.get(previous)?.delete(urn);
    this.groupOf.set(urn, key);
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = new Map()));
    group.set(urn, ttl);
    for (const [other, otherTtl] of group) if (other !== urn && otherTtl !== ttl) return { urn: other, ttl: otherTtl };
    return undefined;
  }

  /** Forget a record (deleted). */
  unregister(urn: string | undefined): void {
    if (urn === undefined) return;
    const key = this.groupOf.get(urn);
    if (key !== undefined) this.groups.get(key)?.delete(urn);
    this.groupOf.delete(urn);
  }
}

// ---- Record deletes in flight, per zone: a zone delete waits for this command's own. ----

export class RecordDeletes {
  private readonly zones = new Map<string, { inFlight: number; last: number }>();

  constructor(private readonly clock: Clock) {}

  /** Runs a record delete of `zone`, counted so a parallel zone delete knows this command is still emptying it. */
  async track<T>(zone: string, run: () => Promise<T>): Promise<T> {
    let a = this.zones.get(zone);
    if (!a) this.zones.set(zone, (a = { inFlight: 0, last: this.clock.now() }));
    a.inFlight += 1;
    a.last = this.clock.now();
    try {
      return await run();
    } finally {
      a.inFlight -= 1;
      a.last = this.clock.now();
    }
  }

  /** Record deletes of `zone` in flight now, and when one last started or ended (ms; 0 = never). */
  activity(zone: string): { inFlight: number; last: number } {
    return { ...(this.zones.get(zone) ?? { inFlight: 0, last: 0 }) };
  }
}

/** An error that keeps a created object in state: the host packs id and properties as a partial failure. */
export class PartialFailure extends Error {
  override readonly name = "PartialFailure";
  constructor(
    message: string,
    readonly id: string,
    readonly properties: object,
    readonly reasons: string[] = [message],
  ) {
    super(message);
  }
}

/** Everything a handler call may use. */
export interface HostContext {
  /** The config namespace of the account ("reseller" unless the resource option `account` names another). */
  readonly account: string;
  /** The account's API client (one per credential); throws the missing-configuration error, explained, when there is none. */
  api(): ResellerApi;
  readonly clock: Clock;
  readonly log: Log;
  /** The contract in force (reseller:contract overrides applied); needs no credential. */
  contract(): Contract;
  /** Validation limits from the contract; needs no credential. */
  limits(): Limits;
  /** The Idempotency-Key of a purchase on this context's account (provider/idempotency.ts), in the contract's format. */
  purchaseKey(p: Omit<Purchase, "account">): string;
  /** How many requests other than GET the service has answered for this host's clients (any account): a write may have happened. */
  writesSent(): number;
  /** Whether check reads the service to predict up (reseller:preflight; true when the settings cannot be read, so their error shows). */
  preflight(): boolean;
  readonly reads: ReadCaches;
  readonly owners: Ownership;
  readonly ttls: TtlRegistry;
  readonly recordDeletes: RecordDeletes;
}

export interface HostOptions {
  clock?: Clock;
  sink: LogSink;
  env?: NodeJS.ProcessEnv;
  /** Says why an SDK never called `configure`, when that is the cause of missing configuration (resources/sdk-version.ts). */
  sdkTooOld?: () => string | undefined;
}

/** One account's settings as configure left them: settings, or why there are none (reported at first use). */
interface Configured {
  settings?: Settings;
  error?: Error;
}

/**
 * The provider host's state: one context per account. `configure` (SDK 3.139 and later call it)
 * sets an account's settings; a context asks for them only when it needs a credential, so
 * check and diff work without one.
 */
export class Host {
  private readonly contexts = new Map<string, HostContext>();
  private readonly configured = new Map<string, Configured>();
  private readonly clients = new Map<string, ResellerApi>();
  /** Requests other than GET answered by the service, by any client of this host (HostContext.writesSent). */
  private writes = 0;
  /** Resolved contracts by the overrides object they came from. */
  private readonly resolved = new WeakMap<ContractOverrides, Contract>();
  /** Limits by contract, so that a context hands out one object per contract. */
  private readonly limitsOf = new WeakMap<Contract, Limits>();
  /** Accounts the host called `configure` for (SDK 3.139 and later do). */
  private readonly calledConfigure = new Set<string>();
  /** Whether any reseller:* credential came with the default account's configure. */
  private stackHadCredentials = false;
  readonly clock: Clock;
  readonly log: Log;
  /** Values the program marked secret, seen by this process: masked in its log lines and in the errors it throws. */
  readonly secrets = new SecretValues();
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly options: HostOptions) {
    this.clock = options.clock ?? systemClock;
    this.log = redactingLog(options.sink, this.secrets);
    this.env = options.env ?? process.env;
  }

  /** Called with the whole stack config (`get` of `<account>:<key>`); the environment fills gaps. */
  configure(get: ConfigGet, account: string = DEFAULT_ACCOUNT): void {
    this.calledConfigure.add(account);
    if (account === DEFAULT_ACCOUNT) this.stackHadCredentials = (["apiKey", "apiSecret", "baseUrl"] as const).some((k) => get(k) !== undefined);
    this.load(get, account);
  }

  private load(get: ConfigGet, account: string): void {
    try {
      this.configured.set(account, { settings: readSettings(get, this.env, account) });
    } catch (e) {
      this.configured.set(account, { error: e instanceof Error ? e : new Error(String(e)) });
    }
  }

  /** For the program process and tests: settings given directly. */
  useSettings(settings: Settings, account: string = DEFAULT_ACCOUNT): void {
    this.configured.set(account, { settings });
  }

  /** The account's context, made on first use and kept for the life of the process (its registries span the command). */
  context(account: string = DEFAULT_ACCOUNT): HostContext {
    let ctx = this.contexts.get(account);
    if (!ctx) this.contexts.set(account, (ctx = this.makeContext(account)));
    return ctx;
  }

  private settings(account: string): Settings {
    // Never configured (an SDK older than 3.139, another account's first use, or the program's own process): the environment only.
    if (!this.configured.has(account)) this.load(() => undefined, account);
    const c = this.configured.get(account)!;
    if (c.error) throw account === DEFAULT_ACCOUNT ? this.explained(c.error, this.calledConfigure.has(account)) : c.error;
    return c.settings!;
  }

  /**
   * A missing-configuration error that says why when the cause is the Pulumi version: an SDK that
   * never calls `configure`, or a CLI that calls it without the stack's reseller:* keys.
   */
  private explained(e: Error, configured: boolean): Error {
    if (!/missing configuration/.test(e.message)) return e;
    if (!configured) {
      const old = this.options.sdkTooOld?.();
      if (old) return new Error(old);
    } else if (!this.stackHadCredentials)
      return new Error(
        `${e.message}. No reseller:* credential reached the provider: if they are set in the stack config (pulumi config), the Pulumi CLI is older than ${MIN_CLI_VERSION}, the first that passes the stack config to dynamic providers; upgrade it`,
      );
    return e;
  }

  /** The contract without needing a credential: the configured overrides, if they could be read. */
  private contract(account: string): Contract {
    return this.resolve(this.configured.get(account)?.settings?.contract);
  }

  /** The default contract with `overrides`, resolved once per overrides object (a new configure brings a new one). */
  private resolve(overrides: ContractOverrides | undefined): Contract {
    if (!overrides) return DEFAULT_CONTRACT;
    let c = this.resolved.get(overrides);
    if (!c) this.resolved.set(overrides, (c = resolveContract(overrides)));
    return c;
  }

  /** One client per credential (key, base URL, secret hash), so one rate limiter per credential. */
  private client(account: string): ResellerApi {
    const s = this.settings(account);
    const id = createHash("sha256").update(`${s.baseUrl}\n${s.apiKey}\n${s.apiSecret}\n${JSON.stringify(s.contract ?? {})}`).digest("hex");
    let c = this.clients.get(id);
    if (!c) {
      c = createClient(s, {
        // The client signs, paces and waits between retries on the host's clock.
        now: () => this.clock.now(),
        sleep: (ms) => this.clock.sleep(ms),
        onWait: (w) => {
          if (w.ms > LOG_WAITS_LONGER_THAN_MS) this.log.info(`waiting ${Math.round(w.ms / 1000)} s before ${w.path} (${w.reason})`);
        },
        logger: { warn: (line) => this.log.warn(line) },
        onResponse: (r) => {
          if (!r.path.startsWith("GET ")) this.writes++;
        },
      });
      this.clients.set(id, c);
    }
    return c;
  }

  private makeContext(account: string): HostContext {
    const api = (): ResellerApi => this.client(account);
    const contract = (): Contract => this.contract(account);
    const clock = this.clock;
    const log = this.log;
    return {
      account,
      api,
      clock,
      log,
      contract,
      limits: () => {
        const c = contract();
        let l = this.limitsOf.get(c);
        if (!l) this.limitsOf.set(c, (l = { ttl: c.ttl, nameservers: c.nameservers, money: c.money }));
        return l;
      },
      purchaseKey: (p) => {
        const s = this.settings(account);
        return purchaseKey({ ...p, account: accountId(s.baseUrl, s.apiKey) }, this.resolve(s.contract).idempotency);
      },
      writesSent: () => this.writes,
      preflight: () => this.configured.get(account)?.settings?.preflight ?? true,
      reads: new ReadCaches(api, () => contract().listEntries, clock),
      owners: new Ownership(log),
      ttls: new TtlRegistry(),
      recordDeletes: new RecordDeletes(clock),
    };
  }
}
