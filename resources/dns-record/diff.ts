/** DnsRecord's diff table (host side, offline): which fields replace it and which change in place. */
import { standsAlone } from "../../dns";
import { containsUnknown } from "../kit/check";
import { type RecordInputs } from "./state";
import { DiffResult, Held, diffFields } from "../kit/diff";

/**
 * DnsRecord: zone, type and name identify the record set (replace, create-before-delete so the name
 * never goes dark); content, ttl, priority and extra change in place. Delete-before-replace exactly
 * where create-first must fail: a type change on the same name in the same zone to or from CNAME,
 * since a CNAME cannot share its name with any other record (RFC 1034 §3.6.2, RFC 2181 §10.1).
 */
export function diffRecord(olds: Held<RecordInputs>, news: RecordInputs): DiffResult {
  const d = diffFields<RecordInputs, Held<RecordInputs>>(olds, news, [
    { key: "zone", mode: "replace" },
    { key: "type", mode: "replace" },
    { key: "name", mode: "replace" },
    { key: "content", mode: "update" },
    { key: "ttl", mode: "update" },
    { key: "priority", mode: "update" },
    { key: "extra", mode: "update" },
  ]);
  d.deleteBeforeReplace = typeChangeMustDeleteFirst(olds, news, d.replaces);
  return d;
}

/** Whether only the type changes (same zone and name) and one side is a CNAME: the old record must go first. */
export function typeChangeMustDeleteFirst(olds: Held<RecordInputs>, news: RecordInputs, replaces: string[]): boolean {
  if (!replaces.includes("type") || replaces.includes("zone") || replaces.includes("name")) return false;
  if (containsUnknown(news.type)) return false;
  const upper = (v: unknown) => (typeof v === "string" ? v.trim().toUpperCase() : "");
  return standsAlone(upper(olds.type)) || standsAlone(upper(news.type));
}
