/**
 * The service's vocabulary, as names and predicates: stage groups, zone, privacy and protection
 * states, the years range, which records the service manages, and typed guards for the error codes
 * callers act on. Resources, the import command and the sandbox read these instead of spelling the
 * words themselves. The words come from the contract (api/contract.ts: VALUES,
 * PRIVACY_STATUSES, ERROR_CODES); this module only names and groups them.
 *
 * Guards compare with our words and codes: the client reads a service that spells a code
 * (errors.codes) or a privacy status (privacyStatuses) otherwise as ours before anything sees it.
 *
 * No Pulumi, no I/O.
 */
import { ERROR_CODES, PRIVACY_STATUSES, VALUES, isServiceManagedRecord, type ErrorCode } from "./contract";
import {
  isOutcomeUnknownError,
  isRequestCancelledError,
  isResellerApiError,
  isResellerNetworkError,
  type ExpiryMismatchError,
  type NotFoundError,
  type ProtectionEnabledError,
  type ResellerApiError,
  type ValidationError,
  type ZoneExistsError,
} from "./errors";

export { isServiceManagedRecord };

/** { word: word } for a list of words, so callers write STAGE.active rather than "active". */
function wordsOf<W extends string>(words: readonly W[]): { readonly [K in W]: K } {
  return Object.freeze(Object.fromEntries(words.map((w) => [w, w]))) as { readonly [K in W]: K };
}

const member =
  (group: readonly string[]) =>
  (word: string | null | undefined): boolean =>
    word !== null && word !== undefined && group.includes(word);

// Domain stages (spec, States: the stated values; groups are our reading, see VALUES).

export type Stage = (typeof VALUES.stages)[number];
export const STAGE = wordsOf(VALUES.stages);
/** One of the stated stage values (a service may add others; callers keep those open). */
export const isStage = (word: string | null | undefined): word is Stage => member(VALUES.stages)(word);

/**
 * Stages grouped by what a caller does with them. processing: an order waits on someone else
 * (operator review, KYC, the losing registrar); a state, not an error. active: the name is usable.
 * renewable: a renewal is accepted. gone: the account no longer holds the name.
 */
export const STAGE_GROUPS = {
  processing: VALUES.waitingStages,
  active: [STAGE.active],
  renewable: VALUES.renewableStages,
  gone: VALUES.goneStages,
} as const satisfies Record<string, readonly Stage[]>;

export const isProcessingStage = member(STAGE_GROUPS.processing);
export const isActiveStage = member(STAGE_GROUPS.active);
export const isRenewableStage = member(STAGE_GROUPS.renewable);
export const isGoneStage = member(STAGE_GROUPS.gone);

// DNS zones (spec, States: "zone created; sample status pending_nameserver before delegation";
// a check of a delegated pending zone makes it "active"; the full set: not shown).

export type ZoneStatus = (typeof VALUES.zoneStatuses)[number];
export const ZONE_STATUS = wordsOf(VALUES.zoneStatuses);
/** Whether records can be changed in the zone (spec: "zone must be active"). */
export const isZoneActive = (zone: { status: string }): boolean => zone.status === ZONE_STATUS.active;

// WHOIS Privacy (spec, States: bought -> awaiting_verification -> live after e-mail confirmation).

export type PrivacyStatus = (typeof PRIVACY_STATUSES)[keyof typeof PRIVACY_STATUSES];
export const PRIVACY_STATUS = PRIVACY_STATUSES;

/** The part of a privacy view these predicates read (the domain info's `privacy` too). */
export interface PrivacyState {
  enabled: boolean;
  status: string;
}

/**
 * Whether WHOIS Privacy is on: bought and either live or awaiting the registrant's confirmation
 * (both are privacy the account has paid for and must not buy again). `enabled` decides when the
 * service sets it; otherwise the status must be one of the two words that mean "on". An unknown
 * status with `enabled: false` is off: buying again is keyed, so a wrong "off" costs nothing twice.
 */
export const isPrivacyOn = (p: PrivacyState): boolean =>
  p.enabled || p.status === PRIVACY_STATUS.awaitingVerification || p.status === PRIVACY_STATUS.live;
/** Bought, waiting for the registrant to confirm the e-mail; goes live then. */
export const isPrivacyAwaitingVerification = (p: PrivacyState): boolean => p.status === PRIVACY_STATUS.awaitingVerification;
export const isPrivacyLive = (p: PrivacyState): boolean => p.status === PRIVACY_STATUS.live;

// Domain Protection (spec, States: "protection on"; the view's words are ours, VALUES.protectionStatuses).

export type ProtectionStatus = (typeof VALUES.protectionStatuses)[number];
export const PROTECTION_STATUS = wordsOf(VALUES.protectionStatuses);
export const isProtectionOn = (p: { enabled: boolean }): boolean => p.enabled;
/** The status word of a protection view: the service's when it sends one, else ours from `enabled`. */
export const protectionStatus = (p: { enabled: boolean; status?: string | null }): string =>
  p.status ?? (p.enabled ? PROTECTION_STATUS.on : PROTECTION_STATUS.off);

// Registration term (spec, Limits: "the permitted range of years: not shown"; per TLD from GET /tlds).

/** Years a register, transfer or renewal may ask for when the TLD entry states no limits. */
export const YEARS: Readonly<{ min: number; max: number }> = Object.freeze({ min: VALUES.defaultMinYears, max: VALUES.defaultMaxYears });
/** The range for a TLD entry (its min_years / max_years when given, else YEARS). */
export const yearsRange = (tld?: { min_years?: number; max_years?: number } | null): { min: number; max: number } => ({
  min: tld?.min_years ?? YEARS.min,
  max: tld?.max_years ?? YEARS.max,
});

// Errors. ky's style: recognised by class, or by the literal `name` (a second copy of this package,
// e.g. dist/ and source loaded in one process, fails `instanceof` but keeps the name), then by code.

/** Whether `e` is an answer of the service that is not a success, optionally with this code (ours, ERROR_CODES). */
export function isApiError(e: unknown, code?: ErrorCode): e is ResellerApiError {
  return isResellerApiError(e) && (code === undefined || e.code === code);
}

/** 409 expiry_mismatch (stated): the renewal was applied already; nothing was charged. */
export const isExpiryMismatch = (e: unknown): e is ExpiryMismatchError => isApiError(e, ERROR_CODES.expiryMismatch);
/** 409 zone_exists (stated): a zone for the domain exists; the service never overwrites it. */
export const isZoneExists = (e: unknown): e is ZoneExistsError => isApiError(e, ERROR_CODES.zoneExists);
/** 409 protection_enabled (assumed): lock removal or EPP code request refused while Domain Protection is on. */
export const isProtectionEnabled = (e: unknown): e is ProtectionEnabledError => isApiError(e, ERROR_CODES.protectionEnabled);
/** 409 template_conflict (assumed): a template applied with conflict_strategy cancel met existing records. */
export const isTemplateConflict = (e: unknown): e is ResellerApiError => isApiError(e, ERROR_CODES.templateConflict);
/** 409 ttl_conflict (assumed): the record's TTL differs from the TTL its name and type share. */
export const isTtlConflict = (e: unknown): e is ResellerApiError => isApiError(e, ERROR_CODES.ttlConflict);
/** 409 zone_not_active (assumed): records change only in an active (delegated) zone. */
export const isZoneNotActive = (e: unknown): e is ResellerApiError => isApiError(e, ERROR_CODES.zoneNotActive);
/** The object does not exist: code not_found, or any 404 (a service whose 404 carries another code). */
export const isNotFound = (e: unknown): e is NotFoundError => isResellerApiError(e) && (e.code === ERROR_CODES.notFound || e.status === 404);

/**
 * A create refused as invalid input (422 validation_error, assumed). The spec names no code for a
 * create whose object exists already ("all other error codes (..., validation, ...): not shown"),
 * and the service refuses an identical record or an existing host name as invalid input (the
 * sandbox does so, `field` naming the clash). So this says only "refused, nothing created": the
 * caller reads back to learn whether an identical object exists (a create whose answer was lost,
 * or a resource renamed without aliases). It never means by itself that the object exists.
 */
export const isRefusedAsInvalid = (e: unknown): e is ValidationError => isApiError(e, ERROR_CODES.validation);

/** A creating request that may or may not have been applied (OutcomeUnknownError): read back, reconcile. */
export const isOutcomeUnknown = isOutcomeUnknownError;

/**
 * Whether a request got no answer: outcome unknown, or a network failure after the client's own
 * retries (which, for keyed orders, re-sent the same Idempotency-Key). A request that never left
 * (connection refused, unknown host: `sent` false) reached nothing and charged nothing.
 */
export const isUnanswered = (e: unknown): boolean => isOutcomeUnknownError(e) || (isResellerNetworkError(e) && e.sent);

/** A request the client did not send because its caller cancelled (the CLI's cancel): it reached nothing and charged nothing. */
export const isCancelledBeforeSending = isRequestCancelledError;
