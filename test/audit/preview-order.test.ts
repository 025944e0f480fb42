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
 * Create finished before the next Check ("serial").
 *
 * For every case, all its orders must give the same outcome: whether the run fails, the same
 * messages (each without the name of the resource that told it), and the same writes to the service
 * (so whether a Domain is bought). Needs `npm run build` (the host loads dist/).
 */
import { startProviderHost, type PropertyMap, type ProviderHost } from "../../dev/engine/host";
import { createUrn } from "../../dev/engine/urn";
import { seededRandom } from "../../dev/chaos/model";
import { typeToken } from "../../resources/kinds";
import { implicitWaits, providerFor, ROOT } from "../resources/lifecycle/harness";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { isReadRequest } from "../../sandbox/rules";
import { MISTAKES, mistakeConfig, type Mistake } from "./preview-catalogue";

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
): Promise<Outcome> {
  sandbox.operator.reset();
  if (m.balance) sandbox.operator.settings({ balance: m.balance });
  const waits = implicitWaits(resources.map((r) => ({ kind: r.kind, args: r.args as PropertyMap })));
  const host: ProviderHost = await startProviderHost({ cwd: ROOT, env: NO_ENV });
  const errors: string[] = [];
  const mark = sandbox.operator.requests().length;
  try {
    await host.configure(mistakeConfig(sandbox, m));
    // Each resource's registration answered: at preview once checked, at up once created (true), or
    // never (false: its check or create failed, or one it waits for was never answered).
    const answered: Promise<boolean>[] = resources.map(() => Promise.resolve(false));
    const created: Promise<boolean>[] = [];
    for (const i of order) {
      const r = resources[i];
      // A registration waits for the answers to the ones it depends on; one that failed is never answered.
      if (!(await Promise.all(waits[i].map((w) => answered[w]))).every(Boolean)) continue;
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
  return { failed: errors.length > 0, said: [...new Set([...errors, ...logged].map(told))].sort(), writes: writes.sort(), waits: waited.map(told).sort() };
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
  for (const mode of ["preview", "eager", "serial"] as const) {
    let first: { order: string; outcome: Outcome } | undefined;
    for (const order of orders) {
      const outcome = await runInOrder(resources, m, messages, order, mode, checkAll);
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
  }
  expect(differ).toEqual([]);
  // Every case with more than one resource was tried in more than one order, or is ordered by its implicit dependencies.
  expect(Object.values(counts).every((n) => n >= 1)).toBe(true);
  expect(counts["a TTL that conflicts with another record of the program"]).toBe(2);
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
