/**
 * The chaos campaign's desired state: domains (registered or transferred in, with a declarative
 * renewal target, WHOIS Privacy and Domain Protection) and DNS records, changed round by round by
 * seeded random operations. The program that declares it is dev/chaos/program.ts.
 */

/** What the campaign counts as one operation: a money operation or one record change. */
export const OP_KINDS = ["register", "transfer", "renew", "privacy", "protection", "recordCreate", "recordUpdate", "recordDelete"] as const;
export type OpKind = (typeof OP_KINDS)[number];

/** Relative frequency of each operation. */
const WEIGHTS: Record<OpKind, number> = {
  register: 3,
  transfer: 2,
  renew: 2,
  privacy: 2,
  protection: 1.5,
  recordCreate: 4,
  recordUpdate: 3,
  recordDelete: 2,
};

/** The seeded zone (active from the start), so records can be changed from round one. */
export const SEEDED_ZONE = "demo-reseller.com";
/** Renewals a domain may be asked for: each adds a year, and the term may reach 10 years at most. */
export const MAX_RENEWALS = 4;

/** What both campaigns (dev/engine/'s, dev/chaos/run.ts, and the CLI's, dev/chaos/cli.ts) are sized by. */
export interface CampaignOptions {
  ops: number;
  seed: number;
  /** Operations per round (default: a twentieth of ops, at least 10). */
  opsPerRound?: number;
  /** Changes made at once (the engine's parallel, `pulumi up --parallel`). */
  parallel: number;
  /** The client's per-attempt timeout (config reseller:timeoutSeconds); delays are this plus 1.5 s. */
  timeoutSeconds: number;
  /** Faults of each kind armed per round (about; at least one per 15 operations of the round). */
  faultsPerKind: number;
  /** `up` runs per round under faults, until one succeeds (default 3). */
  faultedRuns?: number;
  /** `up` runs per round without faults before the round gives up. */
  maxRuns: number;
  /** A line per run (time, summary or first errors). */
  verbose?: boolean;
}

/** Deterministic PRNG (mulberry32): a seed gives the same campaign. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export interface DomainSpec {
  /** Resource name. */
  res: string;
  domain: string;
  transfer: boolean;
  /** Renewals asked for: the declarative target is "expiry at least 1 + renewals years after the order". */
  renewals: number;
  privacy: boolean;
  protection: boolean;
  /** Hosts a DnsZone (the domain delegates to the DNS service). */
  zone: boolean;
  createdRound: number;
}

export interface RecordSpec {
  res: string;
  zone: string;
  type: "A" | "AAAA" | "TXT";
  name: string;
  content: string;
  ttl: number;
}

export interface Snapshot {
  domains: DomainSpec[];
  records: RecordSpec[];
}

/**
 * The renewal policy for a renewal target: due while fewer than (1 + renewals) years remain, less a
 * margin, so after the asked renewals it is no longer due and the program is stable.
 */
export function renewalPolicy(renewals: number): { minDaysRemaining: number; years: number } | undefined {
  return renewals > 0 ? { minDaysRemaining: 365 * (renewals + 1) - 15, years: 1 } : undefined;
}

const pick = <T>(random: () => number, xs: T[]): T => xs[Math.floor(random() * xs.length)];

/**
 * What a campaign (dev/engine/'s in run.ts, the CLI's in cli.ts) draws from the model: each round's
 * operations, `opsPerRound` at most (default: a twentieth of `ops`, at least 10), until `ops` are
 * drawn, counted by kind.
 */
export class CampaignDraw {
  readonly opsByKind = Object.fromEntries(OP_KINDS.map((k) => [k, 0])) as Record<OpKind, number>;
  /** Operations drawn so far. */
  opsDone = 0;
  private readonly perRound: number;

  constructor(
    private readonly model: DesiredModel,
    private readonly opts: Pick<CampaignOptions, "ops" | "opsPerRound">,
  ) {
    this.perRound = opts.opsPerRound ?? Math.max(10, Math.ceil(opts.ops / 20));
  }

  /** Whether every operation of the campaign is drawn. */
  get done(): boolean {
    return this.opsDone >= this.opts.ops;
  }

  /** Round `round`'s operations, applied to the model; `asked`: how many the round was to draw. */
  round(round: number): { asked: number; kinds: OpKind[] } {
    const asked = Math.min(this.perRound, this.opts.ops - this.opsDone);
    const kinds = this.model.round(round, asked);
    for (const k of kinds) this.opsByKind[k]++;
    this.opsDone += kinds.length;
    return { asked, kinds };
  }
}

export class DesiredModel {
  readonly domains = new Map<string, DomainSpec>();
  readonly records = new Map<string, RecordSpec>();
  private seq = 0;

  constructor(private readonly random: () => number) {}

  snapshot(): Snapshot {
    return structuredClone({ domains: [...this.domains.values()], records: [...this.records.values()] });
  }

  /** Zones records can go to: the seeded one and those of the campaign's zone domains. */
  zones(): string[] {
    return [SEEDED_ZONE, ...[...this.domains.values()].filter((d) => d.zone).map((d) => d.domain)];
  }

  /** Round 0's set-up: two domains that host zones (their registrations count as operations). */
  setUp(): OpKind[] {
    for (let i = 1; i <= 2; i++) this.addDomain(0, false, true);
    return ["register", "register"];
  }

  private addDomain(round: number, transfer: boolean, zone = false): DomainSpec {
    const n = ++this.seq;
    const tld = pick(this.random, ["com", "net", "org"]);
    // Names whose first label holds "taken" are registered elsewhere in the sandbox: transferable.
    const domain = transfer ? `taken-chaos-${n}.${tld}` : `chaos-${n}.${tld}`;
    const d: DomainSpec = { res: `dom-${n}`, domain, transfer, renewals: 0, privacy: false, protection: false, zone, createdRound: round };
    this.domains.set(d.res, d);
    return d;
  }

  private content(type: RecordSpec["type"]): string {
    const n = ++this.seq;
    if (type === "A") return `198.51.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
    if (type === "AAAA") return `2001:db8::${n.toString(16)}`;
    return `chaos v${n}`;
  }

  private newRecord(): string {
    const type = pick(this.random, ["A", "AAAA", "TXT"] as const);
    const n = ++this.seq;
    const r: RecordSpec = { res: `rec-${n}`, zone: pick(this.random, this.zones()), type, name: `r${n}`, content: this.content(type), ttl: pick(this.random, [300, 600, 3600]) };
    this.records.set(r.res, r);
    return r.res;
  }

  private changeRecord(r: RecordSpec): void {
    if (this.random() < 0.7) r.content = this.content(r.type);
    else r.ttl = pick(this.random, [300, 600, 3600].filter((t) => t !== r.ttl));
  }

  /**
   * One operation of this kind, if one is possible now. Renewals only for domains bought in an
   * earlier round (a renewal never runs in the create); a record already changed in this round is
   * not changed again, so each change reaches the service.
   */
  private operation(kind: OpKind, round: number, touched: Set<string>): (() => string | void) | undefined {
    const doms = [...this.domains.values()];
    const fresh = [...this.records.values()].filter((r) => !touched.has(r.res));
    const one = <T>(xs: T[], f: (x: T) => string | void) => (xs.length ? () => f(pick(this.random, xs)) : undefined);
    switch (kind) {
      case "register":
        return () => void this.addDomain(round, false);
      case "transfer":
        return () => void this.addDomain(round, true);
      case "renew":
        return one(doms.filter((d) => d.createdRound < round && d.renewals < MAX_RENEWALS), (d) => void d.renewals++);
      case "privacy":
        return one(doms.filter((d) => !d.privacy), (d) => void (d.privacy = true));
      case "protection":
        return one(doms.filter((d) => !d.protection), (d) => void (d.protection = true));
      case "recordCreate":
        return () => this.newRecord();
      case "recordUpdate":
        return one(fresh, (r) => (this.changeRecord(r), r.res));
      case "recordDelete":
        return one(fresh, (r) => (this.records.delete(r.res), r.res));
    }
  }

  /** A round's `count` operations: round 0 begins with the set-up's. */
  round(round: number, count: number): OpKind[] {
    return round === 0 ? [...this.setUp(), ...this.mutate(0, Math.max(0, count - 2))] : this.mutate(round, count);
  }

  /** Applies `count` random operations and returns their kinds. */
  mutate(round: number, count: number): OpKind[] {
    const done: OpKind[] = [];
    const touched = new Set<string>();
    const total = OP_KINDS.reduce((s, k) => s + WEIGHTS[k], 0);
    while (done.length < count) {
      let x = this.random() * total;
      const kind = OP_KINDS.find((k) => (x -= WEIGHTS[k]) < 0) ?? "recordCreate";
      const apply = this.operation(kind, round, touched);
      if (!apply) continue;
      const record = apply();
      if (record) touched.add(record);
      done.push(kind);
    }
    return done;
  }
}
