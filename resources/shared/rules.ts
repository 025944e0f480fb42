/**
 * Rules on single values that the read-only functions share with check (../host/check.ts), in a module
 * of their own: a program that imports the package loads this, not zod (the schemas' cost a
 * program about 100–160 ms of start-up that it needs only in the provider host).
 */
import { domainToASCII } from "node:url";
import { HOST_LABEL } from "../../dns";
import { YEARS } from "../../api/vocabulary";
import { canonicalHost } from "./normalize";

/** A value as a failure shows it: JSON, numbers and booleans plain, shortened past 80 characters. */
export function show(v: unknown): string {
  if (v === undefined) return "undefined";
  const s = typeof v === "number" || typeof v === "boolean" ? String(v) : JSON.stringify(v);
  return s.length > 80 ? s.slice(0, 77) + "..." : s;
}

/** Why a name is not a valid host name (domains, nameservers, child hosts; record names are the record table's), or undefined. */
export function hostNameProblem(name: string, opts: { minLabels?: number } = {}): string | undefined {
  const raw = name.trim().replace(/\.$/, "");
  if (raw === "") return "is empty";
  if (/\s/.test(raw)) return "contains white space";
  const ascii = canonicalHost(raw);
  if (ascii.length > 253) return "is longer than 253 characters";
  const labels = ascii.split(".");
  if (labels.length < (opts.minLabels ?? 1)) return `needs at least ${opts.minLabels} labels (e.g. example.com)`;
  for (const label of labels) {
    if (label === "") return "has an empty label (two dots in a row)";
    if (label.length > 63) return `has a label longer than 63 characters ("${label.slice(0, 20)}...")`;
    if (!HOST_LABEL.test(label)) return `has an invalid label "${label}" (letters, digits and inner hyphens only)`;
  }
  const tld = labels[labels.length - 1];
  if ((opts.minLabels ?? 1) >= 2 && !/^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) return `has an invalid top-level label "${tld}"`;
  if (domainToASCII(raw) === "") return "is not a valid internationalized name";
  return undefined;
}

/** A value that passed a rule, or the rule it broke ("<value> <rule>" is the failure's text). */
export type Ruled<T> = { ok: true; value: T } | { ok: false; rule: string };

/** A domain name: a string that is a valid host name of at least two labels. */
export function domainNameRule(v: unknown): Ruled<string> {
  if (typeof v !== "string") return { ok: false, rule: "is not a string" };
  const problem = hostNameProblem(v, { minLabels: 2 });
  return problem ? { ok: false, rule: `is not a valid domain name: it ${problem}` } : { ok: true, value: v };
}

/** A whole number from `min` to `max` (`unit` follows the bounds in the rule, e.g. "seconds"). */
export function intRule(v: unknown, min: number, max: number, unit = ""): Ruled<number> {
  const u = unit ? ` ${unit}` : "";
  if (typeof v !== "number" || !Number.isFinite(v)) return { ok: false, rule: "is not a number" };
  if (!Number.isInteger(v)) return { ok: false, rule: "is not a whole number" };
  if (v < min) return { ok: false, rule: `is below the minimum of ${min}${u}` };
  if (v > max) return { ok: false, rule: `is above the maximum of ${max}${u}` };
  return { ok: true, value: v };
}

const failure = <T>(property: string, v: unknown, r: Ruled<T>): string | undefined => (r.ok ? undefined : `${property}: ${show(v)} ${r.rule}`);

/** For the read-only functions, which throw instead of reporting: the failure of a domain name, or undefined (check's messages). */
export function domainNameFailure(property: string, v: unknown): string | undefined {
  if (v === undefined || v === null) return `${property}: is required`;
  return failure(property, v, domainNameRule(v));
}

/** For the read-only functions: the failure of a number of years (absent is fine), or undefined (check's messages). */
export function yearsFailure(property: string, v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return failure(property, v, intRule(v, YEARS.min, YEARS.max, "years"));
}
