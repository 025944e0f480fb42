/**
 * Host names in a program's inputs that are not what they look like (../shared/disguised-names.ts):
 * after a kind's check passed, each is warned about, naming the name as typed and its ASCII form,
 * or, with the contract's `names.strict`, refused. Which inputs are host names is one entry per kind
 * below; a record's content is judged where its type's data holds a name (the record table's
 * "name" fields: CNAME, MX, SRV, ...), so TXT text is never taken for one.
 */
import { recordType } from "../../dns";
import { words } from "../../dns/common";
import type { Kind } from "../kinds";
import { disguisedName } from "../shared/disguised-names";
import { recordsOf } from "../zone-records/schema";
import { failed, type CheckFailure, type CheckResult } from "../kit/check";
import type { HostContext } from "../kit/context";
import type { Props } from "../kit/handler";
import { resourceName } from "../kit/urn";

/** One input that is a host name (or holds host names, as a record's content): its property path and value as sent. */
type NameInput = [property: string, value: unknown];

const one = (news: Props, property: string): NameInput[] => [[property, news[property]]];
const each = (list: unknown, property: string): NameInput[] => (Array.isArray(list) ? list.map((v, i): NameInput => [`${property}[${i}]`, v]) : []);

/** A record's owner name, and its content where the type's data holds a name (each word judged: "10 mail.example.com"). */
function recordNames(r: unknown, at: string): NameInput[] {
  if (!r || typeof r !== "object") return [];
  const { type, name, content } = r as Props;
  const out: NameInput[] = [[`${at}name`, name]];
  if (typeof type === "string" && typeof content === "string" && recordType(type.trim().toUpperCase()).fields.includes("name"))
    for (const w of words(content)) out.push([`${at}content`, w]);
  return out;
}

const domainOnly = (news: Props): NameInput[] => one(news, "domain");

/** The inputs of each kind that are host names. */
const NAME_INPUTS = {
  Domain: (news) => [...one(news, "domain"), ...each(news.nameservers, "nameservers")],
  DnsZone: domainOnly,
  DnsRecord: (news) => [...one(news, "zone"), ...recordNames(news, "")],
  ChildHost: (news) => [...one(news, "domain"), ...one(news, "hostname")],
  PrivacyAddon: domainOnly,
  Protection: domainOnly,
  EppCode: domainOnly,
  ZoneTemplate: (news) => one(news, "zone"),
  DnsZoneRecords: (news) => {
    const list = recordsOf(news);
    return [...one(news, "zone"), ...(Array.isArray(list) ? list.flatMap((r, i) => recordNames(r, `records[${i}].`)) : [])];
  },
} satisfies { readonly [K in Kind]: (news: Props) => NameInput[] };

/** The disguised host names among a kind's inputs, as failures (property, and the reason naming both forms). */
export function disguisedInputs(kind: Kind, news: Props): CheckFailure[] {
  const out: CheckFailure[] = [];
  for (const [property, value] of NAME_INPUTS[kind](news)) {
    const d = typeof value === "string" ? disguisedName(value) : undefined;
    if (d) out.push({ property, reason: `${property}: "${d.typed}" is not what it looks like: it ${d.reasons.join("; it ")}. Its ASCII form, which the service is sent, is ${d.ascii}` });
  }
  return out;
}

/**
 * A kind's check result with its disguised host names judged: each warned about (the result
 * unchanged), or with the contract's `names.strict` the check failed on them. A check that failed
 * already is left as it is.
 */
export function judgeNames<T>(ctx: HostContext, kind: Kind, news: Props, result: CheckResult<T>): CheckResult<T> {
  if (!result.ok) return result;
  const found = disguisedInputs(kind, news);
  if (found.length === 0) return result;
  if (ctx.contract().names.strict)
    return failed(
      news,
      found.map((f) => ({ ...f, reason: `${f.reason}. Refused: the contract's names.strict is on; type the name as it is meant (one script, no invisible characters)` })),
    );
  const who = typeof news.resourceUrn === "string" ? `${kind} "${resourceName(news.resourceUrn)}"` : kind;
  for (const f of found)
    ctx.log.warn(`${who}: ${f.reason}. If that is not the name you mean, type it in one script without invisible characters; reseller:contract {"names":{"strict":true}} refuses such names`);
  return result;
}
