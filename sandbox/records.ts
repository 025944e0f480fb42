/**
 * DNS record validation: the record table (dns) decides, as it does for the client, so
 * the sandbox stores exactly the canonical record the client computed and a refresh shows no change.
 * Returns the stored form or throws 422 naming the field, the value and the rule.
 */
import { canonicalize, exclusivityClash, sameRecord } from "../dns";
import { DS_PLACEMENT } from "../dns/t_hex";
import { invalid, missing } from "./errors";
import type { RecordEntry } from "./state";
import type { Body } from "./validate";

export interface RecordDraft {
  type: string;
  name: string;
  content: string;
  ttl: number | null;
  priority: number | null;
  extra: Record<string, number | string> | null;
}

/** Merge a body onto an existing record (PUT) or start from nothing (POST), then validate. */
export function validateRecord(body: Body, base: RecordEntry | null, ttlRange: { min: number; max: number }, zone: string): RecordDraft {
  const pick = <K extends keyof RecordEntry>(k: K): unknown => (body[k] !== undefined ? body[k] : base ? base[k] : undefined);
  const type = pick("type");
  if (type === undefined || type === null) throw missing("type", "a record type such as A, MX or TXT");
  if (typeof type !== "string") throw invalid("type", type, "a record type such as A, MX or TXT");
  const name = pick("name");
  if (name === undefined || name === null) throw missing("name", "a name relative to the zone, or @ for the domain itself");
  if (typeof name !== "string") throw invalid("name", name, "a name relative to the zone, or @ for the domain itself");
  const content = pick("content");
  if (content === undefined || content === null) throw missing("content", "the record value");
  if (typeof content !== "string") throw invalid("content", content, "the record value as a string");
  const extra = pick("extra");
  if (extra !== undefined && extra !== null && (typeof extra !== "object" || Array.isArray(extra))) throw invalid("extra", extra, "an object");
  const priority = pick("priority");

  let ttl: number | null = null;
  const ttlRaw = body.ttl;
  if (ttlRaw !== undefined && ttlRaw !== null) {
    if (typeof ttlRaw !== "number" || !Number.isInteger(ttlRaw) || ttlRaw < ttlRange.min || ttlRaw > ttlRange.max) {
      throw invalid("ttl", ttlRaw, `an integer number of seconds from ${ttlRange.min} to ${ttlRange.max}`);
    }
    ttl = ttlRaw;
  }
  const c = canonicalize({ type, name, content, priority: priority as number | null | undefined, extra: extra as Record<string, number> | null | undefined }, zone);
  if (!c.record) {
    const p = c.problems[0];
    throw invalid(p.field, p.value, p.rule);
  }
  const r = c.record;
  return { type: r.type, name: r.name, content: r.content, ttl, priority: r.priority, extra: r.extra as RecordDraft["extra"] };
}

/** A stored record as a refusal names it: "A 192.0.2.1 (rec_12)". */
const named = (r: RecordEntry) => `${r.type} ${r.priority === null ? "" : `${r.priority} `}${r.content} (${r.id})`.slice(0, 120);

/**
 * Rules on a record among the zone's others (`others`: the zone's records, the one being changed
 * left out), in the order a zone server applies them: an identical record is the same record
 * (RFC 2181 §5); a CNAME stands alone at its name (RFC 1034 §3.6.2), and the refusal names what it
 * would share the name with; a DS needs NS records at its name (RFC 4035 §2.4).
 */
export function placeRecord(others: readonly RecordEntry[], d: RecordDraft): void {
  const here = others.filter((r) => r.name === d.name);
  const same = here.find((r) => sameRecord(r, d));
  if (same) throw invalid("content", d.content, `an identical ${d.type} record for ${d.name} exists already (${same.id}): identical records are one record (RFC 2181 §5)`);
  const alone = exclusivityClash(d.type, here);
  if (alone) throw invalid("name", d.name, `${alone.rule}: ${d.name} holds ${alone.clash.map(named).join(", ")}`);
  if (d.type === "DS" && !here.some((r) => r.type === "NS")) throw invalid("name", d.name, DS_PLACEMENT.notDelegation(d.name));
}
