/**
 * The endpoints of the API (spec, Endpoints), each as method + path template relative to the
 * prefix, and how each may be repeated. Client methods name one of these, so error messages
 * can name the endpoint by its template.
 */
import type { RequestSafety } from "./retry";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface Endpoint {
  method: HttpMethod;
  /** Relative to the API prefix; `{name}` segments are filled in encoded. */
  template: string;
}

const e = (method: HttpMethod, template: string): Endpoint => ({ method, template });

export const ENDPOINTS = {
  ping: e("GET", "/ping"),
  listTlds: e("GET", "/tlds"),
  checkAvailability: e("POST", "/domains/availability"),
  checkDomain: e("POST", "/domains/check"),
  quote: e("POST", "/pricing"),
  listDomains: e("GET", "/domains"),
  getBalance: e("GET", "/account/balance"),
  getTier: e("GET", "/account/tier"),
  register: e("POST", "/domains/register"),
  transfer: e("POST", "/domains/transfer"),
  renew: e("POST", "/domains/{domain}/renew"),
  getDomain: e("GET", "/domains/{domain}"),
  setNameservers: e("PUT", "/domains/{domain}/nameservers"),
  getContacts: e("GET", "/domains/{domain}/contacts"),
  updateContacts: e("PUT", "/domains/{domain}/contacts"),
  setLock: e("PUT", "/domains/{domain}/lock"),
  requestEppCode: e("POST", "/domains/{domain}/epp-code"),
  listHosts: e("GET", "/domains/{domain}/hosts"),
  createHost: e("POST", "/domains/{domain}/hosts"),
  updateHost: e("PUT", "/domains/{domain}/hosts/{hostname}"),
  deleteHost: e("DELETE", "/domains/{domain}/hosts/{hostname}"),
  getPrivacy: e("GET", "/domains/{domain}/privacy"),
  enablePrivacy: e("POST", "/domains/{domain}/privacy"),
  disablePrivacy: e("DELETE", "/domains/{domain}/privacy"),
  getProtection: e("GET", "/domains/{domain}/protection"),
  enableProtection: e("POST", "/domains/{domain}/protection"),
  disableProtection: e("DELETE", "/domains/{domain}/protection"),
  listZones: e("GET", "/dns/zones"),
  createZone: e("POST", "/dns/zones"),
  getZone: e("GET", "/dns/zones/{domain}"),
  checkZone: e("POST", "/dns/zones/{domain}/check"),
  deleteZone: e("DELETE", "/dns/zones/{domain}"),
  listRecords: e("GET", "/dns/zones/{domain}/records"),
  createRecord: e("POST", "/dns/zones/{domain}/records"),
  updateRecord: e("PUT", "/dns/zones/{domain}/records/{id}"),
  deleteRecord: e("DELETE", "/dns/zones/{domain}/records/{id}"),
  listTemplates: e("GET", "/dns/templates"),
  applyTemplate: e("POST", "/dns/zones/{domain}/templates/{id}"),
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

/** POSTs that only read: availability, check, pricing, zone delegation re-check. */
const READ_ONLY_POSTS = new Set(["/domains/availability", "/domains/check", "/pricing", "/dns/zones/{domain}/check"]);

/** How a call to `endpoint` may be repeated (see RequestSafety). */
export function requestSafety(endpoint: Endpoint, hasIdempotencyKey: boolean): RequestSafety {
  if (endpoint.method !== "POST" || hasIdempotencyKey || READ_ONLY_POSTS.has(endpoint.template)) return "safe";
  return "creating";
}

/** "METHOD /template" for messages. */
export const endpointLabel = (endpoint: Endpoint): string => `${endpoint.method} ${endpoint.template}`;

/** Fills `{name}` segments with encoded values; a missing value is a programming error. */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined || v === "") throw new TypeError(`${template}: missing path parameter ${name}`);
    return encodeURIComponent(v);
  });
}
