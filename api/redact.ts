/**
 * Redaction of secrets and contact details from anything that may end up in an error, a log line
 * or a thrown object. Used by the client for error bodies and messages, and by resources/ for logs.
 */
import { SERVICE_CONTACT_NAMES } from "./contact-names";

const MASK = "[redacted]";

/** Keys whose value is a credential or code: always masked, whatever the object. */
const SECRET_KEYS = new Set([
  "secret",
  "api_secret",
  "apisecret",
  "x-service-secret",
  "password",
  "auth_code",
  "authcode",
  "epp_code",
  "eppcode",
  "token",
  "authorization",
]);

/** Contact fields that identify a person wherever they appear (ours and the service's spelling; any `address…` too). */
const CONTACT_KEYS = new Set(["email", "phone", "fax", "organization", "street", ...[SERVICE_CONTACT_NAMES.postalCode, "postalCode"].map((k) => k.toLowerCase())]);

/** Keys only a contact has, in either spelling: an object with one of them is a contact. */
const CONTACT_MARKERS = new Set(
  (["email", "phone", "addressLine1", "postalCode"] as const).flatMap((k) => [k, SERVICE_CONTACT_NAMES[k]]).map((k) => k.toLowerCase()),
);

/** Contact fields that are only personal inside a contact-like object (records and templates also have a `name`). */
const CONTACT_CONTEXT_KEYS = new Set(["name", "city", "state"]);

const isSecretKey = (k: string): boolean => SECRET_KEYS.has(k.toLowerCase()) || /secret/i.test(k);
const isContactKey = (k: string): boolean => CONTACT_KEYS.has(k.toLowerCase()) || /^address/i.test(k);
const looksLikeContact = (o: Record<string, unknown>): boolean =>
  Object.keys(o).some((k) => CONTACT_MARKERS.has(k.toLowerCase()));

export interface RedactOptions {
  /** Literal values to scrub from every string (e.g. the API secret), in addition to the rules. */
  secrets?: readonly string[];
}


/** `key: value` / `"key":"value"` / `key=value` pairs in free text whose key names a secret or contact field. */
const PAIR =
  /("?)((?:[\w-]*secret|password|auth_?code|epp_?code|token|authorization|email|phone|organization|postal_?code|address_?line_?\d|registrant)"?\s*[:=]\s*)("(?:[^"\\]|\\.)*"|[^\s,&;}]+)/gi;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const PHONE = /\+\d[\d .-]{6,}\d/g;

/** Shortest start of a literal that is masked on its own: a server that truncates an echoed value still shows its start. */
const MIN_PREFIX = 8;

/** Where a secret's bytes sit in a longer base64 text ("key:secret" in a Basic header): how many base64 characters mix in the bytes before it. */
const BASE64_LEAD = [0, 2, 3];

/**
 * The base64 text of `secret` wherever it sits in a longer encoded text: for each of the three byte
 * alignments, the characters that depend on its bytes alone (standard and URL-safe alphabets). One
 * shorter than MIN_PREFIX is left out: it would mask common text.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const out: string[] = [];
  for (let lead = 0; lead < 3; lead++) {
    const whole = Buffer.concat([Buffer.alloc(lead), bytes]);
    const text = whole.toString("base64").replace(/=+$/, "");
    // The last character mixes in the byte after the secret unless the secret ends a 3-byte group.
    const part = text.slice(BASE64_LEAD[lead], whole.length % 3 === 0 ? undefined : -1);
    if (part.length >= MIN_PREFIX) out.push(part, part.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return out;
}

/**
 * The forms a secret takes when a server or a library echoes it encoded: as written, JSON-escaped,
 * URL-encoded (upper- and lower-case escapes, and "+" for a space as a form sends it) and base64
 * (base64Forms). Masking every form catches an echo in a query string, a JSON body or a Basic header.
 */
export function encodedForms(secret: string): string[] {
  const url = encodeURIComponent(secret);
  return [
    ...new Set([
      secret,
      JSON.stringify(secret).slice(1, -1),
      url,
      url.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
      url.replace(/%20/g, "+"),
      ...base64Forms(secret),
    ]),
  ];
}

/** Masks a literal in each of its encoded forms, and the longest start of a form (at least MIN_PREFIX characters) when only that appears. */
function maskLiteral(s: string, literal: string): string {
  let out = s;
  for (const form of encodedForms(literal)) {
    for (let n = form.length; n >= Math.min(form.length, MIN_PREFIX); n--) {
      const part = form.slice(0, n);
      if (out.includes(part)) out = out.split(part).join(MASK);
    }
  }
  return out;
}

function redactString(s: string, secrets: readonly string[]): string {
  let out = s;
  for (const secret of secrets) if (secret.length >= 4) out = maskLiteral(out, secret);
  return out
    .replace(PAIR, (_m, q: string, key: string, value: string) => `${q}${key}${value.startsWith('"') ? `"${MASK}"` : MASK}`)
    .replace(EMAIL, MASK)
    .replace(PHONE, MASK);
}

function redactValue(v: unknown, secrets: readonly string[], seen: WeakSet<object>): unknown {
  if (typeof v === "string") return redactString(v, secrets);
  if (!v || typeof v !== "object") return v;
  if (seen.has(v)) return "[circular]";
  seen.add(v);
  if (Array.isArray(v)) return v.map((x) => redactValue(x, secrets, seen));
  const o = v as Record<string, unknown>;
  const contact = looksLikeContact(o);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) {
    const personal = isContactKey(k) || (contact && CONTACT_CONTEXT_KEYS.has(k.toLowerCase()));
    out[k] = (isSecretKey(k) || personal) && x !== null && x !== undefined ? MASK : redactValue(x, secrets, seen);
  }
  return out;
}

/**
 * A copy of `value` with secrets and contact details masked: object keys by name (deeply), and
 * in strings the same names as `key: value` pairs, e-mail addresses, phone numbers and any
 * literal in `options.secrets`. Never mutates its input.
 */
export function redact<T>(value: T, options: RedactOptions = {}): T {
  return redactValue(value, options.secrets ?? [], new WeakSet()) as T;
}

/**
 * The secret and personal strings inside a request body (credentials and codes under secret keys,
 * contact fields), so an error about that request can mask them wherever the service echoes them.
 */
export function sensitiveStrings(value: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, sensitive: boolean, seen: WeakSet<object>): void => {
    if (typeof v === "string") {
      if (sensitive && v.trim().length >= 4) out.add(v);
      return;
    }
    if (!v || typeof v !== "object" || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) return v.forEach((x) => walk(x, sensitive, seen));
    const o = v as Record<string, unknown>;
    const contact = looksLikeContact(o);
    for (const [k, x] of Object.entries(o)) {
      walk(x, sensitive || isSecretKey(k) || isContactKey(k) || (contact && CONTACT_CONTEXT_KEYS.has(k.toLowerCase())), seen);
    }
  };
  walk(value, false, new WeakSet());
  return [...out];
}
