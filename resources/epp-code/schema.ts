/** EppCode's check (host side). */
import { z } from "zod";
import { CheckResult, common, domainName, parseInputs } from "../kit/check";
import { EppCodeInputs } from "./state";

export const eppCodeSchema: z.ZodType<EppCodeInputs> = z.looseObject({ resourceUrn: common.resourceUrn, domain: domainName });

export const checkEppCodeInputs = (news: Record<string, unknown>): CheckResult<EppCodeInputs> => parseInputs(eppCodeSchema, news);
