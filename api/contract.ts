/**
 * The protocol contract: every assumption this package makes about a part of
 * the reseller API that the service's description (spec/reseller-api.md)
 * leaves "not shown". Each entry quotes the spec line it fills in.
 *
 * The client (api/) and the sandbox (sandbox/) both read these values, so
 * they agree by construction; users whose service turns out to differ override
 * any entry of `Contract` (DEFAULT_CONTRACT below) through the client's `contract`
 * option (or the `reseller:contract` stack config), and the sandbox through
 * `startSandbox({ contract })`; `resolveContract` refuses an entry that does not
 * exist. The sandbox follows every entry but `views`, `errors.codes`,
 * `privacyStatuses`, `recordTypes` (it takes any type name, as the service's open list), `money` and `names` (a policy of the client's check): it always answers in the default field names, codes
 * and words, and charges from its own price list in cents (sandbox/state.ts; an add-on
 * for addonChargeYears at 5.00 or 15.00 a year), which `money.addonPricesPerYear` states
 * to a preview as a user states their portal's.
 * The constants outside `Contract` (VALUES) are not overridable: VALUES holds the stated
 * state names, and the groupings we read into them, that api/vocabulary.ts turns into
 * predicates. What is assumed per operation (its scope, whether it is signed, keyed, paid or
 * read-only) is one entry each of the operation table, api/operations.ts; the status of
 * each error code, which only the sandbox applies, is in sandbox/rules.ts.
 *
 * This module has no side effects and one dependency, the pattern of an amount's text, which
 * the money type (money.ts, itself reading this module) follows too.
 */
import { amountPattern } from "./amount-pattern";

/** HTTP header names. */
export interface HeaderNames {
  /** Spec, Authentication 2: "sent as the headers X-Service-Key and X-Service-Secret". Stated. */
  key: string;
  /** Stated, as above. */
  secret: string;
  /** Spec, Authentication 3: "Names of the signature, timestamp and nonce headers ... not shown". */
  signature: string;
  /** As above. */
  timestamp: string;
  /** As above. */
  nonce: string;
  /** Spec, Authentication 7: "The header Idempotency-Key is required". Stated. */
  idempotencyKey: string;
  /** Not in the spec: set by the sandbox (and expected from the service) when a stored response is replayed for a reused Idempotency-Key. */
  idempotentReplay: string;
  /** Spec, Limits: "Response when the rate limit is exceeded: not shown". We read the standard Retry-After. */
  retryAfter: string;
  /** Not in the spec: a request id echoed in responses when present; used only in error messages. */
  requestId: string;
}

/** Signing scheme. Spec, Authentication 3: "HMAC-SHA256 with a timestamp and a single-use nonce ... the string that is signed and the permitted clock skew: not shown". */
export interface SigningContract {
  /**
   * Which requests are signed. Spec: "Registration and management endpoints
   * require signed requests." The client signs every request by default
   * ("all"); the sandbox requires a signature on the operations marked
   * `signed` in api/operations.ts.
   */
  clientSigns: "all" | "required-only";
  /** Permitted difference between the request's timestamp and the server clock, seconds. Not shown; we assume 300 (5 minutes, as common HMAC APIs). */
  clockSkewSeconds: number;
  /**
   * Largest offset from the local clock the client adopts from a server's time (401
   * timestamp_out_of_range with details.server_time), seconds. Ours: one day, far beyond any clock
   * that NTP or a forgotten time zone puts wrong, so only a broken or lying answer passes it (a
   * server_time in the year 5138 was once adopted); beyond it the offset is ignored, with a warning.
   */
  maxClockOffsetSeconds: number;
  /** How long a server remembers a nonce to refuse its replay, seconds. Must be at least 2 x clockSkewSeconds. */
  nonceRetentionSeconds: number;
  /** Number of random bytes in a nonce (hex encoded on the wire). */
  nonceBytes: number;
  /** Timestamp format on the wire: Unix seconds as a decimal string. */
  timestampUnit: "seconds" | "milliseconds";
  /** Signature encoding on the wire. */
  signatureEncoding: "hex" | "base64";
  /** Fields of the canonical string, in order (names: CANONICAL_STRING_FIELDS; a field may be left out or repeated). */
  canonicalFields: readonly CanonicalField[];
  /** What joins the canonical fields. */
  separator: string;
}

/**
 * The canonical string that is signed (spec, Authentication 3: "the string that is signed ... not
 * shown"). By default these fields, in this order, joined by "\n" (`signing.canonicalFields` and
 * `signing.separator` override both):
 *
 *   method            upper case, e.g. POST
 *   path              path with its query string exactly as sent, e.g. /api/v1/dns/zones/example.com/records?type=A
 *   timestamp         the timestamp header's value
 *   nonce             the nonce header's value
 *   bodySha256        lower-case hex SHA-256 of the raw body bytes ("" hashes to e3b0c442...)
 *   apiKey            the X-Service-Key value, binding the signature to one credential
 */
export const CANONICAL_STRING_FIELDS = ["method", "path", "timestamp", "nonce", "bodySha256", "apiKey"] as const;
export type CanonicalField = (typeof CANONICAL_STRING_FIELDS)[number];

/** Error body. Spec, Errors 1: "Failures are structured error objects with machine-readable codes. Body shape of an error: not shown." */
export interface ErrorShape {
  /**
   * We assume `{ "success": false, "error": { "code": string, "message": string, "field"?: string, "details"?: object } }`,
   * which the sandbox sends. Not a setting: the client reads that form, `{ "success": false, "code", "message" }`
   * and `{ "error": "code", "message" }` alike, and falls back on the HTTP status when none fits.
   */
  form: "nested";
  /**
   * Machine codes the service uses, by our name (keys of ERROR_CODES): an override such as
   * `{ rateLimited: "too_many_requests" }` makes the client read that code as ours (`rate_limited`)
   * before choosing the error class, so retries, clock correction and error classes follow. Codes
   * not overridden are read as they come.
   */
  codes: { [K in keyof typeof ERROR_CODES]: string };
}

/** Machine codes for errors the spec does not name (Errors 3: "all other error codes ... not shown"). Stated codes are marked. */
export const ERROR_CODES = {
  /** Stated: 409 renew with a stale current_expiry; nothing charged. */
  expiryMismatch: "expiry_mismatch",
  /** Stated: 409 zone creation when a zone exists. */
  zoneExists: "zone_exists",
  /** Stated: 403 every DELETE of protection. */
  requiresPortalVerification: "requires_portal_verification",
  /** Assumed: 401 missing or unknown key, or wrong secret. */
  unauthorized: "unauthorized",
  /** Assumed: 401 signature missing or not matching. */
  invalidSignature: "invalid_signature",
  /** Assumed: 401 timestamp outside the permitted skew; details.server_time carries the server clock (Unix seconds). */
  timestampSkew: "timestamp_out_of_range",
  /** Assumed: 401 nonce already used. */
  nonceReused: "nonce_reused",
  /** Assumed: 403 key lacks the scope; details.required_scope names it. */
  forbiddenScope: "insufficient_scope",
  /** Assumed: 403 caller address not in the credential's allowlist. */
  ipNotAllowed: "ip_not_allowed",
  /** Assumed: 429 rate limit exceeded; Retry-After header and details.retry_after (seconds). */
  rateLimited: "rate_limited",
  /** Assumed: 422 invalid input; `field` names the offending field. */
  validation: "validation_error",
  /** Assumed: 400 malformed JSON or body not an object. */
  badRequest: "bad_request",
  /** Assumed: 413 body larger than the server accepts. */
  payloadTooLarge: "payload_too_large",
  /** Assumed: 400 Idempotency-Key missing on an endpoint that requires it. */
  idempotencyKeyRequired: "idempotency_key_required",
  /** Assumed: 422 Idempotency-Key reused with a different request body. */
  idempotencyKeyReused: "idempotency_key_reused",
  /** Assumed: 402 account credit below the price; nothing charged. */
  insufficientCredit: "insufficient_credit",
  /** Assumed: 404 unknown domain, zone, record, host or template. */
  notFound: "not_found",
  /** Assumed: 409 domain not available for registration. */
  domainUnavailable: "domain_unavailable",
  /** Assumed: 409 the domain is not in the stage an operation needs (e.g. DNS hosting on a non-active domain). */
  domainNotActive: "domain_not_active",
  /** Assumed: 409 DNS hosting needs the DNS Management add-on. */
  dnsAddonRequired: "dns_addon_required",
  /** Assumed: 409 record changes on a zone that is not active. */
  zoneNotActive: "zone_not_active",
  /** Assumed: 409 a record's TTL differs from the TTL shared by its name and type. */
  ttlConflict: "ttl_conflict",
  /** Assumed: 409 a template with conflict_strategy cancel met existing records. */
  templateConflict: "template_conflict",
  /** Assumed: 409 lock removal or EPP code request while Domain Protection is on (Errors 3: status and code not shown). */
  protectionEnabled: "protection_enabled",
  /** Assumed: 409 the add-on is already present (privacy, protection). The sandbox instead answers 200 with the current state; kept for services that refuse. */
  alreadyEnabled: "already_enabled",
  /** Assumed: 405 method not allowed on a known path. */
  methodNotAllowed: "method_not_allowed",
  /** Assumed: 500 unexpected server failure. */
  internal: "internal_error",
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Lists. Spec, Endpoints: "query parameters and paging: not shown"; Limits: "Page size of lists ... not shown". */
export interface PagingContract {
  /** Query parameter for the 1-based page number. */
  pageParam: string;
  /** Query parameter for the page size. */
  perPageParam: string;
  /** Page size the client asks for. The sandbox caps it at maxPerPage. */
  perPage: number;
  /** Largest page the sandbox serves. */
  maxPerPage: number;
  /**
   * A list's `data` is `{ items: [...], pagination: { page, per_page, total, next_page } }`
   * (`next_page` null on the last page). The client also accepts a bare array as `data`
   * (one page) and `data.<name>` arrays such as `data.domains`.
   */
  itemsField: string;
  paginationField: string;
  /** Field of the pagination block holding the next page number (null or absent on the last page). */
  nextPageField: string;
}

/** Idempotency. Spec, Authentication 7: "Key format, retention time and the response to a reused key: not shown". */
export interface IdempotencyContract {
  /** Prefix of keys this package derives; the rest is base64url(SHA-256(urn, operation, discriminator)) cut to `hashChars`. */
  keyPrefix: string;
  hashChars: number;
  /** Keys the sandbox accepts: 1 to 255 visible ASCII characters. */
  maxKeyLength: number;
  /** How long the sandbox keeps a key and its response, seconds (24 h). */
  retentionSeconds: number;
  /**
   * Same key, same body: the first response is replayed with its status and the
   * `Idempotent-Replayed: true` header; nothing is charged again.
   * Same key, other body: 422 idempotency_key_reused; nothing changes.
   */
  replay: "replay-first-response";
}

/** Rate limit. Spec, Limits: "60 requests per minute by default, per credential"; "Response when the rate limit is exceeded: not shown". */
export interface RateLimitContract {
  /** Requests per minute per credential. */
  requestsPerMinute: number;
  /**
   * Assumed (how the service counts: not shown): a sliding window of this many seconds, per
   * credential, that admits requestsPerMinute × windowSeconds / 60 requests; a request is counted
   * when it arrives. The sandbox counts so. The client dates each request by its answer (never
   * before the service saw it) and sends the next only when the oldest has left the window, so
   * the whole limit may go at once from a cold start and no window ever holds more.
   */
  windowSeconds: number;
  /** Most requests the client has in flight at once per credential (a cap on parallel connections, not on the rate). */
  burst: number;
  /**
   * 429 body (not shown; assumed): error code rate_limited with details.retry_after seconds, and a
   * Retry-After header in seconds. What the service asks is honoured within [minRetryAfterSeconds,
   * maxRetryAfterSeconds]: "0" would resend at once (51 requests in 850 ms were seen), a huge
   * value would hold the command for hours. The same cap bounds Retry-After on a 5xx.
   */
  minRetryAfterSeconds: number;
  maxRetryAfterSeconds: number;
  /**
   * A storm of 429s ends: one call is tried again after at most this many 429s; then it fails with
   * RateLimitedError naming the limit. A 429 applied nothing, so the retries of a paid call charge
   * nothing (and keep its Idempotency-Key). maxWaitSeconds is the one wait budget of a call: every
   * wait before a retry (429s, a 5xx's Retry-After, the backoff after a 5xx or a lost connection)
   * draws from it, and a retry whose wait would pass it is not made.
   */
  maxRetries: number;
  maxWaitSeconds: number;
}

/** Field names of views the spec names but does not spell out. */
export const VIEW_FIELDS = {
  /** Ping view (spec: "account, currency, balance, scopes"). */
  ping: { account: "account", currency: "currency", balance: "balance", scopes: "scopes" },
  /** TLD entry (spec: "the extension, its 1-year register, renew and transfer prices, and its limits. Field names: not shown"). */
  tld: {
    extension: "tld",
    register: "register_price",
    renew: "renew_price",
    transfer: "transfer_price",
    currency: "currency",
    minYears: "min_years",
    maxYears: "max_years",
    kycRequired: "kyc_required",
  },
  /** Pricing quote (spec: "field names: not shown"). Request: { action, domain, years }. */
  quote: { action: "action", domain: "domain", years: "years", amount: "amount", currency: "currency" },
  /** Balance view (spec: "reseller credit balance, currency and active domain count"). */
  balance: { balance: "balance", currency: "currency", activeDomains: "active_domains" },
  /** Tier view (spec: "current tier, next tier, domains needed to advance"). */
  tier: { tier: "tier", nextTier: "next_tier", domainsToNextTier: "domains_to_next_tier" },
  /**
   * Domain information view (spec: "status, stage, dates, lock, nameservers, registry statuses,
   * WHOIS Privacy state, Domain Protection state and DNS hosting state ... not shown").
   */
  domainInfo: {
    locked: "locked",
    nameservers: "nameservers",
    registryStatuses: "registry_statuses",
    privacy: "privacy",
    protection: "protection",
    dns: "dns",
    createdAt: "created_at",
    addons: "addons",
    clientReference: "client_reference",
  },
  /** Record view (spec: "Record identifier format and response field list for a record: not shown"): { id, type, name, content, ttl, priority, extra }. */
  record: { id: "id" },
  /** Template list (spec: "Field names of the template list: not shown"): { id, name, description, variables: string[], records: [...] }. */
  template: { id: "id", variables: "variables" },
  /** Multi-name availability (spec: "Response shape of multi-name availability: not shown"): data.results = [availability result]. */
  availability: { results: "results" },
  /** EPP code response (spec: "returns it"): data.auth_code. */
  eppCode: { code: "auth_code" },
  /**
   * What an add-on purchase (POST privacy, POST protection) charged (spec: "Response bodies of the
   * management endpoints ... not shown"): the Domain order's stated charged, currency and invoice,
   * beside the add-on's view. An answer without them leaves the charge unknown (state: charged null).
   */
  addonOrder: { charged: "charged", currency: "currency", invoice: "invoice" },
} as const;

/** Wire names of view fields, per view: our name (a key of VIEW_FIELDS[view]) -> the service's field name. */
export type ViewFields = { [V in keyof typeof VIEW_FIELDS]: { [F in keyof (typeof VIEW_FIELDS)[V]]: string } };

/** Values the spec leaves open. */
export const VALUES = {
  /** Spec: "Full set of zone statuses ... not shown". We know pending_nameserver (stated) and active (stated as the result of a check). */
  zoneStatuses: ["pending_nameserver", "active"] as const,
  /** Protection view status values (spec, States: "protection on"; the view's words: not shown). The view's `enabled` decides; the word is shown. */
  protectionStatuses: ["off", "on"] as const,
  /** Stated: addon value for WHOIS privacy. */
  privacyAddon: "whois_privacy",
  /** Assumed name of the DNS Management add-on in domain info `addons`. */
  dnsAddon: "dns_management",
  /** Spec, Limits: "the permitted range of years: not shown". Used when a TLD entry carries no limits. */
  defaultMinYears: 1,
  defaultMaxYears: 10,
  /** Spec: stage values (stated). */
  stages: [
    "active",
    "pending",
    "pending_approval",
    "pending_kyc",
    "pending_transfer",
    "expired",
    "redemption",
    "suspended",
    "transferred_away",
    "cancelled",
    "failed",
  ] as const,
  /** Stages in which a domain waits on someone else; a caller treats them as states, not errors. */
  waitingStages: ["pending", "pending_approval", "pending_kyc", "pending_transfer"] as const,
  /**
   * Stages after which the name is no longer held by the account: an order that ended (cancelled,
   * failed at the registry) or a transfer out. Not shown in the spec; our reading: a read treats the
   * domain as gone, import skips it, and the name can be ordered again (a new order, a new key).
   */
  goneStages: ["cancelled", "failed", "transferred_away"] as const,
  /**
   * Stages from which a renewal is accepted. Not shown (the spec states only the expiry_mismatch
   * refusal); our reading: an active domain, or an expired one still in its grace. A domain in
   * redemption needs a restore (the pricing endpoint quotes "restore"), not a renewal.
   */
  renewableStages: ["active", "expired"] as const,
} as const;

/**
 * Words of the WHOIS Privacy view's `status`, by our name. Spec, States: POST privacy leaves the
 * status "awaiting_verification until the registrant e-mail confirms" (stated) and privacy "goes live
 * after confirmation"; "the name of the privacy state after confirmation: not shown", and the word
 * for privacy that is off is not given at all. We assume "active" (live) and "disabled" (off).
 * Overridable (contract entry `privacyStatuses`, given as our name -> the service's word): the client
 * reads the service's word as ours, so resources compare with these defaults only.
 */
export const PRIVACY_STATUSES = {
  off: "disabled",
  awaitingVerification: "awaiting_verification",
  live: "active",
} as const;


// Which records of a zone the service manages itself (SOA, the apex NS set): an assumption of this
// contract, kept with the record model it rules (dns/service-managed.ts), listed here with the others.
export { isServiceManagedRecord } from "../dns/service-managed";

/**
 * What entries of the list endpoints carry. Spec, Endpoints: GET /domains "lists domains of the
 * account" and GET /dns/zones lists zones; the entries' fields: not shown. Assumed: a domain entry
 * is the domain information view (as GET /domains/{domain}) and a zone entry the zone view without
 * its records, so a refresh of many domains and zones reads them with one list call (per page)
 * instead of one call each. "summary" says the entries lack that: the provider then reads each
 * object on its own. The sandbox answers as the contract says.
 */
export interface ListEntriesContract {
  domains: "info" | "summary";
  zones: "zone" | "summary";
}

/**
 * Amounts (prices, charges, balances). Spec, Domain: "charged: decimal amount, two decimals"; the
 * decimals of quotes, balances and other currencies: not shown. We assume every amount the service
 * sends or takes carries at most `decimals` places (api/money.ts refuses more, never rounds).
 */
export interface MoneyContract {
  decimals: number;
  /**
   * What an add-on costs a year, an amount in the account's currency, by add-on. The spec states that
   * POST privacy and POST protection buy the add-on "for the rest of the term from credit"; its price
   * is not shown, and POST /pricing quotes only register, renew, transfer and restore. "" (the
   * default): unknown, so a preview names the purchase without a price and leaves it out of the
   * stack's total. Set it from the reseller portal's price list through reseller:contract, e.g.
   * `{"money":{"addonPricesPerYear":{"privacy":"5.00"}}}`, and a preview prices the add-on
   * (addonChargeYears) and counts it against the balance.
   */
  addonPricesPerYear: { privacy: string; protection: string };
}

/**
 * The years an add-on bought now is charged for, a domain expiring at `expiryMs`: assumed (spec: "for
 * the rest of the term"; how it is counted: not shown) the calendar years left, a started year
 * counting whole, at least one: the fewest n for which now plus n years reaches the expiry (so a term
 * of exactly two years is two, leap day or not). The sandbox charges by it.
 */
export function addonChargeYears(expiryMs: number, nowMs: number): number {
  const plusYears = (n: number): number => {
    const d = new Date(nowMs);
    d.setUTCFullYear(d.getUTCFullYear() + n);
    return d.getTime();
  };
  let n = 1;
  while (n < 100 && plusYears(n) < expiryMs) n++;
  return n;
}

/**
 * Host names a program types (domains, zones, nameservers, child hosts, record names and targets).
 * Not an assumption about the service but a policy of this client's check, kept with the other
 * overridable entries: IDNA (the spec is silent on IDNs; registries apply UTS #46) maps a name
 * before it becomes ASCII, and a name whose ASCII form is not what it looks like (invisible
 * characters dropped, other forms folded, scripts mixed in a label: resources/shared/disguised-names.ts)
 * gets a warning at preview naming both forms. `strict: true` refuses it instead.
 *
 * Default false (a warning): a name typed in one script is never touched, and IDNA's mapping is the
 * registries' own, so a flagged name is most often a slip the warning shows before anything is
 * bought; some names flagged are meant (Persian and Indic names need the zero-width joiners, brands
 * mix scripts), and an existing stack holding one must still update. A stack that buys unattended
 * (`up --yes` in CI, where warnings go unread) should set it.
 */
export interface NamesContract {
  strict: boolean;
}

/** The whole contract, as one overridable value. */
export interface Contract {
  listEntries: ListEntriesContract;
  apiPrefix: string;
  headers: HeaderNames;
  signing: SigningContract;
  errors: ErrorShape;
  paging: PagingContract;
  idempotency: IdempotencyContract;
  rateLimit: RateLimitContract;
  money: MoneyContract;
  /**
   * Field names of views (VIEW_FIELDS). The client renames an overridden wire name back to ours
   * before it parses an answer, e.g. `{ balance: { balance: "credit" } }` reads `data.credit` as the
   * balance. The sandbox always answers with the default names.
   */
  views: ViewFields;
  /** Largest request body the sandbox accepts, bytes (not shown; 1 MiB). */
  maxBodyBytes: number;
  /**
   * Shapes of the ids the service returns and the client sends back as a path segment, as regular
   * expression sources. Spec, DNS record: "Record identifier format ... not shown". Ours for a record:
   * 1 to 128 letters, digits, ".", "_" and "-", beginning with a letter or digit: numbers, UUIDs,
   * ULIDs, prefixed ids ("rec_12") and ids that embed a name ("rec_ns_example.com-36") fit, and
   * nothing a path or a proxy could read as another resource ("..", ".", "a/b", "%2e": a segment that
   * begins with a letter or digit is never a dot segment). An answer holding another id is refused before the id is stored; an id of
   * another shape (from an older state) is never sent. An override must still refuse "", "." and "..".
   */
  ids: { record: string };
  /**
   * Largest answer the client reads, bytes (spec, Limits: response sizes not shown). Our guess: 16 MiB,
   * far above the largest list page or zone the service can send (500 entries, 1000 records), and
   * small enough that a broken or hostile server cannot exhaust memory. A larger answer is refused
   * unread: a keyed or read call is retried, an unkeyed create ends "outcome unknown".
   */
  maxResponseBytes: number;
  /** Spec, Limits: "maximum records per zone: not shown". The sandbox refuses a create beyond it (our guess: 1000). */
  maxRecordsPerZone: number;
  /** Availability names per call (stated: up to 20). */
  availabilityBatch: number;
  /** Nameservers per domain (stated: 2 to 5). */
  nameservers: { min: number; max: number };
  /** DNS TTL (stated: 60 to 86400). */
  ttl: { min: number; max: number };
  /**
   * Spec, DNS record: "the TTL is shared by all records with the same name and type" (how the
   * service enforces it: not shown). We assume a create whose TTL differs from its siblings' is
   * refused with 409 ttl_conflict, and a TTL change by PUT applies to every sibling.
   */
  sharedTtl: "reject-create-propagate-update";
  /** Words of the privacy view's status (PRIVACY_STATUSES): our name -> the service's word. The sandbox always answers in the defaults. */
  privacyStatuses: { [K in keyof typeof PRIVACY_STATUSES]: string };
  /** Typed host names that are not what they look like: warned about, or refused when `strict` (NamesContract). The sandbox does not read it. */
  names: NamesContract;
  /**
   * Record type names the service holds beyond IANA's DNS types. Spec, DNS record: "type: A, AAAA,
   * CNAME, MX, TXT, SRV, CAA, PTR, TLSA, SSHFP, DS, HTTPS, SVCB (the list is open-ended: supported
   * types include these)"; which others it takes: not shown. Check and the import take a type that
   * is an IANA DNS type (dns/types.ts), an RFC 3597 `TYPEnnn` of an unassigned number,
   * or one named here (content kept as written), and refuse any other name with the nearest known
   * one ("CNAM is not a record type; did you mean CNAME?"). Default: none; e.g.
   * `{"recordTypes":["ALIAS"]}` for a service with a provider-specific ALIAS. The sandbox takes any name.
   */
  recordTypes: string[];
}

export const DEFAULT_CONTRACT: Contract = {
  listEntries: { domains: "info", zones: "zone" },
  apiPrefix: "/api/v1",
  headers: {
    key: "X-Service-Key",
    secret: "X-Service-Secret",
    signature: "X-Signature",
    timestamp: "X-Timestamp",
    nonce: "X-Nonce",
    idempotencyKey: "Idempotency-Key",
    idempotentReplay: "Idempotent-Replayed",
    retryAfter: "Retry-After",
    requestId: "X-Request-Id",
  },
  signing: {
    clientSigns: "all",
    clockSkewSeconds: 300,
    maxClockOffsetSeconds: 86400,
    nonceRetentionSeconds: 900,
    nonceBytes: 16,
    timestampUnit: "seconds",
    signatureEncoding: "hex",
    canonicalFields: CANONICAL_STRING_FIELDS,
    separator: "\n",
  },
  errors: { form: "nested", codes: ERROR_CODES },
  paging: {
    pageParam: "page",
    perPageParam: "per_page",
    perPage: 500,
    maxPerPage: 500,
    itemsField: "items",
    paginationField: "pagination",
    nextPageField: "next_page",
  },
  idempotency: {
    keyPrefix: "rp1-",
    hashChars: 43,
    maxKeyLength: 255,
    retentionSeconds: 86400,
    replay: "replay-first-response",
  },
  rateLimit: { requestsPerMinute: 60, windowSeconds: 60, burst: 10, minRetryAfterSeconds: 1, maxRetryAfterSeconds: 120, maxRetries: 8, maxWaitSeconds: 300 },
  money: { decimals: 2, addonPricesPerYear: { privacy: "", protection: "" } },
  views: VIEW_FIELDS,
  maxBodyBytes: 1024 * 1024,
  ids: { record: "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$" },
  maxResponseBytes: 16 * 1024 * 1024,
  maxRecordsPerZone: 1000,
  availabilityBatch: 20,
  nameservers: { min: 2, max: 5 },
  ttl: { min: 60, max: 86400 },
  sharedTtl: "reject-create-propagate-update",
  privacyStatuses: PRIVACY_STATUSES,
  names: { strict: false },
  recordTypes: [],
};

type Section<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: Section<T[K]> } : T;

/** A partial override: any entry, at any depth (views and error codes are two levels deep); arrays are replaced whole. */
export type ContractOverrides = { [K in keyof Contract]?: Section<Contract[K]> };

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `base` with `over` merged in; an entry `base` does not have is refused by name, so a typo is not silently ignored. */
function merge(base: Record<string, unknown>, over: Record<string, unknown>, at: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) continue;
    const name = at ? `${at}.${k}` : k;
    if (!Object.prototype.hasOwnProperty.call(base, k)) throw new TypeError(`contract override: unknown entry "${name}" (see api/contract.ts)`);
    const b = base[k];
    if (isPlain(b)) {
      if (!isPlain(v)) throw new TypeError(`contract override: "${name}" must be an object`);
      out[k] = merge(b, v, name);
    } else if (Array.isArray(b) !== Array.isArray(v) || (!Array.isArray(b) && typeof b !== typeof v)) {
      throw new TypeError(`contract override: "${name}" must be ${Array.isArray(b) ? "an array" : `a ${typeof b}`}`);
    } else out[k] = v;
  }
  return out;
}

/** Entries that take one of a few words; `errors.form` and `idempotency.replay` have one, being descriptions rather than settings. */
const CHOICES: [section: "signing" | "errors" | "idempotency" | "listEntries", entry: string, allowed: readonly string[]][] = [
  ["listEntries", "domains", ["info", "summary"]],
  ["listEntries", "zones", ["zone", "summary"]],
  ["signing", "clientSigns", ["all", "required-only"]],
  ["signing", "timestampUnit", ["seconds", "milliseconds"]],
  ["signing", "signatureEncoding", ["hex", "base64"]],
  ["errors", "form", ["nested"]],
  ["idempotency", "replay", ["replay-first-response"]],
];

/** Merge overrides onto the defaults (or onto `base`). Pure; throws a TypeError naming an unknown or ill-typed entry. */
export function resolveContract(overrides: ContractOverrides = {}, base: Contract = DEFAULT_CONTRACT): Contract {
  if (!isPlain(overrides)) throw new TypeError("contract override: expected an object");
  const c = merge(base as unknown as Record<string, unknown>, overrides, "") as unknown as Contract;
  for (const [section, entry, allowed] of CHOICES) {
    const v = (c[section] as unknown as Record<string, unknown>)[entry];
    if (!allowed.includes(v as string)) throw new TypeError(`contract override: "${section}.${entry}" must be ${allowed.map((a) => JSON.stringify(a)).join(" or ")}; got ${JSON.stringify(v)}`);
  }
  const d = c.money.decimals;
  if (!Number.isInteger(d) || d < 0 || d > 6) throw new TypeError(`contract override: "money.decimals" must be a whole number from 0 to 6; got ${JSON.stringify(d)}`);
  for (const [k, v] of Object.entries(c.money.addonPricesPerYear)) {
    if (v !== "" && !amountPattern(d).test(v))
      throw new TypeError(`contract override: "money.addonPricesPerYear.${k}" must be "" (unknown) or an amount such as "5.00" with at most ${d} decimals; got ${JSON.stringify(v)}`);
  }
  const rl = c.rateLimit;
  for (const k of ["minRetryAfterSeconds", "maxRetryAfterSeconds", "maxRetries", "maxWaitSeconds"] as const)
    if (!(Number.isFinite(rl[k]) && rl[k] >= 0)) throw new TypeError(`contract override: "rateLimit.${k}" must be a number of 0 or more; got ${JSON.stringify(rl[k])}`);
  if (rl.minRetryAfterSeconds > rl.maxRetryAfterSeconds)
    throw new TypeError(`contract override: "rateLimit.minRetryAfterSeconds" (${rl.minRetryAfterSeconds}) must not exceed "rateLimit.maxRetryAfterSeconds" (${rl.maxRetryAfterSeconds})`);
  if (!(Number.isFinite(c.signing.maxClockOffsetSeconds) && c.signing.maxClockOffsetSeconds >= 0))
    throw new TypeError(`contract override: "signing.maxClockOffsetSeconds" must be a number of 0 or more; got ${JSON.stringify(c.signing.maxClockOffsetSeconds)}`);
  for (const [kind, source] of Object.entries(c.ids)) {
    let shape: RegExp;
    try {
      shape = new RegExp(source);
    } catch (e) {
      throw new TypeError(`contract override: "ids.${kind}" must be a regular expression; got ${JSON.stringify(source)} (${(e as Error).message})`);
    }
    const escapes = ["", ".", ".."].find((segment) => shape.test(segment));
    if (escapes !== undefined) throw new TypeError(`contract override: "ids.${kind}" (${source}) must refuse ${JSON.stringify(escapes)}: as a path segment it would name another resource`);
  }
  if (!Number.isSafeInteger(c.maxResponseBytes) || c.maxResponseBytes < 1024)
    throw new TypeError(`contract override: "maxResponseBytes" must be a whole number of bytes, at least 1024; got ${JSON.stringify(c.maxResponseBytes)}`);
  for (const t of c.recordTypes)
    if (typeof t !== "string" || !/^[A-Za-z][A-Za-z0-9-]{0,15}$/.test(t) || /^TYPE\d+$/i.test(t))
      throw new TypeError(`contract override: "recordTypes" must list type names (a letter, then up to 15 letters, digits or hyphens; not TYPEnnn, which is always taken); got ${JSON.stringify(t)}`);
  const fields = c.signing.canonicalFields;
  const bad = fields.find((f) => !(CANONICAL_STRING_FIELDS as readonly string[]).includes(f));
  if (fields.length === 0 || bad !== undefined) {
    throw new TypeError(`contract override: signing.canonicalFields must name some of ${CANONICAL_STRING_FIELDS.join(", ")}${bad === undefined ? "" : `; got ${JSON.stringify(bad)}`}`);
  }
  return c;
}
