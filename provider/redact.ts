/**
 * Redaction of secrets and contact details from anything that may end up in an error, a log line
 * or a thrown object. Used by the client for error bodies and messages, and by resources/ for logs.
 */

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

/** Contact fields that identify a person wherever they appear. */
const CONTACT_KEYS = new Set(["email", "phone", "fax", "organization", "postal_code", "street"]);

/** Contact fields that are only personal inside a contact-like object (records and templates also have a `name`). */
const CONTACT_CONTEXT_KEYS = new Set(["name", "city", "state"]);

const isSecretKey = (k: string): boolean => SECRET_KEYS.has(k.toLowerCase()) || /secret/i.test(k);
const isContactKey = (k: string): boolean => CONTACT_KEYS.has(k.toLowerCase()) || /^address/i.test(k);
const looksLikeContact = (o: Record<string, unknown>): boolean =>
  Object.keys(o).some((k) => ["email", "phone", "address_line_1", "postal_code"].includes(k.toLowerCase()));

export interface RedactOptions {
  /** Literal values to scrub from every string (e.g. the API secret), in addition to the rules. */
  secrets?: readonly string[];
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `key: value` / `"key":"value"` / `key=value` pairs in free text whose key names a secret or contact field. */
const PAIR =
  /("?)((?:[\w-]*secret|password|auth_?code|epp_?code|token|authorization|email|phone|organization|postal_code|address_line_\d|registrant)"?\s*[:=]\s*)("(?:[^"\\]|\\.)*"|[^\s,&;}]+)/gi;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const PHONE = /\+\d[\d .-]{6,}\d/g;

function redactString(s: string, secrets: readonly string[]): string {
  let out = s;
  for (const secret of secrets) if (secret.length >= 4) out = out.replace(new RegExp(escapeRegExp(secret), "g"), MASK);
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
