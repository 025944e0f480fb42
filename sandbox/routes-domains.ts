/** Register, transfer, renew and domain management endpoints. */
import { VALUES, VIEW_FIELDS } from "../api/contract";
import { PRIVACY_STATUS, STAGE, isActiveStage, isGoneStage, isRenewableStage } from "../api/vocabulary";
import type { Contact } from "../api/views";
import { hostView } from "./core";
import { ApiError, describe, invalid, missing, notFound } from "./errors";
import type { Handlers } from "./routes";
import { ok, page, type Ctx } from "./routing";
import { tldFor, yearsFor } from "./routes-account";
import { FOREIGN_AUTH_CODE, PRIVACY_PRICE_PER_YEAR, PROTECTION_PRICE_PER_YEAR, addYears, cents, isoDate, type ContactSet, type DomainEntry } from "./state";
import { bool, canonicalHost, contact, date, domainName, hostList, ipList, obj, optStr, str } from "./validate";

const ADDONS = [VALUES.privacyAddon, VALUES.dnsAddon] as const;

/** The domain named in the path, settled to the business clock. */
function pathDomain(c: Ctx): DomainEntry {
  const name = canonicalHost(c.params.domain) ?? c.params.domain;
  const d = c.core.domain(name);
  if (c.core.settle(d)) c.changed();
  return d;
}

function contactSet(v: unknown): ContactSet {
  const b = obj(v, "contacts");
  const registrant = contact(b.registrant, "contacts.registrant");
  const other = (k: "admin" | "tech" | "billing"): Contact => (b[k] === undefined || b[k] === null ? { ...registrant } : contact(b[k], `contacts.${k}`));
  return { registrant, admin: other("admin"), tech: other("tech"), billing: other("billing") };
}

function addons(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  const rule = `an array of add-on names (${ADDONS.join(", ")})`;
  if (!Array.isArray(v)) throw invalid("addons", v, rule);
  return v.map((a, i) => {
    if (typeof a !== "string" || !(ADDONS as readonly string[]).includes(a)) throw invalid(`addons[${i}]`, a, `one of ${ADDONS.join(", ")}`);
    return a;
  });
}

/** Register and transfer share one order path. */
function order(c: Ctx, kind: "register" | "transfer") {
  const core = c.core;
  const name = domainName(c.body.domain);
  const t = tldFor(core, name);
  const years = yearsFor(c.body, t);
  if (c.body.contacts === undefined || c.body.contacts === null) throw missing("contacts", "an object with at least a registrant contact");
  const contacts = contactSet(c.body.contacts);
  const nameservers =
    c.body.nameservers === undefined || c.body.nameservers === null
      ? [...core.settings.defaultNameservers]
      : hostList(c.body.nameservers, "nameservers", c.contract.nameservers.min, c.contract.nameservers.max);
  const wanted = addons(c.body.addons);
  const clientReference = optStr(c.body, "client_reference");
  if (kind === "transfer") {
    const code = str(c.body, "auth_code", "the transfer code from the current registrar");
    if (code.length < 6 || code.length > 64) throw invalid("auth_code", "(hidden)", "6 to 64 characters");
    if (!core.isTakenElsewhere(name) || isActiveStage(core.state.domains[name]?.stage)) {
      throw new ApiError("domain_unavailable", `domain ${name} is not registered at another registrar, so it cannot be transferred in; register it instead`, "domain");
    }
    // The code is a secret: the message never repeats it.
    if (code !== FOREIGN_AUTH_CODE) {
      throw new ApiError("validation_error", `auth_code (hidden) is not the transfer code of ${name}; ask the current registrar for the code`, "auth_code");
    }
  } else if (!core.isAvailable(name)) {
    throw new ApiError("domain_unavailable", `domain ${name} is already registered; choose another name or transfer it`, "domain");
  }
  const existing = core.state.domains[name];
  if (existing && !isGoneStage(existing.stage)) {
    throw new ApiError("domain_unavailable", `domain ${name} is already in this account (stage ${existing.stage})`, "domain");
  }
  const privacy = wanted.includes(VALUES.privacyAddon);
  const base = (kind === "register" ? t.register : t.transfer) * years;
  const privacyCost = privacy ? PRIVACY_PRICE_PER_YEAR * years : 0;
  core.ensureCredit(base + privacyCost);

  const now = core.bnow();
  const invoice = core.newInvoice();
  core.charge(name, kind, years, base, invoice, c.idempotencyKey);
  if (privacy) core.charge(name, "privacy", years, privacyCost, invoice, c.idempotencyKey);
  const d: DomainEntry = {
    domain: name,
    stage: STAGE.pending,
    orderKind: kind,
    createdAt: now,
    expiresAt: addYears(now, years),
    readyAt: null,
    kycDone: false,
    locked: true,
    nameservers,
    contacts,
    pendingRegistrant: null,
    addons: [...new Set([VALUES.dnsAddon, ...wanted])],
    privacy: privacy ? { enabled: true, status: PRIVACY_STATUS.awaitingVerification, verified: false } : { enabled: false, status: PRIVACY_STATUS.off, verified: false },
    protection: false,
    authCode: core.newAuthCode(),
    hosts: [],
    clientReference,
    orderAmount: base + privacyCost,
    orderInvoice: invoice,
    pendingRenewal: null,
  };
  core.state.domains[name] = d;
  if (core.settings.approval.orders) d.stage = STAGE.pending_approval;
  else core.startProcessing(d);
  c.changed();
  return ok(core.orderView(d, base + privacyCost, invoice), 201);
}

const register = (c: Ctx) => order(c, "register");
const transfer = (c: Ctx) => order(c, "transfer");

const renew = (c: Ctx) => {
  const core = c.core;
  const d = pathDomain(c);
  const t = tldFor(core, d.domain);
  const years = yearsFor(c.body, t);
  const current = date(c.body, "current_expiry");
  if (!isRenewableStage(d.stage)) {
    throw new ApiError("domain_not_active", `renewal needs domain ${d.domain} to be active or expired; its stage is ${d.stage}`, "domain", { stage: d.stage });
  }
  const expiry = isoDate(d.expiresAt);
  if (d.pendingRenewal) {
    throw new ApiError("expiry_mismatch", `a renewal of ${d.domain} from ${d.pendingRenewal.fromExpiry} is awaiting approval; nothing was charged`, "current_expiry", {
      expiry_date: expiry,
    });
  }
  if (current !== expiry) {
    throw new ApiError(
      "expiry_mismatch",
      `current_expiry ${current} does not match the expiry date ${expiry} of ${d.domain} (already renewed?); nothing was charged`,
      "current_expiry",
      { expiry_date: expiry },
    );
  }
  const newExpiry = addYears(d.expiresAt, years);
  if (newExpiry > addYears(core.bnow(), t.maxYears)) {
    throw invalid("years", years, `the term may reach at most ${t.maxYears} years from today for .${t.tld}`);
  }
  const amount = t.renew * years;
  core.ensureCredit(amount);
  const invoice = core.newInvoice();
  core.charge(d.domain, "renew", years, amount, invoice, c.idempotencyKey);
  c.changed();
  if (core.settings.approval.renewals) {
    d.pendingRenewal = { years, amount, invoice, fromExpiry: expiry };
    return ok(core.orderView(d, amount, invoice, STAGE.pending_approval), 201);
  }
  d.expiresAt = newExpiry;
  if (d.stage === STAGE.expired && newExpiry > core.bnow()) d.stage = STAGE.active;
  return ok(core.orderView(d, amount, invoice), 201);
};

const info = (c: Ctx) => ok(c.core.domainInfo(pathDomain(c)));

const putNameservers = (c: Ctx) => {
  const d = pathDomain(c);
  const ns = hostList(c.body.nameservers, "nameservers", c.contract.nameservers.min, c.contract.nameservers.max);
  c.core.requireActive(d, "changing nameservers");
  d.nameservers = ns;
  c.changed();
  return ok({ domain: d.domain, nameservers: [...ns] });
};

function contactsView(d: DomainEntry): Record<string, unknown> {
  return { registrant: { ...d.contacts.registrant }, admin: { ...d.contacts.admin }, tech: { ...d.contacts.tech }, billing: { ...d.contacts.billing } };
}

const getContacts = (c: Ctx) => {
  const d = pathDomain(c);
  return ok({ ...contactsView(d), pending_registrant: d.pendingRegistrant });
};

const putContacts = (c: Ctx) => {
  const d = pathDomain(c);
  // Accept { contacts: {...} } (stated: "contacts object") and a bare object keyed by type.
  const raw = c.body.contacts !== undefined ? obj(c.body.contacts, "contacts") : c.body;
  const types = ["registrant", "admin", "tech", "billing"] as const;
  if (!types.some((k) => k in raw)) throw missing("contacts", "an object with at least one of registrant, admin, tech, billing");
  const next: Partial<ContactSet> = {};
  let registrant: Contact | undefined;
  if (raw.registrant !== undefined) {
    if (raw.registrant === null) throw invalid("contacts.registrant", null, "a contact (the registrant cannot be removed)");
    registrant = contact(raw.registrant, "contacts.registrant");
  }
  for (const k of ["admin", "tech", "billing"] as const) {
    if (raw[k] === undefined) continue;
    next[k] = raw[k] === null ? { ...(registrant ?? d.contacts.registrant) } : contact(raw[k], `contacts.${k}`);
  }
  c.core.requireActive(d, "changing contacts");
  let status = "updated";
  if (registrant) {
    // A new registrant e-mail alters WHOIS Privacy forwarding: held until the registrant confirms.
    if (d.privacy.enabled && registrant.email !== d.contacts.registrant.email) {
      d.pendingRegistrant = registrant;
      status = "pending";
    } else d.contacts.registrant = registrant;
  }
  Object.assign(d.contacts, next);
  c.changed();
  return ok({ status, contacts: contactsView(d), pending_registrant: d.pendingRegistrant });
};

const putLock = (c: Ctx) => {
  const d = pathDomain(c);
  const locked = bool(c.body, "locked");
  c.core.requireActive(d, "changing the lock");
  if (!locked && d.protection) {
    throw new ApiError("protection_enabled", `Domain Protection is on for ${d.domain}: the registrar lock cannot be removed through the API; turn protection off in the reseller portal`, "locked");
  }
  if (d.locked !== locked) c.changed();
  d.locked = locked;
  return ok({ domain: d.domain, locked });
};

const eppCode = (c: Ctx) => {
  const d = pathDomain(c);
  c.core.requireActive(d, "requesting the EPP code");
  if (d.protection) {
    throw new ApiError("protection_enabled", `Domain Protection is on for ${d.domain}: the EPP code cannot be requested through the API; use the reseller portal`);
  }
  d.authCode = c.core.newAuthCode();
  c.changed();
  return ok({ domain: d.domain, [VIEW_FIELDS.eppCode.code]: d.authCode, registrant_notified: true });
};

function hostBody(c: Ctx, d: DomainEntry, hostname: string | undefined, current?: { ipv4: string[]; ipv6: string[] }) {
  let name = hostname;
  if (name === undefined) {
    const raw = c.body.hostname;
    if (raw === undefined || raw === null) throw missing("hostname", `a host name under ${d.domain}`);
    if (typeof raw !== "string") throw invalid("hostname", raw, `a host name under ${d.domain}`);
    const h = canonicalHost(raw);
    if (!h || !h.endsWith(`.${d.domain}`)) throw invalid("hostname", raw, `a host name under ${d.domain}, such as ns1.${d.domain}`);
    name = h;
  }
  const ipv4 = c.body.ipv4 === undefined && current ? current.ipv4 : ipList(c.body.ipv4, "ipv4", 4, 0);
  const ipv6 = c.body.ipv6 === undefined && current ? current.ipv6 : ipList(c.body.ipv6, "ipv6", 6, 0);
  if (ipv4.length + ipv6.length === 0) throw missing("ipv4", "at least one IPv4 or IPv6 address for the child nameserver");
  return { hostname: name, ipv4, ipv6 };
}

function findHost(c: Ctx, d: DomainEntry) {
  const name = canonicalHost(c.params.hostname) ?? c.params.hostname;
  const h = d.hosts.find((x) => x.hostname === name);
  if (!h) throw notFound("host", c.params.hostname);
  return h;
}

const listHosts = (c: Ctx) => ok(page(c, pathDomain(c).hosts.map(hostView)));

const createHost = (c: Ctx) => {
  const d = pathDomain(c);
  const h = hostBody(c, d, undefined);
  c.core.requireActive(d, "creating a child nameserver");
  if (d.hosts.some((x) => x.hostname === h.hostname)) throw invalid("hostname", h.hostname, "must not exist yet; change it with PUT");
  d.hosts.push(h);
  c.changed();
  return ok(hostView(h), 201);
};

const putHost = (c: Ctx) => {
  const d = pathDomain(c);
  const h = findHost(c, d);
  const next = hostBody(c, d, h.hostname, h);
  c.core.requireActive(d, "changing a child nameserver");
  h.ipv4 = next.ipv4;
  h.ipv6 = next.ipv6;
  c.changed();
  return ok(hostView(h));
};

const deleteHost = (c: Ctx) => {
  const d = pathDomain(c);
  const h = findHost(c, d);
  c.core.requireActive(d, "deleting a child nameserver");
  d.hosts = d.hosts.filter((x) => x !== h);
  c.changed();
  return ok({ hostname: h.hostname, deleted: true });
};

const getPrivacy = (c: Ctx) => ok(c.core.privacyView(pathDomain(c)));

const postPrivacy = (c: Ctx) => {
  const core = c.core;
  const d = pathDomain(c);
  core.requireActive(d, "enabling WHOIS Privacy");
  if (d.addons.includes(VALUES.privacyAddon)) {
    // Already bought: enabling again costs nothing; only a confirmed registrant skips verification.
    if (!d.privacy.enabled) {
      const verified = d.privacy.verified !== false;
      d.privacy = { enabled: true, status: verified ? PRIVACY_STATUS.live : PRIVACY_STATUS.awaitingVerification, verified };
      c.changed();
    }
    return ok({ ...core.privacyView(d), charged: "0.00", currency: core.state.account.currency });
  }
  const years = core.remainingYears(d);
  const amount = PRIVACY_PRICE_PER_YEAR * years;
  core.ensureCredit(amount);
  const invoice = core.newInvoice();
  core.charge(d.domain, "privacy", years, amount, invoice, c.idempotencyKey);
  d.addons.push(VALUES.privacyAddon);
  d.privacy = { enabled: true, status: PRIVACY_STATUS.awaitingVerification, verified: false };
  c.changed();
  return ok({ ...core.privacyView(d), charged: cents(amount), currency: core.state.account.currency, invoice }, 201);
};

const deletePrivacy = (c: Ctx) => {
  const d = pathDomain(c);
  c.core.requireActive(d, "disabling WHOIS Privacy");
  if (d.privacy.enabled) c.changed();
  d.privacy = { enabled: false, status: PRIVACY_STATUS.off, verified: d.privacy.verified };
  return ok(c.core.privacyView(d));
};

const getProtection = (c: Ctx) => ok(c.core.protectionView(pathDomain(c)));

const postProtection = (c: Ctx) => {
  const core = c.core;
  const d = pathDomain(c);
  core.requireActive(d, "enabling Domain Protection");
  if (d.protection) return ok({ ...core.protectionView(d), charged: "0.00", currency: core.state.account.currency });
  const years = core.remainingYears(d);
  const amount = PROTECTION_PRICE_PER_YEAR * years;
  core.ensureCredit(amount);
  const invoice = core.newInvoice();
  core.charge(d.domain, "protection", years, amount, invoice, c.idempotencyKey);
  d.protection = true;
  d.locked = true;
  c.changed();
  return ok({ ...core.protectionView(d), charged: cents(amount), currency: core.state.account.currency, invoice }, 201);
};

// Stated: "always returns 403", so not even an unknown domain is looked up.
const deleteProtection = (c: Ctx) => {
  throw new ApiError("requires_portal_verification", `Domain Protection of ${describe(c.params.domain)} can only be removed in the reseller portal, after verification`);
};

/** This file's operations (api/operations.ts), each with its handler. */
export const domainHandlers = {
  register,
  transfer,
  renew,
  getDomain: info,
  setNameservers: putNameservers,
  getContacts,
  updateContacts: putContacts,
  setLock: putLock,
  requestEppCode: eppCode,
  listHosts,
  createHost,
  updateHost: putHost,
  deleteHost,
  getPrivacy,
  enablePrivacy: postPrivacy,
  disablePrivacy: deletePrivacy,
  getProtection,
  enableProtection: postProtection,
  disableProtection: deleteProtection,
} satisfies Partial<Handlers>;
