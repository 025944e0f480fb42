/**
 * The provider host's state: one `HostContext` (./context.ts) per account (config namespace), built
 * from the settings `configure` passed. It carries the API client, the clock, the logger, the read
 * caches, the ownership registry, the shared-TTL registry and the record deletes in flight. Nothing
 * else on the host side holds state: ./dispatch.ts keeps the one `Host` of the process, and tests build
 * their own with their own clock.
 */
import { systemClock, type Clock } from "../../api/clock";
import { resolveContract, DEFAULT_CONTRACT, type Contract, type ContractOverrides } from "../../api/contract";
import { accountId, purchaseKey } from "../../api/idempotency";
import { DEFAULT_ACCOUNT, readSettings, type ConfigGet, type ResellerApi, type Settings } from "../shared/api";
import { ClientCache } from "../shared/client-cache";
import { ReadCaches } from "../kit/read-cache";
import { SecretValues } from "../kit/secret-inputs";
import { MIN_CLI_VERSION } from "../shared/sdk-version";
import type { Limits } from "../kit/check";
import type { HostContext } from "../kit/context";
import { redactingLog, type Log, type LogSink } from "../kit/log";
import { waitNotices } from "./wait-notice";
import { Ownership } from "../kit/ownership";
import { RecordDeletes } from "../kit/record-deletes";
import { TtlRegistry } from "../kit/ttl-registry";

/**
 * What a cancel's warning tells the user to do. The Pulumi CLI (v3.274.1) reports a destroy cancelled
 * in its deletes as a success ("The resources in the stack have been deleted", exit code 0), though it
 * stopped the deletes not yet started (test/pulumi-cli/interrupted-deletes.test.ts).
 */
export const RUN_AGAIN = "Run the command again until it changes nothing: the Pulumi CLI may end a cancelled destroy with success while resources are left";

export interface HostOptions {
  clock?: Clock;
  sink: LogSink;
  env?: NodeJS.ProcessEnv;
  /** Says why an SDK never called `configure`, when that is the cause of missing configuration (resources/shared/sdk-version.ts). */
  sdkTooOld?: () => string | undefined;
  /** The API client of an account's settings; default: one real client per connection. `reseller-pulumi import` passes a read-only one. */
  client?: (settings: Settings) => ResellerApi;
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
  /** One client per connection (../shared/client-cache.ts), made with this host's clock and log. */
  private readonly clients: ClientCache;
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
  /** Aborted by the engine's cancel (./engine-cancel.ts): no request starts after it, one in flight gets its answer. */
  private readonly cancellation = new AbortController();

  constructor(private readonly options: HostOptions) {
    this.clock = options.clock ?? systemClock;
    this.log = redactingLog(options.sink, this.secrets);
    this.env = options.env ?? process.env;
    this.clients = new ClientCache({
      // The client signs, paces and waits between retries on the host's clock.
      now: () => this.clock.now(),
      sleep: (ms) => this.clock.sleep(ms),
      // Every wait, however short: a stretch of short ones is said too (./wait-notice.ts).
      waitNoticeMs: 0,
      onWait: waitNotices(this.log, () => this.clock.now()),
      logger: { warn: (line) => this.log.warn(line) },
      onResponse: (r) => {
        if (!r.path.startsWith("GET ")) this.writes++;
      },
      signal: this.cancellation.signal,
    });
  }

  /**
   * The engine cancelled the command (the first Ctrl-C or SIGINT of the CLI, a CI job's cancel):
   * requests in flight run to their answer, which is recorded; none starts after this, so a paced
   * request that was waiting for its turn is never sent. Said once, in the log.
   */
  cancel(why: string): void {
    if (this.cancellation.signal.aborted) return;
    // The engine also sends Cancel when a command ends with nothing under way (every preview and up
    // does, as it closes its providers): only a cancel that finds a call under way is the user's, and said.
    if (this.callsUnderWay > 0) this.log.warn(`${why}: requests under way finish and their answers are recorded; no new request is sent. ${RUN_AGAIN}`);
    this.cancellation.abort(new Error(`the command was cancelled (${why})`));
  }

  /** Provider calls (check, diff, create, read, update, delete) started and not yet answered. */
  callsUnderWay = 0;

  /** Whether the engine cancelled the command. */
  get cancelled(): boolean {
    return this.cancellation.signal.aborted;
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

  /** The account's client: one per connection, shared by accounts with equal settings (../shared/client-cache.ts). */
  private client(account: string): ResellerApi {
    const settings = this.settings(account);
    return this.options.client ? this.options.client(settings) : this.clients.get(settings);
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
        if (!l) this.limitsOf.set(c, (l = { ttl: c.ttl, nameservers: c.nameservers, money: c.money, recordTypes: c.recordTypes }));
        return l;
      },
      purchaseKey: (p) => {
        const s = this.settings(account);
        return purchaseKey({ ...p, account: accountId(s.baseUrl, s.apiKey) }, this.resolve(s.contract).idempotency);
      },
      writesSent: () => this.writes,
      cancelled: () => this.cancelled,
      preflight: () => this.configured.get(account)?.settings?.preflight ?? true,
      reads: new ReadCaches(api, () => contract().listEntries, clock),
      owners: new Ownership(log),
      ttls: new TtlRegistry(),
      recordDeletes: new RecordDeletes(clock),
    };
  }
}
