/** Domain's diff table (host side, offline): which fields replace it and which change in place, and when a renewal is due. */
import type { ContactSet, RenewalPolicy } from "../../api/shapes";
import { isUnknown } from "../kit/check";
import { type DomainInputs } from "./state";
import { canonicalNameservers, effectiveContacts, sameJson } from "../shared/normalize";
import { DiffResult, Equal, Held, diffFields, setEqual } from "../kit/diff";

export const DAY_MS = 86_400_000;

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

/** A contact set as check made it (./schema.ts): an object keyed by contact type. */
export const isContactSet = (v: unknown): v is ContactSet => typeof v === "object" && v !== null && !Array.isArray(v);

export const contactsEqual: Equal = (a, b) => isContactSet(a) && isContactSet(b) && sameJson(effectiveContacts(a), effectiveContacts(b));

/** What a Domain's diff reads from state: its last outputs, with the expiry date the service reported. */
export type DomainState = Held<DomainInputs> & { expiryDate?: unknown };

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
