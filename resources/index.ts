/** The public surface of reseller-pulumi: resources, read-only functions and their types. */
export { Domain } from "./domain/resource";
export { type DomainArgs, type ContactArgs, type Contact, type DomainContactsArgs, type DomainContacts, type RenewalPolicyArgs, type AcceptedPriceOutput, type OverchargeOutput } from "./domain/args";
export { DnsZone } from "./dns-zone/resource";
export { DnsRecord } from "./dns-record/resource";
export { ZoneTemplate } from "./zone-template/resource";
export { type DnsZoneArgs } from "./dns-zone/args";
export { type DnsRecordArgs, type RecordExtraArgs, type RecordExtra } from "./dns-record/args";
export { type ZoneTemplateArgs } from "./zone-template/args";
export { DnsZoneRecords } from "./zone-records/resource";
export { type DnsZoneRecordsArgs, type ZoneRecordArgs } from "./zone-records/args";
export { ChildHost } from "./child-host/resource";
export { PrivacyAddon, Protection } from "./domain-addon/resource";
export { EppCode } from "./epp-code/resource";
export { type ChildHostArgs } from "./child-host/args";
export { type DomainAddonArgs, type UnconfirmedAddonOrder } from "./domain-addon/args";
export { type EppCodeArgs } from "./epp-code/args";
export {
  getAvailability,
  getAvailabilityOutput,
  checkDomain,
  checkDomainOutput,
  getPricing,
  getPricingOutput,
  getTlds,
  getTldsOutput,
  getBalance,
  getBalanceOutput,
  getTier,
  getTierOutput,
  getTemplates,
  getTemplatesOutput,
  type AccountArgs,
  type AccountBalance,
  type AccountTier,
  type AvailabilityResult,
  type CheckDomainArgs,
  type CheckDomainOutputArgs,
  type GetAvailabilityArgs,
  type GetAvailabilityOutputArgs,
  type GetPricingArgs,
  type GetPricingOutputArgs,
  type Price,
  type PriceQuote,
  type PricingAction,
  type ResellerInvokeOptions,
  type ResellerInvokeOutputOptions,
  type TemplateInfo,
  type TldInfo,
} from "./program/functions";
export {
  getZone,
  getZoneOutput,
  getDomain,
  getDomainOutput,
  getRecords,
  getRecordsOutput,
  type AddonState,
  type GetDomainArgs,
  type GetDomainOutputArgs,
  type GetDomainResult,
  type GetRecordsArgs,
  type GetRecordsOutputArgs,
  type GetRecordsResult,
  type GetZoneArgs,
  type GetZoneOutputArgs,
  type GetZoneResult,
  type RecordInfo,
} from "./program/lookups";
export { typeToken, type Kind } from "./kinds";
export { SECRET_OUTPUTS, type AccountOption, type ResellerResourceOptions } from "./program/register";
export { Provider, type ProviderArgs } from "./program/account";
export type { ContactSet, RenewalPolicy } from "../api/shapes";
