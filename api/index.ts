/** Public surface of the API client (re-exports only). */
export { ResellerClient, type ResellerClientOptions } from "./client";
export type { Logger, ResponseEvent, WaitEvent } from "./request-loop";
export {
  ResellerApiError,
  ExpiryMismatchError,
  ZoneExistsError,
  PortalVerificationRequiredError,
  ProtectionEnabledError,
  RateLimitedError,
  AuthenticationError,
  PermissionError,
  ValidationError,
  InsufficientCreditError,
  NotFoundError,
  RedirectNotFollowedError,
  ResponseShapeError,
  OutcomeUnknownError,
  ResellerNetworkError,
  LocalRequestError,
  RequestCancelledError,
  isResellerApiError,
  isOutcomeUnknownError,
  isResellerNetworkError,
  isResponseShapeError,
  isLocalRequestError,
  isRequestCancelledError,
  hasErrorCode,
} from "./errors";
export { checkConnectionSettings, isLoopbackHost, SettingError, type ConnectionSettings } from "./settings";
export { redact, type RedactOptions } from "./redact";
export { deriveIdempotencyKey } from "./idempotency";
export { systemClock, ManualClock, type Clock, type ManualClockOptions } from "./clock";
export { waitUntil, pollDelay, PROGRESS_EVERY_MS, type WaitOptions, type WaitResult, type WaitLog } from "./wait";
export { waitForRegistry, waitForDelegation, type WaitContext } from "./waits";
export { shouldRetry, outcomeUnknown, retryDelay, parseRetryAfter, type AttemptFailure, type RequestSafety } from "./retry";
export { SendWindow, windowFor } from "./rate-limiter";
export { RateLimitLogLockError } from "./rate-log";
export { OPERATIONS, SCOPES, type Operation, type OperationName, type Endpoint, type Scope } from "./operations";
export { DEFAULT_CONTRACT, resolveContract, type Contract, type ContractOverrides, type ErrorCode } from "./contract";
export {
  STAGE,
  STAGE_GROUPS,
  isStage,
  isProcessingStage,
  isActiveStage,
  isRenewableStage,
  isGoneStage,
  ZONE_STATUS,
  isZoneActive,
  PRIVACY_STATUS,
  isPrivacyOn,
  isPrivacyAwaitingVerification,
  isPrivacyLive,
  PROTECTION_STATUS,
  isProtectionOn,
  protectionStatus,
  YEARS,
  yearsRange,
  isServiceManagedRecord,
  isApiError,
  isExpiryMismatch,
  isZoneExists,
  isProtectionEnabled,
  isTemplateConflict,
  isTtlConflict,
  isZoneNotActive,
  isNotFound,
  isRefusedAsInvalid,
  isOutcomeUnknown,
  isUnanswered,
  type Stage,
  type ZoneStatus,
  type PrivacyStatus,
  type PrivacyState,
  type ProtectionStatus,
} from "./vocabulary";
export * from "./views";
