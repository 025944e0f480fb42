/**
 * ResellerClient: one typed method per endpoint of the reseller API. Requests go through the
 * RequestLoop (rate limit, signing, retries); answers are parsed with the views in ./views.
 */
import { randomBytes } from "node:crypto";
import type { Dispatcher } from "undici";
import type { z } from "zod";
import { PRIVACY_STATUSES, resolveContract, VIEW_FIELDS, type Contract, type ContractOverrides } from "./contract";
import { ENDPOINTS, type Endpoint } from "./endpoints";
import { parseView, readPage, renameFields, renameIn, renamesFrom, renameWord } from "./envelope";
import { ResponseShapeError } from "./errors";
import type { ContactType } from "./shapes";
import type { ServiceContact } from "./contact-names";
import { windowFor } from "./rate-limiter";
import { defaultLogDir } from "./rate-log-folder";
import { RequestLoop, type Logger, type ResponseEvent, type WaitEvent } from "./request-loop";
import { checkConnectionSettings } from "./settings";
import { createAgent } from "./transport";
import * as V from "./views";

export interface ResellerClientOptions {
  /** Scheme and host of the service (the API prefix comes from the contract). */
  baseUrl: string;
  apiKey: string;
  /** Kept in a private field of the request loop only; never on the client or in an error. */
  apiSecret: string;
  contract?: ContractOverrides;
  /** Deadline of one attempt: connect, headers and the whole body together (default 30 s). */
  timeoutMs?: number;
  /** Retries of network failures, timeouts and 5xx (default 3). */
  maxRetries?: number;
  /** Retries after 429 answers (default contract.rateLimit.maxRetries; a 429 applied nothing, so it is waited out, within bounds). */
  maxRateLimitRetries?: number;
  /** Client-side limit per credential (default contract.rateLimit.requestsPerMinute). */
  requestsPerMinute?: number;
  /** Most requests in flight at once per credential (default contract.rateLimit.burst). */
  burst?: number;
  /**
   * Folder of the credential's request log, read by a client started later in the same command so
   * the window counts what an earlier process sent (default: the user's cache folder,
   * provider/rate-log-folder.ts; created 0700, refused when it is a link, someone else's or open to
   * others); null: memory only.
   */
  rateLimitLogDir?: string | null;
  /** HTTP dispatcher (default: a keep-alive undici Agent owned by this client). */
  dispatcher?: Dispatcher;
  now?: () => number;
  /** Random bytes (nonces, jitter). */
  random?: (bytes: number) => Uint8Array;
  sleep?: (ms: number) => Promise<void>;
  logger?: Logger;
  /** Called before a wait of at least waitNoticeMs (default 3 s). */
  onWait?: (event: WaitEvent) => void;
  waitNoticeMs?: number;
  /** Called with the status of every answer (each attempt), e.g. to count 429s. */
  onResponse?: (event: ResponseEvent) => void;
}

type Keyed = { idempotencyKey: string };

const realSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

type Prepare = (data: unknown) => unknown;

/**
 * For each view schema, how an answer's fields are renamed to ours before parsing (contract: views),
 * and the privacy status word too (contract: privacyStatuses), so provider/vocabulary compares with
 * one set of words; empty when the contract renames nothing. Nested views (a zone's records, a
 * template's results, a domain's privacy) too.
 */
function viewRenames(contract: Contract): Map<z.ZodType, Prepare> {
  const out = new Map<z.ZodType, Prepare>();
  const map = (view: keyof typeof VIEW_FIELDS) => renamesFrom(VIEW_FIELDS[view], contract.views[view]);
  const flat: [z.ZodType, keyof typeof VIEW_FIELDS][] = [
    [V.Ping, "ping"],
    [V.Tld, "tld"],
    [V.Quote, "quote"],
    [V.Balance, "balance"],
    [V.Tier, "tier"],
    [V.DomainInfo, "domainInfo"],
    [V.DnsRecord, "record"],
    [V.Template, "template"],
    [V.AvailabilityBatch, "availability"],
    [V.EppCode, "eppCode"],
  ];
  for (const [schema, view] of flat) {
    const m = map(view);
    if (Object.keys(m).length) out.set(schema, (d) => renameFields(d, m));
  }
  const words = renamesFrom(PRIVACY_STATUSES, contract.privacyStatuses);
  if (Object.keys(words).length) {
    const privacy = (d: unknown) => renameWord(d, "status", words);
    const info = out.get(V.DomainInfo) ?? ((d: unknown) => d);
    const inInfo = (d: unknown) => {
      const i = info(d) as Record<string, unknown> | undefined;
      return i && typeof i === "object" && "privacy" in i ? { ...i, privacy: privacy(i.privacy) } : i;
    };
    out.set(V.PrivacyView, privacy);
    out.set(V.DomainInfo, inInfo);
  }
  // An add-on purchase's answer: its charge fields (addonOrder), and a privacy status word.
  const order = map("addonOrder");
  const charge = (d: unknown) => renameFields(d, order);
  const privacyView = out.get(V.PrivacyView) ?? ((d: unknown) => d);
  if (Object.keys(order).length) out.set(V.ProtectionOrder, charge);
  if (Object.keys(order).length || out.has(V.PrivacyView)) out.set(V.PrivacyOrder, (d) => privacyView(charge(d)));
  const rec = map("record");
  if (Object.keys(rec).length) {
    out.set(V.DnsZoneWithRecords, (d) => renameIn(d, "records", rec));
    out.set(V.TemplateApplied, (d) => renameIn(renameIn(d, "created", rec), "replaced", rec));
  }
  return out;
}

export class ResellerClient {
  readonly #loop: RequestLoop;
  readonly #contract: Contract;
  readonly #renames: Map<z.ZodType, Prepare>;
  /** Set when this client created its dispatcher, so close() ends only what it owns. */
  readonly #ownAgent: Dispatcher | undefined;

  constructor(options: ResellerClientOptions) {
    const contract = resolveContract(options.contract);
    // Before anything is sent: TLS (or loopback), credentials a header can carry, sane numbers.
    const url = checkConnectionSettings(options);
    const basePath = url.pathname.replace(/\/+$/, "");
    const timeoutMs = options.timeoutMs ?? 30_000;
    const now = options.now ?? Date.now;
    const sleep = options.sleep ?? realSleep;
    this.#ownAgent = options.dispatcher ? undefined : createAgent(timeoutMs);
    this.#contract = contract;
    this.#renames = viewRenames(contract);
    this.#loop = new RequestLoop(
      {
        origin: url.origin,
        basePath,
        apiKey: options.apiKey,
        contract,
        timeoutMs,
        maxRetries: options.maxRetries ?? 3,
        maxRateLimitRetries: options.maxRateLimitRetries ?? contract.rateLimit.maxRetries,
        waitNoticeMs: options.waitNoticeMs ?? 3000,
        window: windowFor(url.origin + basePath, options.apiKey, {
          limit: ((options.requestsPerMinute ?? contract.rateLimit.requestsPerMinute) * contract.rateLimit.windowSeconds) / 60,
          windowMs: contract.rateLimit.windowSeconds * 1000,
          maxInFlight: options.burst ?? contract.rateLimit.burst,
          clock: { now, sleep },
          logDir: options.rateLimitLogDir === undefined ? defaultLogDir() : options.rateLimitLogDir,
          warn: (msg) => options.logger?.warn?.(msg),
        }),
        dispatcher: options.dispatcher ?? this.#ownAgent!,
        now,
        random: options.random ?? ((n) => randomBytes(n)),
        sleep,
        logger: options.logger ?? {},
        onWait: options.onWait,
        onResponse: options.onResponse,
      },
      options.apiSecret,
    );
  }

  /** The contract in force (defaults plus overrides). */
  get contract(): Contract {
    return this.#contract;
  }

  /** Offset the client adds to its clock when signing (learnt from the service). */
  get clockOffsetMs(): number {
    return this.#loop.clockOffsetMs;
  }

  /** Closes the connection pool this client created (not a dispatcher passed in). */
  async close(): Promise<void> {
    await this.#ownAgent?.close();
  }

  private async one<S extends z.ZodType>(
    endpoint: Endpoint,
    schema: S,
    opts: { params?: Record<string, string>; body?: unknown; idempotencyKey?: string; query?: Record<string, string | number | undefined> } = {},
  ): Promise<z.output<S>> {
    const a = await this.#loop.send({ endpoint, ...opts });
    return parseView(schema, this.ours(schema, a.data), a.endpoint, a.status);
  }

  /** An answer with the service's field names renamed to the view's (contract: views). */
  private ours(schema: z.ZodType, data: unknown): unknown {
    const prepare = this.#renames.get(schema);
    return prepare ? prepare(data) : data;
  }

  private async none(endpoint: Endpoint, params: Record<string, string>): Promise<void> {
    await this.#loop.send({ endpoint, params });
  }

  /** Every page of a list (contract paging), each item parsed with `item`. */
  private async all<S extends z.ZodType>(
    endpoint: Endpoint,
    name: string,
    item: S,
    params?: Record<string, string>,
    filter: Record<string, string | undefined> = {},
  ): Promise<z.output<S>[]> {
    const p = this.#contract.paging;
    const out: z.output<S>[] = [];
    const seen = new Set<number>();
    for (let page: number | null = 1; page !== null; ) {
      seen.add(page);
      const a = await this.#loop.send({ endpoint, params, query: { ...filter, [p.pageParam]: page, [p.perPageParam]: p.perPage } });
      const pg = readPage(a.data, name, p, a.endpoint, a.status);
      pg.items.forEach((x, i) => out.push(parseView(item, this.ours(item, x), a.endpoint, a.status, `${pg.at}[${i}]`)));
      // A service that points back to a page already read would loop forever.
      if (pg.nextPage !== null && seen.has(pg.nextPage)) throw new ResponseShapeError(a.endpoint, `data.${p.paginationField}.${p.nextPageField}`, `page ${pg.nextPage} was read already`, a.status);
      page = pg.nextPage;
    }
    return out;
  }

  // Account and catalogue

  ping(): Promise<V.Ping> {
    return this.one(ENDPOINTS.ping, V.Ping);
  }

  listTlds(): Promise<V.Tld[]> {
    return this.all(ENDPOINTS.listTlds, "tlds", V.Tld);
  }

  /** Checks any number of names, in batches of contract.availabilityBatch; results in input order. */
  async checkAvailability(domains: string[], years?: number): Promise<V.Availability[]> {
    const out: V.Availability[] = [];
    const n = this.#contract.availabilityBatch;
    for (let i = 0; i < domains.length; i += n) {
      const batch = await this.one(ENDPOINTS.checkAvailability, V.AvailabilityBatch, { body: { domains: domains.slice(i, i + n), years } });
      out.push(...batch.results);
    }
    return out;
  }

  checkDomain(domain: string): Promise<V.Availability> {
    return this.one(ENDPOINTS.checkDomain, V.Availability, { body: { domain } });
  }

  quote(req: { action: V.PricingAction; domain: string; years: number }): Promise<V.Quote> {
    return this.one(ENDPOINTS.quote, V.Quote, { body: req });
  }

  listDomains(): Promise<V.DomainListEntry[]> {
    return this.all(ENDPOINTS.listDomains, "domains", V.DomainListEntry);
  }

  /** GET /domains read as information views, where contract.listEntries.domains says the entries are ("info"). */
  listDomainInfos(): Promise<V.DomainInfo[]> {
    return this.all(ENDPOINTS.listDomains, "domains", V.DomainInfo);
  }

  getBalance(): Promise<V.Balance> {
    return this.one(ENDPOINTS.getBalance, V.Balance);
  }

  getTier(): Promise<V.Tier> {
    return this.one(ENDPOINTS.getTier, V.Tier);
  }

  // Register, transfer, renew: the caller's Idempotency-Key is sent on every attempt.

  register(req: V.RegisterRequest, opts: Keyed): Promise<V.DomainOrder> {
    return this.one(ENDPOINTS.register, V.DomainOrder, { body: req, idempotencyKey: opts.idempotencyKey });
  }

  transfer(req: V.TransferRequest, opts: Keyed): Promise<V.DomainOrder> {
    return this.one(ENDPOINTS.transfer, V.DomainOrder, { body: req, idempotencyKey: opts.idempotencyKey });
  }

  renew(domain: string, req: V.RenewRequest, opts: Keyed): Promise<V.DomainOrder> {
    return this.one(ENDPOINTS.renew, V.DomainOrder, { params: { domain }, body: req, idempotencyKey: opts.idempotencyKey });
  }

  // Domain information and management

  getDomain(domain: string): Promise<V.DomainInfo> {
    return this.one(ENDPOINTS.getDomain, V.DomainInfo, { params: { domain } });
  }

  setNameservers(domain: string, nameservers: string[]): Promise<z.output<typeof V.NameserversView>> {
    return this.one(ENDPOINTS.setNameservers, V.NameserversView, { params: { domain }, body: { nameservers } });
  }

  getContacts(domain: string): Promise<V.Contacts> {
    return this.one(ENDPOINTS.getContacts, V.Contacts, { params: { domain } });
  }

  updateContacts(domain: string, contacts: Partial<Record<ContactType, ServiceContact>>): Promise<V.ContactsUpdate> {
    return this.one(ENDPOINTS.updateContacts, V.ContactsUpdate, { params: { domain }, body: contacts });
  }

  setLock(domain: string, locked: boolean): Promise<z.output<typeof V.LockView>> {
    return this.one(ENDPOINTS.setLock, V.LockView, { params: { domain }, body: { locked } });
  }

  /** Sets a new transfer code and returns it; never re-sent once it may have reached the service. */
  requestEppCode(domain: string): Promise<{ auth_code: string }> {
    return this.one(ENDPOINTS.requestEppCode, V.EppCode, { params: { domain } });
  }

  // Child nameservers

  listHosts(domain: string): Promise<V.Host[]> {
    return this.all(ENDPOINTS.listHosts, "hosts", V.Host, { domain });
  }

  createHost(domain: string, host: V.Host): Promise<V.Host> {
    return this.one(ENDPOINTS.createHost, V.Host, { params: { domain }, body: host });
  }

  updateHost(domain: string, hostname: string, addresses: { ipv4: string[]; ipv6: string[] }): Promise<V.Host> {
    return this.one(ENDPOINTS.updateHost, V.Host, { params: { domain, hostname }, body: addresses });
  }

  deleteHost(domain: string, hostname: string): Promise<void> {
    return this.none(ENDPOINTS.deleteHost, { domain, hostname });
  }

  // WHOIS Privacy and Domain Protection

  getPrivacy(domain: string): Promise<V.PrivacyView> {
    return this.one(ENDPOINTS.getPrivacy, V.PrivacyView, { params: { domain } });
  }

  /** Buys the add-on when absent and enables privacy; the answer says what it charged (contract: views.addonOrder). */
  enablePrivacy(domain: string, opts: Keyed): Promise<V.PrivacyOrder> {
    return this.one(ENDPOINTS.enablePrivacy, V.PrivacyOrder, { params: { domain }, idempotencyKey: opts.idempotencyKey });
  }

  disablePrivacy(domain: string): Promise<V.PrivacyView> {
    return this.one(ENDPOINTS.disablePrivacy, V.PrivacyView, { params: { domain } });
  }

  getProtection(domain: string): Promise<V.ProtectionView> {
    return this.one(ENDPOINTS.getProtection, V.ProtectionView, { params: { domain } });
  }

  /** Buys and switches on Domain Protection; the answer says what it charged (contract: views.addonOrder). */
  enableProtection(domain: string, opts: Keyed): Promise<V.ProtectionOrder> {
    return this.one(ENDPOINTS.enableProtection, V.ProtectionOrder, { params: { domain }, idempotencyKey: opts.idempotencyKey });
  }

  /** The service always refuses (403 requires_portal_verification, a PortalVerificationRequiredError); sent so the refusal is the service's. */
  async disableProtection(domain: string): Promise<never> {
    const a = await this.#loop.send({ endpoint: ENDPOINTS.disableProtection, params: { domain } });
    throw new ResponseShapeError(a.endpoint, "(status)", "expected 403 requires_portal_verification, the service accepted instead; read the protection state back", a.status);
  }

  // DNS hosting

  listZones(): Promise<V.DnsZone[]> {
    return this.all(ENDPOINTS.listZones, "zones", V.DnsZone);
  }

  createZone(domain: string): Promise<V.DnsZone> {
    return this.one(ENDPOINTS.createZone, V.DnsZone, { body: { domain } });
  }

  getZone(domain: string): Promise<V.DnsZoneWithRecords> {
    return this.one(ENDPOINTS.getZone, V.DnsZoneWithRecords, { params: { domain } });
  }

  checkZone(domain: string): Promise<V.DnsZone> {
    return this.one(ENDPOINTS.checkZone, V.DnsZone, { params: { domain } });
  }

  deleteZone(domain: string): Promise<void> {
    return this.none(ENDPOINTS.deleteZone, { domain });
  }

  listRecords(domain: string, filter: { type?: string } = {}): Promise<V.DnsRecord[]> {
    return this.all(ENDPOINTS.listRecords, "records", V.DnsRecord, { domain }, { type: filter.type });
  }

  createRecord(domain: string, record: V.RecordInput): Promise<V.DnsRecord> {
    return this.one(ENDPOINTS.createRecord, V.DnsRecord, { params: { domain }, body: record });
  }

  updateRecord(domain: string, id: string, patch: Partial<V.RecordInput>): Promise<V.DnsRecord> {
    return this.one(ENDPOINTS.updateRecord, V.DnsRecord, { params: { domain, id }, body: patch });
  }

  deleteRecord(domain: string, id: string): Promise<void> {
    return this.none(ENDPOINTS.deleteRecord, { domain, id });
  }

  listTemplates(): Promise<V.Template[]> {
    return this.all(ENDPOINTS.listTemplates, "templates", V.Template);
  }

  applyTemplate(
    domain: string,
    templateId: string,
    body: { variables: Record<string, string>; conflict_strategy: V.ConflictStrategy },
  ): Promise<V.TemplateApplied> {
    return this.one(ENDPOINTS.applyTemplate, V.TemplateApplied, { params: { domain, id: templateId }, body });
  }
}
