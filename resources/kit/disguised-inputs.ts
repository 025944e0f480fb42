/**
 * Host names in a program's inputs that are not what they look like (../shared/disguised-names.ts):
 * after a kind's check passed, each is warned about, naming the name as typed and its ASCII form,
 * or, with the contract's `names.strict`, refused. Which inputs are host names is each kind's
 * handler's `nameInputs` (./handler.ts), made of the helpers here; a record's content is judged
 * where its type's data holds a name (the record table's "name" fields: CNAME, MX, SRV, ...), so
 * TXT text is never taken for one.
 */
import { recordType } from "../../dns";
import { words } from "../../dns/common";
import { disguisedName } from "../shared/disguised-names";
import { failed, type CheckFailure, type CheckResult } from "./check";
import type { HostContext } from "./context";
import type { NameInput, NameInputs, Props } from "./handler";
import { resourceName } from "./urn";

/** The input `property`, as one name. */
export const one = (news: Props, property: string): NameInput[] => [[property, news[property]]];
/** Each entry of a list input (`nameservers[0]`, ...). */
export const each = (list: unknown, property: string): NameInput[] => (Array.isArray(list) ? list.map((v, i): NameInput => [`${property}[${i}]`, v]) : []);

/** A record's owner name, and its content where the type's data holds a name (each word judged: "10 mail.example.com"). */
export function recordNames(r: unknown, at: string): NameInput[] {
  if (!r || typeof r !== "object") return [];
  const { type, name, content } = r as Props;
  const out: NameInput[] = [[`${at}name`, name]];
  if (typeof type === "string" && typeof content === "string" && recordType(type.trim().toUpperCase()).fields.includes("name"))
    for (const w of words(content)) out.push([`${at}content`, w]);
  return out;
}

/** The inputs of a kind whose only host name is `domain`. */
export const domainOnly: NameInputs = (news) => one(news, "domain");

/** The disguised host names among a kind's inputs, as failures (property, and the reason naming both forms). */
export function disguisedInputs(nameInputs: NameInputs, news: Props): CheckFailure[] {
  const out: CheckFailure[] = [];
  for (const [property, value] of nameInputs(news)) {
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
export function judgeNames<T>(ctx: HostContext, kind: string, nameInputs: NameInputs, news: Props, result: CheckResult<T>): CheckResult<T> {
  if (!result.ok) return result;
  const found = disguisedInputs(nameInputs, news);
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
