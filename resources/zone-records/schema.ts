/**
 * DnsZoneRecords' check: the program's records (DnsRecord's shapes, the zone given once) become
 * canonical records keyed by identity (plan.ts `recordKey`), each judged by DnsRecord's own check
 * (../dns-record/schema.ts: the contract's TTL range, then the record table), so a failure reads as a
 * DnsRecord's does, prefixed with the record it is about: `records[3] (A www): content: ...`.
 * Within the declaration: a record given twice, and one name and type with two TTLs, are refused.
 */
import { checkRecordInputs } from "../dns-record/schema";
import { containsUnknown, failed, isUnknown, type CheckFailure, type CheckResult, type Limits } from "../kit/check";
import { domainNameRule, intRule, show } from "../shared/rules";
import { canonicalHost, defined, ttlOrDefault } from "../shared/normalize";
import { recordIdentity, type RecordIdentityFields } from "../../dns";
import { isPackedRecords, packRecords, unpackRecords } from "./plan";
import { recordKey, type ZoneRecord } from "../shared/record-key";
import { DEFAULT_SAFETY, type Safety } from "./safety";
import type { ZoneRecordsInputs } from "./state";

/**
 * The records as the program sent them: a list, or (resource.ts `packed`) that list as JSON text; or
 * as this check returned them (packed by key), which the engine sends back when it checks inputs it
 * holds (`pulumi import --file` checks the inputs of the file): judged again as the list they pack,
 * so check accepts its own result. An empty packed map only when the inputs held are that too: a
 * program's `records: {}` stays refused.
 */
export function recordsOf(news: Record<string, unknown>, olds: Record<string, unknown> = {}): unknown {
  const packed = news.records;
  if (isPackedRecords(packed) && (Object.keys(packed).length > 0 || isPackedRecords(olds.records))) {
    const fields = news.fields;
    if (fields === undefined || (typeof fields === "object" && fields !== null && Object.values(fields).every((f) => typeof f === "string")))
      try {
        return Object.values(unpackRecords({ records: packed, fields: fields as Record<string, string> | undefined }));
      } catch {
        return packed;
      }
  }
  if (typeof news.recordsJson !== "string" || isUnknown(news.recordsJson)) return news.records ?? [];
  try {
    return JSON.parse(news.recordsJson) as unknown;
  } catch {
    return news.recordsJson;
  }
}

/** Records judged between two turns of the event loop, so requests started before check (the zone's list) are sent meanwhile. */
const YIELD_EVERY = 250;

const RECORD_FIELDS = ["type", "name", "content", "ttl", "priority", "extra"];

const label = (r: Record<string, unknown>): string => `${typeof r.type === "string" ? r.type : "?"} ${typeof r.name === "string" ? r.name : "@"}`;

/**
 * A record as given, as the record table's identity (dns `recordIdentity`: extra's keys
 * in order), so it equals a canonical record's for a record given exactly in its canonical form,
 * whatever the order of extra's keys. None where extra is not an object: check judges that one.
 */
function asGiven(r: Record<string, unknown>): string | undefined {
  const extra = r.extra ?? null;
  if (extra !== null && (typeof extra !== "object" || Array.isArray(extra))) return undefined;
  return recordIdentity({ type: r.type, name: r.name ?? "@", content: r.content, priority: r.priority, extra } as RecordIdentityFields);
}

/**
 * `olds` are the inputs this check returned at the last up, for the same zone: canonical records,
 * which a record given exactly as one of them is (canonical forms are fixed points of the table).
 */
export async function checkZoneRecordsInputs(news: Record<string, unknown>, limits: Limits, olds: Record<string, unknown> = {}): Promise<CheckResult<ZoneRecordsInputs>> {
  const failures: CheckFailure[] = [];
  const fail = (property: string, reason: string) => failures.push({ property, reason: `${property}: ${reason}` });
  let zone = news.zone;
  if (!isUnknown(zone)) {
    const z = domainNameRule(zone);
    if (z.ok) zone = canonicalHost(z.value);
    else fail("zone", `${show(zone)} ${z.rule}`);
  }
  const authoritative = readBool(news.authoritative, "authoritative", fail);
  const allowLargeChanges = readBool(news.allowLargeChanges, "allowLargeChanges", fail);
  const safety = readSafety(news.safety, fail);
  const list = recordsOf(news, olds);
  if (!Array.isArray(list) && !isUnknown(list)) fail("records", `${show(list)} is not a list of records ({type, name, content, ttl?, priority?, extra?})`);
  if (failures.length || isUnknown(zone) || !Array.isArray(list) || containsUnknown(list) || containsUnknown([authoritative, allowLargeChanges, safety]))
    // Unknown in preview: kept as sent (records as a list), judged once known; diff calls it a change.
    return failures.length ? failed(news, failures) : { ok: true, inputs: defined({ ...news, recordsJson: undefined, records: list }) as unknown as ZoneRecordsInputs, failures: [] };

  // A zone of thousands changed by one record: the others are taken from the last check, not parsed again.
  const known = new Map<string, ZoneRecord>();
  if (olds.zone === zone && isPackedRecords(olds.records))
    for (const r of Object.values(unpackRecords({ records: olds.records, fields: olds.fields as Record<string, string> | undefined })))
      known.set(recordIdentity(r), r);
  const records: Record<string, ZoneRecord> = {};
  const where = new Map<string, number>();
  const ttlOf = new Map<string, { ttl: number; at: number }>();
  for (let i = 0; i < list.length; i++) {
    // The zone's list is asked for before this runs (handler.ts): its requests leave between turns.
    if (i > 0 && i % YIELD_EVERY === 0) await new Promise<void>((r) => setImmediate(r));
    const raw: unknown = list[i];
    const at = `records[${i}]`;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      fail(at, `${show(raw)} is not a record ({type, name, content, ttl?, priority?, extra?})`);
      continue;
    }
    const r = raw as Record<string, unknown>;
    for (const k of Object.keys(r)) if (!RECORD_FIELDS.includes(k)) fail(`${at}.${k}`, `is not a record field (${RECORD_FIELDS.join(", ")}); the zone is the resource's`);
    const given = known.size ? asGiven(r) : undefined;
    const was = given === undefined ? undefined : known.get(given);
    const ttl = ttlOrDefault(r.ttl);
    let rec: ZoneRecord;
    if (was && intRule(ttl, limits.ttl.min, limits.ttl.max).ok) rec = { ...was, ttl: ttl as number };
    else {
      const c = checkRecordInputs({ ...r, zone }, limits);
      if (!c.ok) {
        for (const f of c.failures) failures.push({ property: `${at}.${f.property}`, reason: `${at}.${f.reason} (record ${label(r)})` });
        continue;
      }
      rec = defined({ type: c.inputs.type, name: c.inputs.name, content: c.inputs.content, ttl: c.inputs.ttl, priority: c.inputs.priority ?? undefined, extra: c.inputs.extra ?? undefined });
    }
    const key = recordKey(rec);
    const twice = where.get(key);
    if (twice !== undefined) {
      fail(at, `${show(key)} is declared twice (also records[${twice}]); a record is one entry`);
      continue;
    }
    where.set(key, i);
    const set = `${rec.name} ${rec.type}`;
    const sib = ttlOf.get(set);
    if (sib && sib.ttl !== rec.ttl)
      fail(`${at}.ttl`, `${rec.ttl} differs from ttl ${sib.ttl} of records[${sib.at}], another ${rec.type} record named ${rec.name}: records of one name and type share one TTL, so give them the same ttl`);
    else if (!sib) ttlOf.set(set, { ttl: rec.ttl, at: i });
    records[key] = rec;
  }
  if (failures.length) return failed(news, failures);
  return {
    ok: true,
    inputs: defined({ resourceUrn: typeof news.resourceUrn === "string" ? news.resourceUrn : undefined, zone: zone as string, ...packRecords(records), authoritative, safety, allowLargeChanges }),
    failures: [],
  };
}

function readBool(v: unknown, field: string, fail: (p: string, r: string) => void): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === "boolean" || isUnknown(v)) return v as boolean;
  fail(field, `${show(v)} is not true or false`);
  return false;
}

function readSafety(v: unknown, fail: (p: string, r: string) => void): Safety {
  if (v === undefined || v === null) return DEFAULT_SAFETY;
  if (isUnknown(v)) return v as unknown as Safety;
  if (typeof v !== "object" || Array.isArray(v)) {
    fail("safety", `${show(v)} is not an object { maxChangeShare?, minExistingRecords? }`);
    return DEFAULT_SAFETY;
  }
  const s = v as Record<string, unknown>;
  const out: Safety = { ...DEFAULT_SAFETY };
  for (const k of Object.keys(s)) if (k !== "maxChangeShare" && k !== "minExistingRecords") fail(`safety.${k}`, "is not a safety setting (maxChangeShare, minExistingRecords)");
  if (s.maxChangeShare !== undefined) {
    const share = s.maxChangeShare;
    if (typeof share === "number" && share > 0 && share <= 1) out.maxChangeShare = share;
    else fail("safety.maxChangeShare", `${show(share)} is not a share above 0 and at most 1 (e.g. 0.3 for 30 %)`);
  }
  if (s.minExistingRecords !== undefined) {
    const n = intRule(s.minExistingRecords, 0, 1_000_000, "records");
    if (n.ok) out.minExistingRecords = n.value;
    else fail("safety.minExistingRecords", `${show(s.minExistingRecords)} ${n.rule}`);
  }
  return out;
}
