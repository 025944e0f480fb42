/**
 * Input validation. Each function either returns the clean value or throws a 422
 * validation_error naming the field, the value and the rule. Unknown fields are ignored.
 */
import { isIPv4, isIPv6 } from "node:net";
import { domainToASCII } from "node:url";
import type { Contact } from "./state";
import { invalid, missing } from "./errors";
import { HOST_LABEL } from "../dns";

export type Body = Record<string, unknown>;

const LABEL_UNDERSCORE = /^(?:\*|_?[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?|_[a-z0-9-]{1,62})$/;

/** A host name in canonical form (ASCII, lower case, no trailing dot), or null when invalid. */
export function canonicalHost(value: string, allowUnderscore = false): string | null {
  if (value.length === 0 || value.length > 254) return null;
  let v = value.endsWith(".") ? value.slice(0, -1) : value;
  if (/[^\x21-\x7e]/.test(v)) {
    const ascii = domainToASCII(v);
    if (!ascii) return null;
    v = ascii;
  }
  v = v.toLowerCase();
  if (v.length > 253) return null;
  const labels = v.split(".");
  if (labels.length < 2) return null;
  const re = allowUnderscore ? LABEL_UNDERSCORE : HOST_LABEL;
  return labels.every((l) => re.test(l)) ? v : null;
}

export function str(body: Body, field: string, rule = "a non-empty string"): string {
  const v = body[field];
  if (v === undefined || v === null) throw missing(field, rule);
  if (typeof v !== "string" || v.trim() === "") throw invalid(field, v, rule);
  return v;
}

export function optStr(body: Body, field: string, max = 255): string | null {
  const v = body[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || v.length > max) throw invalid(field, v, `a string of at most ${max} characters`);
  return v;
}

export function int(body: Body, field: string, min: number, max: number, dflt?: number): number {
  const v = body[field];
  if (v === undefined || v === null) {
    if (dflt !== undefined) return dflt;
    throw missing(field, `an integer from ${min} to ${max}`);
  }
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) throw invalid(field, v, `an integer from ${min} to ${max}`);
  return v;
}

export function bool(body: Body, field: string): boolean {
  const v = body[field];
  if (v === undefined || v === null) throw missing(field, "true or false");
  if (typeof v !== "boolean") throw invalid(field, v, "true or false");
  return v;
}

export function obj(v: unknown, field: string): Body {
  if (v === undefined || v === null) throw missing(field, "an object");
  if (typeof v !== "object" || Array.isArray(v)) throw invalid(field, v, "an object");
  return v as Body;
}

/** A domain name the caller sends: lower-cased, IDN converted to ASCII. */
export function domainName(v: unknown, field = "domain"): string {
  const rule = "a fully qualified domain name such as example.com";
  if (v === undefined || v === null) throw missing(field, rule);
  if (typeof v !== "string") throw invalid(field, v, rule);
  const h = canonicalHost(v);
  if (!h) throw invalid(field, v, rule);
  return h;
}

export function hostList(v: unknown, field: string, min: number, max: number): string[] {
  const rule = `an array of ${min} to ${max} distinct host names`;
  if (!Array.isArray(v)) throw v === undefined || v === null ? missing(field, rule) : invalid(field, v, rule);
  if (v.length < min || v.length > max) throw invalid(field, v, rule);
  const out: string[] = [];
  v.forEach((h, i) => {
    const c = typeof h === "string" ? canonicalHost(h) : null;
    if (!c) throw invalid(`${field}[${i}]`, h, "a valid host name such as ns1.example.net");
    if (out.includes(c)) throw invalid(`${field}[${i}]`, h, "nameservers must be distinct");
    out.push(c);
  });
  return out;
}

export function ipList(v: unknown, field: string, family: 4 | 6, min: number): string[] {
  const rule = `an array of IPv${family} addresses${min > 0 ? ` (at least ${min})` : ""}`;
  if (v === undefined || v === null) {
    if (min === 0) return [];
    throw missing(field, rule);
  }
  if (!Array.isArray(v) || v.length < min || v.length > 13) throw invalid(field, v, rule);
  const check = family === 4 ? isIPv4 : isIPv6;
  return v.map((a, i) => {
    if (typeof a !== "string" || !check(a)) throw invalid(`${field}[${i}]`, a, `an IPv${family} address`);
    return family === 6 ? a.toLowerCase() : a;
  });
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

/** A Contact. Required: name, email, phone, address_line_1, city, state, postal_code, country. */
export function contact(v: unknown, field: string): Contact {
  const b = obj(v, field);
  const req = (k: string, rule = "a non-empty string"): string => {
    const x = b[k];
    if (x === undefined || x === null) throw missing(`${field}.${k}`, rule);
    if (typeof x !== "string" || x.trim() === "" || x.length > 255) throw invalid(`${field}.${k}`, x, `${rule} of at most 255 characters`);
    return x;
  };
  const opt = (k: string): string | null => {
    const x = b[k];
    if (x === undefined || x === null) return null;
    if (typeof x !== "string" || x.length > 255) throw invalid(`${field}.${k}`, x, "a string of at most 255 characters or null");
    return x;
  };
  const email = req("email", "an e-mail address");
  if (!EMAIL.test(email)) throw invalid(`${field}.email`, email, "an e-mail address such as name@example.com");
  const phone = req("phone", "a phone number");
  if (!/^\+[0-9]{6,15}$/.test(phone)) throw invalid(`${field}.phone`, phone, "international format: a leading + and 6 to 15 digits");
  const country = req("country", "a two-letter country code");
  if (!/^[A-Z]{2}$/.test(country)) throw invalid(`${field}.country`, country, "a two-letter upper-case country code such as GB");
  const state = b.state;
  if (typeof state !== "string" || state.length > 255) {
    throw state === undefined || state === null ? missing(`${field}.state`, "a string (may be empty)") : invalid(`${field}.state`, state, "a string");
  }
  const postal = b.postal_code;
  if (typeof postal !== "string" || postal.length > 32) {
    throw postal === undefined || postal === null
      ? missing(`${field}.postal_code`, "a string (may be empty)")
      : invalid(`${field}.postal_code`, postal, "a string of at most 32 characters");
  }
  return {
    name: req("name"),
    organization: opt("organization"),
    email,
    phone,
    address_line_1: req("address_line_1"),
    address_line_2: opt("address_line_2"),
    city: req("city"),
    state,
    postal_code: postal,
    country,
  };
}

/** YYYY-MM-DD that is a real calendar date. */
export function date(body: Body, field: string): string {
  const v = body[field];
  const rule = "a date in the form YYYY-MM-DD";
  if (v === undefined || v === null) throw missing(field, rule);
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw invalid(field, v, rule);
  const t = Date.parse(`${v}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== v) throw invalid(field, v, rule);
  return v;
}

/** Idempotency keys: 1 to max visible ASCII characters. */
export function idempotencyKeyValid(v: string, max: number): boolean {
  return v.length >= 1 && v.length <= max && /^[\x21-\x7e]+$/.test(v);
}
