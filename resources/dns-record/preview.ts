/**
 * DnsRecord's prediction at preview (called by ../kit/preflight.ts, in preview and up alike): a
 * record declared twice is warned about; a create is refused when its zone cannot become active
 * (../dns-zone/preview.ts) or a live sibling of its name and type has another TTL; adopt says which
 * live record it takes, or why it creates one.
 */
import { canonicalFields, recordIdentity } from "../../dns";
import type { HostContext } from "../kit/context";
import type { Props } from "../kit/handler";
import { containsUnknown } from "../kit/check";
import { liveByTypeName, typeNameKey } from "../kit/live-records";
import { creating, named, PreflightState, type Preflight } from "../kit/preflight";
import { recordDeclaredTwice, ttlConflict } from "../kit/preview-messages";
import { resourceName } from "../kit/urn";
import { canonicalRecord, fqdn, sameJson } from "../shared/normalize";
import { previewRecordZone, previewRecordZoneHeld, zonePredictions } from "../dns-zone/preview";
import type { RecordInputs } from "./state";

/** The DnsRecord that declares each record of this command, by zone and identity. */
const RECORD_OWNERS = new PreflightState(() => new Map<string, string>());

/**
 * The TTL this command sets for an RRset (zone, name and type) by updating one of its records: the
 * service applies a record's new TTL to every record of its name and type, so a record created in
 * it after that update meets siblings of that TTL. (The program's records of one RRset are checked
 * and applied in declaration order: ../program/declaration-order.ts.)
 */
const RRSET_TTLS = new PreflightState(() => new Map<string, number>());

export async function previewRecord(p: Preflight, ctx: HostContext, olds: Props, i: Props): Promise<void> {
  if (!containsUnknown([i.type, i.name, i.content, i.priority, i.extra, i.adopt])) await record(p, ctx, olds, i as unknown as RecordInputs);
}

async function record(p: Preflight, ctx: HostContext, olds: Props, i: RecordInputs): Promise<void> {
  const want = canonicalRecord(canonicalFields(i), i.zone);
  const what = `${want.type} ${fqdn(want.name, i.zone)}`;
  const identity = `${i.zone} ${recordIdentity(want)}`;
  const urn = i.resourceUrn ?? "";
  const owners = p.stateOf(RECORD_OWNERS);
  const other = owners.get(identity);
  if (other !== undefined && other !== urn) ctx.log.warn(`${named("DnsRecord", urn)}: ${recordDeclaredTwice(what, resourceName(other), resourceName(urn))}`);
  owners.set(identity, urn);
  const rrset = `${i.zone} ${typeNameKey(want)}`;
  // A record already in state lives in a zone that was active: only a create needs the zone's delegation
  // and its live records (so a no-op up reads nothing but the account's one credential check).
  if (!creating(olds)) {
    if (typeof olds.ttl === "number" && olds.ttl !== want.ttl) p.stateOf(RRSET_TTLS).set(rrset, want.ttl);
    return;
  }
  const declared = zonePredictions(p).owners.get(i.zone);
  await previewRecordZoneHeld(p, ctx, i.zone);
  await previewRecordZone(p, ctx, i.zone, what);
  const who = named("DnsRecord", i.resourceUrn);
  // A zone this run creates has no live records; any other is read once, for all its records.
  const live = declared !== undefined && !(await p.reads.zone(i.zone)) ? [] : ((await p.reads.zoneRecords(i.zone)) ?? []);
  const same = liveByTypeName(live, i.zone).get(typeNameKey(want)) ?? [];
  const match = same.find(({ canonical: c }) => c.content === want.content && (c.priority ?? null) === (want.priority ?? null) && sameJson(c.extra ?? null, want.extra ?? null));
  // Live siblings with another TTL refuse the create (shared TTL); an adopted record gets the program's TTL instead.
  // Unless a record of the RRset updated before this one in the run sets the program's TTL for all of them.
  const sibling = same.find(({ canonical: c }) => c.ttl !== want.ttl);
  if (sibling && !(i.adopt && match) && p.stateOf(RRSET_TTLS).get(rrset) !== want.ttl) throw new Error(ttlConflict(what, want.type, want.ttl, sibling.canonical.ttl));
  if (!i.adopt) return;
  if (match) {
    const ttl = match.canonical.ttl !== want.ttl ? `; up sets its ttl ${match.canonical.ttl} -> ${want.ttl} (shared by every ${want.type} record of the name)` : "; nothing changes";
    ctx.log.info(`${who}: adopts ${what} (record ${match.live.id})${ttl}`);
  } else if (same.length)
    ctx.log.info(`${who}: creates ${what} ${JSON.stringify(want.content)}: the live ${want.type} record(s) of the name differ (${same.map(({ canonical: c }) => JSON.stringify(c.content)).join(", ")}), and adopt takes only an identical record`);
  else ctx.log.info(`${who}: creates ${what}: adopt finds no such record in the zone`);
}
