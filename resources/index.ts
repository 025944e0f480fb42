/** The public surface of reseller-pulumi: resources, read-only functions and their types. */
export { Domain, type DomainArgs, type ContactArgs, type DomainContactsArgs, type RenewalPolicyArgs } from "./domain";
export {
  DnsZone,
  DnsRecord,
  ZoneTemplate,
  type DnsZoneArgs,
  type DnsRecordArgs,
  type RecordExtraArgs,
  type ZoneTemplateArgs,
} from "./dns";
export { ChildHost, PrivacyAddon, Protection, EppCode, type ChildHostArgs, type DomainAddonArgs, type EppCodeArgs } from "./addons";
export {
  getAvailability,
  checkDomain,
  getPricing,
  getTlds,
  getBalance,
  getTier,
  type GetAvailabilityArgs,
  type GetPricingArgs,
} from "./functions";
export { SECRET_OUTPUTS, typeToken } from "./register";
