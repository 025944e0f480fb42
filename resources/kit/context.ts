/**
 * What a handler works with in the provider host: one `HostContext` per account (config
 * namespace), made by the process's `Host` (./host.ts) and handed to every handler call.
 */
import type { Clock } from "../../api/clock";
import type { Contract } from "../../api/contract";
import type { Purchase } from "../../api/idempotency";
import type { ResellerApi } from "../shared/api";
import type { ReadCaches } from "./read-cache";
import type { Limits } from "./check";
import type { Log } from "./log";
import type { Ownership } from "./ownership";
import type { RecordDeletes } from "./record-deletes";
import type { TtlRegistry } from "./ttl-registry";

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
  /** The Idempotency-Key of a purchase on this context's account (api/idempotency.ts), in the contract's format. */
  purchaseKey(p: Omit<Purchase, "account">): string;
  /** How many requests other than GET the service has answered for this host's clients (any account): a write may have happened. */
  writesSent(): number;
  /** Whether the engine cancelled the command: no request starts any more (./host.ts, Host.cancel). */
  cancelled(): boolean;
  /** Whether check reads the service to predict up (reseller:preflight; true when the settings cannot be read, so their error shows). */
  preflight(): boolean;
  readonly reads: ReadCaches;
  readonly owners: Ownership;
  readonly ttls: TtlRegistry;
  readonly recordDeletes: RecordDeletes;
}
