/**
 * The reads check makes to predict what up will do (resources/kit/preflight.ts), each made at most once
 * per provider-host process, i.e. per `pulumi preview` or `pulumi up`: the account's balance, one
 * list of the account's domains and one of its zones (where the contract says list entries carry the
 * whole view; else one read per object), quotes, and a zone's records when an adoption needs them.
 * A preview writes nothing, so it reads each once; an up reads again after its own writes.
 * Concurrent askers join the read in flight; the client paces every request (rate-limiter.ts).
 */
import type { DnsRecord, DnsZone, DomainInfo, Quote } from "../../api/views";
import { isNotFound } from "../../api/vocabulary";
import type { HostContext } from "./context";
import { hasRecordId, withoutRecord, withRecord } from "./live-records";

export type PricedAction = "register" | "transfer" | "renew";

/**
 * How long a read serves check: a preview of a large stack is checked within it, while a host process
 * that outlives one command (tests drive many commands through one) does not predict from old reads.
 */
export const PREVIEW_READ_LIFE_MS = 60_000;

/** One promise per key: the first asker starts the read, later ones join it; a failed read is asked again. */
class Once<T> {
  private readonly made = new Map<string, { at: number; p: Promise<T> }>();

  constructor(private readonly now: () => number) {}

  get(key: string, read: () => Promise<T>): Promise<T> {
    const hit = this.made.get(key);
    if (hit && this.now() - hit.at < PREVIEW_READ_LIFE_MS) return hit.p;
    const entry = { at: this.now(), p: read() };
    this.made.set(key, entry);
    entry.p.catch(() => {
      if (this.made.get(key) === entry) this.made.delete(key);
    });
    return entry.p;
  }

  clear(): void {
    this.made.clear();
  }

  drop(key: string): void {
    this.made.delete(key);
  }

  /** Applies `change` to the value of `key` once it is read; nothing when it was never asked. */
  patch(key: string, change: (v: T) => T): void {
    const hit = this.made.get(key);
    if (!hit) return;
    const entry = { at: hit.at, p: hit.p.then(change) };
    this.made.set(key, entry);
    entry.p.catch(() => {
      if (this.made.get(key) === entry) this.made.delete(key);
    });
  }
}

const orUndefinedWhenNotFound = <T>(p: Promise<T>): Promise<T | undefined> =>
  p.catch((e: unknown) => {
    if (isNotFound(e)) return undefined;
    throw e;
  });

export class PreviewReads {
  private readonly balances: Once<{ balance: string; currency: string }>;
  private readonly domainLists: Once<Map<string, DomainInfo>>;
  private readonly zoneLists: Once<Map<string, DnsZone>>;
  private readonly domains: Once<DomainInfo | undefined>;
  private readonly zones: Once<DnsZone | undefined>;
  private readonly quotes: Once<Quote>;
  private readonly records: Once<DnsRecord[] | undefined>;

  constructor(private readonly ctx: HostContext) {
    const now = (): number => ctx.clock.now();
    this.balances = new Once(now);
    this.domainLists = new Once(now);
    this.zoneLists = new Once(now);
    this.domains = new Once(now);
    this.zones = new Once(now);
    this.quotes = new Once(now);
    this.records = new Once(now);
  }

  /** A write by this host: the account as found is no longer the account (the balance and quotes stay). */
  dropAccountViews(): void {
    for (const o of [this.domainLists, this.zoneLists, this.domains, this.zones, this.records]) o.clear();
  }

  /** A record write by this host was answered: the zone's records are read again, the rest holds. */
  dropZoneRecords(zone: string): void {
    this.records.drop(zone);
  }

  /**
   * A record this host created, as the service answered it: the zone's records as read gain it
   * (a read that already holds it is left as it is); nothing is read again. A create changes no
   * other record: the service refuses one whose TTL differs from its siblings'.
   */
  recordCreated(zone: string, record: DnsRecord): void {
    this.records.patch(zone, (list) => (list && !hasRecordId(list, record.id) ? withRecord(list, record, zone) : list));
  }

  /** A record this host deleted: the zone's records as read lose it. */
  recordDeleted(zone: string, id: string): void {
    this.records.patch(zone, (list) => list && withoutRecord(list, id, zone));
  }

  /** The account's credit: the cheapest signed read the spec offers, so it also proves key and secret. */
  balance(): Promise<{ balance: string; currency: string }> {
    return this.balances.get("", async () => {
      const b = await this.ctx.api().getBalance();
      return { balance: String(b.balance), currency: b.currency };
    });
  }

  /** A domain of the account as the command found it; undefined when the account does not hold it. */
  domain(name: string): Promise<DomainInfo | undefined> {
    if (this.ctx.contract().listEntries.domains === "info")
      return this.domainLists.get("", async () => new Map((await this.ctx.api().listDomainInfos()).map((d) => [d.domain, d]))).then((m) => m.get(name));
    return this.domains.get(name, () => orUndefinedWhenNotFound(this.ctx.api().getDomain(name)));
  }

  /** A zone of the account as the command found it; undefined when there is none. */
  zone(name: string): Promise<DnsZone | undefined> {
    if (this.ctx.contract().listEntries.zones === "zone") return this.zoneList().then((m) => m.get(name));
    return this.zones.get(name, () => orUndefinedWhenNotFound(this.ctx.api().getZone(name)));
  }

  /**
   * The nameservers the service asks zones to be delegated to, as its zones state them. The spec shows
   * them only in a zone's view, so an account with no zone yet (and a contract whose zone list entries
   * are summaries) leaves them unknown: undefined.
   */
  async serviceNameservers(): Promise<string[] | undefined> {
    if (this.ctx.contract().listEntries.zones !== "zone") return undefined;
    for (const z of (await this.zoneList()).values()) if (z.nameservers.length) return z.nameservers;
    return undefined;
  }

  /** A quote, asked once per (action, domain, years) in this command. */
  quote(action: PricedAction, domain: string, years: number): Promise<Quote> {
    return this.quotes.get(`${action} ${domain} ${years}`, () => this.ctx.api().quote({ action, domain, years }));
  }

  /** A live zone's records (one zone read for all its adoptions); undefined when the zone does not exist. */
  zoneRecords(zone: string): Promise<DnsRecord[] | undefined> {
    return this.records.get(zone, async () => {
      const z = await orUndefinedWhenNotFound(this.ctx.api().getZone(zone));
      return z?.records;
    });
  }

  private zoneList(): Promise<Map<string, DnsZone>> {
    return this.zoneLists.get("", async () => new Map((await this.ctx.api().listZones()).map((z) => [z.domain, z])));
  }
}
