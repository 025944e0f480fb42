/** DnsRecord's check (host side): the fields' JSON types here, the record itself by the record table (dns). */
import { z } from "zod";
import { TYPE_SOURCES, canonicalize, problemText, recordTypeRule, type Problem } from "../../dns";
import { DEFAULT_TTL } from "../shared/normalize";
import { CheckResult, DEFAULT_LIMITS, Limits, anyValue, asSent, common, containsUnknown, domainName, field, isObject, isUnknown, optional, parseInputs, readInt, readString, refuse, ruled, withLimits } from "../kit/check";
import { RecordInputs } from "./state";

/**
 * DnsRecord inputs. The zone, TTL (the contract's range), the type's name (IANA's types, TYPEnnn and
 * the contract's recordTypes) and the fields' JSON types are checked first; then, with every field known, the record table (dns, shared with the sandbox
 * and the import command) canonicalizes and checks the record as a whole: name, content, priority
 * and extra per type and RFC.
 */
export const recordSchema = withLimits<RecordInputs>((limits) =>
  z
    .looseObject({
      ...common,
      zone: domainName,
      ttl: field(readInt(limits.ttl.min, limits.ttl.max, "seconds"), () => DEFAULT_TTL),
      // A name neither IANA's, nor RFC 3597's TYPEnnn, nor the contract's recordTypes is a typo: refused with the nearest known type.
      type: anyValue((v, ctx) => {
        if (typeof v !== "string") return refuse(ctx, v, `is not a record type (${TYPE_SOURCES}; e.g. A, AAAA, CNAME, MX, TXT)`);
        const rule = recordTypeRule(v.trim().toUpperCase(), limits.recordTypes);
        return rule ? refuse(ctx, v, rule) : v;
      }),
      name: optional(readString()),
      content: field(readString()),
      // The record table judges priority and each extra field, with the type.
      priority: z.unknown().optional(),
      extra: optional((v, ctx) => (isObject(v) ? v : refuse(ctx, v, "is not an object ({weight, port} for SRV, {flag, tag} for CAA)"))),
    })
    // A field the record itself does not need (the TTL) refused: the record is still judged, so one
    // check reports every mistake of the resource (the CLI stops at the first resource that fails).
    .superRefine(
      (r, ctx) => {
        const failed = new Set(ctx.issues.map((i) => String(i.path?.[0])));
        if (failed.size === 0 || ["zone", "type", "name", "content", "priority", "extra"].some((f) => failed.has(f))) return;
        const name = r.name ?? "@";
        if (containsUnknown([r.zone, r.type, name, r.content, r.priority, r.extra])) return;
        addRecordProblems(ctx, canonicalize({ type: r.type, name, content: r.content, priority: r.priority, extra: r.extra }, r.zone, limits.recordTypes).problems);
      },
      { when: () => true },
    )
    .transform((r, ctx): RecordInputs => {
      const name = r.name ?? "@";
      // In preview, with a field unknown, the record cannot be judged whole yet: kept as sent (type upper-cased), judged once known.
      if (containsUnknown([r.zone, r.type, name, r.content, r.priority, r.extra]))
        return { ...r, type: isUnknown(r.type) ? r.type : r.type.trim().toUpperCase(), name, priority: asSent(r.priority), extra: asSent(r.extra) };
      const c = canonicalize({ type: r.type, name, content: r.content, ttl: r.ttl, priority: r.priority, extra: r.extra }, r.zone, limits.recordTypes);
      if (!c.record) {
        addRecordProblems(ctx, c.problems);
        return z.NEVER as never;
      }
      return { ...r, type: c.record.type, name: c.record.name, content: c.record.content, priority: c.record.priority, extra: c.record.extra };
    }),
);

/** The record table's problems as check failures, each under its field. */
function addRecordProblems(ctx: z.RefinementCtx, problems: Problem[]): void {
  for (const p of problems) ctx.addIssue({ code: "custom", message: problemText(p).slice(p.field.length + 2), path: [p.field], params: ruled(p.rule, p.value !== undefined && p.value !== null) });
}

export const checkRecordInputs = (news: Record<string, unknown>, limits: Limits = DEFAULT_LIMITS): CheckResult<RecordInputs> => parseInputs(recordSchema(limits), news);
