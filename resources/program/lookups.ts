/**
 * Lookups of existing objects, as pulumi-cloudflare's `getZone` and `getDnsRecords` and
 * pulumi-dnsimple's `getRegistrarDomain` read theirs: a DNS zone with its records, a domain, and a
 * zone's records filtered by name and type. Each sends GETs only (read-only operations, nothing
 * changes or is charged), paced by the credential's rate limiter like every request, from the
 * program's own process (./invoke.ts). A zone or domain the account does not hold fails the call
 * with one line naming it. Results are derived from the views (api/views.ts): each field is
 * read from the parsed answer, so the compiler checks every result type against its view.
 */
import * as pulumi from "@pulumi/pulumi";
import { fromServiceContact } from "../../api/contact-names";
import { canonicalize, problemText, relativeName as tableRelativeName } from "../../dns";
import { RecordSyntaxError } from "../../dns/common";
import type { ContactType, RecordExtra } from "../../api/shapes";
import type * as V from "../../api/views";
import { isNotFound, protectionStatus } from "../../api/vocabulary";
import type { DomainContacts } from "../domain/args";
import { canonicalContact, canonicalRecord, CONTACT_TYPES, fqdn } from "../shared/normalize";
import { accountOf, domainName, failingInOneLine, outputArgs, programClient } from "./invoke";
import type { ResellerInvokeOptions, ResellerInvokeOutputOptions } from "./invoke-options";

/** One DNS record as a lookup gives it: the fields a {@link DnsRecord}'s outputs have, in the same canonical form. */
export interface RecordInfo {
  /** The service's record id (what a DnsRecord's `recordId` holds). */
  recordId: string;
  /** Fully qualified name, e.g. www.example.com. */
  fqdn: string;
  /** Record type, upper case. */
  type: string;
  /** Name relative to the zone ("@" for the apex). */
  name: string;
  /** Canonical content. */
  content: string;
  /** Seconds. */
  ttl: number;
  /** MX and SRV priority; null for other types. */
  priority: number | null;
  /** SRV weight and port, CAA flag and tag; null for other types. */
  extra: RecordExtra | null;
}

/** Arguments of {@link getZone}. */
export interface GetZoneArgs {
  /** The zone's domain; an IDN may be given in Unicode. */
  domain: string;
}

/** Arguments of {@link getZoneOutput}: those of {@link getZone}, as inputs. */
export interface GetZoneOutputArgs {
  /** The zone's domain; an IDN may be given in Unicode. */
  domain: pulumi.Input<string>;
}

/** A DNS zone of the account, with all its records. */
export interface GetZoneResult {
  /** The zone's domain (ASCII). */
  domain: string;
  /** e.g. pending_nameserver, active (records change only in an active zone). */
  status: string;
  /** The service's nameservers to delegate the domain to. */
  nameservers: string[];
  /** True when the domain uses the service's nameservers. */
  delegated: boolean;
  /** How many records the zone holds, as the service counts them. */
  recordsCount: number;
  /** Every record of the zone, the service's own (e.g. apex NS) included. */
  records: RecordInfo[];
}

/** Arguments of {@link getRecords}. */
export interface GetRecordsArgs {
  /** The zone's domain; an IDN may be given in Unicode. */
  zone: string;
  /** Only records of this name: relative ("www", "@" for the apex) or fully qualified. Default: every name. */
  name?: string;
  /** Only records of this type, e.g. "MX" (any case). Default: every type. */
  type?: string;
}

/** Arguments of {@link getRecordsOutput}: those of {@link getRecords}, as inputs. */
export interface GetRecordsOutputArgs {
  /** The zone's domain; an IDN may be given in Unicode. */
  zone: pulumi.Input<string>;
  /** Only records of this name: relative ("www", "@" for the apex) or fully qualified. Default: every name. */
  name?: pulumi.Input<string>;
  /** Only records of this type, e.g. "MX" (any case). Default: every type. */
  type?: pulumi.Input<string>;
}

/** The records of a zone that match a lookup. */
export interface GetRecordsResult {
  /** The zone's domain (ASCII). */
  zone: string;
  /** The records that match, in the service's order; empty when none does. */
  records: RecordInfo[];
}

/** Arguments of {@link getDomain}. */
export interface GetDomainArgs {
  /** The domain name; an IDN may be given in Unicode. */
  domain: string;
}

/** Arguments of {@link getDomainOutput}: those of {@link getDomain}, as inputs. */
export interface GetDomainOutputArgs {
  /** The domain name; an IDN may be given in Unicode. */
  domain: pulumi.Input<string>;
}

/** An add-on's state: WHOIS Privacy or Domain Protection. */
export interface AddonState {
  /** Whether the add-on is on. */
  enabled: boolean;
  /** The service's word, e.g. active or awaiting_verification (privacy), on or off (protection). */
  status: string;
}

/** A domain the account holds. */
export interface GetDomainResult {
  /** The domain name (ASCII). */
  domain: string;
  /** Order stage: active, pending, pending_approval, pending_kyc, pending_transfer, expired, ... */
  stage: string;
  /** The service's status of the domain, e.g. active. */
  status: string;
  /** Expiry date, YYYY-MM-DD; null when the service gives none. */
  expiryDate: string | null;
  /** Expiry timestamp, ISO 8601; null when the service gives none. */
  expiresAt: string | null;
  /** Nameservers the registry has. */
  nameservers: string[];
  /** Whether the registrar (transfer) lock is on; null when the service does not say. */
  locked: boolean | null;
  /** EPP statuses at the registry, e.g. clientTransferProhibited. */
  registryStatuses: string[];
  /** WHOIS Privacy. */
  privacy: AddonState;
  /** Domain Protection (while on, the lock stays and no EPP code is given through the API). */
  protection: AddonState;
  /** The contacts the registry holds, as a secret output; an admin, tech or billing contact it leaves out is the registrant. */
  contacts: pulumi.Output<Partial<DomainContacts>>;
}

/** A record of a zone as a lookup gives it: canonical like a DnsRecord's outputs. */
function recordInfo(r: V.DnsRecord, zone: string): RecordInfo {
  const c = canonicalRecord(r, zone);
  return { recordId: r.id, fqdn: fqdn(c.name, zone), ...c };
}

/** Where a lookup's account is, for messages: nothing for the default account. */
const inAccount = (account: string | undefined): string => (account ? ` of ${account}` : "");

/** Runs `read`; a 404 becomes the one line that names the missing object. */
async function orMissing<T>(read: () => Promise<T>, missing: string): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (isNotFound(e)) throw new Error(missing);
    throw e;
  }
}

/** The zone's answer, or the one line naming a zone the account does not hold. */
function readZone<T>(fn: string, zone: string, account: string | undefined, read: () => Promise<T>): Promise<T> {
  return orMissing(read, `${fn}: the account${inAccount(account)} has no DNS zone ${zone} (create it with reseller.DnsZone, or check the name and the provider)`);
}

/**
 * Reads a DNS zone of the account: its status, the nameservers to delegate to, whether the
 * domain is delegated, and all its records. One GET; changes nothing.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * export = async () => {
 *   const zone = await reseller.getZone({ domain: "example.com" });
 *   return { nameservers: zone.nameservers, ready: zone.status === "active" };
 * };
 * ```
 */
export async function getZone(args: GetZoneArgs, opts?: ResellerInvokeOptions): Promise<GetZoneResult> {
  return failingInOneLine(async () => {
    const domain = domainName("domain", args.domain);
    const account = accountOf(undefined, opts);
    const z = await readZone("getZone", domain, account, () => programClient(account).getZone(domain));
    return {
      domain: z.domain,
      status: z.status,
      nameservers: z.nameservers,
      delegated: z.delegated,
      recordsCount: z.records_count,
      records: z.records.map((r) => recordInfo(r, z.domain)),
    };
  });
}

/**
 * {@link getZone} taking inputs and giving an output.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * const zone = reseller.getZoneOutput({ domain: "example.com" });
 * export const delegated = zone.delegated;
 * export const records = zone.records.apply((rs) => rs.map((r) => `${r.fqdn} ${r.type} ${r.content}`));
 * ```
 */
export function getZoneOutput(args: GetZoneOutputArgs, opts?: ResellerInvokeOutputOptions): pulumi.Output<GetZoneResult> {
  return outputArgs(args, opts).apply((a) => getZone(a, opts));
}

/**
 * Reads the records of a DNS zone, optionally only those of one name and one type (the type is
 * filtered by the service, the name here). No record matching is an empty list, not a failure; a
 * zone the account does not hold fails. Changes nothing.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * export = async () => {
 *   const mx = await reseller.getRecords({ zone: "example.com", type: "MX" });
 *   return { mailHosts: mx.records.map((r) => `${r.priority} ${r.content}`) };
 * };
 * ```
 */
export async function getRecords(args: GetRecordsArgs, opts?: ResellerInvokeOptions): Promise<GetRecordsResult> {
  return failingInOneLine(async () => {
    const zone = domainName("zone", args.zone);
    const type = args.type === undefined ? undefined : recordTypeFilter(args.type, zone);
    const name = args.name === undefined ? undefined : recordNameFilter(args.name, zone);
    const account = accountOf(undefined, opts);
    const listed = await readZone("getRecords", zone, account, () => programClient(account).listRecords(zone, { type }));
    const records = listed.map((r) => recordInfo(r, zone)).filter((r) => (type === undefined || r.type === type) && (name === undefined || r.name === name));
    return { zone, records };
  });
}

/**
 * {@link getRecords} taking inputs and giving an output.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * const www = reseller.getRecordsOutput({ zone: "example.com", name: "www" });
 * export const wwwTargets = www.records.apply((rs) => rs.map((r) => r.content));
 * ```
 */
export function getRecordsOutput(args: GetRecordsOutputArgs, opts?: ResellerInvokeOutputOptions): pulumi.Output<GetRecordsResult> {
  return outputArgs(args, opts).apply((a) => getRecords(a, opts));
}

/** A type filter in canonical form (upper case), refused by the record table's own rule for a record's type. */
function recordTypeFilter(type: unknown, zone: string): string {
  const refusal = canonicalize({ type: type as string, content: "" }, zone).problems.find((p) => p.field === "type");
  if (refusal) throw new Error(problemText(refusal));
  return (type as string).trim().toUpperCase();
}

/** A name filter relative to the zone ("@" the apex), refused by the record table's rule for a record's name. */
function recordNameFilter(name: unknown, zone: string): string {
  if (typeof name !== "string") throw new Error(`name: ${JSON.stringify(name)} is not a record name (e.g. "www", or "@" for the apex)`);
  try {
    return tableRelativeName(name, zone);
  } catch (e) {
    if (e instanceof RecordSyntaxError) throw new Error(problemText(e));
    throw e;
  }
}

/** The registry's contacts in canonical form and in our names; the types it leaves out stay out. */
function heldContacts(c: V.Contacts): Partial<DomainContacts> {
  const out: Partial<Record<ContactType, DomainContacts["registrant"]>> = {};
  for (const t of CONTACT_TYPES) {
    const v = c[t];
    if (v) out[t] = canonicalContact(fromServiceContact(v));
  }
  return out;
}

/**
 * Reads a domain of the account: stage, expiry, nameservers, lock, WHOIS Privacy and Domain
 * Protection, and its contacts as a secret output. GETs only (the domain's view, its contacts, and
 * an add-on's state when the view leaves it out); changes nothing, charges nothing.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * export = async () => {
 *   const shop = await reseller.getDomain({ domain: "example.com" });
 *   return {
 *     expires: shop.expiryDate,
 *     locked: shop.locked,
 *     registrant: shop.contacts.apply((c) => c.registrant?.email), // stays secret
 *   };
 * };
 * ```
 */
export async function getDomain(args: GetDomainArgs, opts?: ResellerInvokeOptions): Promise<GetDomainResult> {
  return failingInOneLine(async () => {
    const domain = domainName("domain", args.domain);
    const account = accountOf(undefined, opts);
    const api = programClient(account);
    const missing = `getDomain: the account${inAccount(account)} holds no domain ${domain} (buy, transfer or adopt it with reseller.Domain, or check the name and the provider)`;
    const d = await orMissing(() => api.getDomain(domain), missing);
    const privacy = d.privacy ?? (await orMissing(() => api.getPrivacy(domain), missing));
    const protection = d.protection ?? (await orMissing(() => api.getProtection(domain), missing));
    const contacts = heldContacts(await orMissing(() => api.getContacts(domain), missing));
    return {
      domain: d.domain,
      stage: d.stage,
      status: d.status,
      expiryDate: d.expiry_date ?? null,
      expiresAt: d.expires_at ?? null,
      nameservers: d.nameservers ?? [],
      locked: d.locked ?? null,
      registryStatuses: d.registry_statuses ?? [],
      privacy: { enabled: privacy.enabled, status: privacy.status },
      protection: { enabled: protection.enabled, status: protectionStatus(protection) },
      contacts: pulumi.secret(contacts),
    };
  });
}

/**
 * {@link getDomain} taking inputs and giving an output. Its `contacts` stays a secret output of its
 * own, so the other fields are not made secret by it.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * const info = reseller.getDomainOutput({ domain: "example.com" });
 * export const expiryDate = info.expiryDate;
 * export const privacyOn = info.privacy.enabled;
 * ```
 */
export function getDomainOutput(args: GetDomainOutputArgs, opts?: ResellerInvokeOutputOptions): pulumi.Output<GetDomainResult> {
  return outputArgs(args, opts).apply((a) => getDomain(a, opts));
}
