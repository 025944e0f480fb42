/** DNS hosting endpoints: zones, delegation check, records and Quick Setup templates. */
import { VALUES, VIEW_FIELDS } from "../api/contract";
import { DEFAULT_TTL, exclusivityClash } from "../dns";
import { ZONE_STATUS, isServiceManagedRecord, isZoneActive } from "../api/vocabulary";
import { recordView } from "./core";
import { ApiError, invalid, missing, notFound } from "./errors";
import { placeRecord, validateRecord, type RecordDraft } from "./records";
import type { Handlers } from "./routes";
import { ok, page, type Ctx } from "./routing";
import { DNS_SERVICE_NAMESERVERS, type RecordEntry, type ZoneEntry } from "./state";
import { canonicalHost, domainName } from "./validate";
import { CONFLICT_STRATEGIES } from "../api/shapes";


interface TemplateRecord {
  type: string;
  name: string;
  content: string;
  priority?: number;
  extra?: Record<string, number | string>;
}
interface TemplateDef {
  id: string;
  name: string;
  description: string;
  variables: string[];
  records: TemplateRecord[];
}

export const TEMPLATES: TemplateDef[] = [
  {
    id: "google-workspace",
    name: "Google Workspace",
    description: "Mail exchanger and SPF for Google Workspace",
    variables: [],
    records: [
      { type: "MX", name: "@", content: "smtp.google.com", priority: 1 },
      { type: "TXT", name: "@", content: "v=spf1 include:_spf.google.com ~all" },
    ],
  },
  {
    id: "custom-mail",
    name: "Custom mail server",
    description: "MX to your mail host and a matching SPF record",
    variables: ["mx_host"],
    records: [
      { type: "MX", name: "@", content: "{mx_host}", priority: 10 },
      { type: "TXT", name: "@", content: "v=spf1 mx ~all" },
    ],
  },
  {
    id: "web",
    name: "Web server",
    description: "A record for the apex and www pointing at it",
    variables: ["ipv4"],
    records: [
      { type: "A", name: "@", content: "{ipv4}" },
      { type: "CNAME", name: "www", content: "{domain}" },
    ],
  },
];

function zoneOf(c: Ctx): ZoneEntry {
  const name = canonicalHost(c.params.domain) ?? c.params.domain;
  const z = Object.prototype.hasOwnProperty.call(c.core.state.zones, name) ? c.core.state.zones[name] : undefined;
  if (!z) throw notFound("DNS zone", name);
  return z;
}

function requireActiveZone(z: ZoneEntry): void {
  if (!isZoneActive(z)) {
    throw new ApiError(
      "zone_not_active",
      `zone ${z.domain} is ${z.status}: records change only on an active zone; delegate the domain to ${DNS_SERVICE_NAMESERVERS.join(", ")} and POST /dns/zones/${z.domain}/check`,
    );
  }
}

const siblings = (z: ZoneEntry, name: string, type: string, except?: RecordEntry) =>
  z.records.filter((r) => r !== except && r.name === name && r.type === type);

/** Checks shared by create and update: CNAME exclusivity, duplicates, shared TTL (create) and the zone size. */
function checkPlacement(z: ZoneEntry, d: RecordDraft, except?: RecordEntry): void {
  placeRecord(
    z.records.filter((r) => r !== except),
    d,
  );
}

const listZones = (c: Ctx) =>
  ok(
    page(
      c,
      Object.values(c.core.state.zones)
        .sort((a, b) => a.domain.localeCompare(b.domain))
        // Entries as the contract says they are (listEntries.zones): the zone view, or name and status only.
        .map((z) => (c.contract.listEntries.zones === "zone" ? c.core.zoneView(z, false) : { domain: z.domain, status: z.status })),
    ),
  );

const createZone = (c: Ctx) => {
  const core = c.core;
  const name = domainName(c.body.domain);
  const d = core.domain(name);
  if (core.settle(d)) c.changed();
  if (Object.prototype.hasOwnProperty.call(core.state.zones, name)) {
    throw new ApiError("zone_exists", `a DNS zone for ${name} exists already; it is never overwritten`, "domain");
  }
  core.requireActive(d, "DNS hosting");
  if (!d.addons.includes(VALUES.dnsAddon)) {
    throw new ApiError("dns_addon_required", `domain ${name} lacks the DNS Management add-on (${VALUES.dnsAddon}); add it in the reseller portal`, "domain");
  }
  core.state.counters.record += 2;
  const n = core.state.counters.record;
  const z: ZoneEntry = {
    domain: name,
    status: ZONE_STATUS.pending_nameserver,
    records: DNS_SERVICE_NAMESERVERS.map((ns, i) => ({ id: `rec_${n - 1 + i}`, type: "NS", name: "@", content: ns, ttl: 86400, priority: null, extra: null })),
  };
  core.state.zones[name] = z;
  c.changed();
  return ok(core.zoneView(z, false), 201);
};

const getZone = (c: Ctx) => ok(c.core.zoneView(zoneOf(c), true));

const checkZone = (c: Ctx) => {
  const z = zoneOf(c);
  const d = c.core.state.domains[z.domain];
  if (d && c.core.settle(d)) c.changed();
  if (!isZoneActive(z) && c.core.zoneDelegated(z)) {
    z.status = ZONE_STATUS.active;
    c.changed();
  }
  return ok({ ...c.core.zoneView(z, false), delegated: c.core.zoneDelegated(z), expected_nameservers: [...DNS_SERVICE_NAMESERVERS], current_nameservers: d ? [...d.nameservers] : [] });
};

const deleteZone = (c: Ctx) => {
  const z = zoneOf(c);
  delete c.core.state.zones[z.domain];
  c.changed();
  return ok({ domain: z.domain, deleted: true, records_deleted: z.records.length });
};

const listRecords = (c: Ctx) => {
  const z = zoneOf(c);
  const t = c.query.get("type");
  if (t !== null && !/^[A-Za-z][A-Za-z0-9]{0,15}$/.test(t)) throw invalid("type", t, "a record type such as A, MX or TXT");
  const list = z.records.filter((r) => t === null || r.type === t.toUpperCase()).map(recordView);
  return ok(page(c, list));
};

const createRecord = (c: Ctx) => {
  const z = zoneOf(c);
  const d = validateRecord(c.body, null, c.contract.ttl, z.domain);
  requireActiveZone(z);
  checkPlacement(z, d);
  const max = c.contract.maxRecordsPerZone;
  if (z.records.length >= max) throw invalid("zone", z.domain, `a zone holds at most ${max} records`);
  const sib = siblings(z, d.name, d.type);
  const shared = sib[0]?.ttl;
  if (shared !== undefined && d.ttl !== null && d.ttl !== shared) {
    throw new ApiError("ttl_conflict", `ttl ${d.ttl} differs from ttl ${shared} shared by the other ${d.type} records of ${d.name}; use ${shared} or change theirs with PUT`, "ttl", {
      shared_ttl: shared,
      record_ids: sib.map((r) => r.id),
    });
  }
  c.core.state.counters.record += 1;
  const rec: RecordEntry = { id: `rec_${c.core.state.counters.record}`, ...d, ttl: d.ttl ?? shared ?? DEFAULT_TTL };
  z.records.push(rec);
  c.changed();
  return ok(recordView(rec), 201);
};

function findRecord(c: Ctx, z: ZoneEntry): RecordEntry {
  const r = z.records.find((x) => x.id === c.params.id);
  if (!r) throw notFound("record", c.params.id);
  return r;
}

const managedNs = (z: ZoneEntry, r: RecordEntry) => isServiceManagedRecord(z.domain, r);

const putRecord = (c: Ctx) => {
  const z = zoneOf(c);
  const r = findRecord(c, z);
  if (managedNs(z, r)) throw invalid("id", r.id, "NS records at the apex are managed by the service");
  const d = validateRecord(c.body, r, c.contract.ttl, z.domain);
  requireActiveZone(z);
  checkPlacement(z, d, r);
  const sib = siblings(z, d.name, d.type, r);
  const ttl = d.ttl ?? (sib[0]?.ttl ?? r.ttl);
  // Entries are replaced, never changed in place: a refused request restores the old list (checkpoint.ts).
  const updated: RecordEntry = { ...r, ...d, ttl };
  // The TTL is shared per name and type: a change applies to every sibling.
  const changedSiblings = new Set(sib);
  z.records = z.records.map((x) => (x === r ? updated : changedSiblings.has(x) ? { ...x, ttl } : x));
  c.changed();
  return ok({ ...recordView(updated), updated_siblings: sib.map((s) => s.id) });
};

const deleteRecord = (c: Ctx) => {
  const z = zoneOf(c);
  const r = findRecord(c, z);
  if (managedNs(z, r)) throw invalid("id", r.id, "NS records at the apex are managed by the service");
  requireActiveZone(z);
  z.records = z.records.filter((x) => x !== r);
  c.changed();
  return ok({ id: r.id, deleted: true });
};

const listTemplates = (c: Ctx) =>
  ok(
    page(
      c,
      TEMPLATES.map((t) => ({
        [VIEW_FIELDS.template.id]: t.id,
        name: t.name,
        description: t.description,
        [VIEW_FIELDS.template.variables]: [...t.variables],
        records: t.records.map((r) => ({ ...r })),
      })),
    ),
  );

const applyTemplate = (c: Ctx) => {
  const z = zoneOf(c);
  const t = TEMPLATES.find((x) => x.id === c.params.id);
  if (!t) throw notFound("template", c.params.id);
  const varsRaw = c.body.variables ?? {};
  if (typeof varsRaw !== "object" || varsRaw === null || Array.isArray(varsRaw)) throw invalid("variables", varsRaw, "an object of variable name to string");
  const vars = varsRaw as Record<string, unknown>;
  for (const v of t.variables) {
    if (vars[v] === undefined || vars[v] === null) throw missing(`variables.${v}`, `template ${t.id} needs variable ${v}`);
    if (typeof vars[v] !== "string") throw invalid(`variables.${v}`, vars[v], "a string");
  }
  const strategy = c.body.conflict_strategy ?? "cancel";
  if (typeof strategy !== "string" || !(CONFLICT_STRATEGIES as readonly string[]).includes(strategy)) {
    throw invalid("conflict_strategy", strategy, `one of ${CONFLICT_STRATEGIES.join(", ")}`);
  }
  const fill = (s: string) => s.replace(/\{(\w+)\}/g, (_m, k: string) => (k === "domain" ? z.domain : String(vars[k])));
  const drafts = t.records.map((tr) => {
    try {
      return validateRecord({ ...tr, content: fill(tr.content), ttl: DEFAULT_TTL }, null, c.contract.ttl, z.domain);
    } catch (e) {
      const used = /\{(\w+)\}/.exec(tr.content)?.[1];
      if (used && e instanceof ApiError) throw invalid(`variables.${used}`, vars[used], e.message);
      throw e;
    }
  });
  requireActiveZone(z);
  const conflicts = (d: RecordDraft) => z.records.filter((r) => r.name === d.name && (r.type === d.type || exclusivityClash(d.type, [r]) !== undefined));
  const conflicting = drafts.filter((d) => conflicts(d).length > 0);
  if (strategy === "cancel" && conflicting.length > 0) {
    throw new ApiError("template_conflict", `template ${t.id} conflicts with existing records (${conflicting.map((d) => `${d.type} ${d.name}`).join(", ")}); nothing was changed; use conflict_strategy skip or replace`, "conflict_strategy", {
      conflicts: conflicting.map((d) => ({ name: d.name, type: d.type })),
    });
  }
  const created: RecordEntry[] = [];
  const replaced: RecordEntry[] = [];
  const skipped: Array<{ name: string; type: string }> = [];
  for (const d of drafts) {
    const existing = conflicts(d);
    if (existing.length > 0 && strategy === "skip") {
      skipped.push({ name: d.name, type: d.type });
      continue;
    }
    if (existing.length > 0) {
      replaced.push(...existing.filter((e) => !replaced.includes(e)));
      z.records = z.records.filter((r) => !existing.includes(r));
    }
    const sib = siblings(z, d.name, d.type);
    c.core.state.counters.record += 1;
    const rec: RecordEntry = { id: `rec_${c.core.state.counters.record}`, ...d, ttl: sib[0]?.ttl ?? d.ttl ?? DEFAULT_TTL };
    z.records.push(rec);
    created.push(rec);
  }
  if (created.length > 0 || replaced.length > 0) c.changed();
  return ok({ template: t.id, created: created.map(recordView), replaced: replaced.map(recordView), skipped });
};

/** This file's operations (api/operations.ts), each with its handler. */
export const dnsHandlers = {
  listZones,
  createZone,
  getZone,
  checkZone,
  deleteZone,
  listRecords,
  createRecord,
  updateRecord: putRecord,
  deleteRecord,
  listTemplates,
  applyTemplate,
} satisfies Partial<Handlers>;
