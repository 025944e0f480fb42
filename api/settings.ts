/**
 * The shape rules of a client's settings, checked before anything is sent: where credentials may
 * travel (TLS, or plain HTTP on loopback only), what a credential may hold (what an HTTP header can
 * carry), and which numbers make sense. One pure function used by the client's constructor, the
 * provider host's configure and preview, so each refuses the same things with the same words.
 * A message names the setting and, except for credentials, the value; a credential is never echoed.
 */
import { BlockList, isIP } from "node:net";

/** The settings these rules cover, by the client option's name. */
export interface ConnectionSettings {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** Deadline of one attempt, ms. */
  timeoutMs?: number;
  requestsPerMinute?: number;
}

export type SettingName = keyof ConnectionSettings;

/** How a setting is named in a message: the client option's name by default, `reseller:baseUrl (or RESELLER_BASE_URL)` for the host. */
export type SettingNamer = (setting: SettingName) => string;

/** A setting that breaks a shape rule. A TypeError, as the client's other refusals of bad options. */
export class SettingError extends TypeError {
  override readonly name = "SettingError";
  constructor(
    /** The setting, as the caller names it. */
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`);
  }
}

export const isSettingError = (e: unknown): e is SettingError => e instanceof SettingError || (e as { name?: unknown } | null)?.name === "SettingError";

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** Whether a URL's hostname is this machine: 127.0.0.0/8, ::1 or localhost (nothing on the path between). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  // Not "localhost.": a resolver may send the absolute name to DNS, which a hostile network answers.
  if (host === "localhost") return true;
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 4 ? "ipv4" : "ipv6");
}

/** A setting's value for a message: JSON, shortened, with any user:password@ of a URL masked. */
export function shownSetting(v: string): string {
  const s = JSON.stringify(v.replace(/\/\/[^/@\s]*@/, "//(secret)@"));
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** Why `value` cannot be the service's base URL, or undefined when it can. */
export function baseUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${shownSetting(value)} is not an http(s) URL: give the service's scheme and host (e.g. https://api.example.com)`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `${shownSetting(value)} is not an http(s) URL: give the service's scheme and host (e.g. https://api.example.com)`;
  if (url.username || url.password) return `${shownSetting(value)} carries a user name or password; give the scheme and host only (the credentials are reseller:apiKey and reseller:apiSecret)`;
  if (url.search || url.hash) return `${shownSetting(value)} has a query or fragment; give the scheme, host and (optionally) a path only`;
  // Every request carries the API secret in a header: in clear text anyone on the path reads it.
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname))
    return `${shownSetting(value)} uses plain http to a host that is not this machine; the API secret travels in every request, so only https is allowed (plain http only to 127.0.0.0/8, ::1 or localhost)`;
  return undefined;
}

/**
 * Why `value` cannot be sent as a credential header, or undefined when it can. Says which kind of
 * character is wrong and where, never the value. Visible ASCII only: a header value cannot carry
 * CR, LF or other controls, and outer spaces would be trimmed on the way and break the signature.
 */
export function credentialProblem(value: string): string | undefined {
  if (value.length === 0) return "is empty";
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x21 && c <= 0x7e) continue;
    if (c === 0x20 && i > 0 && i < value.length - 1) continue;
    const what =
      c === 0x0d || c === 0x0a ? "a line break (CR or LF)" : c === 0x20 ? "a leading or trailing space" : c < 0x20 || c === 0x7f ? "a control character" : "a character outside ASCII";
    return `contains ${what} at position ${i + 1}, which an HTTP header cannot carry (copy the credential again, without the line end)`;
  }
  return undefined;
}

/** setTimeout holds at most this many ms; a longer timeout would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Why `n` cannot be that number setting, or undefined when it can. */
function numberProblem(setting: "timeoutMs" | "requestsPerMinute", n: number): string | undefined {
  if (!Number.isFinite(n) || n <= 0) return `${String(n)} is not a positive number`;
  if (setting === "timeoutMs" && n > MAX_TIMER_MS) return `${n} ms is longer than a timer can wait (${MAX_TIMER_MS} ms, about 24 days)`;
  return undefined;
}

/**
 * Checks every setting present and returns the base URL parsed; throws a SettingError naming the
 * first setting that breaks a rule. Pure: nothing is read or sent.
 */
export function checkConnectionSettings(s: ConnectionSettings, name: SettingNamer = (k) => k): URL {
  const fail = (k: SettingName, problem: string): never => {
    throw new SettingError(name(k), problem);
  };
  if (typeof s.baseUrl !== "string") fail("baseUrl", "is not a string");
  const url = baseUrlProblem(s.baseUrl);
  if (url) fail("baseUrl", url);
  for (const k of ["apiKey", "apiSecret"] as const) {
    if (typeof s[k] !== "string") fail(k, "is not a string");
    const p = credentialProblem(s[k]);
    if (p) fail(k, p);
  }
  for (const k of ["timeoutMs", "requestsPerMinute"] as const) {
    const v = s[k];
    if (v === undefined) continue;
    const p = typeof v === "number" ? numberProblem(k, v) : "is not a number";
    if (p) fail(k, p);
  }
  return new URL(s.baseUrl);
}

/**
 * A number setting given as text (stack config, environment): plain decimal only, e.g. "30" or
 * "0.5"; Number() would also take "", " ", "0x1e" and "1e3". Throws a SettingError naming `setting`.
 */
export function parseDecimalSetting(setting: string, text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text.trim())) throw new SettingError(setting, `${JSON.stringify(text)} is not a positive number (plain decimal, e.g. 30)`);
  const n = Number(text.trim());
  if (!(n > 0)) throw new SettingError(setting, `${JSON.stringify(text)} is not a positive number`);
  return n;
}
