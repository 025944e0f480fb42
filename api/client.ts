/**
 * ResellerClient: one typed method per endpoint of the reseller API. Requests go through the
 * RequestLoop (rate limit, signing, retries); answers are parsed with the views in ./views.
 */
import { randomBytes } from "node:crypto";
import type { Dispatcher } from "undici";
import type { z } from "zod";
import { PRIVACY_STATUSES, resolveContract, VIEW_FIELDS, type Contract, type ContractOverrides } from "./contract";
import { OPERATIONS as OP, type Operation, type OperationName } from "./operations";
import { parseView, readPage, renameFields, renameIn, renamesFrom, renameWord } from "./envelope";
import { ResponseShapeError, UnsafePathError } from "./errors";
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
  /** How errors name where the key and secret came from, e.g. `--key or RESELLER_API_KEY / RESELLER_API_SECRET` (default: the stack config's reseller:apiKey / reseller:apiSecret). */
  credentialSettings?: string;
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
   * api/rate-log-folder.ts; created 0700, refused when it is a link, someone else's or open to
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
  /**
   * Cancels the client's work: once aborted, no attempt starts (a request waiting for its turn in
   * the rate limit, or for a retry, is not sent: RequestCancelledError, or OutcomeUnknownError when
   * an earlier attempt of it reached the service); an attempt in flight runs to its answer or its
   * deadline (timeoutMs), so a purchase sent gets its answer.
   */
  signal?: AbortSignal;
}

type Keyed = { idempotencyKey: string };

/** What a call of `O` sends: its body where the operation has one, its Idempotency-Key where it is keyed (the table decides both). */
type Sent<O extends Operation> = {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
} & (O["request"] extends z.ZodType ? { body: z.input<O["request"]> } : { body?: undefined }) &
  (O["keyed"] extends true ? { idempotencyKey: string } : { idempotencyKey?: undefined });

const realSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

type Prepare = (data: unknown) => unknown;

/**
 * For each view schema, how an answer's fields are renamed to ours before parsing (contract: views),
 * and the privacy status word too (contract: privacyStatuses), so api/vocabulary compares with
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

type IdsAt = (view: never) => [at: string, id: string][];
const idsOf = (records: readonly V.DnsRecord[], field: string): [string, string][] => records.map((r, i) => [`${field}[${i}].id`, r.id]);

/** Where each view holds record ids, which the client later sends back as a path segment (contract: ids.record). */
const RECORD_IDS = new Map<z.ZodType, IdsAt>([
  [V.DnsRecord, (r: V.DnsRecord) => [["id", r.id]]],
  [V.DnsZoneWithRecords, (z: V.DnsZoneWithRecords) => idsOf(z.records, "records")],
  [V.TemplateApplied, (t: V.TemplateApplied) => [...idsOf(t.created, "created"), ...idsOf(t.replaced, "replaced")]],
]);

export class ResellerClient {
  readonly #loop: RequestLoop;
  readonly #contract: Contract;
  readonly #renames: Map<z.ZodType, Prepare>;
  /** The shape of a record id (contract: ids.record). */
  readonly #recordId: RegExp;
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
    this.#recordId = new RegExp(contract.ids.record);
    this.#loop = new RequestLoop(
      {
        origin: url.origin,
        basePath,
        apiKey: options.apiKey,
        credentialSettings: options.credentialSettings,
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
        signal: options.signal,
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

  /** One call of `op`; its answer's data parsed with the operation's response schema. */
  private async one<O extends Operation & { response: z.ZodType }>(op: O, opts: Sent<O> = {} as Sent<O>): Promise<z.output<O["response"]>> {
    const a = await this.#loop.send({ endpoint: op, ...opts });
    return this.checkedIds(op.response, parseView<O["response"]>(op.response, this.ours(op.response, a.data), a.endpoint, a.status), a.endpoint, a.status);
  }

  /** `value` when every record id it holds has the service's shape; else a ResponseShapeError, before anything stores the id. */
  private checkedIds<T>(schema: z.ZodType, value: T, endpoint: string, status: number, at = "data"): T {
    for (const [path, id] of RECORD_IDS.get(schema)?.(value as never) ?? []) {
      if (!this.#recordId.test(id))
        throw new ResponseShapeError(endpoint, `${at}.${path}`, `${JSON.stringify(id.slice(0, 80))} is not a record id of the service's shape (contract ids.record: ${this.#contract.ids.record}), so it is not kept: it would be sent back as a path segment`, status);
    }
    return value;
  }

  /** `id` when it has the shape of a record id; else refused before anything is signed or sent. */
  private recordId(op: Operation, id: string): string {
    if (!this.#recordId.test(id)) throw new UnsafePathError(op.template, "id", id, `is not a record id of the service's shape (contract ids.record: ${this.#contract.ids.record})`);
    return id;
  }

  /** An answer with the service's field names renamed to the view's (contract: views). */
  private ours(schema: z.ZodType, data: unknown): unknown {
    const prepare = this.#renames.get(schema);
    return prepare ? prepare(data) : data;
  }

  /** One call of `op` whose answer carries nothing read. */
  private async none(op: Operation & { response: null }, params: Record<string, string>): Promise<void> {
    await this.#loop.send({ endpoint: op, params });
  }

  /** Every page of a list operation (contract paging), each item parsed with `item` (the operation's own item schema by default). */
  private async all<O extends Operation & { response: z.ZodType; list: string }, S extends z.ZodType = O["response"]>(
    op: O,
    params?: Record<string, string>,
    filter: Record<string, string | undefined> = {},
    item: S = op.response as unknown as S,
  ): Promise<z.output<S>[]> {
    const endpoint = op;
    const name = op.list;
    const p = this.#contract.paging;
    const out: z.output<S>[] = [];
    const seen = new Set<number>();
    for (let page: number | null = 1; page !== null; ) {
      seen.add(page);
      const a = await this.#loop.send({ endpoint, params, query: { ...filter, [p.pageParam]: page, [p.perPageParam]: p.perPage } });
      const pg = readPage(a.data, name, p, a.endpoint, a.status);
      pg.items.forEach((x, i) => {
        const at = `${pg.at}[${i}]`;
        out.push(this.checkedIds(item, parseView(item, this.ours(item, x), a.endpoint, a.status, at), a.endpoint, a.status, at));
      });
      // A service that points back to a page already read would loop forever.
      if (pg.nextPage !== null && seen.has(pg.nextPage)) throw new ResponseShapeError(a.endpoint, `data.${p.paginationField}.${p.nextPageField}`, `page ${pg.nextPage} was read already`, a.status);
      page = pg.nextPage;
    }
    return out;
  }

  // Account and catalogue

  ping(): Promise<V.Ping> {
    return this.one(OP.ping);
  }

  listTlds(): Promise<V.Tld[]> {
    return this.all(OP.listTlds);
  }

  /** Checks any number of names, in batches of contract.availabilityBatch; results in input order. */
  async checkAvailability(domains: string[], years?: number): Promise<V.Availability[]> {
    const out: V.Availability[] = [];
    const n = this.#contract.availabilityBatch;
    for (let i = 0; i < domains.length; i += n) {
      const batch = await this.one(OP.checkAvailability, { body: { domains: domains.slice(i, i + n), years } });
      out.push(...batch.results);
    }
    return out;
  }

  checkDomain(domain: string): Promise<V.Availability> {
    return this.one(OP.checkDomain, { body: { domain } });
  }

  quote(req: { action: V.PricingAction; domain: string; years: number }): Promise<V.Quote> {
    return this.one(OP.quote, { body: req });
  }

  listDomains(): Promise<V.DomainListEntry[]> {
    return this.all(OP.listDomains);
  }

  /** GET /domains read as information views, where contract.listEntries.domains says the entries are ("info"). */
  listDomainInfos(): Promise<V.DomainInfo[]> {
    return this.all(OP.listDomains, undefined, {}, V.DomainInfo);
  }

  getBalance(): Promise<V.Balance> {
    return this.one(OP.getBalance);
  }

  getTier(): Promise<V.Tier> {
    return this.one(OP.getTier);
  }

  // Register, transfer, renew: the caller's Idempotency-Key is sent on every attempt.

  register(req: V.RegisterRequest, opts: Keyed): Promise<V.DomainOrder> {
    return this.one(OP.register, { body: req, idempotencyKey: opts.idempotencyKey });
  }

  transfer(req: V.TransferRequest, opts: Keyed): Promise<V.DomainOrder> {
    return this.one(OP.transfer, { body: req, idempotencyKey: opts.idempotencyKey });
  }

  renew(domain: string, req: V.RenewRequest, opts: Keyed): Promise<V.DomainOrder> {
    return this.one(OP.renew, { params: { domain }, body: req, idempotencyKey: opts.idempotencyKey });
  }

  // Domain information and management

  getDomain(domain: string): Promise<V.DomainInfo> {
    return this.one(OP.getDomain, { params: { domain } });
  }

  setNameservers(domain: string, nameservers: string[]): Promise<z.output<typeof V.NameserversView>> {
    return this.one(OP.setNameservers, { params: { domain }, body: { nameservers } });
  }

  getContacts(domain: string): Promise<V.Contacts> {
    return this.one(OP.getContacts, { params: { domain } });
  }

  updateContacts(domain: string, contacts: Partial<Record<ContactType, ServiceContact>>): Promise<V.ContactsUpdate> {
    return this.one(OP.updateContacts, { params: { domain }, body: contacts });
  }

  setLock(domain: string, locked: boolean): Promise<z.output<typeof V.LockView>> {
    return this.one(OP.setLock, { params: { domain }, body: { locked } });
  }

  /** Sets a new transfer code and returns it; never re-sent once it may have reached the service. */
  requestEppCode(domain: string): Promise<{ auth_code: string }> {
    return this.one(OP.requestEppCode, { params: { domain } });
  }

  // Child nameservers

  listHosts(domain: string): Promise<V.Host[]> {
    return this.all(OP.listHosts, { domain });
  }

  createHost(domain: string, host: V.Host): Promise<V.Host> {
    return this.one(OP.createHost, { params: { domain }, body: host });
  }

  updateHost(domain: string, hostname: string, addresses: { ipv4: string[]; ipv6: string[] }): Promise<V.Host> {
    return this.one(OP.updateHost, { params: { domain, hostname }, body: addresses });
  }

  deleteHost(domain: string, hostname: string): Promise<void> {
    return this.none(OP.deleteHost, { domain, hostname });
  }

  // WHOIS Privacy and Domain Protection

  getPrivacy(domain: string): Promise<V.PrivacyView> {
    return this.one(OP.getPrivacy, { params: { domain } });
  }

  /** Buys the add-on when absent and enables privacy; the answer says what it charged (contract: views.addonOrder). */
  enablePrivacy(domain: string, opts: Keyed): Promise<V.PrivacyOrder> {
    return this.one(OP.enablePrivacy, { params: { domain }, idempotencyKey: opts.idempotencyKey });
  }

  disablePrivacy(domain: string): Promise<V.PrivacyView> {
    return this.one(OP.disablePrivacy, { params: { domain } });
  }

  getProtection(domain: string): Promise<V.ProtectionView> {
    return this.one(OP.getProtection, { params: { domain } });
  }

  /** Buys and switches on Domain Protection; the answer says what it charged (contract: views.addonOrder). */
  enableProtection(domain: string, opts: Keyed): Promise<V.ProtectionOrder> {
    return this.one(OP.enableProtection, { params: { domain }, idempotencyKey: opts.idempotencyKey });
  }

  /** The service always refuses (403 requires_portal_verification, a PortalVerificationRequiredError); sent so the refusal is the service's. */
  async disableProtection(domain: string): Promise<never> {
    const a = await this.#loop.send({ endpoint: OP.disableProtection, params: { domain } });
    throw new ResponseShapeError(a.endpoint, "(status)", "expected 403 requires_portal_verification, the service accepted instead; read the protection state back", a.status);
  }

  // DNS hosting

  listZones(): Promise<V.DnsZone[]> {
    return this.all(OP.listZones);
  }

  createZone(domain: string): Promise<V.DnsZone> {
    return this.one(OP.createZone, { body: { domain } });
  }

  getZone(domain: string): Promise<V.DnsZoneWithRecords> {
    return this.one(OP.getZone, { params: { domain } });
  }

  checkZone(domain: string): Promise<V.DnsZone> {
    return this.one(OP.checkZone, { params: { domain } });
  }

  deleteZone(domain: string): Promise<void> {
    return this.none(OP.deleteZone, { domain });
  }

  listRecords(domain: string, filter: { type?: string } = {}): Promise<V.DnsRecord[]> {
    return this.all(OP.listRecords, { domain }, { type: filter.type });
  }

  createRecord(domain: string, record: V.RecordInput): Promise<V.DnsRecord> {
    return this.one(OP.createRecord, { params: { domain }, body: record });
  }

  async updateRecord(domain: string, id: string, patch: Partial<V.RecordInput>): Promise<V.DnsRecord> {
    return this.one(OP.updateRecord, { params: { domain, id: this.recordId(OP.updateRecord, id) }, body: patch });
  }

  async deleteRecord(domain: string, id: string): Promise<void> {
    return this.none(OP.deleteRecord, { domain, id: this.recordId(OP.deleteRecord, id) });
  }

  listTemplates(): Promise<V.Template[]> {
    return this.all(OP.listTemplates);
  }

  applyTemplate(
    domain: string,
    templateId: string,
    body: { variables: Record<string, string>; conflict_strategy: V.ConflictStrategy },
  ): Promise<V.TemplateApplied> {
    return this.one(OP.applyTemplate, { params: { domain, id: templateId }, body });
  }
}

// Every operation of the table has a client method of its name: a new entry does not compile until it has one.
type MissingMethods = Exclude<OperationName, keyof ResellerClient>;
const _everyOperation: [MissingMethods] extends [never] ? true : MissingMethods = true;
void _everyOperation;
