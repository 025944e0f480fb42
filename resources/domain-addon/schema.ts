/** PrivacyAddon's and Protection's check (host side): a domain, and optionally the most its purchase may cost. */
import { z } from "zod";
import { moneyDecimals } from "../../api/money";
import { CheckResult, DEFAULT_LIMITS, Limits, acknowledgedCharges, common, domainName, optional, parseInputs, readMaxPrice, withLimits } from "../kit/check";
import { DomainAddonInputs } from "./state";

export const domainAddonSchema = withLimits<DomainAddonInputs>((limits) => z.looseObject({ ...common, domain: domainName, maxPrice: optional(readMaxPrice(moneyDecimals(limits.money))), acknowledgedCharges }));

/** PrivacyAddon and Protection. */
export const checkDomainOnlyInputs = (news: Record<string, unknown>, limits: Limits = DEFAULT_LIMITS): CheckResult<DomainAddonInputs> => parseInputs(domainAddonSchema(limits), news);
