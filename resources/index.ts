/** The public surface of reseller-pulumi: resources, read-only functions and their types. */
export {
  Domain,
  type DomainArgs,
  type ContactArgs,
  type Contact,
  type DomainContactsArgs,
  type DomainContacts,
  type RenewalPolicyArgs,
} from "./domain";
export {
  DnsZone,
  DnsRecord,
  ZoneTemplate,
  type DnsZoneArgs,
  type DnsRecordArgs,
  type RecordExtraArgs,
  type RecordExtra,
  type ZoneTemplateArgs,
} from "./dns";
export { DnsZoneRecords, type DnsZoneRecordsArgs, type ZoneRecordArgs } from "./zone-records/resource";
export { ChildHost, PrivacyAddon, Protection, EppCode, type ChildHostArgs, type DomainAddonArgs, type EppCodeArgs, type UnconfirmedAddonOrder } from "./addons";
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
export { typeToken, type Kind } from "./kinds";
export { SECRET_OUTPUTS, type AccountOption, type ResellerResourceOptions } from "./program/register";
export { Provider, type ProviderArgs } from "./program/provider";
export type { ContactSet, RenewalPolicy } from "../provider/shapes";
