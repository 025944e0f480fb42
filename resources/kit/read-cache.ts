/**
 * Reads shared by many resources in the provider host: one list call (per page) serves the reads
 * of every record of a zone, and, where the contract says list entries carry what a read needs
 * (contract.listEntries), of every domain and every zone of the account.
 *
 * - Concurrent reads join the list in flight; none starts a second one.
 * - A list is dated from when its answer arrived, not from when it was asked for, so a list that
 *   took long (paced by the rate limit) is not stale on arrival.
 * - A refresh reads each resource once; a list serves each id once, then a read of the same id
 *   asks again. So one refresh reads every domain from one list call however long it takes, and a
 *   later refresh served by the same host process sees the service as it is then, not the list
 *   the earlier one saw.
 * - Adoptions share a zone's list the same way, served once per adopting resource
 *   (`zoneRecordsFor`): the adoptions of one command read the zone once.
 * - Any write by this host drops the lists it may have made stale (./dispatch.ts, ../dns-zone/handler.ts).
 * - Each account has its own lists (kit/context.ts `HostContext.reads`).
 */
import type { ListEntriesContract } from "../../api/contract";
import type { DnsRecord, DnsZone, DomainInfo, Template } from "../../api/views";
import type { ResellerApi } from "../shared/api";

/** How long a list serves ids it has not served yet: longer than a refresh of thousands at 60 a minute. */
export const LIST_LIFE_MS = 15 * 60_000;
/** How long a zone's whole record list is reused by reads that need all of it (adopt, templates, messages). */
export const RECORD_CACHE_MS = 5000;

interface Arrived<T> {
  arrivedAt: number;
  items: T[];
  byId: Map<string, T>;
  served: Set<string>;
}

/** One list, fetched once for many readers. */
export class SharedList<T> {
  private cached: Arrived<T> | undefined;
  private inflight: Promise<Arrived<T>> | undefined;

  constructor(
    private readonly fetch: () => Promise<T[]>,
    private readonly idOf: (item: T) => string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The entry for `id` (undefined: the list does not hold it), from a list that has not served `id` yet. */
  get(id: string): Promise<T | undefined> {
    return this.once(id, (c) => c.byId.get(id));
  }

  /**
   * The whole list for one reader (a resource's URN), from a list that has not served that reader
   * yet: so every reader of one command shares one list, and a second read by the same resource
   * asks the service again.
   */
  allFor(reader: string): Promise<T[]> {
    return this.once(reader, (c) => c.items);
  }

  /** The whole list, reused for RECORD_CACHE_MS after it arrived, or joined while in flight. */
  async all(): Promise<T[]> {
    const c = this.fresh(RECORD_CACHE_MS);
    if (c) return c.items;
    return (await (this.inflight ?? this.start())).items;
  }

  /** Seeds the list from another answer that carried all of it (e.g. a zone read with its records). */
  prime(items: T[]): void {
    this.cached = this.arrived(items);
  }

  /** Drops the list and detaches the one in flight: a write made them stale. */
  drop(): void {
    this.cached = undefined;
    this.inflight = undefined;
  }

  /** `pick` of a list (fresh for LIST_LIFE_MS) that has not served `key` yet, which it then has. */
  private async once<R>(key: string, pick: (c: Arrived<T>) => R): Promise<R> {
    const serve = (c: Arrived<T>): R => {
      c.served.add(key);
      return pick(c);
    };
    const c = this.fresh(LIST_LIFE_MS);
    if (c && !c.served.has(key)) return serve(c);
    for (;;) {
      const got = await (this.inflight ?? this.start());
      if (!got.served.has(key)) return serve(got);
      // That list served `key` already (a second read by one resource): ask again.
      if (this.inflight === undefined) this.start();
    }
  }

  private fresh(lifeMs: number): Arrived<T> | undefined {
    const c = this.cached;
    return c && this.now() - c.arrivedAt < lifeMs ? c : undefined;
  }

  private arrived(items: T[]): Arrived<T> {
    return { arrivedAt: this.now(), items, byId: new Map(items.map((x) => [this.idOf(x), x])), served: new Set() };
  }

  private start(): Promise<Arrived<T>> {
    const p: Promise<Arrived<T>> = this.fetch().then(
      (items) => {
        const a = this.arrived(items);
        if (this.inflight === p) {
          this.cached = a;
          this.inflight = undefined;
        }
        return a;
      },
      (e: unknown) => {
        if (this.inflight === p) this.inflight = undefined;
        throw e;
      },
    );
    this.inflight = p;
    return p;
  }
}

// ---- The host's lists, one set per account (host/host.ts) ----

/** The lists one account's reads share. */
export class ReadCaches {
  private readonly zoneLists = new Map<string, SharedList<DnsRecord>>();
  private domainList: SharedList<DomainInfo> | undefined;
  private zoneList: SharedList<DnsZone> | undefined;
  private templateList: Promise<Template[]> | undefined;

  constructor(
    private readonly api: () => ResellerApi,
    /** What the contract in force says list entries carry (contract.listEntries). */
    private readonly listEntries: () => ListEntriesContract,
    private readonly clock: { now(): number },
  ) {}

  private recordsOf(zone: string): SharedList<DnsRecord> {
    let l = this.zoneLists.get(zone);
    if (!l) this.zoneLists.set(zone, (l = new SharedList(() => this.api().listRecords(zone), (r) => r.id, () => this.clock.now())));
    return l;
  }

  /** The zone's records, shared by concurrent and closely following reads. */
  zoneRecords(zone: string): Promise<DnsRecord[]> {
    return this.recordsOf(zone).all();
  }

  /**
   * The zone's records for one resource's adoption (`reader`: its URN): one list (per page) serves
   * the adoptions of every record of the zone in this command, whether they come at once or one
   * after another, and the zone's own read seeds it (`primeZoneRecords`). Without a URN, a list of
   * its own.
   */
  zoneRecordsFor(zone: string, reader: string | undefined): Promise<DnsRecord[]> {
    if (reader === undefined) {
      this.recordsOf(zone).drop();
      return this.zoneRecords(zone);
    }
    return this.recordsOf(zone).allFor(reader);
  }

  /** One record of a zone for a refresh: from the zone's list, one list call (per page) for all its records. */
  zoneRecord(zone: string, id: string): Promise<DnsRecord | undefined> {
    return this.recordsOf(zone).get(id);
  }

  /** Seed the zone's list from a zone read that returned all records. */
  primeZoneRecords(zone: string, records: DnsRecord[]): void {
    this.recordsOf(zone).prime(records);
  }

  /** A write to the zone: its record list and the zone list may be stale. */
  invalidateZone(zone: string): void {
    this.zoneLists.get(zone)?.drop();
    this.zoneList?.drop();
  }

  /**
   * A domain's information view from GET /domains when the contract says its entries carry it;
   * undefined when they do not, or the list does not hold the domain (the caller reads it alone).
   */
  async listedDomain(domain: string): Promise<DomainInfo | undefined> {
    if (this.listEntries().domains !== "info") return undefined;
    this.domainList ??= new SharedList(() => this.api().listDomainInfos(), (d) => d.domain, () => this.clock.now());
    return this.domainList.get(domain);
  }

  /** A zone's view from GET /dns/zones when the contract says its entries carry it; else undefined. */
  async listedZone(domain: string): Promise<DnsZone | undefined> {
    if (this.listEntries().zones !== "zone") return undefined;
    this.zoneList ??= new SharedList(() => this.api().listZones(), (z) => z.domain, () => this.clock.now());
    return this.zoneList.get(domain);
  }

  /** The service's templates, read once per provider process and account; a failed read is tried again by the next caller. */
  templates(): Promise<Template[]> {
    if (!this.templateList) {
      const list = this.api().listTemplates();
      this.templateList = list;
      list.catch(() => {
        if (this.templateList === list) this.templateList = undefined;
      });
    }
    return this.templateList;
  }

  /** A write by this host: the account lists may no longer hold what the service has. */
  dropAccountLists(): void {
    this.domainList?.drop();
    this.zoneList?.drop();
  }
}
