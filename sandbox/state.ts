/**
 * The sandbox's data: plain JSON-serialisable objects (so --data can persist them), the
 * deterministic seed, and small helpers for money and dates. Money is held in integer cents.
 */
import { VALUES } from "../api/contract";
import { PRIVACY_STATUS, STAGE, YEARS, ZONE_STATUS, type PrivacyStatus, type ZoneStatus } from "../api/vocabulary";
import { amountFromMinor, formatAmount, parseAmount } from "../api/money";
import type { StoredServiceContact } from "../api/contact-names";

export interface Settings {
  approval: { orders: boolean; renewals: boolean };
  kycTlds: string[];
  processingDelaySeconds: number;
  requestsPerMinute: number;
  defaultNameservers: string[];
}

export interface TldEntry {
  tld: string;
  register: number; // cents, 1 year
  renew: number;
  transfer: number;
  restore: number;
  minYears: number;
  maxYears: number;
}

export interface HostEntry {
  hostname: string;
  ipv4: string[];
  ipv6: string[];
}

/** A contact as the sandbox stores it: the spec's Contact as the service holds it, plus any field a client sent. */
export type Contact = StoredServiceContact & { [field: string]: unknown };

export interface ContactSet {
  registrant: Contact;
  admin: Contact;
  tech: Contact;
  billing: Contact;
}

export interface PendingRenewal {
  years: number;
  amount: number;
  invoice: string;
  fromExpiry: string;
}

export interface DomainEntry {
  domain: string;
  stage: string;
  orderKind: "register" | "transfer" | "seed";
  createdAt: number; // business-clock ms
  expiresAt: number;
  /** When a pending or pending_transfer stage ends (business-clock ms). */
  readyAt: number | null;
  kycDone: boolean;
  locked: boolean;
  nameservers: string[];
  contacts: ContactSet;
  pendingRegistrant: Contact | null;
  addons: string[];
  /** verified: the registrant confirmed by e-mail (absent in older state files: read as confirmed). */
  privacy: { enabled: boolean; status: PrivacyStatus; verified?: boolean };
  protection: boolean;
  authCode: string;
  hosts: HostEntry[];
  clientReference: string | null;
  /** Total charged for the order (refunded on reject), and its invoice. */
  orderAmount: number;
  orderInvoice: string | null;
  pendingRenewal: PendingRenewal | null;
}

/** Never changed in place once in a zone's list: a change replaces the entry (checkpoint.ts relies on it). */
export interface RecordEntry {
  id: string;
  type: string;
  name: string;
  content: string;
  ttl: number;
  priority: number | null;
  extra: Record<string, number | string> | null;
}

export interface ZoneEntry {
  domain: string;
  status: ZoneStatus;
  records: RecordEntry[];
}

/** A charge or refund on the account. */
export interface LedgerEntry {
  /** Entry id. */
  id: string;
  /** When (business clock), ISO 8601. */
  at: string;
  /** The domain charged for. */
  domain: string;
  /** register, renew, transfer, restore, privacy, protection or refund. */
  action: string;
  /** Years bought, when the action has a term. */
  years: number | null;
  /** Decimal string; negative for a refund. */
  amount: string;
  /** ISO 4217 code. */
  currency: string;
  /** Idempotency-Key of the request that charged, if any. */
  idempotency_key: string | null;
  /** Invoice number. */
  invoice: string;
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  body: unknown;
  storedAt: number; // wall-clock ms
}

/** @internal The sandbox's whole state; its shape follows the sandbox's internals. */
export interface SandboxState {
  account: { name: string; currency: string; balance: number; tier: string };
  tlds: TldEntry[];
  /** Names registered elsewhere: unavailable to register, eligible for transfer. */
  takenElsewhere: string[];
  domains: Record<string, DomainEntry>;
  zones: Record<string, ZoneEntry>;
  ledger: LedgerEntry[];
  counters: { record: number; ledger: number; invoice: number; authCode: number };
  idempotency: Record<string, StoredResponse>;
  settings: Settings;
  /** Business-clock offset added to the wall clock by POST /_sandbox/clock/advance, ms. */
  clockOffsetMs: number;
}

/**
 * Transfer (EPP) code of every name held at another registrar. One documented value, so callers
 * can transfer in; any other code is refused as wrong.
 */
export const FOREIGN_AUTH_CODE = "ABC-123-XYZ";
/** Service nameservers of DNS hosting; a zone goes active once the domain delegates to them. */
export const DNS_SERVICE_NAMESERVERS = ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"];
/** Operator default nameservers for orders that send none. */
export const DEFAULT_NAMESERVERS = ["ns1.sandbox-registrar.test", "ns2.sandbox-registrar.test"];
/** Add-on prices, cents per year of remaining term. */
export const PRIVACY_PRICE_PER_YEAR = 500;
export const PROTECTION_PRICE_PER_YEAR = 1500;
/** Tier ladder: name and the active-domain count at which it starts. */
export const TIERS: Array<{ name: string; from: number }> = [
  { name: "bronze", from: 0 },
  { name: "silver", from: 5 },
  { name: "gold", from: 50 },
  { name: "platinum", from: 250 },
];

export const DAY_MS = 86_400_000;

/**
 * Grace period after expiry (spec, States: "Transitions between these stages: not shown").
 * A domain stays `expired` (renewable) for this many days after its expiry, then moves to
 * `redemption`, where renew is refused and only a restore (operator, as the portal) brings it back.
 */
export const REDEMPTION_AFTER_DAYS = 30;

/** Places of the cents the sandbox holds (spec, Domain: "charged: decimal amount, two decimals"). */
const CENT_PLACES = 2;

/** Cents as the API writes them ("12.50"), through the one money type (api/money.ts). */
export const cents = (amount: number): string => formatAmount(amountFromMinor(amount, CENT_PLACES));

/** A ledger entry's amount: a debit as cents() writes it, a refund (negative) with a leading minus. */
export const ledgerCents = (amount: number): string => (amount < 0 ? `-${cents(-amount)}` : cents(amount));

/** Cents of an amount ("12.34", or 12.34 as JSON), by api/money.ts's strict pattern (no sign), or null. */
export function parseCents(v: unknown): number | null {
  try {
    return Number(parseAmount("amount", v, CENT_PLACES).minor);
  } catch {
    return null;
  }
}

export const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
export const isoTime = (ms: number): string => new Date(ms).toISOString();

/** Add whole years to a timestamp (calendar years, UTC). */
export function addYears(ms: number, years: number): number {
  const d = new Date(ms);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.getTime();
}

export const defaultSettings = (): Settings => ({
  approval: { orders: false, renewals: false },
  kycTlds: ["de"],
  processingDelaySeconds: 2,
  requestsPerMinute: 60,
  defaultNameservers: [...DEFAULT_NAMESERVERS],
});

const tld = (t: string, reg: number, ren: number, tra: number, min: number = YEARS.min, max: number = YEARS.max): TldEntry => ({
  tld: t,
  register: reg,
  renew: ren,
  transfer: tra,
  restore: 8000,
  minYears: min,
  maxYears: max,
});

export const DEMO_CONTACT: Contact = {
  name: "Dana Demo",
  organization: "Demo Reseller Ltd",
  email: "dana@demo-reseller.test",
  phone: "+442071234567",
  address_line_1: "1 Example Street",
  address_line_2: null,
  city: "London",
  state: "Greater London",
  postal_code: "EC1A 1AA",
  country: "GB",
};

/**
 * The deterministic seed. `nowMs` is the business clock at seed time; dates are relative to it
 * so seeded domains stay active whenever the sandbox starts.
 */
export function seedState(nowMs: number, settings: Settings = defaultSettings()): SandboxState {
  const day = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const contacts = (): ContactSet => ({
    registrant: { ...DEMO_CONTACT },
    admin: { ...DEMO_CONTACT },
    tech: { ...DEMO_CONTACT },
    billing: { ...DEMO_CONTACT },
  });
  const domain = (name: string, over: Partial<DomainEntry>): DomainEntry => ({
    domain: name,
    stage: STAGE.active,
    orderKind: "seed",
    createdAt: day - 400 * DAY_MS,
    expiresAt: day + 330 * DAY_MS,
    readyAt: null,
    kycDone: true,
    locked: true,
    nameservers: [...DEFAULT_NAMESERVERS],
    contacts: contacts(),
    pendingRegistrant: null,
    addons: [VALUES.dnsAddon],
    privacy: { enabled: false, status: PRIVACY_STATUS.off },
    protection: false,
    authCode: `SEED-${name.replace(/\./g, "-").toUpperCase()}`,
    hosts: [],
    clientReference: null,
    orderAmount: 0,
    orderInvoice: null,
    pendingRenewal: null,
    ...over,
  });
  const domains: DomainEntry[] = [
    domain("demo-reseller.com", {
      nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"],
      addons: [VALUES.dnsAddon, VALUES.privacyAddon],
      privacy: { enabled: true, status: PRIVACY_STATUS.live },
      hosts: [{ hostname: "ns1.demo-reseller.com", ipv4: ["192.0.2.53"], ipv6: ["2001:db8::53"] }],
      clientReference: "seed-1",
    }),
    domain("demo-shop.net", { expiresAt: day + 45 * DAY_MS, locked: false }),
    domain("demo-labs.io", { expiresAt: day + 700 * DAY_MS }),
    domain("protected-brand.com", { protection: true }),
    domain("no-dns-addon.org", { addons: [] }),
    domain("awaiting-review.dev", {
      stage: STAGE.pending_approval,
      orderKind: "register",
      createdAt: day - DAY_MS,
      expiresAt: day + 364 * DAY_MS,
      orderAmount: 1500,
      orderInvoice: "INV-000000",
    }),
    domain("lapsed-name.net", { stage: STAGE.expired, createdAt: day - 800 * DAY_MS, expiresAt: day - 10 * DAY_MS, locked: false }),
  ];
  const rec = (n: number, type: string, name: string, content: string, ttl: number, priority: number | null = null, extra: RecordEntry["extra"] = null): RecordEntry => ({
    id: `rec_${n}`,
    type,
    name,
    content,
    ttl,
    priority,
    extra,
  });
  const records: RecordEntry[] = [
    rec(1, "NS", "@", "ns1.dns.sandbox.test", 86400),
    rec(2, "NS", "@", "ns2.dns.sandbox.test", 86400),
    rec(3, "A", "@", "192.0.2.10", 3600),
    rec(4, "AAAA", "@", "2001:db8::10", 3600),
    rec(5, "CNAME", "www", "demo-reseller.com", 3600),
    rec(6, "MX", "@", "mx1.demo-reseller.com", 3600, 10),
    rec(7, "MX", "@", "mx2.demo-reseller.com", 3600, 20),
    rec(8, "TXT", "@", "v=spf1 mx -all", 300),
    rec(9, "SRV", "_sip._tcp", "sip.demo-reseller.com", 3600, 10, { weight: 5, port: 5060 }),
    rec(10, "CAA", "@", "letsencrypt.org", 3600, null, { flag: 0, tag: "issue" }),
    rec(11, "TLSA", "_443._tcp.www", "3 1 1 0d6fce3302093b3cbcca6e62bbf67d01dca6a0a7e7ff93ac54fbdaaa2e3a1b5d", 3600),
    rec(12, "SSHFP", "host", "4 2 123456789abcdef67890123456789abcdef67890123456789abcdef123456789", 3600),
    rec(13, "HTTPS", "@", "1 . alpn=h2,h3", 3600),
    rec(14, "A", "mail", "192.0.2.25", 3600),
  ];
  return {
    account: { name: "demo-reseller", currency: "USD", balance: 100000, tier: "silver" },
    tlds: [
      tld("com", 1200, 1400, 1200),
      tld("net", 1300, 1500, 1300),
      tld("org", 1100, 1300, 1100),
      tld("io", 3900, 3900, 3900, 1, 5),
      tld("dev", 1500, 1500, 1500),
      tld("app", 1700, 1700, 1700),
      tld("de", 900, 900, 900, 1, 1),
      tld("uk", 800, 800, 800, 1, 10),
      tld("co.uk", 800, 800, 800, 1, 10),
    ],
    takenElsewhere: ["example.com", "example.net", "example.org", "google.com", "transfer-me.com", "transfer-me.net"],
    domains: Object.fromEntries(domains.map((d) => [d.domain, d])),
    zones: { "demo-reseller.com": { domain: "demo-reseller.com", status: ZONE_STATUS.active, records } },
    ledger: [
      {
        id: "led_0",
        at: new Date(day - DAY_MS).toISOString(),
        domain: "awaiting-review.dev",
        action: "register",
        years: 1,
        amount: "15.00",
        currency: "USD",
        idempotency_key: null,
        invoice: "INV-000000",
      },
    ],
    counters: { record: records.length, ledger: 0, invoice: 0, authCode: 0 },
    idempotency: {},
    settings,
    clockOffsetMs: 0,
  };
}
