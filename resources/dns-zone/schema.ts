/** DnsZone's check (host side). */
import { z } from "zod";
import { CheckResult, bool, common, domainName, optional, parseInputs, readInt } from "../kit/check";
import { ZoneInputs } from "./state";

/** How long an up with waitForDelegation waits for the domain to delegate to the service (waitTimeoutSeconds). */
export const DEFAULT_DELEGATION_WAIT_SECONDS = 300;
/** The seconds a zone's delegation wait lasts: the one place its default applies. */
export const delegationWaitSeconds = (i: { waitTimeoutSeconds?: number }): number => i.waitTimeoutSeconds ?? DEFAULT_DELEGATION_WAIT_SECONDS;

export const zoneSchema: z.ZodType<ZoneInputs> = z.looseObject({
  ...common,
  domain: domainName,
  forceDestroy: bool,
  waitForDelegation: bool,
  waitTimeoutSeconds: optional(readInt(0, 3600, "seconds")),
});

export const checkZoneInputs = (news: Record<string, unknown>): CheckResult<ZoneInputs> => parseInputs(zoneSchema, news);
