/**
 * The chaos campaign's invariants, checked against the sandbox's own books (its state and charge
 * ledger) and the engine's state. Each finding is a short line naming the resource, so the same
 * problem seen after several rounds is counted once.
 *
 * - double charges: more than one register/transfer per domain, more renewals charged than asked
 *   for, more than one privacy or protection purchase per domain, an Idempotency-Key charged twice,
 *   a charge for a domain the program never asked for.
 * - lost resources: something the program declares that the service or the state lacks, or a state
 *   entry whose object the service no longer has.
 * - state mismatches: state outputs that differ from the live object or from the program (record
 *   content and TTL, domain expiry and stage, privacy and protection status), what a purchase
 *   charged (charged, currency, invoice) against its ledger entry, an order left unconfirmed in
 *   state, a domain whose expiry
 *   is not the order's plus the renewals asked, state entries the program does not declare, and
 *   records in the campaign's zones that no state entry owns.
 */
import type { ResourceState } from "../engine/state";
import { canonicalRecord } from "../../resources/shared/normalize";
import { typeToken } from "../../resources/kinds";
import { addYears, isoDate, type LedgerEntry, type SandboxState } from "../../sandbox/state";
import type { Snapshot } from "./model";

export interface Findings {
  doubleCharges: string[];
  lostResources: string[];
  stateMismatches: string[];
}


/** Distinct findings over every check of the campaign. */
export class FindingSet {
  readonly all: Record<keyof Findings, Set<string>> = { doubleCharges: new Set(), lostResources: new Set(), stateMismatches: new Set() };

  add(f: Partial<Findings>): number {
    let fresh = 0;
    for (const k of Object.keys(this.all) as (keyof Findings)[]) {
      for (const line of f[k] ?? []) {
        if (!this.all[k].has(line)) fresh++;
        this.all[k].add(line);
      }
    }
    return fresh;
  }

  lines(max: number): string[] {
    return (Object.keys(this.all) as (keyof Findings)[]).flatMap((k) => [...this.all[k]].map((l) => `${k}: ${l}`)).slice(0, max);
  }
}

/** Record names the campaign creates: only these count as orphans in the seeded zone. */
const CHAOS_RECORD = /^r\d+$/;

const T = {
  domain: typeToken("Domain"),
  zone: typeToken("DnsZone"),
  record: typeToken("DnsRecord"),
  privacy: typeToken("PrivacyAddon"),
  protection: typeToken("Protection"),
};

/** Charges beyond one logical purchase each, from the ledger entries the campaign caused. */
export function doubleCharges(ledger: LedgerEntry[], desired: Snapshot): string[] {
  const out: string[] = [];
  const byDomain = new Map<string, LedgerEntry[]>();
  for (const e of ledger) byDomain.set(e.domain, [...(byDomain.get(e.domain) ?? []), e]);
  const wanted = new Map(desired.domains.map((d) => [d.domain, d]));
  for (const [domain, entries] of byDomain) {
    const d = wanted.get(domain);
    const count = (...actions: string[]) => entries.filter((e) => actions.includes(e.action)).length;
    if (!d) {
      out.push(`${domain}: ${entries.length} charge(s) for a domain the program never declared`);
      continue;
    }
    for (let i = 2; i <= count("register", "transfer"); i++) out.push(`${domain}: order charged ${i} times`);
    for (let i = d.renewals + 1; i <= count("renew"); i++) out.push(`${domain}: renewal charged ${i} times, ${d.renewals} asked`);
    for (let i = 2; i <= count("privacy"); i++) out.push(`${domain}: privacy charged ${i} times`);
    for (let i = 2; i <= count("protection"); i++) out.push(`${domain}: protection charged ${i} times`);
    for (let i = 1; i <= count("refund"); i++) out.push(`${domain}: refund ${i} (an order was charged and taken back)`);
  }
  const keys = new Map<string, number>();
  for (const e of ledger) {
    if (!e.idempotency_key) continue;
    const key = `${e.action}\n${e.idempotency_key}`;
    const n = (keys.get(key) ?? 0) + 1;
    keys.set(key, n);
    if (n > 1) out.push(`${e.domain}: Idempotency-Key of a ${e.action} charged ${n} times`);
  }
  return out;
}

/** The expiry date an order made at `at` (ISO time) has after `renewals` one-year renewals. */
export function expectedExpiry(at: string, renewals: number): string {
  return isoDate(addYears(Date.parse(at), 1 + renewals));
}

const field = (r: ResourceState | undefined, k: string): unknown => r?.outputs[k];

/** Lost resources and state mismatches: the program against the state against the service. */
export function compareState(desired: Snapshot, resources: ResourceState[], live: SandboxState, ledger: LedgerEntry[]): Omit<Findings, "doubleCharges"> {
  const lost: string[] = [];
  const mismatch: string[] = [];
  const byName = new Map(resources.map((r) => [`${r.type}::${r.name}`, r]));
  const declared = new Set<string>();
  const stateOf = (type: string, name: string): ResourceState | undefined => {
    declared.add(`${type}::${name}`);
    const r = byName.get(`${type}::${name}`);
    if (!r) lost.push(`${name}: declared but not in state`);
    return r;
  };
  const differs = (name: string, what: string, stateValue: unknown, liveValue: unknown): void => {
    if (JSON.stringify(stateValue) !== JSON.stringify(liveValue)) mismatch.push(`${name}: ${what} is ${JSON.stringify(stateValue)} in state, ${JSON.stringify(liveValue)} live`);
  };
  /** What state says the resource's last purchase charged, exactly as the ledger has it; nothing left unconfirmed. */
  const charged = (name: string, sr: ResourceState | undefined, domain: string, actions: string[]): void => {
    const entry = ledger.filter((e) => e.domain === domain && actions.includes(e.action)).at(-1);
    if (!sr || !entry) return;
    if (field(sr, "unconfirmedOrder") !== undefined) mismatch.push(`${name}: an order is still unconfirmed in state`);
    const held = { charged: field(sr, "charged") ?? null, currency: field(sr, "currency") ?? null, invoice: field(sr, "invoice") ?? null };
    differs(name, "charge", held, { charged: entry.amount, currency: entry.currency, invoice: entry.invoice });
  };

  for (const d of desired.domains) {
    const ld = live.domains[d.domain];
    const sd = stateOf(T.domain, d.res);
    if (!ld) lost.push(`${d.res}: ${d.domain} is not in the account`);
    else if (ld.stage !== "active") lost.push(`${d.res}: ${d.domain} is in stage ${ld.stage}, not active`);
    if (ld && sd) {
      if (sd.id !== d.domain) mismatch.push(`${d.res}: id ${sd.id} in state, ${d.domain} declared`);
      differs(d.res, "expiryDate", field(sd, "expiryDate"), isoDate(ld.expiresAt));
      differs(d.res, "stage", field(sd, "stage"), ld.stage);
    }
    charged(d.res, sd, d.domain, ["register", "transfer", "renew"]);
    if (ld) {
      const order = ledger.find((e) => e.domain === d.domain && (e.action === "register" || e.action === "transfer"));
      if (!order) lost.push(`${d.res}: ${d.domain} is in the account but no order was charged`);
      else if (isoDate(ld.expiresAt) !== expectedExpiry(order.at, d.renewals))
        mismatch.push(`${d.res}: expires ${isoDate(ld.expiresAt)}, expected ${expectedExpiry(order.at, d.renewals)} (order plus ${d.renewals} renewal(s))`);
    }
    if (d.privacy) {
      const sp = stateOf(T.privacy, `${d.res}-privacy`);
      charged(`${d.res}-privacy`, sp, d.domain, ["privacy"]);
      if (ld && !ld.privacy.enabled) lost.push(`${d.res}-privacy: WHOIS Privacy of ${d.domain} is ${ld.privacy.status} live`);
      if (ld && sp) {
        differs(`${d.res}-privacy`, "enabled", field(sp, "enabled"), ld.privacy.enabled);
        differs(`${d.res}-privacy`, "status", field(sp, "status"), ld.privacy.status);
      }
    }
    if (d.protection) {
      const sp = stateOf(T.protection, `${d.res}-protection`);
      charged(`${d.res}-protection`, sp, d.domain, ["protection"]);
      if (ld && !ld.protection) lost.push(`${d.res}-protection: Domain Protection of ${d.domain} is off live`);
      if (ld && sp) {
        differs(`${d.res}-protection`, "enabled", field(sp, "enabled"), ld.protection);
        differs(`${d.res}-protection`, "status", field(sp, "status"), ld.protection ? "on" : "off");
      }
    }
    if (d.zone) {
      const sz = stateOf(T.zone, `${d.res}-zone`);
      const lz = live.zones[d.domain];
      if (!lz) lost.push(`${d.res}-zone: no zone ${d.domain} live`);
      else if (sz) differs(`${d.res}-zone`, "status", field(sz, "status"), lz.status);
    }
  }

  const owned = new Set<string>();
  for (const r of desired.records) {
    const sr = stateOf(T.record, r.res);
    const id = field(sr, "recordId") ?? sr?.id;
    const lr = live.zones[r.zone]?.records.find((x) => x.id === id);
    if (sr && !lr) lost.push(`${r.res}: record ${String(id)} of state is not in zone ${r.zone}`);
    if (!sr) continue;
    owned.add(`${r.zone}/${String(id)}`);
    const want = canonicalRecord({ type: r.type, name: r.name, content: r.content, ttl: r.ttl }, r.zone);
    for (const k of ["type", "name", "content", "ttl"] as const) {
      if (JSON.stringify(field(sr, k)) !== JSON.stringify(want[k])) mismatch.push(`${r.res}: ${k} is ${JSON.stringify(field(sr, k))} in state, ${JSON.stringify(want[k])} declared`);
      if (lr) differs(r.res, k, field(sr, k), canonicalRecord(lr, r.zone)[k]);
    }
  }

  for (const r of resources) {
    if (!declared.has(`${r.type}::${r.name}`)) mismatch.push(`${r.name}: in state (${r.id}) but no longer declared`);
    // A stale record entry is reported above; its live record is not an orphan as well.
    if (r.type === T.record) owned.add(`${String(r.outputs.zone)}/${String(r.outputs.recordId ?? r.id)}`);
  }
  const zones = new Set([...desired.records.map((r) => r.zone), ...desired.domains.filter((d) => d.zone).map((d) => d.domain)]);
  for (const zone of zones) {
    for (const rec of live.zones[zone]?.records ?? []) {
      if (!CHAOS_RECORD.test(rec.name) || owned.has(`${zone}/${rec.id}`)) continue;
      mismatch.push(`${zone}: record ${rec.id} (${rec.type} ${rec.name} ${rec.content}) is live but owned by no state entry`);
    }
  }
  return { lostResources: lost, stateMismatches: mismatch };
}
