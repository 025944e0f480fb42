/**
 * The order in which the engine sees resources that read each other's declarations (program side).
 *
 * Some of check's rules read what other resources of the program declared: a zone or record of a
 * domain the account does not hold passes only when this program's Domain buys it; a zone's records
 * fail when the program's Domain sets nameservers that rule the zone out; an add-on is priced for
 * the years the program's Domain buys. The real CLI checks resources in the order their
 * registrations arrive, which it does not fix, and stops at the first failed check: a rule that
 * depended on whether the other resource came first gave another verdict, message or purchase in
 * another order. Resources that name each other through outputs (`zone: zone.domain`) are ordered by
 * the engine already; the ones that name the same domain or zone as a literal are ordered here: such
 * a resource waits (an implicit `dependsOn`) for the program's Domain of that name, and a record for
 * the program's DnsZone too, so the engine checks (and at up creates) those first, in every order.
 *
 * The records of one RRset (a DnsRecord's zone, name and type) go one after another, in declaration
 * order (previousPeer). Purchases go one after another too (Domains, then add-ons, each in declaration order), so that
 * the stack's total against the balance refuses the same purchase in every order (previousPurchase).
 *
 * Only resources declared before the program yields once (its synchronous code: the SDK sends no
 * registration before that) are seen, and only a Domain or DnsZone whose arguments hold no output of
 * another resource (config values and secrets are fine) and whose options have no `dependsOn` (nor a
 * custom resource as parent) is waited for: such a one waits for nothing of the program but, for a
 * DnsZone, its Domain, so no wait can be circular.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Kind } from "../kinds";
import { canonicalHost } from "../shared/normalize";

/**
 * What a kind's class (its resource.ts) says of its order: the argument that names its domain or
 * zone, and the kinds of the program's resources it waits for when they name the same one.
 */
export interface DeclarationOrder {
  name: "domain" | "zone";
  after: readonly Kind[];
  /**
   * A kind whose create may charge the account (unless `adopt`): its place in the program's chain of
   * purchases, lower first (Domains, then add-ons). Undefined: it buys nothing.
   */
  purchase?: number;
  /**
   * The key of a set of peers (e.g. a DnsRecord's zone, name and type: the records of one RRset,
   * which share one TTL), from literal arguments; undefined when it names none. The program's
   * resources of the kind with one key go one after another, in declaration order.
   */
  peers?: (args: Record<string, unknown>) => string | undefined;
}

/** A resource's declaration as the program wrote it, for this module's rules. */
export interface Declared {
  kind: Kind;
  order: DeclarationOrder;
  /** The account's config namespace (undefined: the default). */
  account: string | undefined;
  args: Record<string, unknown>;
  /** Whether anything of its own (another resource's output among its arguments, a `dependsOn`, a custom parent) may make it wait for the program. */
  waits: boolean;
}

/** The literal domain or zone a resource names, canonical; undefined when it names it through an output. */
function literalName(d: Declared): string | undefined {
  const v = d.args[d.order.name];
  return typeof v === "string" && v.trim() !== "" ? canonicalHost(v) : undefined;
}

/**
 * Which of `program` the resource `d` waits for (indices into `program`): the Domains (and, for
 * records, DnsZones) of the same account naming the same domain as a literal, that wait for nothing
 * of their own. The one rule, used by the constructors and by the tests that run every order the
 * engine can then produce.
 */
export function waitsFor(d: Declared, program: readonly Declared[]): number[] {
  const name = literalName(d);
  const found: number[] = [];
  if (name !== undefined && d.order.after.length)
    for (const i of programIndex(program).named.get(namedKey(d.account, name)) ?? []) {
      const o = program[i];
      if (o !== d && d.order.after.includes(o.kind)) found.push(i);
    }
  for (const before of [previousPurchase(d, program), previousPeer(d, program)]) if (before !== undefined && !found.includes(before)) found.push(before);
  return found;
}

/** Each declaration's peer key, once (a program of thousands of records asks for each many times). */
const peerKeys = new WeakMap<Declared, string | undefined>();

/** `d`'s key among its peers (DeclarationOrder.peers), when it has one and waits for nothing of its own. */
function peerKey(d: Declared): string | undefined {
  if (!peerKeys.has(d)) peerKeys.set(d, d.waits ? undefined : d.order.peers?.(d.args));
  return peerKeys.get(d);
}

/**
 * The peer declared last before `d` (an index into `program`): a rule that reads the peers' declarations
 * (the TTL the records of one RRset share: a TTL change of one record is applied by the service to all
 * of them) is then judged, and applied, in one order, whichever order the CLI would take.
 */
function previousPeer(d: Declared, program: readonly Declared[]): number | undefined {
  const key = peerKey(d);
  if (key === undefined) return undefined;
  const { at, peers } = programIndex(program);
  const mine = at.get(d) ?? program.length;
  const same = peers.get(`${d.kind} ${d.account ?? ""} ${key}`) ?? [];
  // The last of them before `d` (they are in declaration order).
  let found: number | undefined;
  for (const i of same) {
    if (i >= mine) break;
    found = i;
  }
  return found;
}

/** A program list's positions, its peers by kind, account and key, and its purchases by account. */
interface ProgramIndex {
  at: Map<Declared, number>;
  peers: Map<string, number[]>;
  /** Account and literal name → the declarations naming it that wait for nothing of their own, in order. */
  named: Map<string, number[]>;
  /** Account → the chain of purchases (indices into the list): lower `purchase` first, then declaration order. */
  purchases: Map<string | undefined, number[]>;
}

const namedKey = (account: string | undefined, name: string): string => JSON.stringify([account ?? null, name]);

/** Each program list's index, made once per list (a program of thousands of resources asks for it for each). */
const programIndexes = new WeakMap<readonly Declared[], ProgramIndex>();

function programIndex(program: readonly Declared[]): ProgramIndex {
  let index = programIndexes.get(program);
  if (!index) {
    index = { at: new Map(), peers: new Map(), named: new Map(), purchases: new Map() };
    for (const [i, o] of program.entries()) {
      index.at.set(o, i);
      const name = o.waits ? undefined : literalName(o);
      if (name !== undefined) {
        const k = namedKey(o.account, name);
        const list = index.named.get(k);
        if (list) list.push(i);
        else index.named.set(k, [i]);
      }
      if (inPurchaseChain(o)) {
        const chain = index.purchases.get(o.account);
        if (chain) chain.push(i);
        else index.purchases.set(o.account, [i]);
      }
      const key = peerKey(o);
      if (key === undefined) continue;
      const k = `${o.kind} ${o.account ?? ""} ${key}`;
      const list = index.peers.get(k);
      if (list) list.push(i);
      else index.peers.set(k, [i]);
    }
    for (const chain of index.purchases.values()) chain.sort((a, b) => program[a].order.purchase! - program[b].order.purchase! || a - b);
    programIndexes.set(program, index);
  }
  return index;
}

/** Whether `d` is in the program's chain of purchases: a kind that may charge, not adopted, waiting for nothing of its own. */
const inPurchaseChain = (d: Declared): boolean => d.order.purchase !== undefined && d.args.adopt !== true && !d.waits;

/**
 * The purchase the program makes before `d` (an index into `program`), when `d` may charge the
 * account: the stack's total is held against the balance the run began with, purchase by purchase as
 * each is checked, so when the balance holds only some of them, which one is refused (and which ones
 * an up buys before it) must not depend on the order the CLI checks them in. The purchases of one
 * account go one after another: Domains, then add-ons (which wait for their Domain: no wait is
 * circular), each in declaration order. The cost: new Domains of one program register in turn.
 */
function previousPurchase(d: Declared, program: readonly Declared[]): number | undefined {
  if (!inPurchaseChain(d)) return undefined;
  const { at, purchases } = programIndex(program);
  const mine = at.get(d);
  const chain = purchases.get(d.account) ?? [];
  const position = mine === undefined ? -1 : chain.indexOf(mine);
  return position > 0 ? chain[position - 1] : undefined;
}

/** The program's resources so far, with their declarations (one list per program process). */
const declaredSoFar: { declared: Declared; resource: pulumi.Resource }[] = [];

/** The declarations so far as one list, the same list while no resource is declared (its peer index is made once). */
let soFar: Declared[] = [];
function programSoFar(): Declared[] {
  if (soFar.length !== declaredSoFar.length) soFar = declaredSoFar.map((x) => x.declared);
  return soFar;
}

/** Records a resource once constructed, so resources declared with it can wait for it. */
export function noteDeclared(declared: Declared, resource: pulumi.Resource): void {
  declaredSoFar.push({ declared, resource });
}

/**
 * The implicit `dependsOn` of a resource being declared: a promise, settled once the program has
 * yielded (after the rest of its synchronous declarations), of the resources it waits for. Undefined
 * for a kind that waits for nothing or names its domain through an output.
 */
export function implicitDependsOn(d: Declared): Promise<pulumi.Resource[]> | undefined {
  if ((literalName(d) === undefined || !d.order.after.length) && !inPurchaseChain(d) && peerKey(d) === undefined) return undefined;
  return new Promise((resolve) =>
    setImmediate(() => {
      const all = programSoFar();
      resolve(waitsFor(d, all).map((i) => declaredSoFar[i].resource));
    }),
  );
}
