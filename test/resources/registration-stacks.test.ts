/**
 * What a reseller resource's constructor costs the program, and what it keeps: the SDK records a
 * stack text on every promise it makes for a resource (runtime/debuggable.js, read only with
 * PULUMI_DEBUG_PROMISE_LEAKS set), and our constructors switch that off while they register
 * (`ResellerResource`, resources/program/register.ts). Read here from the SDK's own leak-candidate set and
 * from the RegisterResourceRequest the SDK sends to a (mock) monitor, the request `pulumi up` sends.
 */
import * as pulumi from "@pulumi/pulumi";

interface DebuggablePromise extends Promise<unknown> {
  _debugStackTrace?: string;
}

interface SourcePosition {
  getUri(): string;
  getLine(): number;
}

interface RegisterRequest {
  getName(): string;
  getSourceposition(): SourcePosition | undefined;
}

const positions = new Map<string, SourcePosition | undefined>();

beforeAll(async () => {
  await pulumi.runtime.setMocks({ newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: () => ({}) }, "proj", "dev", false);
  const monitor = pulumi.runtime.getMonitor() as unknown as { registerResource(req: RegisterRequest, cb: unknown): unknown };
  const original = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req, cb) => {
    positions.set(req.getName(), req.getSourceposition());
    return original(req, cb);
  };
});

afterEach(() => {
  delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
});

/** The stack texts of the promises the SDK made while `make` ran (its leak candidates). */
function stacksMadeBy(make: () => unknown): string[] {
  const store = (require("@pulumi/pulumi/runtime/state") as { getStore(): { leakCandidates: Set<DebuggablePromise> } }).getStore();
  const before = new Set(store.leakCandidates);
  make();
  return [...store.leakCandidates].filter((p) => !before.has(p)).map((p) => p._debugStackTrace ?? "(none)");
}

const hasFrames = (stack: string): boolean => /\n\s+at /.test(stack);

async function registered(r: pulumi.Resource): Promise<void> {
  await new Promise<void>((resolve) => r.urn.apply(() => resolve()));
}

const { DnsRecord } = require("../../resources") as typeof import("../../resources");
const { compareVersions } = require("../../resources/shared/sdk-version") as typeof import("../../resources/shared/sdk-version");

// From 3.200.0 the SDK raises the limit itself to find a resource's source position
// (`Resource.callsites`; 3.190.0 has none); before, it reads it under the ambient limit, and our
// constructors leave the stacks alone (the packages of both versions, read from the registry).
const sdk = (require("@pulumi/pulumi/package.json") as { version: string }).version;
const quietSdk = compareVersions(sdk, "3.200.0") >= 0;

test(`a DnsRecord's promises carry ${quietSdk ? "no" : "their"} stack text (SDK ${sdk}), a plain dynamic resource's do, and the limit is restored`, async () => {
  const limit = Error.stackTraceLimit;
  let record: pulumi.Resource | undefined;
  const ours = stacksMadeBy(() => (record = new DnsRecord("quiet", { zone: "example.com", type: "A", name: "www", content: "192.0.2.1" })));
  expect(Error.stackTraceLimit).toBe(limit);
  // 12 properties, four promises each, besides the URN's and the id's.
  expect(ours.length).toBeGreaterThanOrEqual(48);
  if (quietSdk) expect(ours.filter(hasFrames)).toEqual([]);
  else expect(ours.every(hasFrames)).toBe(true);

  // The control: the SDK's own behaviour for a dynamic resource that does not switch it off.
  const provider: pulumi.dynamic.ResourceProvider = { create: async () => ({ id: "x", outs: {} }) };
  class Plain extends pulumi.dynamic.Resource {}
  let plain: pulumi.Resource | undefined;
  const theirs = stacksMadeBy(() => (plain = new Plain(provider, "plain", { a: 1 }, {})));
  expect(theirs.length).toBeGreaterThan(0);
  expect(theirs.every(hasFrames)).toBe(true);
  await registered(record!);
  await registered(plain!);
});

test("the source position sent with the registration is the line that declared the resource", async () => {
  const line = Number(/:(\d+):\d+\)?$/.exec(new Error().stack!.split("\n")[1])![1]) + 1;
  const r = new DnsRecord("positioned", { zone: "example.com", type: "A", name: "pos", content: "192.0.2.2" });
  await registered(r);
  const pos = positions.get("positioned");
  // Not this package's constructors (before: ResellerResource's line in resources/program/register.ts).
  expect(pos?.getUri()).toMatch(/^file:\/\/.*test\/resources\/registration-stacks\.test\.ts$/);
  expect(pos?.getLine()).toBe(line);
});

test("with PULUMI_DEBUG_PROMISE_LEAKS set, the promises keep their stack text", async () => {
  process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
  let record: pulumi.Resource | undefined;
  const stacks = stacksMadeBy(() => (record = new DnsRecord("debugged", { zone: "example.com", type: "A", name: "dbg", content: "192.0.2.3" })));
  expect(stacks.length).toBeGreaterThanOrEqual(48);
  expect(stacks.every(hasFrames)).toBe(true);
  await registered(record!);
});

test("an error from the constructor has the caller's frame, and the limit is restored", () => {
  const limit = Error.stackTraceLimit;
  let thrown: unknown;
  try {
    new DnsRecord("bad", { zone: "example.com", type: "A", name: "x", content: "192.0.2.4" }, { account: "eu accounts" });
  } catch (e) {
    thrown = e;
  }
  expect(Error.stackTraceLimit).toBe(limit);
  expect(thrown).toBeInstanceOf(Error);
  const stack = (thrown as Error).stack ?? "";
  expect(stack).toContain("registration-stacks.test");
  // Captured again at the caller when the stacks were off: the constructors' own frames are not in it.
  if (quietSdk) expect(stack).not.toMatch(/new (DnsRecord|ResellerResource)/);
});
