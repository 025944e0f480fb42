/**
 * The service's operations, one entry each (spec, Endpoints): method, path template, the scope
 * it needs, whether it is signed, keyed (Idempotency-Key), paid (charges credit) or read-only,
 * and the zod schemas of its request body and of its answer's data. Everything else derives from
 * this table: the client's calls (./client), how a call may be repeated (requestSafety), which
 * requests the client signs under `signing.clientSigns: "required-only"`, and the sandbox's
 * routing, signature, scope and key rules (sandbox/server, whose handler table is keyed by
 * OperationName, so an entry without a handler does not compile).
 *
 * Paths have one syntax: relative to the API prefix, `{name}` segments filled in encoded.
 *
 * Not shown in the spec, and chosen here (each is one field of an entry):
 * - scope (Authentication 4: "Scope names and which endpoint needs which scope: not shown"): four
 *   scopes, SCOPES; read for every GET and the read-only POSTs, purchase for everything that
 *   charges credit, dns for zones, records and templates, domains for the rest of management.
 * - signed (Authentication 3: "Registration and management endpoints require signed requests"):
 *   every operation but the catalogue and account reads (ping, TLDs, availability, check, pricing,
 *   balance, tier). The client signs every request by default anyway.
 * - readOnly POSTs: availability, check and pricing change nothing the caller owns. The zone's
 *   delegation re-check is not one: it activates a pending zone whose domain is delegated (spec, State
 *   machines: "POST zone check ... zone becomes active"). It is idempotent (a second re-check does
 *   what the first did), so the client may resend it after a lost answer as it resends every
 *   idempotent request; the read-only functions and the import's read-only client refuse it.
 * keyed is stated (Authentication 7: "register, transfer, renew, privacy enable and protection
 * enable"); paid follows from the spec's endpoints that buy (register, transfer, renew, and the
 * two add-ons "bought ... from credit").
 *
 * No Pulumi imports, no side effects.
 */
import type { z } from "zod";
import { UnsafePathError } from "./errors";
import * as R from "./requests";
import type { RequestSafety } from "./retry";
import * as V from "./views";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** Scopes a key may carry (assumed; see the header). */
export const SCOPES = ["read", "domains", "dns", "purchase"] as const;
export type Scope = (typeof SCOPES)[number];

/** Method and path template: what a message names a call by. */
export interface Endpoint {
  method: HttpMethod;
  /** Relative to the API prefix; `{name}` segments are filled in encoded. */
  template: string;
}

export interface Operation extends Endpoint {
  scope: Scope;
  /** The service refuses it unsigned. */
  signed: boolean;
  /** Needs an Idempotency-Key: the same key never charges or creates twice. */
  keyed: boolean;
  /** Charges account credit. */
  paid: boolean;
  /** Changes nothing (every GET, and the read-only POSTs): the read-only functions and the import may call it. */
  readOnly: boolean;
  /** Sent twice, does what it does sent once, so it may be resent after a lost answer (every GET, PUT and DELETE, the read-only POSTs, the zone re-check). */
  idempotent: boolean;
  /** Schema of the JSON body sent; null when none is sent. */
  request: z.ZodType | null;
  /** Schema of the answer's `data` (of each item, for a list); null when the answer is not read. */
  response: z.ZodType | null;
  /** For a paged list: the name of its items (`data.<list>` is also accepted as the items). */
  list?: string;
}

type Facts = Partial<Pick<Operation, "signed" | "keyed" | "paid" | "readOnly" | "idempotent" | "list">>;
/** An entry's facts unless it says otherwise: signed, not keyed, not paid, read-only when the method is GET, idempotent unless it is a POST. */
type Defaults<M extends HttpMethod> = { signed: true; keyed: false; paid: false; readOnly: M extends "GET" ? true : false; idempotent: M extends "POST" ? false : true };

/**
 * One entry. Literal types are kept, so the client's methods read their schemas' types, and its keys, from the table.
 * `F` is read from `facts` alone (NoInfer): inferred from the table's `satisfies`, an entry without facts took
 * `Operation` as its facts, and its defaults (readOnly of a GET) widened to boolean.
 */
function op<const M extends HttpMethod, const Q extends z.ZodType | null, const S extends z.ZodType | null, const F extends Facts = {}>(
  method: M,
  template: string,
  scope: Scope,
  request: Q,
  response: S,
  facts: F = {} as F,
): { method: M; template: string; scope: Scope; request: Q; response: S } & Omit<Defaults<M>, keyof NoInfer<F>> & NoInfer<F> {
  const defaults = { signed: true, keyed: false, paid: false, readOnly: method === "GET", idempotent: method !== "POST" };
  return { method, template, scope, request, response, ...defaults, ...facts } as never;
}

const unsigned = { signed: false } as const;
const readPost = { readOnly: true, idempotent: true } as const;
const purchase = { keyed: true, paid: true } as const;

export const OPERATIONS = {
  // Account and catalogue
  ping: op("GET", "/ping", "read", null, V.Ping, unsigned),
  listTlds: op("GET", "/tlds", "read", null, V.Tld, { ...unsigned, list: "tlds" }),
  checkAvailability: op("POST", "/domains/availability", "read", R.AvailabilityBody, V.AvailabilityBatch, { ...unsigned, ...readPost }),
  checkDomain: op("POST", "/domains/check", "read", R.CheckDomainBody, V.Availability, { ...unsigned, ...readPost }),
  quote: op("POST", "/pricing", "read", R.QuoteBody, V.Quote, { ...unsigned, ...readPost }),
  listDomains: op("GET", "/domains", "read", null, V.DomainListEntry, { list: "domains" }),
  getBalance: op("GET", "/account/balance", "read", null, V.Balance, unsigned),
  getTier: op("GET", "/account/tier", "read", null, V.Tier, unsigned),
  // Register, transfer, renew
  register: op("POST", "/domains/register", "purchase", R.RegisterBody, V.DomainOrder, purchase),
  transfer: op("POST", "/domains/transfer", "purchase", R.TransferBody, V.DomainOrder, purchase),
  renew: op("POST", "/domains/{domain}/renew", "purchase", R.RenewBody, V.DomainOrder, purchase),
  // Domain information and management
  getDomain: op("GET", "/domains/{domain}", "read", null, V.DomainInfo),
  setNameservers: op("PUT", "/domains/{domain}/nameservers", "domains", R.NameserversBody, V.NameserversView),
  getContacts: op("GET", "/domains/{domain}/contacts", "read", null, V.Contacts),
  updateContacts: op("PUT", "/domains/{domain}/contacts", "domains", R.ContactsBody, V.ContactsUpdate),
  setLock: op("PUT", "/domains/{domain}/lock", "domains", R.LockBody, V.LockView),
  requestEppCode: op("POST", "/domains/{domain}/epp-code", "domains", null, V.EppCode),
  listHosts: op("GET", "/domains/{domain}/hosts", "read", null, V.Host, { list: "hosts" }),
  createHost: op("POST", "/domains/{domain}/hosts", "domains", R.HostBody, V.Host),
  updateHost: op("PUT", "/domains/{domain}/hosts/{hostname}", "domains", R.HostAddressesBody, V.Host),
  deleteHost: op("DELETE", "/domains/{domain}/hosts/{hostname}", "domains", null, null),
  getPrivacy: op("GET", "/domains/{domain}/privacy", "read", null, V.PrivacyView),
  enablePrivacy: op("POST", "/domains/{domain}/privacy", "purchase", null, V.PrivacyOrder, purchase),
  disablePrivacy: op("DELETE", "/domains/{domain}/privacy", "domains", null, V.PrivacyView),
  getProtection: op("GET", "/domains/{domain}/protection", "read", null, V.ProtectionView),
  enableProtection: op("POST", "/domains/{domain}/protection", "purchase", null, V.ProtectionOrder, purchase),
  /** Stated: always 403 requires_portal_verification. */
  disableProtection: op("DELETE", "/domains/{domain}/protection", "domains", null, null),
  // DNS hosting
  listZones: op("GET", "/dns/zones", "read", null, V.DnsZone, { list: "zones" }),
  createZone: op("POST", "/dns/zones", "dns", R.ZoneBody, V.DnsZone),
  getZone: op("GET", "/dns/zones/{domain}", "read", null, V.DnsZoneWithRecords),
  /** Not read-only: it activates a pending zone whose domain is delegated. */
  checkZone: op("POST", "/dns/zones/{domain}/check", "dns", null, V.DnsZone, { idempotent: true }),
  deleteZone: op("DELETE", "/dns/zones/{domain}", "dns", null, null),
  listRecords: op("GET", "/dns/zones/{domain}/records", "read", null, V.DnsRecord, { list: "records" }),
  createRecord: op("POST", "/dns/zones/{domain}/records", "dns", R.RecordBody, V.DnsRecord),
  updateRecord: op("PUT", "/dns/zones/{domain}/records/{id}", "dns", R.RecordPatchBody, V.DnsRecord),
  deleteRecord: op("DELETE", "/dns/zones/{domain}/records/{id}", "dns", null, null),
  listTemplates: op("GET", "/dns/templates", "read", null, V.Template, { list: "templates" }),
  applyTemplate: op("POST", "/dns/zones/{domain}/templates/{id}", "dns", R.TemplateBody, V.TemplateApplied),
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;
export type Operations = typeof OPERATIONS;
/** The operations that change nothing (what the read-only functions may call). */
export type ReadOnlyOperationName = { [K in OperationName]: Operations[K]["readOnly"] extends true ? K : never }[OperationName];

/** Every operation by name, as an array of [name, operation]. */
export const OPERATION_LIST = Object.entries(OPERATIONS) as [OperationName, Operation][];

/** How a call to `operation` may be repeated (see RequestSafety): an unkeyed POST that is not idempotent may create twice. */
export function requestSafety(operation: Operation, hasIdempotencyKey: boolean): RequestSafety {
  if (operation.idempotent || hasIdempotencyKey) return "safe";
  return "creating";
}

/** "METHOD /template" for messages. */
export const endpointLabel = (endpoint: Endpoint): string => `${endpoint.method} ${endpoint.template}`;

/** Segments a server or a proxy normalising the path (RFC 3986 §5.2.4) reads as another resource: encoding leaves them as they are. */
const DOT_SEGMENTS: ReadonlySet<string> = new Set(["", ".", ".."]);

/**
 * Fills `{name}` segments with encoded values, before anything is signed. A missing value is a
 * programming error; an empty, "." or ".." one is refused (UnsafePathError), for every operation.
 */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = Object.hasOwn(params, name) ? params[name] : undefined;
    if (v === undefined) throw new TypeError(`${template}: missing path parameter ${name}`);
    if (DOT_SEGMENTS.has(v)) throw new UnsafePathError(template, name, v, 'as a path segment would name another resource (a segment may not be empty, "." or "..")');
    return encodeURIComponent(v);
  });
}

/** The `{name}` parameters of a template, in order. */
export const templateParams = (template: string): string[] => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/** Matches decoded path segments against a template; the parameters by name, or null. */
export function matchTemplate(template: string, segments: string[]): Record<string, string> | null {
  const parts = template.split("/").filter(Boolean);
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const p = /^\{(\w+)\}$/.exec(parts[i]);
    if (p) params[p[1]] = segments[i];
    else if (parts[i] !== segments[i]) return null;
  }
  return params;
}
