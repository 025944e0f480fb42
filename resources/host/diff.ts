/**
 * Offline diffs: old outputs (from state) against new, already checked and normalized inputs. No API
 * call is made, so `pulumi preview` costs nothing and a no-op `up` makes no mutating call.
 *
 * Each resource kind lists its fields as "replace" (the object is another one), "update" (changed in
 * place) or nothing (create-only or bookkeeping inputs, which never cause a diff).
 */
import { standsAlone } from "../../provider/records";
import type { ContactSet, RenewalPolicy } from "../../provider/shapes";
import { isUnknown, containsUnknown, type ChildHostInputs, type DomainAddonInputs, type DomainInputs, type EppCodeInputs, type RecordInputs, type TemplateInputs, type ZoneInputs } from "./check";
import { canonicalIps, canonicalNameservers, effectiveContacts, sameJson } from "../shared/normalize";

export interface DiffResult {
  changes: boolean;
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  /** Every field that differs (replaces included). */
  diffs: string[];
}

/** Equality of an old (state) and a new (checked input) value; each equality narrows what it compares. */
type Equal = (a: unknown, b: unknown) => boolean;

/** A field of a kind: a key of its inputs that its outputs carry too. */
interface Field<I, O> {
  key: keyof I & keyof O;
  mode: "replace" | "update";
  /** Compare only when the program gives the field (unmanaged otherwise). */
  optional?: boolean;
  equal?: Equal;
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

const setEqual =
  (canon: (v: readonly string[]) => string[]): Equal =>
  (a, b) =>
    isStrings(a) && isStrings(b) && sameJson(canon(a), canon(b));

function diffFields<I, O>(olds: Partial<O>, news: I, fields: readonly Field<I, O>[], deleteBeforeReplace = false): DiffResult {
  const replaces: string[] = [];
  const diffs: string[] = [];
  for (const f of fields) {
    const n = news[f.key];
    if (f.optional && (n === undefined || n === null)) continue;
    const o = olds[f.key];
    const differs = containsUnknown(n) || !(f.equal ? f.equal(o, n) : sameJson(o, n));
    if (!differs) continue;
    diffs.push(String(f.key));
    if (f.mode === "replace") replaces.push(String(f.key));
  }
  const stables = replaces.length === 0 ? fields.filter((f) => f.mode === "replace").map((f) => String(f.key)) : [];
  return { changes: diffs.length > 0, replaces, stables, deleteBeforeReplace: replaces.length > 0 && deleteBeforeReplace, diffs };
}

const DAY_MS = 86_400_000;

export type { RenewalPolicy };

export const DEFAULT_MIN_DAYS_REMAINING = 30;

/** Whether the policy asks for a renewal of a domain expiring on `expiryDate` (YYYY-MM-DD), at time `nowMs`. */
export function renewalDue(policy: RenewalPolicy | null | undefined, expiryDate: unknown, nowMs: number): boolean {
  if (!policy || typeof policy !== "object" || typeof expiryDate !== "string") return false;
  const expiry = Date.parse(`${expiryDate.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(expiry)) return false;
  if (policy.notBefore && nowMs < Date.parse(`${policy.notBefore}T00:00:00Z`)) return false;
  const daysRemaining = Math.floor((expiry - nowMs) / DAY_MS);
  return daysRemaining < (policy.minDaysRemaining ?? DEFAULT_MIN_DAYS_REMAINING);
}

/** A contact set as check made it (validate.ts): an object keyed by contact type. */
const isContactSet = (v: unknown): v is ContactSet => typeof v === "object" && v !== null && !Array.isArray(v);

const contactsEqual: Equal = (a, b) => isContactSet(a) && isContactSet(b) && sameJson(effectiveContacts(a), effectiveContacts(b));

/** What a diff reads from state: the last outputs, of which it compares the fields the inputs have. */
export type Held<I> = { [K in keyof I]?: unknown };

/** What a Domain's diff reads from state: its last outputs, with the expiry date the service reported. */
type DomainState = Held<DomainInputs> & { expiryDate?: unknown };

/**
 * Domain: a new name is another domain (replace; the old one stays registered, see delete).
 * contacts, nameservers and lock change in place; nameservers and lock only when the program sets
 * them. years, authCode and clientReference matter only when the domain is bought and are ignored
 * afterwards. A due renewal (policy against the expiry date in state) is an update named "renewal".
 */
export function diffDomain(olds: DomainState, news: DomainInputs, nowMs: number): DiffResult {
  const d = diffFields<DomainInputs, DomainState>(olds, news, [
    { key: "domain", mode: "replace" },
    { key: "contacts", mode: "update", optional: true, equal: contactsEqual },
    { key: "nameservers", mode: "update", optional: true, equal: setEqual(canonicalNameservers) },
    { key: "locked", mode: "update", optional: true },
    { key: "renewal", mode: "update" },
    { key: "maxPrice", mode: "update" },
    { key: "waitTimeoutSeconds", mode: "update" },
  ]);
  if (!d.diffs.includes("renewal") && !isUnknown(news.renewal) && renewalDue(news.renewal, olds.expiryDate, nowMs)) {
    d.diffs.push("renewal");
    d.changes = true;
  }
  return d;
}

/** DnsZone: the domain names the zone (replace); the rest is bookkeeping or a wait in update. */
export function diffZone(olds: Held<ZoneInputs>, news: ZoneInputs): DiffResult {
  return diffFields<ZoneInputs, Held<ZoneInputs>>(olds, news, [
    { key: "domain", mode: "replace" },
    { key: "waitForDelegation", mode: "update" },
    { key: "forceDestroy", mode: "update" },
    { key: "waitTimeoutSeconds", mode: "update" },
  ]);
}

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

/** ChildHost: domain and hostname identify it; addresses change in place (order ignored). */
export function diffChildHost(olds: Held<ChildHostInputs>, news: ChildHostInputs): DiffResult {
  return diffFields<ChildHostInputs, Held<ChildHostInputs>>(olds, news, [
    { key: "domain", mode: "replace" },
    { key: "hostname", mode: "replace" },
    { key: "ipv4", mode: "update", equal: setEqual((v) => canonicalIps(v, 4)) },
    { key: "ipv6", mode: "update", equal: setEqual((v) => canonicalIps(v, 6)) },
  ]);
}

/** PrivacyAddon and Protection: only the domain, which is a replace. */
export function diffDomainAddon(olds: Held<DomainAddonInputs>, news: DomainAddonInputs): DiffResult {
  return diffFields<DomainAddonInputs, Held<DomainAddonInputs>>(olds, news, [{ key: "domain", mode: "replace" }]);
}

/** EppCode: a new domain or trigger value asks for a new code. */
export function diffEppCode(olds: Held<EppCodeInputs>, news: EppCodeInputs): DiffResult {
  return diffFields<EppCodeInputs, Held<EppCodeInputs>>(olds, news, [
    { key: "domain", mode: "replace" },
    { key: "trigger", mode: "replace" },
  ]);
}

/**
 * ZoneTemplate: another zone, template or variables means applying again. Delete-before-replace:
 * the old application's records are removed first, so removing them cannot remove what the new
 * application made under the same names.
 */
export function diffTemplate(olds: Held<TemplateInputs>, news: TemplateInputs): DiffResult {
  return diffFields<TemplateInputs, Held<TemplateInputs>>(
    olds,
    news,
    [
      { key: "zone", mode: "replace" },
      { key: "templateId", mode: "replace" },
      { key: "variables", mode: "replace" },
      { key: "conflictStrategy", mode: "update" },
    ],
    true,
  );
}
