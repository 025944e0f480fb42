/**
 * Offline diffs: old outputs (from state) against new, already checked and normalized inputs. No API
 * call is made, so `pulumi preview` costs nothing and a no-op `up` makes no mutating call.
 *
 * Each resource kind lists its fields as "replace" (the object is another one), "update" (changed in
 * place) or nothing (create-only or bookkeeping inputs, which never cause a diff).
 */
import { isUnknown, containsUnknown } from "./validate";
import {
  canonicalIps,
  canonicalNameservers,
  effectiveContacts,
  sameJson,
  type ContactInput,
  type ContactTypeName,
} from "./normalize";

type Props = Record<string, unknown>;

export interface DiffResult {
  changes: boolean;
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  /** Every field that differs (replaces included). */
  diffs: string[];
}

type Equal = (a: unknown, b: unknown) => boolean;

interface Field {
  key: string;
  mode: "replace" | "update";
  /** Compare only when the program gives the field (unmanaged otherwise). */
  optional?: boolean;
  equal?: Equal;
}

const setEqual = (canon: (v: string[]) => string[]): Equal => (a, b) =>
  Array.isArray(a) && Array.isArray(b) && sameJson(canon(a as string[]), canon(b as string[]));

function diffFields(olds: Props, news: Props, fields: Field[], deleteBeforeReplace = false): DiffResult {
  const replaces: string[] = [];
  const diffs: string[] = [];
  for (const f of fields) {
    const n = news[f.key];
    if (f.optional && (n === undefined || n === null)) continue;
    const differs = containsUnknown(n) || !(f.equal ?? sameJson)(olds[f.key], n);
    if (!differs) continue;
    diffs.push(f.key);
    if (f.mode === "replace") replaces.push(f.key);
  }
  const stables = replaces.length === 0 ? fields.filter((f) => f.mode === "replace").map((f) => f.key) : [];
  return { changes: diffs.length > 0, replaces, stables, deleteBeforeReplace: replaces.length > 0 && deleteBeforeReplace, diffs };
}

const DAY_MS = 86_400_000;

/** Renewal policy (Domain input `renewal`). */
export interface RenewalPolicy {
  /** Renew when fewer than this many days remain before expiry. Default 30. */
  minDaysRemaining?: number;
  /** Never renew before this date (YYYY-MM-DD). */
  notBefore?: string;
  /** Years added per renewal. Default 1. */
  years?: number;
}

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

const contactsEqual: Equal = (a, b) =>
  !!a && !!b && sameJson(
    effectiveContacts(a as Partial<Record<ContactTypeName, ContactInput>>),
    effectiveContacts(b as Partial<Record<ContactTypeName, ContactInput>>),
  );

/**
 * Domain: a new name is another domain (replace; the old one stays registered, see delete).
 * contacts, nameservers and lock change in place; nameservers and lock only when the program sets
 * them. years, authCode and clientReference matter only when the domain is bought and are ignored
 * afterwards. A due renewal (policy against the expiry date in state) is an update named "renewal".
 */
export function diffDomain(olds: Props, news: Props, nowMs: number = Date.now()): DiffResult {
  const d = diffFields(olds, news, [
    { key: "domain", mode: "replace" },
    { key: "contacts", mode: "update", optional: true, equal: contactsEqual },
    { key: "nameservers", mode: "update", optional: true, equal: setEqual(canonicalNameservers) },
    { key: "locked", mode: "update", optional: true },
    { key: "renewal", mode: "update" },
    { key: "maxPrice", mode: "update" },
    { key: "waitTimeoutSeconds", mode: "update" },
  ]);
  if (!d.diffs.includes("renewal") && !isUnknown(news.renewal) && renewalDue(news.renewal as RenewalPolicy, olds.expiryDate, nowMs)) {
    d.diffs.push("renewal");
    d.changes = true;
  }
  return d;
}

/** DnsZone: the domain names the zone (replace); the rest is bookkeeping or a wait in update. */
export function diffZone(olds: Props, news: Props): DiffResult {
  return diffFields(olds, news, [
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
export function diffRecord(olds: Props, news: Props): DiffResult {
  const d = diffFields(olds, news, [
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
export function typeChangeMustDeleteFirst(olds: Props, news: Props, replaces: string[]): boolean {
  if (!replaces.includes("type") || replaces.includes("zone") || replaces.includes("name")) return false;
  if (containsUnknown(news.type)) return false;
  const upper = (v: unknown) => (typeof v === "string" ? v.trim().toUpperCase() : "");
  return upper(olds.type) === "CNAME" || upper(news.type) === "CNAME";
}

/** ChildHost: domain and hostname identify it; addresses change in place (order ignored). */
export function diffChildHost(olds: Props, news: Props): DiffResult {
  return diffFields(olds, news, [
    { key: "domain", mode: "replace" },
    { key: "hostname", mode: "replace" },
    { key: "ipv4", mode: "update", equal: setEqual((v) => canonicalIps(v, 4)) },
    { key: "ipv6", mode: "update", equal: setEqual((v) => canonicalIps(v, 6)) },
  ]);
}

/** PrivacyAddon and Protection: only the domain, which is a replace. */
export function diffDomainAddon(olds: Props, news: Props): DiffResult {
  return diffFields(olds, news, [{ key: "domain", mode: "replace" }]);
}

/** EppCode: a new domain or trigger value asks for a new code. */
export function diffEppCode(olds: Props, news: Props): DiffResult {
  return diffFields(olds, news, [
    { key: "domain", mode: "replace" },
    { key: "trigger", mode: "replace" },
  ]);
}

/**
 * ZoneTemplate: another zone, template or variables means applying again. Delete-before-replace:
 * the old application's records are removed first, so removing them cannot remove what the new
 * application made under the same names.
 */
export function diffTemplate(olds: Props, news: Props): DiffResult {
  return diffFields(
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
