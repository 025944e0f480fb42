/** PrivacyAddon's and Protection's check (host side): a domain. */
import { z } from "zod";
import { CheckResult, common, domainName, parseInputs } from "../host/check";
import { DomainAddonInputs } from "./state";

export const domainAddonSchema: z.ZodType<DomainAddonInputs> = z.looseObject({ ...common, domain: domainName });

/** PrivacyAddon and Protection. */
export const checkDomainOnlyInputs = (news: Record<string, unknown>): CheckResult<DomainAddonInputs> => parseInputs(domainAddonSchema, news);
