/**
 * Order does not change a verdict: each case of the mistake catalogue (preview-catalogue.ts), and the
 * catalogue's shared program whole, driven through the SDK's provider host over gRPC in every order
 * of Check and Create calls the real CLI can produce, against a sandbox reset to its seed for each.
 *
 * What the CLI can produce (read in pulumi/pulumi 3.274, pkg/resource/deploy): it calls Check one
 * resource at a time, in the order the program's registrations arrive, which it does not fix; a
 * resource's Create starts once its Check passed and runs while the next resources are checked (with
 * `--parallel 1` too: that bounds the steps, not the checks); the first failed Check ends the
 * checks, and Creates under way finish. A registration is sent only once the resources it depends
 * on are answered (created, at up): the implicit dependencies the constructors add for literal names
 * (resources/program/declaration-order.ts, the same rule here through the lifecycle harness) are the
 * only ones a catalogue program has. So an order is a permutation of the resources in which each
 * comes after what it waits for (all of them up to 4 resources; seeded random ones above that), and
 * up runs each order twice: every Create started as soon as its Check passed ("eager"), and each
 * Create finished before the next Check ("serial"). The three modes differ only in their Creates, so
 * where an order's eager run called no Create (its first Check refused), preview and serial would
 * make the same calls on a fresh host and sandbox: that run stands for all three.
 *
 * For every case, all its orders must give the same outcome: whether the run fails, the same
 * messages (each without the name of the resource that told it), and the same writes to the service
 * (so whether a Domain is bought). Needs `npm run build` (the host loads dist/).
 *
 * Updates and deletes (below, "a second version of a program"): a program's second version after its
 * first, in every order of its Check, Diff, Create, Update and Delete calls the CLI can produce, with
 * the same writes and the same records, domains and balance at the end.
 */
import { startProviderHost, type PropertyMap, type ProviderHost } from "../../dev/engine/host";
import { createUrn } from "../../dev/engine/urn";
import { seededRandom } from "../../dev/chaos/model";
import { typeToken } from "../../resources/kinds";
import { implicitWaits, providerFor, ROOT } from "../resources/lifecycle/harness";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { isReadRequest } from "../../sandbox/rules";
import { MISTAKES, mistakeConfig, type Mistake } from "./preview-catalogue";
import { CONTACT } from "./bad-input-catalogue";

jest.setTimeout(1_800_000);

const NO_ENV = { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined };
/** Orders tried for a program of more than 4 resources. */
const SAMPLES = 6;
const SEED = 48;

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
});
afterAll(async () => sandbox?.close());

type Resource = Mistake["resources"][number];

/** Every permutation of 0..n-1. */
function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, k) => [...p.slice(0, k), n - 1, ...p.slice(k)]));
}

/** Whether each resource comes after every one it waits for. */
const respects = (order: number[], waits: number[][]): boolean => order.every((r, k) => waits[r].every((w) => order.indexOf(w) < k));

/** The orders the CLI can produce for resources with these waits: all up to 4 resources, else `SAMPLES` seeded random ones (each a random pick among the ready ones). */
export function ordersOf(waits: number[][], seed: number): number[][] {
  const n = waits.length;
  if (n <= 4) return permutations(n).filter((o) => respects(o, waits));
  const next = seededRandom(seed);
  const found = new Map<string, number[]>();
  for (let tries = 0; found.size < SAMPLES && tries < SAMPLES * 10; tries++) {
    const order: number[] = [];
    while (order.length < n) {
      const ready = Array.from({ length: n }, (_, i) => i).filter((i) => !order.includes(i) && waits[i].every((w) => order.includes(w)));
      order.push(ready[Math.floor(next() * ready.length)]);
    }
    found.set(order.join(","), order);
  }
  return [...found.values()];
}

interface Outcome {
  failed: boolean;
  /** Errors and the log lines that match a case's message, each without the resource that told it, sorted. */
  said: string[];
  /** What the run sent that changes something or is not a read, sorted. */
  writes: string[];
  /** Log lines of a wait (a record for its zone, a zone for its Domain), without the resource. */
  waits: string[];
}

/** A message without the resource that told it (`DnsRecord "twin-b": `, a URN) or the request's id. */
const told = (line: string): string =>
  line
    .replace(/^.*?\breseller: /, "")
    .replace(/^urn:pulumi:\S+: /, "")
    .replace(/^(Domain|DnsZone|DnsRecord|DnsZoneRecords|ZoneTemplate|ChildHost|PrivacyAddon|Protection|EppCode) "[^"]+": /, "")
    .replace(/ \(request id [^)]+\)/g, "")
    .trim();

const reasonOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * One command of a program declaring `resources` in the order `order`, on a fresh provider host (the
 * CLI starts one per command): preview (Checks only) or up, its Creates eager or serial.
 */
async function runInOrder(
  resources: Resource[],
  m: Pick<Mistake, "config" | "balance">,
  messages: RegExp[],
  order: number[],
  mode: "preview" | "eager" | "serial",
  checkAll = false,
): Promise<Outcome & { creates: number }> {
  sandbox.operator.reset();
  if (m.balance) sandbox.operator.settings({ balance: m.balance });
  const declared = resources.map((r) => ({ kind: r.kind, args: r.args as PropertyMap }));
  const waits = implicitWaits(declared);
  // `checkAll`, to judge every rule: a purchase (or a record of an RRset) whose check failed still
  // lets the next one be checked (the CLI would have ended the run); a wait for a literal name still holds.
  const byName = implicitWaits(declared, { byNameOnly: true });
  const host: ProviderHost = await startProviderHost({ cwd: ROOT, env: NO_ENV });
  const errors: string[] = [];
  const mark = sandbox.operator.requests().length;
  let creates = 0;
  try {
    await host.configure(mistakeConfig(sandbox, m));
    // Each resource's registration answered: at preview once checked, at up once created (true), or
    // never (false: its check or create failed, or one it waits for was never answered).
    const answered: Promise<boolean>[] = resources.map(() => Promise.resolve(false));
    const created: Promise<boolean>[] = [];
    for (const i of order) {
      const r = resources[i];
      // A registration waits for the answers to the ones it depends on; one that failed is never answered.
      if (!(await Promise.all(waits[i].map((w) => answered[w]))).every((ok, k) => ok || (checkAll && !byName[i].includes(waits[i][k])))) continue;
      const urn = createUrn(r.title, typeToken(r.kind), "", "reseller", "dev");
      let inputs: PropertyMap | undefined;
      try {
        const c = await host.check(urn, {}, { ...(r.args as PropertyMap), resourceUrn: urn, __provider: await providerFor(r.kind) });
        errors.push(...c.failures.map((f) => f.reason));
        if (!c.failures.length) inputs = c.inputs;
      } catch (e) {
        errors.push(reasonOf(e));
      }
      // The CLI ends the checks at the first that fails; `checkAll` goes on, to judge every rule in one run.
      if (!inputs && !checkAll) break;
      if (!inputs) continue;
      if (mode === "preview") {
        answered[i] = Promise.resolve(true);
        continue;
      }
      creates++;
      created[i] = answered[i] = host.create(urn, inputs).then(
        () => true,
        (e) => (errors.push(reasonOf(e)), false),
      );
      if (mode === "serial") await created[i];
    }
    await Promise.all(created);
  } finally {
    await host.close();
  }
  const logged = host.logs().filter((l) => messages.some((re) => re.test(l)));
  const writes = sandbox.operator
    .requests()
    .slice(mark)
    .filter((q) => q.mutating || !isReadRequest(q))
    .map((q) => `${q.method} ${q.path}`);
  const waited = host.logs().filter((l) => /: waiting for /.test(l));
  return { failed: errors.length > 0, said: [...new Set([...errors, ...logged].map(told))].sort(), writes: writes.sort(), waits: waited.map(told).sort(), creates };
}

/** Runs `resources` in every order the CLI can produce, in each mode; returns the outcomes that differ from the first order's, per mode. */
async function everyOrder(
  title: string,
  resources: Resource[],
  m: Pick<Mistake, "config" | "balance">,
  messages: RegExp[],
  seed: number,
  checkAll = false,
): Promise<{ orders: number; differ: string[]; outcomes: Record<string, Outcome> }> {
  const orders = ordersOf(
    implicitWaits(resources.map((r) => ({ kind: r.kind, args: r.args as PropertyMap }))),
    seed,
  );
  const differ: string[] = [];
  const outcomes: Record<string, Outcome> = {};
  // Each order's eager run first: one that called no Create is also that order's preview and serial run.
  const eager = new Map<number[], Outcome & { creates: number }>();
  for (const order of orders) eager.set(order, await runInOrder(resources, m, messages, order, "eager", checkAll));
  for (const mode of ["preview", "eager", "serial"] as const) {
    let first: { order: string; outcome: Outcome } | undefined;
    for (const order of orders) {
      const ran = eager.get(order)!;
      const { failed, said, writes, waits } = mode === "eager" || ran.creates === 0 ? ran : await runInOrder(resources, m, messages, order, mode, checkAll);
      const outcome: Outcome = { failed, said, writes, waits };
      const name = order.map((i) => resources[i].title).join(" ");
      if (!first) {
        first = { order: name, outcome };
        outcomes[mode] = outcome;
      } else if (JSON.stringify(outcome) !== JSON.stringify(first.outcome))
        differ.push(`${title}, ${mode}: order ${name} gave ${JSON.stringify(outcome)}, order ${first.order} gave ${JSON.stringify(first.outcome)}`);
    }
  }
  return { orders: orders.length, differ, outcomes };
}

test("each catalogue case gives one outcome in every order of its Checks and Creates, preview and up alike", async () => {
  const differ: string[] = [];
  const counts: Record<string, number> = {};
  for (const [k, m] of MISTAKES.entries()) {
    const r = await everyOrder(m.title, m.resources, m, [m.message], SEED + k);
    counts[m.title] = r.orders;
    differ.push(...r.differ);
    // The verdict is the catalogue's: preview fails where it says "fails", up fails, with its message.
    const says = (o: Outcome) => o.failed && o.said.some((s) => m.message.test(s) || m.message.test(`reseller: ${s}`));
    if (m.preview === "fails" && !says(r.outcomes.preview)) differ.push(`${m.title}: preview did not fail with ${m.message}: ${JSON.stringify(r.outcomes.preview)}`);
    if (!says(r.outcomes.eager)) differ.push(`${m.title}: up did not fail with ${m.message}: ${JSON.stringify(r.outcomes.eager)}`);
    // Up refuses with preview's very phrase, and no resource waits for one whose check or create failed.
    const phrase = (o: Outcome) => o.said.map((s) => (m.message.exec(s) ?? m.message.exec(`reseller: ${s}`))?.[0]).find((x) => x !== undefined);
    if (m.preview === "fails" && phrase(r.outcomes.preview) !== phrase(r.outcomes.eager)) differ.push(`${m.title}: preview said ${phrase(r.outcomes.preview)}, up ${phrase(r.outcomes.eager)}`);
    for (const mode of ["eager", "serial"] as const) if (r.outcomes[mode].waits.length) differ.push(`${m.title}, ${mode}: up waited: ${JSON.stringify(r.outcomes[mode].waits)}`);
  }
  expect(differ).toEqual([]);
  // Every case with more than one resource was tried in more than one order, or is ordered by its implicit dependencies.
  expect(Object.values(counts).every((n) => n >= 1)).toBe(true);
  // The records of one RRset go in declaration order (program/declaration-order.ts), as the Domain before its zone and record.
  expect(counts["a TTL that conflicts with another record of the program"]).toBe(1);
  expect(counts["a CNAME beside another record of the program"]).toBe(2);
  expect(counts["a zone its own Domain's nameservers rule out, waiting for the delegation"]).toBe(1);
});

test("the catalogue's shared program (its mistakes declared together), every check run: one outcome in seeded random orders", async () => {
  // The CLI ends a run at its first failed check, so which of independent mistakes it reports first
  // depends on the order by nature. Here every check runs (a registration waiting for a failed one
  // is still never sent): each rule is judged with the others' declarations around it, in any order.
  const shared = MISTAKES.filter((m) => !m.alone);
  const resources = shared.flatMap((m) => m.resources);
  expect(resources.length).toBeGreaterThan(4);
  const r = await everyOrder("the shared program", resources, {}, shared.map((m) => m.message), SEED, true);
  expect(r.orders).toBe(SAMPLES);
  expect(r.differ).toEqual([]);
  for (const m of shared) expect({ [m.title]: r.outcomes.eager.said.some((s) => m.message.test(s)) }).toEqual({ [m.title]: true });
});

test("the ruled-out zone: up buys the Domain in every order, then fails on the zone at once, waiting for nothing", async () => {
  const m = MISTAKES.find((x) => x.title.startsWith("a zone its own Domain's nameservers rule out"))!;
  for (const mode of ["eager", "serial"] as const) {
    const o = await runInOrder(m.resources, m, [m.message], [0, 1, 2], mode);
    expect(o).toMatchObject({ failed: true, writes: ["POST /api/v1/domains/register"], waits: [] });
    expect(o.said.some((s) => m.message.test(s))).toBe(true);
  }
});

// ---- Updates and deletes: a second version of a program, in every order of its calls ----
//
// What the CLI does on the `up` of a changed program (pulumi/pulumi pkg/resource/deploy,
// step_generator.go and deployment_executor.go): each registration is checked against the inputs in
// state (Check with olds), then diffed (Diff), then created, updated or left; a replace checks again
// without olds and, unless the diff asks to delete first, creates the new one and deletes the old one
// at the end. A resource the program no longer declares is deleted after the program has ended, so
// after every create and update; deletes run dependents first (ScheduleDeletes: antichains, each in
// parallel), and only when no step failed (a failed step cancels the run). At preview, Check and Diff
// only. The first version is deployed once (in declaration order, serially) and the sandbox's state
// after it is the start of every order of the second.

/** A program's first version, then its second: a resource of the same kind and title is the same resource. */
interface Change {
  title: string;
  before: Resource[];
  after: Resource[];
  balance?: string;
  /** The phrase every order's failure must hold; undefined: every order succeeds. */
  message?: RegExp;
  /** Phrases of the log lines compared across orders besides errors (warnings the change gives). */
  told?: RegExp[];
  /** What the service holds at the end of up that it did not after the first version, or no longer holds (ChangeOutcome's `live`). */
  live: string[];
  /** Why preview passes where up fails, when it does (otherwise preview fails exactly when up does, with its message). */
  previewPasses?: string;
}

interface ChangeOutcome extends Outcome {
  /** What the service holds at the end that it did not hold after the first version ("+") or no longer holds ("-"), ids left out: records, domains' nameservers and add-ons, the balance. */
  live: string[];
}

interface Held {
  kind: Resource["kind"];
  id: string;
  inputs: PropertyMap;
  outputs: PropertyMap;
  /** The titles of the first version's resources it waited for (its recorded dependencies). */
  after: string[];
}

const urnOfTitle = (r: Pick<Resource, "kind" | "title">): string => createUrn(r.title, typeToken(r.kind), "", "reseller", "dev");

/** The first order of `resources` that respects their implicit waits, declaration order otherwise. */
function declarationOrder(resources: Resource[]): number[] {
  const waits = implicitWaits(resources.map((r) => ({ kind: r.kind, args: r.args as PropertyMap })));
  const order: number[] = [];
  while (order.length < resources.length) order.push(resources.findIndex((_, i) => !order.includes(i) && waits[i].every((w) => order.includes(w))));
  return order;
}

/** Deploys `before` on the shared sandbox from its seed: the state each resource is left with, and the sandbox's state. */
async function deployFirstVersion(c: Change): Promise<{ state: Map<string, Held>; sandboxState: ReturnType<SandboxHandle["operator"]["state"]> }> {
  sandbox.operator.reset();
  if (c.balance) sandbox.operator.settings({ balance: c.balance });
  const waits = implicitWaits(c.before.map((r) => ({ kind: r.kind, args: r.args as PropertyMap })));
  const host = await startProviderHost({ cwd: ROOT, env: NO_ENV });
  const state = new Map<string, Held>();
  try {
    await host.configure(mistakeConfig(sandbox, {}));
    for (const i of declarationOrder(c.before)) {
      const r = c.before[i];
      const urn = urnOfTitle(r);
      const checked = await host.check(urn, {}, { ...(r.args as PropertyMap), resourceUrn: urn, __provider: await providerFor(r.kind) });
      if (checked.failures.length) throw new Error(`${c.title}: the first version's ${r.title} fails its check: ${JSON.stringify(checked.failures)}`);
      const made = await host.create(urn, checked.inputs);
      state.set(r.title, { kind: r.kind, id: made.id, inputs: checked.inputs, outputs: made.outputs, after: waits[i].map((w) => c.before[w].title) });
    }
  } finally {
    await host.close();
  }
  return { state, sandboxState: sandbox.operator.state() };
}

/** What the sandbox holds, ids left out, sorted. */
function liveSummary(s: ReturnType<SandboxHandle["operator"]["state"]>): string[] {
  const zones = Object.values(s.zones).flatMap((z) => z.records.map((r) => `zone ${z.domain}: ${r.type} ${r.name} ${JSON.stringify(r.content)} ttl ${r.ttl}${r.priority === null ? "" : ` priority ${r.priority}`}`));
  const domains = Object.values(s.domains).map((d) => `domain ${d.domain}: ${d.stage} ns ${d.nameservers.join(",")} addons ${[...d.addons].sort().join(",")}`);
  return [...zones, ...domains, `balance ${s.account.balance}`].sort();
}

/** The orders of `titles`' deletes the CLI can produce: a resource before every one it waited for (all up to 4; seeded random ones above). */
function deleteOrders(titles: string[], state: Map<string, Held>, seed: number): string[][] {
  // Deleting runs the dependency graph backwards: a resource waits for the deletes of those that waited for it.
  const waits = titles.map((t) => titles.flatMap((o, k) => (state.get(o)?.after.includes(t) ? [k] : [])));
  return ordersOf(waits, seed).map((o) => o.map((k) => titles[k]));
}

/**
 * One command of the second version, its registrations in `order` (indices into `after`), its deletes
 * in `deletes` (an index into the delete orders the run's delete set allows), against a sandbox started
 * from `start`: preview, or up with every step started at once ("eager") or each finished before the
 * next call ("serial"; deletes one at a time). Returns the outcome and how many delete orders there are.
 */
async function runChange(
  c: Change,
  first: { state: Map<string, Held>; sandboxState: ReturnType<SandboxHandle["operator"]["state"]> },
  order: number[],
  deletes: number,
  mode: "preview" | "eager" | "serial",
  seed: number,
): Promise<{ outcome: ChangeOutcome; deleteOrders: number }> {
  const sb = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0, state: first.sandboxState });
  const host: ProviderHost = await startProviderHost({ cwd: ROOT, env: NO_ENV });
  const waits = implicitWaits(c.after.map((r) => ({ kind: r.kind, args: r.args as PropertyMap })));
  const errors: string[] = [];
  let deleteCount = 1;
  try {
    await host.configure(mistakeConfig(sb, {}));
    const answered: Promise<boolean>[] = c.after.map(() => Promise.resolve(false));
    const steps: Promise<boolean>[] = [];
    /** Old halves of replaces, deleted with the resources the program no longer declares. */
    const condemned: string[] = [];
    const fail = (e: unknown): false => (errors.push(reasonOf(e)), false);
    for (const i of order) {
      const r = c.after[i];
      if (!(await Promise.all(waits[i].map((w) => answered[w]))).every(Boolean)) continue;
      const urn = urnOfTitle(r);
      const old = first.state.get(r.title);
      const news = { ...(r.args as PropertyMap), resourceUrn: urn, __provider: await providerFor(r.kind) };
      let step: () => Promise<unknown>;
      try {
        const checked = await host.check(urn, old?.inputs ?? {}, news);
        errors.push(...checked.failures.map((f) => f.reason));
        if (checked.failures.length) break;
        if (!old) step = () => host.create(urn, checked.inputs);
        else {
          const d = await host.diff(old.id, urn, old.outputs, checked.inputs);
          if (d.replaces.length) {
            // A replace checks again without olds (step_generator.go), then creates before deleting, unless told otherwise.
            const again = await host.check(urn, {}, news);
            errors.push(...again.failures.map((f) => f.reason));
            if (again.failures.length) break;
            if (d.deleteBeforeReplace) step = async () => (await host.delete(old.id, urn, old.outputs), host.create(urn, again.inputs));
            else {
              condemned.push(r.title);
              step = () => host.create(urn, again.inputs);
            }
          } else if (d.changes === false) step = async () => undefined;
          else step = () => host.update(old.id, urn, old.outputs, checked.inputs);
        }
      } catch (e) {
        fail(e);
        break;
      }
      if (mode === "preview") {
        answered[i] = Promise.resolve(true);
        continue;
      }
      steps[i] = answered[i] = step().then(() => true, fail);
      if (mode === "serial") await steps[i];
    }
    await Promise.all(steps);
    const removed = [...first.state.keys()].filter((t) => !c.after.some((r) => r.title === t));
    const toDelete = [...removed, ...condemned];
    if (mode !== "preview" && errors.length === 0 && toDelete.length) {
      const orders = deleteOrders(toDelete, first.state, seed);
      deleteCount = orders.length;
      const chosen = orders[deletes % orders.length];
      const started = new Map<string, Promise<void>>();
      for (const t of chosen) {
        const held = first.state.get(t)!;
        // Waits for the deletes of those that waited for it (the previous antichains).
        const before = chosen.filter((o) => first.state.get(o)?.after.includes(t));
        const run = Promise.all(before.map((o) => started.get(o))).then(() => host.delete(held.id, urnOfTitle({ kind: held.kind, title: t }), held.outputs));
        started.set(t, run.catch((e) => void fail(e)));
        if (mode === "serial") await started.get(t);
      }
      await Promise.all(started.values());
    }
  } finally {
    await host.close();
  }
  const messages = [c.message, ...(c.told ?? [])].filter((m): m is RegExp => m !== undefined);
  const logged = host.logs().filter((l) => messages.some((re) => re.test(l)));
  const writes = sb.operator
    .requests()
    .filter((q) => q.mutating || !isReadRequest(q))
    .map((q) => `${q.method} ${q.path} ${q.error ?? q.status}`);
  const [was, now] = [liveSummary(first.sandboxState), liveSummary(sb.operator.state())];
  const live = [...now.filter((l) => !was.includes(l)).map((l) => `+ ${l}`), ...was.filter((l) => !now.includes(l)).map((l) => `- ${l}`)];
  await sb.close();
  return {
    outcome: { failed: errors.length > 0, said: [...new Set([...errors, ...logged].map(told))].sort(), writes: writes.sort(), waits: [], live },
    deleteOrders: deleteCount,
  };
}

/** Every order of a change's second version (registrations, and deletes), in each mode; what differs from the first order, per mode. */
async function everyChangeOrder(c: Change, seed: number): Promise<{ runs: number; differ: string[]; outcomes: Record<string, ChangeOutcome> }> {
  const first = await deployFirstVersion(c);
  const orders = ordersOf(
    implicitWaits(c.after.map((r) => ({ kind: r.kind, args: r.args as PropertyMap }))),
    seed,
  );
  const differ: string[] = [];
  const outcomes: Record<string, ChangeOutcome> = {};
  let runs = 0;
  for (const mode of ["preview", "eager", "serial"] as const) {
    let seen: { order: string; outcome: ChangeOutcome } | undefined;
    for (const order of orders) {
      for (let d = 0, count = 1; d < count; d++) {
        const r = await runChange(c, first, order, d, mode, seed);
        count = r.deleteOrders;
        runs++;
        const name = `${order.map((i) => c.after[i].title).join(" ")}${count > 1 ? ` (delete order ${d})` : ""}`;
        if (!seen) {
          seen = { order: name, outcome: r.outcome };
          outcomes[mode] = r.outcome;
        } else if (JSON.stringify(r.outcome) !== JSON.stringify(seen.outcome))
          differ.push(`${c.title}, ${mode}: order ${name} gave ${JSON.stringify(r.outcome)}, order ${seen.order} gave ${JSON.stringify(seen.outcome)}`);
      }
    }
  }
  return { runs, differ, outcomes };
}

const rec = (title: string, args: Record<string, unknown>): Resource => ({ kind: "DnsRecord", title, args: { zone: "demo-reseller.com", ttl: 3600, ...args } });

/** Two TXT records of one RRset at ttl 300, and what is left when both are at 600. */
const RRSET_AT_300 = [rec("rrset-a", { type: "TXT", name: "rrset", content: "a", ttl: 300 }), rec("rrset-b", { type: "TXT", name: "rrset", content: "b", ttl: 300 })];
const RRSET_AT_600 = ['+ zone demo-reseller.com: TXT rrset "a" ttl 600', '+ zone demo-reseller.com: TXT rrset "b" ttl 600', '- zone demo-reseller.com: TXT rrset "a" ttl 300', '- zone demo-reseller.com: TXT rrset "b" ttl 300'];

const CHANGES: Change[] = [
  {
    title: "a TTL change on two records sharing an RRset",
    live: RRSET_AT_600,
    before: RRSET_AT_300,
    after: [rec("rrset-a", { type: "TXT", name: "rrset", content: "a", ttl: 600 }), rec("rrset-b", { type: "TXT", name: "rrset", content: "b", ttl: 600 })],
  },
  {
    // The records of one RRset are checked and applied in declaration order (program/declaration-order.ts):
    // the two updated first set the RRset's TTL (the service applies it to all of them), then the third is made.
    title: "a TTL change on two records sharing an RRset, and a third record of it added",
    live: [
      '+ zone demo-reseller.com: TXT rrset "a" ttl 600',
      '+ zone demo-reseller.com: TXT rrset "b" ttl 600',
      '+ zone demo-reseller.com: TXT rrset "c" ttl 600',
      '- zone demo-reseller.com: TXT rrset "a" ttl 300',
      '- zone demo-reseller.com: TXT rrset "b" ttl 300',
    ],
    before: RRSET_AT_300,
    after: [
      rec("rrset-a", { type: "TXT", name: "rrset", content: "a", ttl: 600 }),
      rec("rrset-b", { type: "TXT", name: "rrset", content: "b", ttl: 600 }),
      rec("rrset-c", { type: "TXT", name: "rrset", content: "c", ttl: 600 }),
    ],
  },
  {
    // In declaration order: the first, changed, is updated (and by the shared TTL the other live one
    // with it), then the second's check refuses the clash: the same in every order.
    title: "a TTL changed on one of two records sharing an RRset",
    live: RRSET_AT_600,
    before: RRSET_AT_300,
    after: [rec("rrset-a", { type: "TXT", name: "rrset", content: "a", ttl: 600 }), rec("rrset-b", { type: "TXT", name: "rrset", content: "b", ttl: 300 })],
    message: /ttl: 300 and 600 differ between the TXT records named rrset in demo-reseller\.com/,
  },
  {
    title: "a Domain, its zone and a record removed together",
    live: [
      '- zone catalogue-gone.com: A www "192.0.2.30" ttl 3600',
      '- zone catalogue-gone.com: NS @ "ns1.dns.sandbox.test" ttl 86400',
      '- zone catalogue-gone.com: NS @ "ns2.dns.sandbox.test" ttl 86400',
    ],
    before: [
      { kind: "Domain", title: "gone", args: { domain: "catalogue-gone.com", contacts: { registrant: CONTACT }, nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"], maxPrice: "50.00" } },
      { kind: "DnsZone", title: "gone-zone", args: { domain: "catalogue-gone.com" } },
      { kind: "DnsRecord", title: "gone-www", args: { zone: "catalogue-gone.com", type: "A", name: "www", content: "192.0.2.30", ttl: 3600 } },
    ],
    after: [],
    told: [/cannot be deleted through the API/],
  },
  {
    title: "a record moved from a DnsRecord into a DnsZoneRecords",
    live: [],
    before: [rec("move-www", { type: "A", name: "moved", content: "192.0.2.31" })],
    after: [{ kind: "DnsZoneRecords", title: "move-zone", args: { zone: "demo-reseller.com", records: [{ type: "A", name: "moved", content: "192.0.2.31", ttl: 3600 }] } }],
  },
  {
    title: "a record moved from a DnsZoneRecords into a DnsRecord",
    live: [],
    before: [
      {
        kind: "DnsZoneRecords",
        title: "move-zone",
        args: { zone: "demo-reseller.com", records: [{ type: "A", name: "moved", content: "192.0.2.31", ttl: 3600 }, { type: "TXT", name: "moved", content: "stays", ttl: 3600 }] },
      },
    ],
    after: [
      { kind: "DnsZoneRecords", title: "move-zone", args: { zone: "demo-reseller.com", records: [{ type: "TXT", name: "moved", content: "stays", ttl: 3600 }] } },
      rec("move-www", { type: "A", name: "moved", content: "192.0.2.31" }),
    ],
  },
  {
    // The stack's total against the balance the run began with refuses the purchase that passes it;
    // purchases go one after another (Domains in declaration order: program/declaration-order.ts),
    // so it is the same one in every order, and up buys the same ones before it.
    title: "three purchases at different prices against a balance that holds one of them",
    live: ["+ balance 1100", "- balance 5000", "+ domain catalogue-three.io: active ns ns1.dns.sandbox.test,ns2.dns.sandbox.test addons dns_management"],
    balance: "50.00",
    before: [],
    after: [
      { kind: "Domain", title: "buy-io", args: { domain: "catalogue-three.io", contacts: { registrant: CONTACT }, nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"], maxPrice: "50.00" } },
      { kind: "Domain", title: "buy-com", args: { domain: "catalogue-three.com", contacts: { registrant: CONTACT }, nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"], maxPrice: "50.00" } },
      { kind: "Domain", title: "buy-dev", args: { domain: "catalogue-three.dev", contacts: { registrant: CONTACT }, nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"], maxPrice: "50.00" } },
    ],
    message: /the purchases this stack would make total 51\.00 USD, above the account balance of 50\.00 USD/,
  },
  {
    title: "a CNAME deleted and an A record of its name created in one run",
    live: [],
    // Check cannot tell this CNAME from one of the same resource whose type changes (a replace, which
    // deletes first and checks the new record before that delete): refusing it there would refuse that.
    previewPasses: "a live CNAME at the name may be deleted first by a replace of its own resource",
    before: [rec("docs-alias", { type: "CNAME", name: "docs", content: "app.demo-reseller.com." })],
    after: [rec("docs-a", { type: "A", name: "docs", content: "192.0.2.32" })],
    message: /docs\.demo-reseller\.com holds a CNAME/,
  },
];


/** Every change of `changes` in every order; the outcomes that differ, or that are not the change's. */
async function changesDiffer(changes: Change[], seedBase: number): Promise<string[]> {
  const differ: string[] = [];
  const runs: Record<string, number> = {};
  const outcomes: Record<string, unknown> = {};
  for (const [k, c] of changes.entries()) {
    if (process.env.ORDER_CASE && !c.title.includes(process.env.ORDER_CASE)) continue;
    const r = await everyChangeOrder(c, seedBase + k);
    runs[c.title] = r.runs;
    outcomes[c.title] = r.outcomes;
    differ.push(...r.differ);
    for (const mode of ["eager", "serial"] as const) {
      const o = r.outcomes[mode];
      if (c.message ? !(o.failed && o.said.some((s) => c.message!.test(s))) : o.failed) differ.push(`${c.title}, ${mode}: ${c.message ? `did not fail with ${c.message}` : "failed"}: ${JSON.stringify(o)}`);
      if (JSON.stringify([...o.live].sort()) !== JSON.stringify([...c.live].sort())) differ.push(`${c.title}, ${mode}: left ${JSON.stringify(o.live)}, not ${JSON.stringify(c.live)}`);
    }
    // Preview predicts up: it fails when up fails, with its message, and passes when up passes.
    const p = r.outcomes.preview;
    const predicted = c.message && !c.previewPasses ? p.failed && p.said.some((s) => c.message!.test(s)) : !p.failed;
    if (!predicted) differ.push(`${c.title}, preview: ${JSON.stringify(p)}`);
  }
  if (process.env.ORDER_OUTCOMES) console.log(JSON.stringify({ runs, outcomes }, null, 1));
  return differ;
}

test("each change of a program gives one outcome in every order of its Checks, Diffs, Creates, Updates and Deletes", async () => {
  expect(await changesDiffer(CHANGES, SEED + 100)).toEqual([]);
});
