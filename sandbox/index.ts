/**
 * A local stand-in for the reseller API, for tests and trying the resources out: `startSandbox`,
 * its options and the operator actions (approve an order, inject a fault, read the ledger, ...).
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_CONTRACT, resolveContract, type ContractOverrides } from "../api/contract";
import { parseAllowList } from "./auth";
import { LocalOperator, handleOperator } from "./operator";
import type { Credential } from "./routing";
import { SCOPES } from "../api/operations";
import { Sandbox, defaultRandom } from "./server";
import { defaultSettings, type SandboxState } from "./state";

/** An API credential the sandbox accepts. */
export interface SandboxCredentialOption {
  /** The API key (`reseller:apiKey`). */
  key: string;
  /** The API secret (`reseller:apiSecret`). */
  secret: string;
  /** Default: every scope (read, domains, dns, purchase). */
  scopes?: string[];
  /** Addresses and CIDR ranges; default: any address. */
  allowIps?: string[];
}

/** Options of {@link startSandbox}; every one has a default. */
export interface SandboxOptions {
  /** TCP port; 0 or omitted: a free port (read it from the handle). */
  port?: number;
  /** Address to listen on; default 127.0.0.1. */
  host?: string;
  /** Accepted credentials; default {@link DEFAULT_CREDENTIALS} with every scope. */
  credentials?: SandboxCredentialOption[];
  /** Rate limit per credential; default the contract's (60). */
  requestsPerMinute?: number;
  /** Business-clock seconds an order stays pending (pending, pending_transfer). */
  processingDelaySeconds?: number;
  /** Which purchases wait for an operator's approval (`approve`/`reject`); default none. */
  approval?: {
    /** Register and transfer orders stop in pending_approval. */
    orders?: boolean;
    /** Renewals wait for review. */
    renewals?: boolean;
  };
  /** TLDs whose new orders wait in pending_kyc until `completeKyc`. */
  kycTlds?: string[];
  /** Persist state as JSON to this file (atomic rewrite after each mutation); loaded at start when present. The nonces of signed requests are kept beside it (`<dataFile>.nonces`), so a restart does not accept a replay. */
  dataFile?: string;
  /** Start from this state (as `operator.state()` returns it), held in memory only; a `dataFile`, when also given, wins. */
  state?: SandboxState;
  /** Seed the demo account (default true); false starts with an empty account of 1000.00 credit. */
  seed?: boolean;
  /** The choices the service's description leaves open, as the sandbox makes them: the same entries as the `reseller:contract` setting (default: the package's). */
  contract?: ContractOverrides;
  /** Wall clock, ms since epoch. */
  now?: () => number;
  /** Random bytes (auth codes). */
  random?: (n: number) => Uint8Array;
}

/** A running sandbox. */
export interface SandboxHandle {
  /** http://HOST:PORT; the API is under contract.apiPrefix, the operator under /_sandbox/. */
  url: string;
  /** The port it listens on. */
  port: number;
  /** The first accepted credential, for `reseller:apiKey` and `reseller:apiSecret`. */
  credentials: {
    /** The API key. */
    key: string;
    /** The API secret. */
    secret: string;
  };
  /** In-process operator: same actions as the HTTP operator interface, synchronous results. */
  operator: LocalOperator;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** The credential a sandbox accepts when given none. */
export const DEFAULT_CREDENTIALS: {
  /** "sandbox-key". */
  key: string;
  /** "sandbox-secret". */
  secret: string;
} = { key: "sandbox-key", secret: "sandbox-secret" };

/** Starts a sandbox on 127.0.0.1 (a free port unless `options.port` is given) and resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const contract = resolveContract(options.contract ?? {}, DEFAULT_CONTRACT);
  const settings = defaultSettings();
  settings.requestsPerMinute = options.requestsPerMinute ?? contract.rateLimit.requestsPerMinute;
  if (options.processingDelaySeconds !== undefined) settings.processingDelaySeconds = options.processingDelaySeconds;
  if (options.approval) settings.approval = { orders: options.approval.orders ?? false, renewals: options.approval.renewals ?? false };
  if (options.kycTlds) settings.kycTlds = options.kycTlds.map((t) => t.replace(/^\./, "").toLowerCase());
  const credentials: Credential[] = (options.credentials ?? [DEFAULT_CREDENTIALS]).map((c) => ({
    key: c.key,
    secret: c.secret,
    scopes: [...((c as SandboxCredentialOption).scopes ?? SCOPES)],
    allowIps: [...((c as SandboxCredentialOption).allowIps ?? [])],
  }));
  if (credentials.length === 0) throw new Error("startSandbox: at least one credential is needed");
  for (const c of credentials) parseAllowList(c.allowIps);
  const now = options.now ?? Date.now;

  let state: SandboxState | undefined;
  const fromFile = options.dataFile !== undefined && existsSync(options.dataFile);
  if (fromFile || options.state) {
    const source = fromFile ? options.dataFile! : "the state given";
    let loaded: SandboxState;
    try {
      loaded = fromFile ? (JSON.parse(readFileSync(source, "utf8")) as SandboxState) : structuredClone(options.state!);
    } catch (e) {
      throw new Error(
        fromFile
          ? `startSandbox: ${source} is not valid JSON (${(e as Error).message}); move it away to start from the seed`
          : `startSandbox: ${source} cannot be copied (${(e as Error).message}); give a state as operator.state() returns it`,
      );
    }
    if (!loaded || typeof loaded !== "object" || !loaded.account || !loaded.domains || !loaded.zones || !loaded.settings) {
      throw new Error(`startSandbox: ${source} is not a sandbox state file`);
    }
    // Options given explicitly (e.g. --rate, --delay) win over the settings saved in the file.
    if (options.requestsPerMinute !== undefined) loaded.settings.requestsPerMinute = settings.requestsPerMinute;
    if (options.processingDelaySeconds !== undefined) loaded.settings.processingDelaySeconds = settings.processingDelaySeconds;
    if (options.approval) loaded.settings.approval = settings.approval;
    if (options.kycTlds) loaded.settings.kycTlds = settings.kycTlds;
    state = loaded;
  }
  const sb = new Sandbox({ contract, credentials, settings, now, random: options.random ?? defaultRandom, dataFile: options.dataFile, state });
  if (!state && options.seed === false) {
    const s = sb.core.state;
    s.domains = {};
    s.zones = {};
    s.ledger = [];
    s.account.balance = 100000;
  }
  if (!state) sb.persist();
  const operator = new LocalOperator(sb);

  const server: Server = createServer((req, res) => {
    const url = req.url ?? "/";
    const done = (p: Promise<void>) =>
      p.catch(() => {
        if (!res.headersSent) {
          res.statusCode = 500;
          res.end();
        } else res.destroy();
      });
    if (url === "/_sandbox" || url.startsWith("/_sandbox/")) return void done(handleOperator(operator, req, res));
    if (url.startsWith(`${contract.apiPrefix}/`) || url === contract.apiPrefix) return void done(sb.handleApi(req, res));
    res.statusCode = 404;
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.end(JSON.stringify({ success: false, error: { code: "not_found", message: `the API is under ${contract.apiPrefix}/ and the operator interface under /_sandbox/` } }));
    req.resume();
  });
  server.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    credentials: { key: credentials[0].key, secret: credentials[0].secret },
    operator,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export { LocalOperator } from "./operator";
export type { ClockAdvance, SandboxSettings, SettingsPatch } from "./operator";
export { SandboxOperator } from "./operator-client";
export type { DelayFault, DropAfterCommitFault, ErrorFault, Fault, FaultMatch, HeldRequest, HoldFault, RateLimitFault, RequestLogEntry } from "./server";
export { credentialFingerprint } from "./server";
export type { LedgerEntry, SandboxState } from "./state";
