/** ChildHost's check (host side). */
import { isIPv4, isIPv6 } from "node:net";
import { z } from "zod";
import { canonicalChildHost, canonicalIPv6 } from "../shared/normalize";
import { hostNameProblem } from "../shared/rules";
import { CheckResult, anyValue, asSent, common, domainName, field, isUnknown, parseInputs, refuse } from "../kit/check";
import { ChildHostInputs } from "./state";

export function readIps(family: 4 | 6, required: boolean): (v: unknown, ctx: z.RefinementCtx) => string[] {
  return (v, ctx) => {
    if (!Array.isArray(v)) return refuse(ctx, v, `is not a list of IPv${family} addresses`);
    if (required && v.length === 0) refuse(ctx, v, "is empty; a child nameserver needs at least one IPv4 address (glue)");
    const out: string[] = [];
    v.forEach((ip: unknown, i) => {
      if (isUnknown(ip)) return void out.push(asSent<string>(ip));
      const ok = typeof ip === "string" && (family === 4 ? isIPv4(ip.trim()) : isIPv6(ip.trim()));
      if (!ok) return void refuse(ctx, ip, `is not an IPv${family} address`, { path: [i] });
      const c = family === 6 ? canonicalIPv6(ip) : ip.trim();
      if (out.includes(c)) refuse(ctx, ip, "is listed twice", { path: [i] });
      out.push(c);
    });
    return out;
  };
}

export const childHostSchema: z.ZodType<ChildHostInputs> = z
  .looseObject({
    ...common,
    domain: domainName,
    hostname: anyValue((v, ctx) => (typeof v === "string" ? v : refuse(ctx, v, "is not a string"))),
    ipv4: field(readIps(4, true)),
    ipv6: field(readIps(6, false), () => []),
  })
  // Judged with the other fields' failures, whenever both names are there to judge.
  .superRefine(
    (h, ctx) => {
      if (typeof h.hostname !== "string" || typeof h.domain !== "string" || isUnknown(h.hostname) || isUnknown(h.domain)) return;
      const c = canonicalChildHost(h.hostname, h.domain);
      const p = hostNameProblem(c, { minLabels: 3 });
      if (p) refuse(ctx, h.hostname, `is not a valid host name: it ${p}`, { path: ["hostname"] });
      else if (!c.endsWith(`.${h.domain}`))
        refuse(ctx, h.hostname, `is not under the domain ${h.domain} (a child nameserver is named inside its domain, e.g. ns1.${h.domain})`, { path: ["hostname"] });
    },
    { when: () => true },
  )
  .transform((h) => (isUnknown(h.hostname) || isUnknown(h.domain) ? h : { ...h, hostname: canonicalChildHost(h.hostname, h.domain) }));

export const checkChildHostInputs = (news: Record<string, unknown>): CheckResult<ChildHostInputs> => parseInputs(childHostSchema, news);
